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


#: Every role of a 13.2 full panel, in seat order.
_ROLES_13_2 = ("eic", "methodology", "domain", "perspective", "da")


def _atoms_13_2(ids: Sequence[str], mandatory: Sequence[str], wide: bool) -> list[str]:
    """Every distinct 13.2 atom over dimensions ``ids`` (priority forms over all three); with
    ``wide``, only the forms that select many dimensions."""
    out = []
    for s in ("'pass'", "'warn'", "'block'"):
        for p in ("mandatory", "high", "normal"):
            out += [
                f"any {p} dimension scores {s}",
                f"two or more {p} dimensions score {s} or worse",
                f"every {p} dimension scores {s}",
            ]
        out += [f"any dimension scores {s} or worse", f"every dimension scores {s}"]
        if not wide:
            out += [f"{d} scores {s}" for d in ids] + [f"{d} scores {s} or worse" for d in ids]
    out.append("any mandatory dimension has a fatal block")
    if not wide:
        out += [f"{d} has a fatal block" for d in mandatory]
    return out


def v2_contract(
    priorities: Sequence[str],
    eligible: Sequence[Sequence[str]],
    expressions: Sequence[tuple[str, str, str]],
) -> dict[str, Any]:
    """A 13.2 ``reviewer_full`` contract: dimension ``D<i+1>`` has ``priorities[i]`` and
    ``eligible[i]``; each expression is ``(text, quantifier, action)``, after an ``F0`` accept
    condition (``every mandatory dimension scores 'pass'``, or of any dimension without one)."""
    c = shipped_template("13.2/reviewer/full")
    c["contract_id"] = "bench/generated/v2"
    c["acceptance_dimensions"] = [
        {
            "id": f"D{i + 1}",
            "name": f"dimension_{i + 1}",
            "description": f"Generated dimension {i + 1}.",
            "priority": p,
            "eligible_roles": list(e),
            "owner_role": e[0],
        }
        for i, (p, e) in enumerate(zip(priorities, eligible, strict=True))
    ]
    accept = (
        "every mandatory dimension scores 'pass'"
        if "mandatory" in priorities
        else "every dimension scores 'pass'"
    )
    c["failure_conditions"] = [
        {
            "condition_id": "F0",
            "severity": 5,
            "expression": accept,
            "cross_reviewer_quantifier": "all",
            "action": "editorial_decision=accept",
        },
        *(
            {
                "condition_id": f"F{i + 1}",
                "severity": 90 - i % 80,
                "expression": text,
                "cross_reviewer_quantifier": quantifier,
                "action": action,
            }
            for i, (text, quantifier, action) in enumerate(expressions)
        ),
    ]
    return c


def v2_many_atoms(
    dimensions: int, conditions: int, atoms: int = 232, wide: bool = True
) -> dict[str, Any]:
    """A 13.2 contract built to be slow to decide: ``dimensions`` dimensions, every one
    eligible for all five roles (the most rows per dimension), and ``conditions`` conditions of
    ``atoms`` ` AND `-joined atoms each, cycling through the distinct atoms (``wide``: those
    that select many dimensions; so atoms repeat once there are more than there are)."""
    priorities = [_PRIORITIES[i % len(_PRIORITIES)] for i in range(dimensions)]
    ids = [f"D{i + 1}" for i in range(dimensions)]
    mandatory = [d for d, p in zip(ids, priorities, strict=True) if p == "mandatory"]
    vocabulary = _atoms_13_2(ids, mandatory, wide)
    quantifiers = ("any", "majority", "all")
    expressions = []
    for k in range(conditions):
        chosen = [vocabulary[(k * 7 + j) % len(vocabulary)] for j in range(atoms)]
        text = " AND ".join(chosen)
        while len(text) > _EXPRESSION_LIMIT:  # the longest expression the vocabulary accepts
            text = text.rsplit(" AND ", 1)[0]
        expressions.append((text, quantifiers[k % 3], "editorial_decision=major_revision"))
    return v2_contract(priorities, [_ROLES_13_2] * dimensions, expressions)


def v2_conjunction(n: int) -> dict[str, Any]:
    """``n`` high-priority dimensions, each eligible for one role, and
    ``F1 = D1 scores 'block' AND … AND Dn scores 'block'``: the 13.2 analysis that was
    exponential in ``n``."""
    roles = [(_ROLES_13_2[i % 5],) for i in range(n)]
    text = " AND ".join(f"D{i + 1} scores 'block'" for i in range(n))
    return v2_contract(["high"] * n, roles, [(text, "any", "editorial_decision=reject")])


def v2_plain(dimensions: int = 99) -> dict[str, Any]:
    """13.2/reviewer/full's six conditions over ``dimensions`` dimensions (priorities and
    eligible roles cycling as the template's six)."""
    template = shipped_template("13.2/reviewer/full")
    six = template["acceptance_dimensions"]
    c = v2_contract(
        [six[i % 6]["priority"] for i in range(dimensions)],
        [six[i % 6]["eligible_roles"] for i in range(dimensions)],
        [],
    )
    c["failure_conditions"] = template["failure_conditions"]
    return c


def v2_one_mebibyte(limit: int = 1 << 20, wide: bool = False) -> dict[str, Any]:
    """A 13.2 contract of about 1 MiB: 99 dimensions, 100 conditions of atoms up to the
    expression limit (``wide``: only the atoms that select many dimensions, each repeated
    many times; else every distinct atom, mostly of one dimension)."""
    c = v2_many_atoms(99, 99, atoms=_EXPRESSION_LIMIT // 20, wide=wide)
    while len(json.dumps(c).encode("utf-8")) > limit:
        for condition in c["failure_conditions"][1:]:
            condition["expression"] = condition["expression"].rsplit(" AND ", 1)[0]
    return c


def v2_staggered(n: int) -> dict[str, Any]:
    """``2n`` high-priority dimensions, each eligible for one role, and ``n`` conditions
    ``Fk = Dk scores 'block' AND D(k+n) scores 'block'``: in contract order every condition is
    part-way at once (``2**n`` states), in the analyzer's order none is."""
    roles = [(_ROLES_13_2[i % 5],) for i in range(2 * n)]
    return v2_contract(
        ["high"] * (2 * n),
        roles,
        [
            (f"D{k} scores 'block' AND D{k + n} scores 'block'", "any", "editorial_decision=reject")
            for k in range(1, n + 1)
        ],
    )
