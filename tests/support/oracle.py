"""A naive reference interpreter for decisions, written independently of the kernel.

It re-reads each expression with regular expressions on every call and loops over reviewers;
it shares no code with ``kernel`` so that the differential tests compare two code paths.
"""

from __future__ import annotations

import re
from typing import Any

RANK = {"pass": 0, "warn": 1, "block": 2}
_P = r"(mandatory|high|normal)(?:-priority)?"
_FORMS = [
    ("any", re.compile(rf"any[ \t]+{_P}[ \t]+dimension[ \t]+scores[ \t]+'(block|warn|pass)'")),
    (
        "any",
        re.compile(
            r"any[ \t]+dimension[ \t]+with[ \t]+priority=(mandatory|high|normal)[ \t]+scores"
            r"[ \t]+'(block|warn|pass)'"
        ),
    ),
    (
        "two",
        re.compile(
            rf"two[ \t]+or[ \t]+more[ \t]+{_P}[ \t]+dimensions[ \t]+score[ \t]+"
            r"'(block|warn|pass)'[ \t]+or[ \t]+worse"
        ),
    ),
    (
        "two",
        re.compile(
            r"two[ \t]+or[ \t]+more[ \t]+dimensions[ \t]+with[ \t]+priority=(mandatory|high|normal)"
            r"[ \t]+score[ \t]+'(block|warn|pass)'[ \t]+or[ \t]+worse"
        ),
    ),
    ("every", re.compile(rf"every[ \t]+{_P}[ \t]+dimension[ \t]+scores[ \t]+'(block|warn|pass)'")),
    (
        "every",
        re.compile(
            r"every[ \t]+dimension[ \t]+with[ \t]+priority=(mandatory|high|normal)[ \t]+scores"
            r"[ \t]+'(block|warn|pass)'"
        ),
    ),
    ("dim", re.compile(r"(D[1-9][0-9]?)[ \t]+scores[ \t]+'(block|warn|pass)'")),
]


class Unrecognised(Exception):
    pass


def _atom_holds(atom: str, dims: list[dict[str, Any]], column: dict[str, str]) -> bool:
    for kind, pattern in _FORMS:
        m = pattern.fullmatch(atom)
        if m is None:
            continue
        key, score = m.group(1), m.group(2)
        if kind == "dim":
            if key not in column:
                raise Unrecognised(atom)
            return column[key] == score
        scoped = [column[d["id"]] for d in dims if d["priority"] == key]
        if kind == "any":
            return any(s == score for s in scoped)
        if kind == "every":
            return all(s == score for s in scoped)
        return len([s for s in scoped if RANK[s] >= RANK[score]]) >= 2
    raise Unrecognised(atom)


def predicate(expression: str, dims: list[dict[str, Any]], column: dict[str, str]) -> bool:
    body = expression.strip(" \t")
    parts = re.split(r"[ \t]+AND[ \t]+", body)
    return all(_atom_holds(p, dims, column) for p in parts)


def naive_decide(contract: dict[str, Any], matrix: dict[str, list[str]]) -> tuple[str, str | None]:
    """(action, deciding condition id or None on fallback)."""
    n = contract["panel_size"]
    dims = contract["acceptance_dimensions"]
    need = {"any": 1, "majority": n // 2 + 1, "all": n}
    fired = []
    for cond in contract["failure_conditions"]:
        held = 0
        for j in range(n):
            column = {d["id"]: matrix[d["id"]][j] for d in dims}
            if predicate(cond["expression"], dims, column):
                held += 1
        fired.append(held >= need[cond["cross_reviewer_quantifier"]])
    best = None
    for i, cond in enumerate(contract["failure_conditions"]):
        if fired[i] and (
            best is None or cond["severity"] > contract["failure_conditions"][best]["severity"]
        ):
            best = i
    if best is not None:
        c = contract["failure_conditions"][best]
        return c["action"], c["condition_id"]
    for cond in contract["failure_conditions"]:
        if cond["action"] == "editorial_decision=accept":
            return cond["action"], None
    raise LookupError("no decision")
