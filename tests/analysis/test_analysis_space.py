"""analyze() against brute force over every matrix of small generated contracts."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support.analysis_brute import brute, matrix_cost
from support.strategies import contracts

from kernel.analysis import Analysis, AnalysisTooLarge, analyze
from kernel.analysis.panel import spread
from kernel.contract.model import Contract, load_contract
from kernel.contract.quantifiers import ACTION_RANK
from kernel.contract.templates import shipped_template
from kernel.decision.decision import decide
from kernel.errors import ContractError
from kernel.expression.ast import SCORE_RANK, SCORES

small_contracts = contracts(max_dimensions=3, max_conditions=4, panel_sizes=st.integers(1, 3))


def _template(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(dict(shipped_template("reviewer/full")))
    data.update(changes)
    return data


def _condition(cid: str, severity: int, expression: str, quantifier: str, action: str) -> Any:
    return {
        "condition_id": cid,
        "severity": severity,
        "expression": expression,
        "cross_reviewer_quantifier": quantifier,
        "action": f"editorial_decision={action}",
    }


def _dims(*priorities: str) -> list[dict[str, str]]:
    return [
        {"id": f"D{i + 1}", "name": f"dim_{i + 1}", "description": "d", "priority": p}
        for i, p in enumerate(priorities)
    ]


# A condition on an exact 'warn' is non-monotone: warn -> block stops it firing.
NON_MONOTONE = _template(
    panel_size=2,
    acceptance_dimensions=_dims("mandatory", "high"),
    failure_conditions=[
        _condition("F1", 80, "any mandatory dimension scores 'warn'", "any", "major_revision"),
        _condition("F0", 10, "every mandatory dimension scores 'pass'", "all", "accept"),
    ],
)
# F2 fires only when F1 (higher severity) fires too; F3 can never hold.
SHADOWED = _template(
    panel_size=3,
    acceptance_dimensions=_dims("mandatory", "normal"),
    failure_conditions=[
        _condition("F1", 90, "any mandatory dimension scores 'block'", "any", "reject"),
        _condition("F2", 50, "D1 scores 'block' AND D2 scores 'warn'", "all", "major_revision"),
        _condition("F3", 40, "D1 scores 'pass' AND D1 scores 'warn'", "any", "minor_revision"),
        _condition("F0", 10, "every mandatory dimension scores 'pass'", "all", "accept"),
    ],
)
# No accept-grade F0: refused at load (R18), so AN-4 cannot be reached through a loaded contract.
NO_FALLBACK = _template(
    panel_size=2,
    acceptance_dimensions=_dims("mandatory"),
    failure_conditions=[
        _condition("F1", 90, "any mandatory dimension scores 'block'", "any", "reject"),
        _condition("F2", 20, "every mandatory dimension scores 'pass'", "all", "minor_revision"),
    ],
)

# Regression: the simplest non-monotone change starts from the all-pass matrix (cost 0).
CHEAPEST_AT_ALL_PASS = _template(
    panel_size=1,
    acceptance_dimensions=_dims("mandatory", "mandatory", "mandatory"),
    failure_conditions=[
        _condition("F0", 10, "any mandatory dimension scores 'warn'", "any", "accept"),
        _condition("F1", 10, "any mandatory dimension scores 'pass'", "any", "minor_revision"),
    ],
)


def _decide(contract: Contract, matrix: Any) -> Any:
    try:
        return decide(contract, {k: list(v) for k, v in matrix.items()})
    except ContractError:
        return None


def check_examples_are_real(contract: Contract, a: Analysis) -> None:
    """Every example and counterexample the analysis prints shows what it claims."""
    for o in a.outcomes:
        if o.matrices == 0:
            assert o.example is None
            continue
        assert o.example is not None
        d = _decide(contract, o.example.matrix)
        if o.key == "none":
            assert d is None or d.fallback
        else:
            assert d is not None and d.condition_id == o.key
    for f in a.findings:
        if f.code in ("AN-1", "AN-4"):
            (e,) = f.examples
            d = _decide(contract, e.matrix)
            assert (d is None) == (f.code == "AN-4")
            assert d is None or d.fallback
        elif f.code == "AN-2":
            assert f.condition_id in a.unreachable
            for e in f.examples:
                d = _decide(contract, e.matrix)
                assert d is not None and d.fired[f.condition_id]
                assert d.condition_id != f.condition_id
        else:
            assert f.code == "AN-3" and f.change is not None
            before, after = f.examples
            change = f.change
            later: Any = after.matrix  # a Schema 13 matrix: rows of scores
            for dim, row in before.matrix.items():
                for j, s in enumerate(row):
                    if (dim, j) == (change.dimension, change.reviewer):
                        assert (s, later[dim][j]) == (change.before, change.after)
                        assert SCORE_RANK[change.after] == SCORE_RANK[change.before] + 1
                    else:
                        assert later[dim][j] == s
            d0, d1 = _decide(contract, before.matrix), _decide(contract, after.matrix)
            assert d0 is not None and d1 is not None
            assert ACTION_RANK[d1.action] < ACTION_RANK[d0.action]
            assert (d0.action, d1.action) == (before.action, after.action)


def check_against_brute_force(data: dict[str, Any]) -> Analysis:
    contract = load_contract(data)
    a = analyze(contract)
    b = brute(contract)
    assert a.space == 3 ** (len(contract.dimensions) * contract.panel_size)
    assert {o.key: o.matrices for o in a.outcomes if o.matrices} == dict(b.outcomes)
    assert sum(o.matrices for o in a.outcomes) == a.space
    assert a.unreachable == b.unreachable
    assert a.monotone == b.monotone
    # Examples are the simplest matrices of their kind.
    for o in a.outcomes:
        if o.example is not None:
            assert matrix_cost(o.example.matrix) == b.outcome_cost[o.key]
    if not a.monotone:
        before = next(f for f in a.findings if f.code == "AN-3").examples[0]
        assert matrix_cost(before.matrix) == b.violation_cost
    codes = {f.code for f in a.findings}
    none = a.outcome("none").matrices
    assert ("AN-1" in codes) == (none > 0 and contract.fallback is not None)
    assert ("AN-4" in codes) == (none > 0 and contract.fallback is None)
    assert ("AN-3" in codes) == (not a.monotone)
    assert a.ok == (not a.unreachable and a.monotone and "AN-4" not in codes)
    check_examples_are_real(contract, a)
    return a


@given(small_contracts)
@example(NON_MONOTONE)
@example(SHADOWED)
@example(CHEAPEST_AT_ALL_PASS)
def test_analysis_matches_brute_force(data: dict[str, Any]) -> None:
    check_against_brute_force(data)


def test_known_findings() -> None:
    a = check_against_brute_force(NON_MONOTONE)
    assert not a.monotone and not a.ok
    a = check_against_brute_force(SHADOWED)
    assert a.unreachable == ("F2", "F3")
    messages = {f.condition_id: f.message for f in a.findings if f.code == "AN-2"}
    assert "F1" in messages["F2"] and "no reviewer column satisfies" in messages["F3"]
    with pytest.raises(ContractError, match=r"accept-grade F0.*\(R18\)"):
        load_contract(NO_FALLBACK)


def test_reviewer_full() -> None:
    contract = load_contract("reviewer/full")
    a = analyze(contract)
    assert a.space == 3**25 == 847_288_609_443
    # F0 decides exactly when every reviewer passes every mandatory dimension and no D4 blocks:
    # 2 scores for D4 times 3 for D5, per reviewer.
    assert a.outcome("F0").matrices == 6**5
    assert a.unreachable == () and a.monotone and a.ok
    # R5: the seed's claim that nothing-fired is impossible is false.
    (finding,) = a.findings
    assert finding.code == "AN-1" and a.outcome("none").matrices > 0
    check_examples_are_real(contract, a)
    (e,) = finding.examples
    assert sorted(s for row in e.matrix.values() for s in row) == ["pass"] * 24 + ["warn"]


def test_to_dict_has_the_api_keys() -> None:
    d = analyze(NON_MONOTONE).to_dict()
    assert {"space", "outcomes", "unreachable", "monotone", "counterexamples"} <= set(d)
    assert d["outcomes"].keys() == {"F1", "F0", "none"}
    assert d["monotone"] is False
    (finding,) = [c for c in d["counterexamples"] if c["code"] == "AN-3"]
    assert len(finding["matrices"]) == 2
    assert all(set(m["matrix"]) == {"D1", "D2"} for m in finding["matrices"])
    assert all(s in SCORES for m in finding["matrices"] for r in m["matrix"].values() for s in r)


def test_interchangeable_dimensions_are_enumerated_by_composition() -> None:
    # 14 mandatory dimensions read only through their priority: 120 classes, not 3**14.
    a = analyze(_template(acceptance_dimensions=_dims(*["mandatory"] * 14)))
    assert a.space == 3 ** (14 * 5) == sum(o.matrices for o in a.outcomes)
    # F0 decides when every reviewer passes all 14 (F3 reads no dimension: it never fires).
    assert a.outcome("F0").matrices == 1 and a.unreachable == ("F3",)


def too_many_named_dimensions() -> dict[str, Any]:
    dims = _dims(*["normal"] * 14)
    conditions = [
        _condition(f"F{i}", 50, f"D{i} scores 'block'", "any", "reject") for i in range(1, 15)
    ] + [_condition("F0", 10, "every normal-priority dimension scores 'pass'", "all", "accept")]
    return _template(acceptance_dimensions=dims, failure_conditions=conditions)


def test_too_many_named_dimensions_is_refused_before_enumerating() -> None:
    with pytest.raises(AnalysisTooLarge, match="4782969 classes of reviewer columns"):
        analyze(too_many_named_dimensions())


def test_too_many_states_is_refused() -> None:
    # Two majority conditions of 5 reviewers, each reviewer satisfying one, the other or neither.
    capped = {
        (min(panel.count(1), 3), min(panel.count(2), 3))
        for panel in itertools.product([0, 1, 2], repeat=5)
    }
    assert len(spread([0, 1, 2], [1, 1, 1], [0, 0, 0], [3, 3], 5).final) == len(capped) == 15
    with pytest.raises(AnalysisTooLarge, match="count vectors after 3 reviewers"):
        spread([0, 1, 2], [1, 1, 1], [0, 0, 0], [3, 3], 5, max_states=9)


def test_any_and_all_cost_two_values_whatever_the_panel() -> None:
    # 'all' counts the reviewers who do not satisfy it, capped at 1: four states, not 6 ** 2.
    layers = spread([0, 1, 2, 3], [1, 1, 1, 1], [0, 0, 0, 0], [5, 1], 5)
    assert len(layers.final) == 4
    assert {layers.fired(s) for s in layers.final} == {
        (a, b) for a in (False, True) for b in (False, True)
    }
