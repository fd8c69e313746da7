"""The generated fast path: which inputs take it, that it agrees with the slow path, that its
source is visible to tracebacks, and that it stays flat for the largest contracts."""

from __future__ import annotations

import json
import linecache
from collections import defaultdict
from collections.abc import Iterator, Mapping
from functools import partial
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support.oracle import naive_decide
from support.strategies import contracts, matrices

from kernel import Decision, MatrixError, decide, decide_many, load_contract, shipped_template
from kernel.decision import engine
from kernel.decision.decision import _decide_slowly
from kernel.decision.engine import MAX_PANEL, engine_for, lookup_of
from kernel.expression.ast import Expression
from kernel.expression.parser import parse_expression

FULL = load_contract("reviewer/full")
FULL_IDS = FULL.dimension_ids


def _miss(matrix: object) -> None:
    return None


def full_matrix(**rows: Any) -> dict[str, Any]:
    matrix: dict[str, Any] = {d: ["pass"] * 5 for d in FULL_IDS}
    matrix.update(rows)
    return matrix


@given(st.data(), contracts(with_accept=True, panel_sizes=st.integers(1, MAX_PANEL)))
def test_well_formed_matrices_take_the_fast_path(data: st.DataObject, raw: dict[str, Any]) -> None:
    contract = load_contract(raw)
    matrix = data.draw(matrices(raw))
    lookup = engine_for(contract).lookup
    assert lookup is not None
    found = lookup(matrix)
    assert isinstance(found, Decision)
    assert found == _decide_slowly(contract, matrix)
    as_tuples = {d: tuple(row) for d, row in matrix.items()}
    assert lookup(as_tuples) == found
    # decide() dispatches to that same function by the contract's identity.
    assert lookup_of(id(contract), _miss) is lookup
    assert decide(contract, matrix) is found


def test_the_fast_path_is_generated_on_the_second_decision() -> None:
    contract = load_contract("reviewer/methodology_focus")
    matrix = {d.id: ["pass", "warn"] for d in contract.dimensions}
    first = decide(contract, matrix)
    assert lookup_of(id(contract), _miss) is _miss  # a one-off decision generates no code
    second = decide(contract, matrix)
    assert second == first
    assert lookup_of(id(contract), _miss) is engine_for(contract).lookup
    assert decide(contract, matrix) is second  # the same Decision, kept by count vector


def test_a_mapping_contract_is_not_registered() -> None:
    raw = shipped_template("reviewer/full")
    decision = decide(raw, full_matrix())
    assert decision == decide(FULL, full_matrix())
    assert lookup_of(id(raw), _miss) is _miss


class Inventing(dict[str, Any]):
    """A dict subclass that makes up any row it is asked for, and counts the asking."""

    asked = 0

    def __getitem__(self, key: str) -> Any:
        self.asked += 1
        return super().get(key, ["pass"] * 5)


def _slow_error(matrix: object) -> str:
    with pytest.raises(MatrixError) as info:
        _decide_slowly(FULL, matrix)
    return info.value.message


@pytest.mark.parametrize("missing", FULL_IDS)
def test_a_defaultdict_matrix_is_refused_like_the_slow_path_and_not_mutated(missing: str) -> None:
    rows = {d: ["pass"] * 5 for d in FULL_IDS if d != missing}
    matrix: defaultdict[str, list[str]] = defaultdict(lambda: ["pass"] * 5, rows)
    lookup = engine_for(FULL).lookup
    assert lookup is not None
    with pytest.raises(MatrixError) as fast:
        lookup(matrix)
    with pytest.raises(MatrixError) as info:
        decide(FULL, matrix)
    assert info.value.message == fast.value.message
    assert info.value.message == _slow_error(defaultdict(lambda: ["pass"] * 5, rows))
    assert info.value.message == f"matrix: missing scores for dimension(s) {missing}"
    assert dict(matrix) == rows


def test_other_mappings_are_read_only_through_the_keys_they_list() -> None:
    inventing = Inventing({d: ["pass"] * 5 for d in FULL_IDS[:4]})
    lookup = engine_for(FULL).lookup
    assert lookup is not None
    for path in (lookup, partial(decide, FULL), partial(_decide_slowly, FULL)):
        inventing.asked = 0
        with pytest.raises(MatrixError, match="missing scores for dimension"):
            path(inventing)
        assert inventing.asked == 4  # each listed key once, never D5

    class View(Mapping[str, list[str]]):
        def __init__(self, rows: dict[str, list[str]]) -> None:
            self.rows = rows

        def __getitem__(self, key: str) -> list[str]:
            return self.rows[key]

        def __iter__(self) -> Iterator[str]:
            return iter(self.rows)

        def __len__(self) -> int:
            return len(self.rows)

    view = View(full_matrix())
    assert lookup(view) == decide(FULL, view) == decide(FULL, full_matrix())


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"pass", "warn", "block"}, "expected a list of 5 scores, got set"),
        (dict.fromkeys(["pass", "warn", "block", "x", "y"]), "list of 5 scores, got dict"),
        ("passs", "expected a list of 5 scores, got str"),
        (["pass"] * 4, "rows have different lengths"),
        (["pass"] * 6, "rows have different lengths"),
        (["pass", "pass", "pass", "pass", "Pass"], "[4]: 'Pass' is not a score"),
        (("pass", "pass", None, "pass", "pass"), "[2]: None is not a score"),
    ],
)
def test_rows_the_fast_path_does_not_recognise(row: Any, message: str) -> None:
    lookup = engine_for(FULL).lookup
    assert lookup is not None
    matrix = full_matrix(D5=row)
    with pytest.raises(MatrixError) as fast:
        lookup(matrix)
    with pytest.raises(MatrixError) as info:
        decide(FULL, matrix)
    assert message in info.value.message
    assert fast.value.message == info.value.message


@pytest.mark.parametrize("kind", ["iterator", "generator"])
def test_an_iterator_row_is_refused_without_being_consumed(kind: str) -> None:
    scores = ["pass"] * 5
    row = iter(scores) if kind == "iterator" else (s for s in scores)
    matrix = full_matrix(D5=row)
    with pytest.raises(MatrixError, match=r"matrix\['D5'\]: expected a list of 5 scores"):
        decide(FULL, matrix)
    assert list(row) == scores


def test_generated_source_is_registered_with_linecache() -> None:
    engine = engine_for(FULL)
    assert engine.lookup is not None
    code = engine.lookup.__code__
    lines = engine.source.splitlines(True)
    assert linecache.getlines(code.co_filename) == lines
    assert (
        linecache.getline(code.co_filename, code.co_firstlineno) == lines[code.co_firstlineno - 1]
    )
    assert linecache.getline(code.co_filename, code.co_firstlineno).strip() == (
        "def lookup(matrix):"
    )


def _wide_contract(dimensions: int, expression: str, panel: int = 5) -> dict[str, Any]:
    raw = shipped_template("reviewer/full")
    raw["panel_size"] = panel
    raw["acceptance_dimensions"] = [
        {"id": f"D{i}", "name": f"d{i}", "description": "d", "priority": "mandatory"}
        for i in range(1, dimensions + 1)
    ]
    raw["measurement_procedure"]["paraphrase_minimum_dimensions"] = 1
    raw["failure_conditions"] = [
        {
            "condition_id": "F1",
            "severity": 90,
            "expression": expression,
            "cross_reviewer_quantifier": "majority",
            "action": "editorial_decision=major_revision",
        },
        {
            "condition_id": "F0",
            "severity": 10,
            "expression": "every mandatory dimension scores 'pass'",
            "cross_reviewer_quantifier": "all",
            "action": "editorial_decision=accept",
        },
    ]
    return raw


TWO_OR_MORE = "two or more mandatory dimensions score 'warn' or worse"


@given(
    dimensions=st.integers(78, 99),
    expression=st.sampled_from(
        [
            TWO_OR_MORE,
            "any mandatory dimension scores 'block'",
            "every mandatory dimension scores 'warn'",
            f"{TWO_OR_MORE} AND any mandatory dimension scores 'block'",
        ]
    ),
    warned=st.integers(0, 99),
)
@example(dimensions=78, expression=TWO_OR_MORE, warned=2)  # RecursionError regression
@example(dimensions=99, expression=TWO_OR_MORE, warned=99)
def test_wide_contracts_compile_flat(dimensions: int, expression: str, warned: int) -> None:
    raw = _wide_contract(dimensions, expression)
    contract = load_contract(raw)
    warned = min(warned, dimensions)
    matrix = {
        d.id: ["warn"] * 5 if d.position < warned else ["pass"] * 5 for d in contract.dimensions
    }
    lookup = engine_for(contract).lookup
    assert lookup is not None
    found = lookup(matrix)
    assert found is not None
    assert (found.action, found.condition_id) == naive_decide(raw, matrix)
    assert found == _decide_slowly(contract, matrix)


def test_many_conditions_and_long_conjunctions_compile_flat() -> None:
    raw = _wide_contract(99, TWO_OR_MORE)
    atoms = " AND ".join(f"D{i} scores 'warn'" for i in range(1, 100))
    raw["failure_conditions"] = [
        {
            "condition_id": f"F{i}",
            "severity": i,
            "expression": atoms if i % 2 else TWO_OR_MORE,
            "cross_reviewer_quantifier": "any",
            "action": "editorial_decision=accept" if i == 0 else "editorial_decision=reject",
        }
        for i in range(100)
    ]
    contract = load_contract(raw)
    lookup = engine_for(contract).lookup
    assert lookup is not None
    for score in ("pass", "warn", "block"):
        matrix = {d.id: [score] * 5 for d in contract.dimensions}
        found = lookup(matrix)
        assert found is not None and found == _decide_slowly(contract, matrix)


# --- bounded compile --------------------------------------------------------------------


@given(
    contracts(max_dimensions=4, max_conditions=5, panel_sizes=st.integers(1, 6)).flatmap(
        lambda raw: st.tuples(st.just(raw), st.lists(matrices(raw), min_size=1, max_size=4))
    ),
    st.integers(1, 4),
)
def test_past_the_source_cap_the_interpreter_decides_the_same(
    case: tuple[dict[str, Any], list[dict[str, list[str]]]],
    repeat: int,
) -> None:
    raw, ms = case
    # Each expression written `repeat` times over: merged, it must decide as written once.
    for condition in raw["failure_conditions"]:
        condition["expression"] = " AND ".join([condition["expression"].strip(" \t")] * repeat)
    generated = load_contract(raw)
    assert engine_for(generated).lookup is not None
    interpreted = load_contract(raw)
    cap = engine.MAX_SOURCE
    engine.MAX_SOURCE = 0  # type: ignore[misc]
    try:
        assert engine_for(interpreted).lookup is None
    finally:
        engine.MAX_SOURCE = cap  # type: ignore[misc]
    for m in ms:
        want = _decide_slowly(generated, m)
        assert decide(generated, m) == decide(generated, m) == want
        assert decide(interpreted, m) == decide(interpreted, m) == want
    assert decide_many(generated, ms) == decide_many(interpreted, ms)


def test_identical_atoms_and_conjunctions_are_written_once() -> None:
    raw = shipped_template("reviewer/full")
    atom = "two or more mandatory dimensions score 'warn' or worse"
    for condition in raw["failure_conditions"]:
        condition["expression"] = " AND ".join([atom] * 50)
    source = engine_for(load_contract(raw)).source
    once = shipped_template("reviewer/full")
    for condition in once["failure_conditions"]:
        condition["expression"] = atom
    assert source == engine_for(load_contract(once)).source
    assert source.count("m0_3 & m1_3") == 1  # the atom's pairs, once for all four conditions


def test_the_one_mebibyte_contract_is_parsed_once_per_text_and_generates_little_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Regression: 100 copies of a 10,000-character expression were parsed 100 times (3 s) and
    # generated code for every one of its 47,600 atoms (47 s to compile). Speed itself is
    # measured in benchmarks/bench_big_contract.py.
    from support.bench import contracts as bench_contracts

    from kernel.contract import validator

    raw = bench_contracts.one_mebibyte()
    assert 1_000_000 < len(json.dumps(raw)) <= 1 << 20
    parsed: list[str] = []

    def counting(text: str, *, dialect: str = "13") -> Expression:
        parsed.append(text)
        return parse_expression(text, dialect=dialect)

    monkeypatch.setattr(validator, "parse_expression", counting)
    contract = load_contract(raw)
    assert len(parsed) == 1 and len(contract.conditions) == 100
    source = engine_for(contract).source
    assert 0 < len(source) < 5_000
    matrix = {d: ["pass"] * 9 for d in contract.dimension_ids}
    assert decide(contract, matrix) == _decide_slowly(contract, matrix)
