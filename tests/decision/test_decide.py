"""decide(): exhaustive checks, a differential oracle, invariances and every error path."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.oracle import naive_decide
from support.strategies import contracts, matrices

from kernel import (
    ContractError,
    ExpressionUnrecognised,
    KernelError,
    MatrixError,
    PanelShrunk,
    decide,
    load_contract,
    shipped_template,
    strict_majority,
    threshold,
)
from kernel.contract.quantifiers import ACCEPT
from kernel.decision.decision import _decide_slowly
from kernel.decision.engine import MAX_PANEL, engine_for
from kernel.expression.ast import SCORES

FULL_IDS = ("D1", "D2", "D3", "D4", "D5")


def test_all_81_methodology_focus_matrices() -> None:
    contract = load_contract("reviewer/methodology_focus")
    seen = set()
    for d1a, d1b, d2a, d2b in itertools.product(SCORES, repeat=4):
        matrix = {"D1": [d1a, d1b], "D2": [d2a, d2b]}
        decision = decide(contract, matrix)
        d1 = {d1a, d1b}
        if "block" in d1:
            expected = ("F1", "editorial_decision=reject_or_major_revision")
        elif "warn" in d1:
            expected = ("F2", "editorial_decision=major_revision")
        else:
            expected = ("F0", "editorial_decision=accept")
        assert (decision.condition_id, decision.action) == expected, matrix
        assert decision.fallback is False
        assert decision.fired["F1"] == ("block" in d1)
        assert decision.fired["F2"] == ("warn" in d1)
        assert decision.fired["F0"] == (d1 == {"pass"})
        assert decision.counts["F1"] == [d1a, d1b].count("block")
        seen.add(tuple(matrix["D1"] + matrix["D2"]))
    assert len(seen) == 81


@pytest.mark.parametrize("n", range(1, 10))
def test_threshold_table(n: int) -> None:
    assert threshold("any", n) == 1
    assert threshold("all", n) == n
    assert threshold("majority", n) == {1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4, 7: 4, 8: 5, 9: 5}[n]
    assert threshold("majority", n) == strict_majority(n)
    assert 2 * threshold("majority", n) > n >= 2 * (threshold("majority", n) - 1)


@pytest.mark.parametrize(
    ("q", "n"), [("plurality", 5), ("any", 0), ("all", True), ("majority", 2.0)]
)
def test_threshold_rejects_bad_input(q: str, n: Any) -> None:
    with pytest.raises(KernelError):
        threshold(q, n)


def test_r5_fallback_example() -> None:
    matrix = {d: ["pass"] * 5 for d in FULL_IDS}
    matrix["D1"] = ["warn", "pass", "pass", "pass", "pass"]
    decision = decide(load_contract("reviewer/full"), matrix)
    assert decision.fallback is True
    assert decision.condition_id is None
    assert decision.action == "editorial_decision=accept"
    assert not any(decision.fired.values())
    assert decision.to_dict()["fallback"] is True


@given(st.data())
def test_differential_against_naive_interpreter_on_templates(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["reviewer/full", "reviewer/methodology_focus"]))
    raw = shipped_template(name)
    matrix = data.draw(matrices(raw))
    decision = decide(load_contract(name), matrix)
    assert (decision.action, decision.condition_id) == naive_decide(raw, matrix)


@given(st.data(), contracts(with_accept=True))
def test_differential_against_naive_interpreter_on_generated_contracts(
    data: st.DataObject, raw: dict[str, Any]
) -> None:
    contract = load_contract(raw)
    matrix = data.draw(matrices(raw))
    decision = decide(contract, matrix)
    assert (decision.action, decision.condition_id) == naive_decide(raw, matrix)
    assert decide(raw, matrix) == decision  # mapping path agrees with the compiled path


@given(st.data(), contracts(with_accept=False))
def test_the_accept_grade_f0_is_the_fallback_when_nothing_fires(
    data: st.DataObject, raw: dict[str, Any]
) -> None:
    """R18 makes the fallback certain: every loaded contract decides every matrix."""
    contract = load_contract(raw)
    matrix = data.draw(matrices(raw))
    decision = decide(contract, matrix)
    assert (decision.action, decision.condition_id) == naive_decide(raw, matrix)
    assert contract.fallback is not None
    assert contract.conditions[contract.fallback].action == ACCEPT


@given(st.data(), contracts(max_dimensions=4, panel_sizes=st.integers(2, 6), with_accept=True))
def test_permutation_invariance_over_reviewers(data: st.DataObject, raw: dict[str, Any]) -> None:
    contract = load_contract(raw)
    matrix = data.draw(matrices(raw))
    order = data.draw(st.permutations(range(raw["panel_size"])))
    permuted = {d: [row[j] for j in order] for d, row in matrix.items()}
    assert decide(contract, permuted) == decide(contract, matrix)


@given(st.data(), contracts(max_dimensions=3, max_conditions=3, with_accept=True))
def test_large_panel_slow_path_agrees(data: st.DataObject, raw: dict[str, Any]) -> None:
    raw["panel_size"] = data.draw(st.integers(MAX_PANEL + 1, MAX_PANEL + 3))
    contract = load_contract(raw)
    assert engine_for(contract).lookup is None  # too large for the compiled fast path
    matrix = data.draw(matrices(raw))
    decision = decide(contract, matrix)
    assert (decision.action, decision.condition_id) == naive_decide(raw, matrix)


@given(st.data(), contracts(max_dimensions=12, max_conditions=6, with_accept=True))
def test_fast_path_equals_slow_path(data: st.DataObject, raw: dict[str, Any]) -> None:
    contract = load_contract(raw)
    matrix = data.draw(matrices(raw))
    assert decide(contract, matrix) == _decide_slowly(contract, matrix)


def test_decision_is_immutable_and_json_ready() -> None:
    decision = decide(load_contract("reviewer/full"), {d: ["pass"] * 5 for d in FULL_IDS})
    with pytest.raises(TypeError):
        decision.fired["F1"] = True  # type: ignore[index]
    body = decision.to_dict()
    body["fired"]["F1"] = True
    assert decision.fired["F1"] is False
    assert list(body) == ["action", "condition_id", "fallback", "fired", "counts", "thresholds"]


# --- error paths: exact types and tags --------------------------------------------------------


def full_matrix(**rows: Any) -> dict[str, Any]:
    matrix: dict[str, Any] = {d: ["pass"] * 5 for d in FULL_IDS}
    matrix.update(rows)
    return matrix


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        (full_matrix(D1=["pass"] * 6), "rows have different lengths"),
        ({d: ["pass"] * 6 for d in FULL_IDS}, "more than the panel"),
        (full_matrix(D9=["pass"] * 5), "matrix['D9']: unknown dimension id"),
        ({d: ["pass"] * 5 for d in FULL_IDS[:4]}, "missing scores for dimension(s) D5"),
        (full_matrix(D3=["pass", "pass", "BLOCK", "pass", "pass"]), "matrix['D3'][2]: 'BLOCK'"),
        (full_matrix(D3=["pass", "pass", None, "pass", "pass"]), "matrix['D3'][2]: None"),
        (full_matrix(D2="passpass"), "matrix['D2']: expected a list of 5 scores, got str"),
        (full_matrix(D2={"pass", "warn"}), "matrix['D2']: expected a list of 5 scores, got set"),
        (full_matrix(D2=5), "got int"),
        ([["pass"] * 5] * 5, "matrix must map dimension ids"),
        (None, "matrix must map dimension ids"),
        ({1: ["pass"] * 5}, "matrix[1]: unknown dimension id"),
    ],
)
def test_matrix_errors(matrix: Any, message: str) -> None:
    with pytest.raises(MatrixError) as info:
        decide(load_contract("reviewer/full"), matrix)
    assert message in info.value.message
    assert info.value.tag is None


def test_shrunk_panel_tag() -> None:
    with pytest.raises(PanelShrunk) as info:
        decide(load_contract("reviewer/full"), {d: ["pass"] * 4 for d in FULL_IDS})
    assert info.value.tag == "[PANEL-SHRUNK: usable=4, panel_size=5]"
    assert (info.value.usable, info.value.panel_size) == (4, 5)


def test_empty_rows_are_a_shrunk_panel() -> None:
    with pytest.raises(PanelShrunk) as info:
        decide(load_contract("reviewer/full"), {d: [] for d in FULL_IDS})
    assert info.value.tag == "[PANEL-SHRUNK: usable=0, panel_size=5]"


def test_unrecognised_expression_in_mapping_contract_has_the_tag() -> None:
    raw = shipped_template("reviewer/full")
    raw["failure_conditions"][1]["expression"] = "most mandatory dimensions score 'warn'"
    with pytest.raises(ExpressionUnrecognised) as info:
        decide(raw, full_matrix())
    assert info.value.tag == (
        "[EXPRESSION-UNRECOGNISED: condition_id=F2, "
        "expression=most mandatory dimensions score 'warn']"
    )
    assert info.value.condition_id == "F2"


def test_unknown_dimension_in_expression_is_a_compile_error_with_tag() -> None:
    raw = shipped_template("reviewer/methodology_focus")
    raw["failure_conditions"][0]["expression"] = "D7 scores 'block'"
    with pytest.raises(ExpressionUnrecognised) as info:
        load_contract(raw)
    assert (
        info.value.tag == "[EXPRESSION-UNRECOGNISED: condition_id=F1, expression=D7 scores 'block']"
    )
    assert "D7 names no dimension" in info.value.message
    assert any("SC-12" in e for e in info.value.errors)


@pytest.mark.parametrize("contract", [None, 42, "no/such/template.json", ["reviewer/full"]])
def test_non_mapping_contracts(contract: Any) -> None:
    with pytest.raises(ContractError) as info:
        decide(contract, full_matrix())
    assert info.value.tag is None


def test_schema_invalid_mapping_contract() -> None:
    raw = shipped_template("reviewer/full")
    raw["panel_size"] = "5"
    with pytest.raises(ContractError) as info:
        decide(raw, full_matrix())
    assert info.value.errors == ["$.panel_size: '5' is not of type 'integer'"]
    assert info.value.tag is None
