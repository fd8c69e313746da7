"""sensitivity(): single-score changes checked with the independent oracle, and margins."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.oracle import naive_decide
from support.strategies import contracts, matrices

from kernel.analysis import format_sensitivity, sensitivity
from kernel.contract.model import load_contract
from kernel.decision.decision import decide_counts
from kernel.errors import ContractError, MatrixError
from kernel.expression.ast import SCORES


@st.composite
def contract_and_matrix(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, list[str]]]:
    data = draw(contracts(max_dimensions=4, max_conditions=4, panel_sizes=st.integers(1, 5)))
    return data, draw(matrices(data))


def _oracle(data: dict[str, Any], matrix: dict[str, list[str]]) -> str | None:
    try:
        return naive_decide(data, matrix)[0]
    except LookupError:
        return None


@given(contract_and_matrix())
def test_flips_are_exactly_the_action_changing_changes(
    case: tuple[dict[str, Any], dict[str, list[str]]],
) -> None:
    data, matrix = case
    action = _oracle(data, matrix)
    if action is None:
        with pytest.raises(ContractError):
            sensitivity(data, matrix)
        return
    s = sensitivity(data, matrix)
    assert s.action == action
    expected = set()
    for dim, row in matrix.items():
        for j, before in enumerate(row):
            for after in SCORES:
                if after != before:
                    changed = {**matrix, dim: [*row[:j], after, *row[j + 1 :]]}
                    new = _oracle(data, changed)
                    if new != action:
                        expected.add((dim, j, before, after, new))
    assert {(f.dimension, f.reviewer, f.before, f.after, f.action) for f in s.flips} == expected
    assert matrix == case[1]  # the input is left alone
    assert format_sensitivity(s).count("\n  D") == len(s.flips)


@given(contract_and_matrix())
def test_margins_cross_the_threshold_exactly(
    case: tuple[dict[str, Any], dict[str, list[str]]],
) -> None:
    data, matrix = case
    contract = load_contract(data)
    try:
        s = sensitivity(contract, matrix)
    except ContractError:
        return
    counts = [m.count for m in s.margins]
    for i, m in enumerate(s.margins):
        assert m.reviewers >= 1
        sign = -1 if m.fired else 1
        moved = list(counts)
        moved[i] = m.count + sign * m.reviewers
        assert 0 <= moved[i] <= contract.panel_size
        fired = decide_counts(contract, moved).fired if contract.fallback is not None else None
        if fired is not None:
            assert fired[m.condition_id] != m.fired
            moved[i] -= sign
            assert decide_counts(contract, moved).fired[m.condition_id] == m.fired
        assert m.deciding == (m.condition_id == s.condition_id)


def test_reviewer_full_example() -> None:
    matrix = {d: ["pass"] * 5 for d in ("D1", "D2", "D3", "D4", "D5")}
    matrix["D3"] = ["pass", "pass", "pass", "pass", "warn"]
    s = sensitivity("reviewer/full", matrix)
    assert s.fallback and s.condition_id is None
    # Any mandatory block fires F1; D4 block fires F3; the remaining changes keep accept.
    flips = {(f.dimension, f.reviewer, f.after) for f in s.flips}
    assert flips == {(d, j, "block") for d in ("D1", "D2", "D3", "D4") for j in range(5)}
    text = format_sensitivity(s)
    assert text.startswith("sensitivity of accept (R5 fallback):")
    assert "F0: not fired, 4/5; 1 more reviewer to fire" in text
    assert s.to_dict()["margins"][0] == {
        "condition_id": "F1",
        "count": 0,
        "threshold": 1,
        "fired": False,
        "deciding": False,
        "reviewers": 1,
        "direction": "more",
    }


def test_bad_matrix_is_refused() -> None:
    with pytest.raises(MatrixError):
        sensitivity("reviewer/full", {"D1": ["pass"]})
