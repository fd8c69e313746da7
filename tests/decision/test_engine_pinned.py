"""The generated fast path is really taken, agrees with the slow path, and declines (returns
``None``) for anything it does not recognise; the last step from counts to a decision is pinned
at its thresholds."""

from __future__ import annotations

import copy
from collections import OrderedDict, defaultdict
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.strategies import contracts, matrices

from kernel import ContractError, MatrixError, decide, load_contract
from kernel.decision.decision import _decide_slowly
from kernel.decision.engine import MAX_PANEL, engine_for
from kernel.decision.value import Decision, decide_counts

FULL_IDS = ("D1", "D2", "D3", "D4", "D5")


@settings(max_examples=40)
@given(st.data(), contracts(max_dimensions=8, max_conditions=5, with_accept=True))
def test_well_formed_matrices_take_the_fast_path(data: st.DataObject, raw: dict[str, Any]) -> None:
    contract = load_contract(raw)
    matrix = data.draw(matrices(raw))
    before = copy.deepcopy(matrix)
    lookup = engine_for(contract).lookup
    assert lookup is not None  # every panel the strategy draws is within MAX_PANEL
    fast = lookup(matrix)
    assert isinstance(fast, Decision)
    assert fast == _decide_slowly(contract, matrix) == decide(contract, matrix)
    assert matrix == before
    rows_as_tuples = {d: tuple(row) for d, row in matrix.items()}
    assert lookup(rows_as_tuples) == fast


@settings(max_examples=20)  # each example builds an engine for a panel of 7-9
@given(
    st.data(),
    contracts(
        max_dimensions=4, max_conditions=6, panel_sizes=st.integers(7, MAX_PANEL), with_accept=True
    ),
)
def test_large_count_spaces_resolve_at_run_time(data: st.DataObject, raw: dict[str, Any]) -> None:
    contract = load_contract(raw)
    engine = engine_for(contract)
    matrix = data.draw(matrices(raw))
    assert engine.lookup is not None
    assert engine.lookup(matrix) == _decide_slowly(contract, matrix)


def test_a_contract_without_the_accept_grade_f0_is_refused_at_load() -> None:
    """R18: the fallback R5 needs is required by the schema, so no loaded contract lacks it."""
    raw = load_contract("reviewer/full").to_dict()
    for condition in raw["failure_conditions"]:
        if condition["action"] == "editorial_decision=accept":
            condition["action"] = "editorial_decision=minor_revision"
    with pytest.raises(ContractError) as info:
        load_contract(raw)
    assert info.value.errors == [
        "$.failure_conditions: no item is the accept-grade F0: condition_id F0 with action "
        "editorial_decision=accept (R18)"
    ]


def test_panels_over_the_limit_have_no_fast_path() -> None:
    raw = load_contract("reviewer/full").to_dict()
    raw["panel_size"] = MAX_PANEL + 1
    engine = engine_for(load_contract(raw))
    assert (engine.lookup, engine.source) == (None, "")
    raw["panel_size"] = MAX_PANEL
    assert engine_for(load_contract(raw)).lookup is not None


def _full(**rows: Any) -> dict[str, Any]:
    matrix: dict[str, Any] = {d: ["pass"] * 5 for d in FULL_IDS}
    matrix.update(rows)
    return matrix


@pytest.mark.parametrize(
    "matrix",
    [
        OrderedDict(_full()),
        MappingProxyType(_full()),
        defaultdict(lambda: ["pass"] * 5, {d: ["pass"] * 5 for d in FULL_IDS[:4]}),
        {d: ["pass"] * 5 for d in FULL_IDS[:4]},
        {**_full(), "D6": ["pass"] * 5},
        {**{d: ["pass"] * 5 for d in FULL_IDS[:4]}, "D9": ["pass"] * 5},
        _full(D2="passpasspasspasspass"),
        _full(D2={"pass"}),
        _full(D2=None),
        _full(D2=["pass"] * 4),
        _full(D2=["pass"] * 6),
        _full(D5=["pass", "pass", "fail", "pass", "pass"]),
        _full(D5=["pass", "pass", ["pass"], "pass", "pass"]),
        _full(D1=["PASS"] * 5),
        [["pass"] * 5] * 5,
        None,
    ],
)
def test_the_fast_path_reads_as_the_slow_path_reads(matrix: Any) -> None:
    contract = load_contract("reviewer/full")
    lookup = engine_for(contract).lookup
    assert lookup is not None
    if isinstance(matrix, OrderedDict | MappingProxyType):
        assert lookup(matrix) == decide(contract, matrix) == decide(contract, dict(matrix))
    else:
        with pytest.raises(MatrixError) as fast:
            lookup(matrix)
        with pytest.raises(MatrixError) as slow:
            _decide_slowly(contract, matrix)
        assert fast.value.message == slow.value.message
    if isinstance(matrix, defaultdict):
        assert "D5" not in matrix  # never filled in by a look-up


# --- from counts to a decision ------------------------------------------------------------


@given(contracts(max_dimensions=3, max_conditions=5, with_accept=True), st.data())
def test_decide_counts_fires_exactly_at_the_threshold(
    raw: dict[str, Any], data: st.DataObject
) -> None:
    contract = load_contract(raw)
    n = contract.panel_size
    counts = [data.draw(st.integers(0, n)) for _ in contract.conditions]
    decision = decide_counts(contract, counts)
    ids = [c.condition_id for c in contract.conditions]
    fired = [k >= c.threshold for k, c in zip(counts, contract.conditions, strict=True)]
    assert dict(decision.fired) == dict(zip(ids, fired, strict=True))
    assert dict(decision.counts) == dict(zip(ids, counts, strict=True))
    assert dict(decision.thresholds) == {c.condition_id: c.threshold for c in contract.conditions}
    winners = [i for i in contract.precedence if fired[i]]
    if winners:
        first = contract.conditions[winners[0]]
        assert (decision.action, decision.condition_id, decision.fallback) == (
            first.action,
            first.condition_id,
            False,
        )
        severest = max(c.severity for c, f in zip(contract.conditions, fired, strict=True) if f)
        assert first.severity == severest
    else:
        assert contract.fallback is not None
        assert (decision.action, decision.condition_id, decision.fallback) == (
            contract.conditions[contract.fallback].action,
            None,
            True,
        )
        assert decision.action == "editorial_decision=accept"


def test_decide_counts_boundaries_on_the_full_template() -> None:
    contract = load_contract("reviewer/full")
    for i, condition in enumerate(contract.conditions):
        counts = [0] * len(contract.conditions)
        counts[i] = condition.threshold
        assert decide_counts(contract, counts).fired[condition.condition_id] is True
        counts[i] = condition.threshold - 1
        assert decide_counts(contract, counts).fired[condition.condition_id] is False


def test_decision_to_dict_is_exact() -> None:
    contract = load_contract("reviewer/full")
    decision = decide(contract, {d: ["pass"] * 5 for d in FULL_IDS})
    body = decision.to_dict()
    assert body == {
        "action": decision.action,
        "condition_id": decision.condition_id,
        "fallback": decision.fallback,
        "fired": dict(decision.fired),
        "counts": dict(decision.counts),
        "thresholds": dict(decision.thresholds),
    }
    assert all(type(body[k]) is dict for k in ("fired", "counts", "thresholds"))


def test_rows_of_different_lengths_are_listed() -> None:
    with pytest.raises(MatrixError) as info:
        decide(load_contract("reviewer/full"), _full(D2=["pass"] * 4, D4=["pass"] * 6))
    assert info.value.message == (
        "matrix rows have different lengths (D1 has 5, D2 has 4, D3 has 5, D4 has 6, D5 has 5); "
        "expected 5 each"
    )


def _wide(panel: int, conditions: int) -> Any:
    raw = load_contract("reviewer/full").to_dict()
    raw["panel_size"] = panel
    raw["mode"] = "reviewer_methodology_focus"
    atoms = [f"D{1 + i % 5} scores '{('warn', 'block')[i % 2]}'" for i in range(conditions - 1)]
    raw["failure_conditions"] = [
        {
            "condition_id": f"F{i + 1}",
            "severity": 90 - i,
            "expression": atom,
            "cross_reviewer_quantifier": ("any", "majority", "all")[i % 3],
            "action": "editorial_decision=major_revision",
        }
        for i, atom in enumerate(atoms)
    ] + [
        {
            "condition_id": "F0",
            "severity": 5,
            "expression": "every mandatory dimension scores 'pass'",
            "cross_reviewer_quantifier": "all",
            "action": "editorial_decision=accept",
        }
    ]
    return raw


@pytest.mark.parametrize(
    ("panel", "conditions"),
    [
        (3, 8),  # 4**8 decisions fit the dense table, 5**8 would not
        (3, 9),  # 4**9 do not: a dict of the decisions met
        (2, 10),  # 3**10 fit, 4**10 would not
    ],
)
@settings(max_examples=15)
@given(data=st.data())
def test_the_fast_path_at_the_dense_table_boundary(
    panel: int, conditions: int, data: st.DataObject
) -> None:
    raw = _wide(panel, conditions)
    contract = load_contract(raw)
    assert len(contract.conditions) == conditions
    lookup = engine_for(contract).lookup
    assert lookup is not None
    matrix = data.draw(matrices(raw))
    assert lookup(matrix) == _decide_slowly(contract, matrix)
    assert lookup(matrix) == _decide_slowly(contract, matrix)  # the kept decision


def test_a_contract_decided_before_goes_straight_to_its_lookup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kernel.decision import decision as module

    contract = load_contract("reviewer/full")
    matrix = dict.fromkeys(FULL_IDS, ["pass"] * 5)
    expected = decide(contract, matrix)
    decide(contract, matrix)  # the second decision registers the generated lookup

    def slow(contract: object, matrix: object) -> Decision:
        raise AssertionError("took the slow resolution")

    monkeypatch.setattr(module, "_decide", slow)
    assert decide(contract, matrix) == expected
    # A malformed matrix is refused by the lookup's own reading, with the slow path's message.
    with pytest.raises(MatrixError, match="rows have different lengths"):
        decide(contract, {**matrix, "D1": ["pass"] * 4})


def test_dropping_a_contract_decided_once_forgets_it_quietly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc
    import sys

    from kernel.decision import engine

    problems: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", problems.append)
    for times in (1, 2):  # once: only seen; twice: an engine and a lookup too
        contract = load_contract(load_contract("reviewer/full").to_dict())
        key = id(contract)
        for _ in range(times):
            decide(contract, dict.fromkeys(FULL_IDS, ["pass"] * 5))
        assert key in engine._SEEN
        assert (key in engine._ENGINES) == (times == 2)
        del contract
        gc.collect()
        assert key not in engine._SEEN and key not in engine._ENGINES
        assert key not in engine._LOOKUPS
    assert problems == []


def test_the_generated_code_is_named_by_contract_and_a_48_bit_source_hash() -> None:
    import linecache
    import re

    for panel in range(1, MAX_PANEL + 1):
        raw = load_contract("reviewer/full").to_dict()
        raw["panel_size"] = panel
        raw["mode"] = "reviewer_full" if panel == 5 else "reviewer_methodology_focus"
        contract = load_contract(raw)
        engine = engine_for(contract)
        assert engine.lookup is not None
        filename = engine.lookup.__code__.co_filename
        assert re.fullmatch(rf"<kernel lookup {contract.contract_id} [0-9a-f]{{12}}>", filename)
        assert "".join(linecache.getlines(filename)) == engine.source
