"""reviewer/full's four conditions written for each peer the kernel is measured against, and
a hand-written function for the generated 10-dimension, panel-7 contract.

Every implementation takes a matrix (dimension id → the five reviewers' scores) and returns a
:data:`Result`: ``(action, deciding condition id or None on the R5 fallback, counts)`` where
``counts`` is the number of reviewers satisfying F1, F2, F3, F0 (contract order), or ``None``
for the hand-written function, which stops at the first condition that fires.

The rule engines get the same split: each condition's per-reviewer predicate is written in
the engine's language and compiled once (outside the timed region); per decision the engine
evaluates it on every reviewer's column, and plain Python counts reviewers, applies the
thresholds (R1) and the severity precedence with the accept fallback (R5, R6). Peer packages
are imported lazily; a missing one raises :class:`ImportError` from its builder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

Matrix: TypeAlias = Mapping[str, Sequence[str]]
Result: TypeAlias = tuple[str, str | None, tuple[int, ...] | None]
Decider: TypeAlias = Callable[[Matrix], Result]
Column: TypeAlias = dict[str, str]

DIMENSIONS = ("D1", "D2", "D3", "D4", "D5")
PANEL = 5
ACCEPT = "editorial_decision=accept"
MAJOR = "editorial_decision=major_revision"
REJECT_OR_MAJOR = "editorial_decision=reject_or_major_revision"
#: (condition id, reviewers needed, action) in precedence order: severity 90, 70, 60, 10. It
#: happens to be contract order too, so counts line up with the kernel's.
CONDITIONS: tuple[tuple[str, int, str], ...] = (
    ("F1", 1, REJECT_OR_MAJOR),  # any
    ("F2", 3, MAJOR),  # majority of 5
    ("F3", 1, MAJOR),  # any
    ("F0", 5, ACCEPT),  # all
)


def resolve(counts: tuple[int, ...]) -> Result:
    """Thresholds, precedence and the accept fallback, shared by every counting peer."""
    for (condition_id, need, action), n in zip(CONDITIONS, counts, strict=True):
        if n >= need:
            return action, condition_id, counts
    return ACCEPT, None, counts


def columns(matrix: Matrix) -> list[Column]:
    """Each reviewer's scores as ``{dimension id: score}``."""
    rows = [matrix[d] for d in DIMENSIONS]
    return [dict(zip(DIMENSIONS, column, strict=True)) for column in zip(*rows, strict=True)]


def counting(
    predicates: Sequence[Callable[[Any], object]],
    prepare: Callable[[Column], Any] | None = None,
) -> Decider:
    """A decider evaluating each predicate on every reviewer's (prepared) column."""
    preds = tuple(predicates)

    def decide(matrix: Matrix) -> Result:
        counts = [0] * len(preds)
        for column in columns(matrix):
            value = column if prepare is None else prepare(column)
            for i, holds in enumerate(preds):
                if holds(value):
                    counts[i] += 1
        return resolve(tuple(counts))

    return decide


# --- the practical floor ------------------------------------------------------------------


def hand_written(matrix: Matrix) -> Result:
    """What one would write by hand for reviewer/full alone, stopping at the first match."""
    d1, d2, d3 = matrix["D1"], matrix["D2"], matrix["D3"]
    if "block" in d1 or "block" in d2 or "block" in d3:
        return REJECT_OR_MAJOR, "F1", None
    worse = 0
    for a, b, c in zip(d1, d2, d3, strict=True):
        if (a != "pass") + (b != "pass") + (c != "pass") >= 2:
            worse += 1
    if worse >= 3:
        return MAJOR, "F2", None
    if "block" in matrix["D4"]:
        return MAJOR, "F3", None
    if d1.count("pass") == PANEL and d2.count("pass") == PANEL and d3.count("pass") == PANEL:
        return ACCEPT, "F0", None
    return ACCEPT, None, None


# --- the floor for the 10-dimension, panel-7 contract (contracts.ten_dimensions()) --------

TEN_DIMENSIONS = tuple(f"D{i}" for i in range(1, 11))
TEN_PANEL = 7
REJECT = "editorial_decision=reject"
MINOR = "editorial_decision=minor_revision"


def hand_written_ten(matrix: Matrix) -> Result:
    """What one would write by hand for ``contracts.ten_dimensions()`` (D1-D4 mandatory,
    D5-D7 high, D8-D10 normal; F1 any, F2 majority, F3 any, F4 majority, F0 all), stopping
    at the first condition that fires."""
    d1, d2, d3, d4 = matrix["D1"], matrix["D2"], matrix["D3"], matrix["D4"]
    if "block" in d1 or "block" in d2 or "block" in d3 or "block" in d4:
        return REJECT, "F1", None
    worse = 0
    for a, b, c, d in zip(d1, d2, d3, d4, strict=True):
        if (a != "pass") + (b != "pass") + (c != "pass") + (d != "pass") >= 2:
            worse += 1
    if worse >= 4:
        return MAJOR, "F2", None
    d8 = matrix["D8"]
    for a, b, c, w in zip(matrix["D5"], matrix["D6"], matrix["D7"], d8, strict=True):
        if w == "warn" and (a == "block" or b == "block" or c == "block"):
            return MAJOR, "F3", None
    worse = 0
    for a, b, c in zip(d8, matrix["D9"], matrix["D10"], strict=True):
        if (a != "pass") + (b != "pass") + (c != "pass") >= 2:
            worse += 1
    if worse >= 4:
        return MINOR, "F4", None
    # No mandatory 'block' is left (F1), so every mandatory 'pass' means no 'warn' either.
    if "warn" not in d1 and "warn" not in d2 and "warn" not in d3 and "warn" not in d4:
        return ACCEPT, "F0", None
    return ACCEPT, None, None


# --- the floor for the 13.2 template (13.2/reviewer/full) -----------------------------------

REJECT = "editorial_decision=reject"
NOT_ASSESSED = "not_assessed"
Matrix132: TypeAlias = Mapping[str, Mapping[str, str]]


def _majority(n: int) -> int:
    return 1 if n == 1 else 2 if n == 2 else n // 2 + 1


def hand_written_13_2(matrix: Matrix132) -> Result:
    """What one would write by hand for 13.2/reviewer/full alone (D1, D2, D6 one seat each,
    D3 three, D4 and D5 two), stopping at the first match. It trusts its input."""
    d1, d2, d6 = matrix["D1"]["methodology"], matrix["D2"]["domain"], matrix["D6"]["da"]
    r3, r4, r5 = matrix["D3"], matrix["D4"], matrix["D5"]
    d3 = [v for v in (r3["eic"], r3["methodology"], r3["domain"]) if v != NOT_ASSESSED]
    if "block:fatal" in (d1, d2, d6) or "block:fatal" in d3:
        return REJECT, "F1", None
    need3 = _majority(len(d3))
    if d1[0] == "b" or d2[0] == "b" or d6[0] == "b" or sum(v[0] == "b" for v in d3) >= need3:
        return MAJOR, "F2", None
    worse = (d1 != "pass") + (d2 != "pass") + (d6 != "pass")
    worse += sum(v != "pass" for v in d3) >= need3
    if worse >= 2:
        return MAJOR, "F3", None
    d4 = [v for v in (r4["perspective"], r4["eic"]) if v != NOT_ASSESSED]
    if "block" in d4:
        return MAJOR, "F4", None
    d5 = [v for v in (r5["eic"], r5["perspective"]) if v != NOT_ASSESSED]
    if (
        worse
        or sum(v != "pass" for v in d4) >= _majority(len(d4))
        or sum(v != "pass" for v in d5) >= _majority(len(d5))
    ):
        return "editorial_decision=minor_revision", "F5", None
    if d1 == d2 == d6 == "pass" and all(v == "pass" for v in d3):
        return ACCEPT, "F0", None
    return ACCEPT, None, None


# --- the naive interpreter ----------------------------------------------------------------

_RANK = {"pass": 0, "warn": 1, "block": 2}
_ATOM = re.compile(
    r"(?P<q>any|every)\s+(?P<p>mandatory|high|normal)(?:-priority)?\s+dimension\s+scores\s+"
    r"'(?P<s>pass|warn|block)'"
    r"|two\s+or\s+more\s+(?P<p2>mandatory|high|normal)(?:-priority)?\s+dimensions\s+score\s+"
    r"'(?P<s2>pass|warn|block)'\s+or\s+worse"
    r"|(?P<d>D\d+)\s+scores\s+'(?P<s3>pass|warn|block)'"
)


def _need(quantifier: str, n: int) -> int:
    return {"any": 1, "majority": n // 2 + 1, "all": n}[quantifier]


def _naive_holds(expression: str, dims: Sequence[Mapping[str, Any]], column: Column) -> bool:
    for atom in re.split(r"\s+AND\s+", expression.strip()):
        m = _ATOM.fullmatch(atom)
        if m is None:
            raise ValueError(f"unrecognised expression {atom!r}")
        if m["d"] is not None:
            ok = column[m["d"]] == m["s3"]
        elif m["q"] is not None:
            scores = [column[d["id"]] for d in dims if d["priority"] == m["p"]]
            hit = [s == m["s"] for s in scores]
            ok = any(hit) if m["q"] == "any" else all(hit)
        else:
            scores = [column[d["id"]] for d in dims if d["priority"] == m["p2"]]
            ok = sum(_RANK[s] >= _RANK[m["s2"]] for s in scores) >= 2
        if not ok:
            return False
    return True


def naive(contract: Mapping[str, Any]) -> Decider:
    """An interpreter of the contract JSON that re-reads every expression on every call."""

    def decide(matrix: Matrix) -> Result:
        dims = contract["acceptance_dimensions"]
        n = contract["panel_size"]
        conditions = contract["failure_conditions"]
        cols = [
            {d["id"]: matrix[d["id"]][j] for d in dims} for j in range(n)
        ]  # one dict per reviewer
        counts = tuple(
            sum(_naive_holds(c["expression"], dims, col) for col in cols) for c in conditions
        )
        fired = [
            k >= _need(c["cross_reviewer_quantifier"], n)
            for k, c in zip(counts, conditions, strict=True)
        ]
        order = sorted(range(len(conditions)), key=lambda i: (-conditions[i]["severity"], i))
        for i in order:
            if fired[i]:
                return conditions[i]["action"], conditions[i]["condition_id"], counts
        for c in conditions:
            if c["action"] == ACCEPT:
                return ACCEPT, None, counts
        raise ValueError("no decision")

    return decide


# --- Common Expression Language, Rust bindings ----------------------------------------------

CEL = (
    "D1 == 'block' || D2 == 'block' || D3 == 'block'",
    "(D1 != 'pass' ? 1 : 0) + (D2 != 'pass' ? 1 : 0) + (D3 != 'pass' ? 1 : 0) >= 2",
    "D4 == 'block'",
    "D1 == 'pass' && D2 == 'pass' && D3 == 'pass'",
)


def cel_rust() -> Decider:
    import cel

    programs = [cel.compile(source) for source in CEL]
    return counting([p.execute for p in programs])


def cel_rust_per_reviewer() -> Decider:
    """One CEL call per reviewer returning all four predicates as a list."""
    import cel

    program = cel.compile("[" + ", ".join(CEL) + "]")

    def decide(matrix: Matrix) -> Result:
        counts = [0, 0, 0, 0]
        for column in columns(matrix):
            for i, holds in enumerate(program.execute(column)):
                if holds:
                    counts[i] += 1
        return resolve(tuple(counts))

    return decide


def cel_rust_per_matrix() -> Decider:
    """One CEL call per matrix: the four reviewer counts computed inside CEL."""
    import cel

    indexed = [re.sub(r"\b(D[1-5])\b", r"\1[j]", source) for source in CEL]
    reviewers = "[" + ", ".join(str(j) for j in range(PANEL)) + "]"
    program = cel.compile(
        "[" + ", ".join(f"{reviewers}.filter(j, {s}).size()" for s in indexed) + "]"
    )

    def decide(matrix: Matrix) -> Result:
        return resolve(tuple(program.execute(dict(matrix))))

    return decide


# --- cel-python ------------------------------------------------------------------------------

#: cel-python's CompiledRunner (its faster runner) rejects the ternary sum, so F2 filters.
CELPY = (CEL[0], "[D1, D2, D3].filter(s, s != 'pass').size() >= 2", CEL[2], CEL[3])


def cel_python() -> Decider:
    import celpy
    from celpy.adapter import json_to_cel

    env = celpy.Environment(runner_class=celpy.CompiledRunner)
    programs = [env.program(env.compile(source)) for source in CELPY]
    return counting([p.evaluate for p in programs], prepare=json_to_cel)


# --- rule-engine -----------------------------------------------------------------------------

RULE_ENGINE = (
    "D1 == 'block' or D2 == 'block' or D3 == 'block'",
    "(D1 != 'pass' ? 1 : 0) + (D2 != 'pass' ? 1 : 0) + (D3 != 'pass' ? 1 : 0) >= 2",
    "D4 == 'block'",
    "D1 == 'pass' and D2 == 'pass' and D3 == 'pass'",
)


def rule_engine() -> Decider:
    import rule_engine as re_

    rules = [re_.Rule(source) for source in RULE_ENGINE]
    return counting([r.matches for r in rules])


# --- JsonLogic -------------------------------------------------------------------------------


def _var(d: str) -> dict[str, Any]:
    return {"var": d}


def _not_pass(d: str) -> dict[str, Any]:
    return {"if": [{"!=": [_var(d), "pass"]}, 1, 0]}


JSON_LOGIC: tuple[dict[str, Any], ...] = (
    {"or": [{"==": [_var(d), "block"]} for d in ("D1", "D2", "D3")]},
    {">=": [{"+": [_not_pass(d) for d in ("D1", "D2", "D3")]}, 2]},
    {"==": [_var("D4"), "block"]},
    {"and": [{"==": [_var(d), "pass"]} for d in ("D1", "D2", "D3")]},
)


def json_logic() -> Decider:
    from json_logic import jsonLogic

    def predicate(logic: dict[str, Any]) -> Callable[[Column], object]:
        return lambda column: jsonLogic(logic, column)

    return counting([predicate(logic) for logic in JSON_LOGIC])


#: (name, builder, note) for every peer that needs an optional package.
ENGINES: tuple[tuple[str, Callable[[], Decider], str], ...] = (
    ("CEL-Rust (common-expression-language)", cel_rust, "4 programs x 5 reviewers"),
    ("CEL-Rust, 1 call per reviewer", cel_rust_per_reviewer, "1 program → list of 4, x 5"),
    ("CEL-Rust, 1 call per matrix", cel_rust_per_matrix, "counts computed in CEL"),
    ("cel-python (CompiledRunner)", cel_python, "4 programs x 5 reviewers"),
    ("rule-engine", rule_engine, "4 rules x 5 reviewers"),
    ("JsonLogic (panzi-json-logic)", json_logic, "4 rules x 5 reviewers"),
)
