"""A reference reading of the dialect 13.2 decision (13.2 §C, §D), written apart from the
kernel: regular expressions over the contract's raw JSON, plain loops over the raw matrix.
It shares no code with ``kernel`` and is only as fast as it needs to be for the tests."""

from __future__ import annotations

import re
from typing import Any

_S = r"'(?P<s>block|warn|pass)'"
#: (regex, what it selects, how a seat satisfies it, how dimensions combine)
_FORMS = [
    (rf"any (?P<p>[a-z]+) dimension scores {_S}", "priority", "exact", "any"),
    (rf"any dimension with priority=(?P<p>[a-z]+) scores {_S}", "priority", "exact", "any"),
    (rf"any (?P<p>[a-z]+)-priority dimension scores {_S}", "priority", "exact", "any"),
    (rf"two or more (?P<p>[a-z]+) dimensions score {_S} or worse", "priority", "worse", "two"),
    (
        rf"two or more dimensions with priority=(?P<p>[a-z]+) score {_S} or worse",
        "priority",
        "worse",
        "two",
    ),
    (rf"every (?P<p>[a-z]+) dimension scores {_S}", "priority", "exact", "every"),
    (rf"(?P<d>D\d+) scores {_S}", "one", "exact", "any"),
    (r"any (?P<p>[a-z]+) dimension has a fatal block", "priority", "fatal", "any"),
    (r"(?P<d>D\d+) has a fatal block", "one", "fatal", "any"),
    (rf"any dimension scores {_S} or worse", "all", "worse", "any"),
    (rf"(?P<d>D\d+) scores {_S} or worse", "one", "worse", "any"),
    (rf"every dimension scores {_S}", "all", "exact", "every"),
]
_RANK = {"pass": 0, "warn": 1, "block": 2}
ROLE_SETS = {
    "reviewer_full": ["eic", "methodology", "domain", "perspective", "da"],
    "reviewer_methodology_focus": ["eic", "methodology"],
}


class Refused(Exception):
    """The reference refuses the matrix (the kernel must raise a MatrixError too)."""


def _atom(text: str) -> tuple[re.Match[str], str, str, str]:
    for pattern, select, seat, combine in _FORMS:
        m = re.fullmatch(pattern, text)
        if m:
            return m, select, seat, combine
    raise ValueError(f"not a 13.2 atom: {text!r}")


def _needed(quantifier: str, n: int) -> int:
    if quantifier == "any":
        return 1
    if quantifier == "all":
        return n
    return {1: 1, 2: 2}.get(n, n // 2 + 1)


def _satisfies(seat: str, value: str, score: str | None) -> bool:
    base = value.split(":")[0]
    if seat == "fatal":
        return value == "block:fatal"
    assert score is not None
    if seat == "exact":
        return base == score
    return _RANK[base] >= _RANK[score]


def assessed(contract: dict[str, Any], matrix: dict[str, Any]) -> dict[str, list[str]]:
    """Per dimension, the values of the eligible seats that assessed it; refuses what does
    not fit the contract."""
    roles = ROLE_SETS[contract["mode"]]
    dims = contract["acceptance_dimensions"]
    if set(matrix) != {d["id"] for d in dims}:
        raise Refused("dimensions")
    out = {}
    for d in dims:
        row = matrix[d["id"]]
        if not isinstance(row, dict) or not set(row) <= set(roles):
            raise Refused("roles")
        mandatory = d["priority"] == "mandatory"
        values = []
        for role in roles:
            eligible = role in d["eligible_roles"]
            if role not in row:
                if eligible:
                    raise Refused("missing seat")
                continue
            v = row[role]
            if type(v) is not str:
                raise Refused("type")
            if not eligible:
                if v != "not_assessed":
                    raise Refused("out of role")
                continue
            ok = ["pass", "warn", "not_assessed"] + (
                ["block:fatal", "block:repairable"] if mandatory else ["block"]
            )
            if v not in ok:
                raise Refused("value")
            if v != "not_assessed":
                values.append(v)
        if not values:
            raise Refused(f"unassessed {d['id']}")
        out[d["id"]] = values
    return out


def decide(contract: dict[str, Any], matrix: dict[str, Any]) -> dict[str, Any]:
    """``{"action", "condition_id", "fired", "verdicts"}`` as 13.2 §D reads them."""
    seats = assessed(contract, matrix)
    dims = contract["acceptance_dimensions"]
    fired = {}
    for cond in contract["failure_conditions"]:
        results = []
        for text in cond["expression"].split(" AND "):
            m, select, seat, combine = _atom(text)
            groups = m.groupdict()
            if select == "priority":
                chosen = [d["id"] for d in dims if d["priority"] == groups["p"]]
            elif select == "one":
                chosen = [groups["d"]]
            else:
                chosen = [d["id"] for d in dims]
            per = []
            for dim in chosen:
                vals = seats[dim]
                k = sum(_satisfies(seat, v, groups.get("s")) for v in vals)
                per.append(k >= _needed(cond["cross_reviewer_quantifier"], len(vals)))
            if combine == "any":
                results.append(any(per))
            elif combine == "every":
                results.append(all(per))
            else:
                results.append(sum(per) >= 2)
        fired[cond["condition_id"]] = all(results)
    winner = None
    for cond in contract["failure_conditions"]:
        if fired[cond["condition_id"]] and (
            winner is None or cond["severity"] > winner["severity"]
        ):
            winner = cond
    if winner is None:
        accept = next(
            c for c in contract["failure_conditions"] if c["action"] == "editorial_decision=accept"
        )
        action, condition_id = accept["action"], None
    else:
        action, condition_id = winner["action"], winner["condition_id"]
    verdicts = {}
    for dim, vals in seats.items():
        if "block:fatal" in vals:
            verdicts[dim] = "block(fatal)"
        else:
            verdicts[dim] = max((v.split(":")[0] for v in vals), key=_RANK.__getitem__)
    return {"action": action, "condition_id": condition_id, "fired": fired, "verdicts": verdicts}
