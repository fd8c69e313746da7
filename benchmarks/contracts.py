"""Generated contracts the benchmarks share: reviewer/full grown to more dimensions, reviewers
and conditions."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from kernel.contract.templates import shipped_template

#: Extra conditions for :func:`grown`: (severity, expression, quantifier, action).
_EXTRA = (
    (80, "D6 scores 'block' AND D5 scores 'block'", "majority", "editorial_decision=reject"),
    (
        50,
        "two or more normal-priority dimensions score 'warn' or worse",
        "majority",
        "editorial_decision=minor_revision",
    ),
    (
        40,
        "any normal-priority dimension scores 'block'",
        "any",
        "editorial_decision=minor_revision",
    ),
    (
        30,
        "two or more high-priority dimensions score 'warn' or worse",
        "any",
        "editorial_decision=minor_revision",
    ),
)
_PRIORITIES = ("mandatory", "mandatory", "mandatory", "high", "high", "normal", "normal", "normal")


def grown(dimensions: int, panel_size: int, extra: int) -> dict[str, Any]:
    """reviewer/full grown to ``dimensions`` dimensions (≥ 6), ``panel_size`` reviewers and
    ``4 + extra`` conditions."""
    c = shipped_template("reviewer/full")
    c["contract_id"] = "bench/generated/v1"
    c["panel_size"] = panel_size
    c["acceptance_dimensions"] = [
        {
            "id": f"D{i + 1}",
            "name": f"dimension_{i + 1}",
            "description": f"Generated dimension {i + 1}.",
            "priority": _PRIORITIES[i % len(_PRIORITIES)],
        }
        for i in range(dimensions)
    ]
    for i, (severity, expression, quantifier, action) in enumerate(_EXTRA[:extra]):
        c["failure_conditions"].append(
            {
                "condition_id": f"F{i + 4}",
                "severity": severity,
                "expression": expression,
                "cross_reviewer_quantifier": quantifier,
                "action": action,
            }
        )
    return c


#: (expression, action) of the five conditions of :func:`ten_dimensions`, most severe first.
CONDITIONS = (
    ("any mandatory dimension scores 'block'", "reject"),
    ("two or more mandatory dimensions score 'warn' or worse", "major_revision"),
    ("any high-priority dimension scores 'block' AND D8 scores 'warn'", "major_revision"),
    ("two or more normal-priority dimensions score 'warn' or worse", "minor_revision"),
    ("every mandatory dimension scores 'pass'", "accept"),
)
#: The same shape with every dimension named by id: no two dimensions are interchangeable, so
#: all 3**10 reviewer columns are enumerated (the worst case for 10 dimensions).
NAMED_CONDITIONS = (
    ("D1 scores 'block' AND D2 scores 'block'", "reject"),
    ("D2 scores 'warn' AND D3 scores 'warn'", "major_revision"),
    ("D4 scores 'block' AND D5 scores 'warn'", "major_revision"),
    ("D6 scores 'warn' AND D7 scores 'warn' AND D8 scores 'block'", "minor_revision"),
    ("D9 scores 'pass' AND D10 scores 'pass'", "accept"),
)
#: Quantifier mixes; "all" everywhere is the largest state space ((7 + 1) ** 5 count vectors).
MIXES = {
    "mixed": ("any", "majority", "any", "majority", "all"),
    "all": ("all",) * 5,
    "majority": ("majority",) * 5,
}


def ten_dimensions(quantifiers: Sequence[str] = MIXES["mixed"], named: bool = False) -> Any:
    """10 dimensions (D1-D4 mandatory, D5-D7 high, D8-D10 normal), panel 7, 5 conditions."""
    data = shipped_template("reviewer/full")
    data["contract_id"] = "bench/ten_dimensions/v1"
    priorities = ["mandatory"] * 4 + ["high"] * 3 + ["normal"] * 3
    data["acceptance_dimensions"] = [
        {"id": f"D{i + 1}", "name": f"dimension_{i + 1}", "description": "d", "priority": p}
        for i, p in enumerate(priorities)
    ]
    data["panel_size"] = 7
    data["failure_conditions"] = [
        {
            "condition_id": "F0" if action == "accept" else f"F{i + 1}",  # R18
            "severity": 90 - 10 * i,
            "expression": expression,
            "cross_reviewer_quantifier": q,
            "action": f"editorial_decision={action}",
        }
        for i, ((expression, action), q) in enumerate(
            zip(NAMED_CONDITIONS if named else CONDITIONS, quantifiers, strict=True)
        )
    ]
    return data


#: The longest expression the vocabulary accepts (kernel.expression.parser.MAX_EXPRESSION_CHARS).
_EXPRESSION_LIMIT = 10_000


def one_mebibyte(atom: str = "D1 scores 'pass'", limit: int = 1 << 20) -> dict[str, Any]:
    """A valid contract of about ``limit`` bytes (1 MiB) built to be slow: 99 dimensions, a
    panel of 9 and 100 conditions, each ``atom`` repeated up to the expression limit."""
    c = shipped_template("reviewer/full")
    c["contract_id"] = "bench/one_mebibyte/v1"
    c["mode"] = "reviewer_guided"
    c["panel_size"] = 9
    c["acceptance_dimensions"] = [
        {
            "id": f"D{i + 1}",
            "name": f"dimension_{i + 1}",
            "description": f"Generated dimension {i + 1}.",
            "priority": _PRIORITIES[i % len(_PRIORITIES)],
        }
        for i in range(99)
    ]
    repeats = (_EXPRESSION_LIMIT + len(" AND ")) // (len(atom) + len(" AND "))
    expression = " AND ".join([atom] * repeats)
    quantifiers = ("any", "majority", "all")
    actions = (
        "editorial_decision=reject",
        "editorial_decision=major_revision",
        "editorial_decision=minor_revision",
    )
    c["failure_conditions"] = [
        {
            "condition_id": f"F{i}",
            "severity": 10 if i == 0 else 11 + i % 89,
            "expression": expression,
            "cross_reviewer_quantifier": quantifiers[i % 3],
            "action": "editorial_decision=accept" if i == 0 else actions[i % 3],
        }
        for i in range(100)
    ]
    while len(json.dumps(c).encode("utf-8")) > limit:  # trim to fit the reader's limit
        for condition in c["failure_conditions"]:
            condition["expression"] = condition["expression"].rsplit(" AND ", 1)[0]
    return c
