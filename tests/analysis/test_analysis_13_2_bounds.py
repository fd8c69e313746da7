"""The 13.2 analysis is bounded: it counts per dimension then combines (a conjunction of
per-dimension atoms costs one bit of state, not a doubling per atom), it charges every step
to the budget before doing it, and it refuses with an estimate of the work past the budget.
Its exact counts are checked against enumerating every matrix through the independent
reference decision. Work is counted, never timed (speed is in ``benchmarks/``)."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any
from unittest import mock

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support import reference132
from support.bench import contracts as bench_contracts

from kernel import load_contract
from kernel.analysis import analyze, analyze_diff
from kernel.analysis.budget import MAX_STEPS, Budget
from kernel.analysis.dimensionwise import seat_values, space_size
from kernel.contract.model import Contract
from kernel.contract.quantifiers import threshold
from kernel.errors import AnalysisTooLarge
from kernel.testing import contracts

_ESTIMATE = r"about [\d,]+ more steps"


def _refuses_past_the_budget() -> None:
    """Asked first, so that code without a budget fails here instead of running long."""
    with pytest.raises(AnalysisTooLarge, match=_ESTIMATE):
        analyze("13.2/reviewer/full", budget=Budget(limit=100))


def test_a_conjunction_of_per_dimension_atoms_is_counted_in_polynomial_work() -> None:
    _refuses_past_the_budget()
    used = {}
    for n in (12, 24, 48):
        budget = Budget()
        a = analyze(bench_contracts.v2_conjunction(n), budget=budget)
        assert a.space == 3**n
        assert (a.outcome("F1").matrices, a.outcome("F0").matrices) == (1, 1)
        assert a.outcome("none").matrices == 3**n - 2
        assert a.monotone
        used[n] = budget.used
    # twice the dimensions, at most four times the work (the combination is linear, the
    # monotonicity check quadratic); it was about 5 times per two more dimensions
    assert 0 < used[24] <= 4 * used[12] and used[48] <= 4 * used[24]


def test_the_budget_refuses_with_an_estimate_before_the_work() -> None:
    _refuses_past_the_budget()
    budget = Budget(limit=50_000)
    with pytest.raises(AnalysisTooLarge, match=_ESTIMATE):
        analyze(bench_contracts.v2_plain(40), budget=budget)
    assert budget.used <= budget.limit
    budget = Budget(limit=2_000)
    with pytest.raises(AnalysisTooLarge, match=_ESTIMATE):
        analyze_diff("13.2/reviewer/full", "13.2/reviewer/full", budget=budget)
    assert budget.used <= budget.limit


def test_a_plain_99_dimension_contract_finishes_within_the_budget() -> None:
    _refuses_past_the_budget()
    budget = Budget()
    a = analyze(bench_contracts.v2_plain(99), budget=budget)
    assert 0 < budget.used <= MAX_STEPS
    assert sum(o.matrices for o in a.outcomes) == a.space == space_size(load_contract(
        bench_contracts.v2_plain(99)
    ))


def test_the_1_mib_contract_finishes_or_is_refused_with_an_estimate() -> None:
    _refuses_past_the_budget()
    contract = load_contract(bench_contracts.v2_one_mebibyte())
    budget = Budget()
    try:
        a = analyze(contract, budget=budget)
    except AnalysisTooLarge as refused:
        assert "more steps" in str(refused)
    else:
        assert sum(o.matrices for o in a.outcomes) == a.space
    assert budget.used <= MAX_STEPS


# --- every step is charged before it is done ----------------------------------------------


@st.composite
def _repeated(draw: st.DrawFn, dimensions: int = 4, conditions: int = 4) -> dict[str, Any]:
    """A 13.2 contract with some atoms written twice, in one condition or in two, and some
    conditions a conjunction of one-dimension atoms."""
    data = draw(contracts(dialect="13.2", max_dimensions=dimensions, max_conditions=conditions))
    ids = [d["id"] for d in data["acceptance_dimensions"]]
    conditions_ = data["failure_conditions"]
    for c in conditions_:
        kind = draw(st.sampled_from(["keep", "repeat", "conjunction"]))
        if kind == "repeat":
            other = draw(st.sampled_from(conditions_))["expression"]
            c["expression"] = " AND ".join(
                draw(st.permutations([c["expression"], other, c["expression"]]))
            )
        elif kind == "conjunction":
            score = draw(st.sampled_from(["'pass'", "'warn'", "'block'"]))
            chosen = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=len(ids)))
            c["expression"] = " AND ".join(f"{d} scores {score}" for d in chosen)
    return data


@given(
    st.one_of(_repeated(), _repeated(dimensions=12, conditions=8)),
    st.sampled_from([300, 3_000, 30_000, MAX_STEPS]),
)
def test_no_step_is_taken_that_was_not_charged(data: dict[str, Any], limit: int) -> None:
    from kernel.analysis import dimensionwise

    contract = load_contract(data)
    applied = Counter[str]()
    apply, rows = dimensionwise._apply, dimensionwise._rows

    def counted_apply(*args: Any) -> Any:
        applied["steps"] += 1
        return apply(*args)

    def counted_rows(*args: Any) -> Any:
        for row in rows(*args):
            applied["steps"] += 1
            yield row

    budget = Budget(limit=limit)
    with (
        mock.patch.object(dimensionwise, "_apply", counted_apply),
        mock.patch.object(dimensionwise, "_rows", counted_rows),
    ):
        try:
            analyze(contract, budget=budget)
        except AnalysisTooLarge as refused:
            assert "more steps" in str(refused)
    assert applied["steps"] <= budget.used <= limit


# --- exact counts against enumeration ------------------------------------------------------


def _every_matrix(contract: Contract) -> list[dict[str, dict[str, str]]]:
    cells = [
        (d.id, role, seat_values(d.priority))
        for d in contract.dimensions
        for role in d.eligible_roles
    ]
    out = []
    for values in itertools.product(*(v for _, _, v in cells)):
        m: dict[str, dict[str, str]] = {d.id: {} for d in contract.dimensions}
        for (dim, role, _), value in zip(cells, values, strict=True):
            m[dim][role] = value
        out.append(m)
    return out


@given(_repeated(dimensions=3, conditions=4))
def test_the_counts_are_what_the_reference_decides_on_every_matrix(data: dict[str, Any]) -> None:
    contract = load_contract(data)
    assume(space_size(contract) <= 2000)
    decided = [reference132.decide(data, m) for m in _every_matrix(contract)]
    want = Counter(d["condition_id"] or "none" for d in decided)
    a = analyze(contract)
    assert {o.key: o.matrices for o in a.outcomes if o.matrices} == dict(want)
    for f in a.findings:  # AN-2: what shadows an unreachable condition, by enumeration
        if f.code != "AN-2":
            continue
        fires = [d for d in decided if d["fired"][f.condition_id]]
        if "no assignment" in f.message:
            assert not fires
            continue
        assert fires
        instead = {d["condition_id"] for d in fires} - {None}
        always = [
            c.condition_id
            for c in contract.conditions
            if c.condition_id in instead and all(d["fired"][c.condition_id] for d in fires)
        ]
        if always:
            assert f"shadowed by {', '.join(always)}:" in f.message
        else:
            assert f"(one of {', '.join(sorted(instead))})" in f.message
    old = dict(data)
    d = analyze_diff(old, data)
    assert all(t.old == t.new for t in d.rows) and sum(t.matrices for t in d.rows) == a.space


@given(_repeated(dimensions=3, conditions=4))
def test_each_dimension_is_counted_alone(data: dict[str, Any]) -> None:
    from kernel.analysis.dimensionwise import dimension_counts

    contract = load_contract(data)
    for d in contract.dimensions:
        tests = {
            (atom.seats, c.quantifier)
            for c in contract.conditions
            for atom, scope in zip(c.expression.atoms, c.predicate.scopes, strict=True)
            if d.position in scope
        }
        n = len(d.eligible_roles)
        want = Counter(
            frozenset(
                (seats, q) for seats, q in tests if sum(v in seats for v in row) >= threshold(q, n)
            )
            for row in itertools.product(seat_values(d.priority), repeat=n)
        )
        assert dimension_counts(contract, d.position) == dict(want)


def test_conditions_that_overlap_in_contract_order_are_combined_one_at_a_time() -> None:
    _refuses_past_the_budget()
    # small: every matrix through the reference
    data = bench_contracts.v2_staggered(3)
    contract = load_contract(data)
    want = Counter(
        reference132.decide(data, m)["condition_id"] or "none" for m in _every_matrix(contract)
    )
    assert {o.key: o.matrices for o in analyze(contract).outcomes if o.matrices} == dict(want)
    # large: 40 dimensions, 20 conditions each open from Dk to D(k+20) in contract order
    n = 20
    budget = Budget()
    a = analyze(bench_contracts.v2_staggered(n), budget=budget)
    for k in range(1, n + 1):  # pairs before k not both blocks, pair k both, the rest free
        assert a.outcome(f"F{k}").matrices == 8 ** (k - 1) * 9 ** (n - k)
    assert a.outcome("F0").matrices == 1 and a.outcome("none").matrices == 8**n - 1
    assert budget.used < MAX_STEPS // 10
