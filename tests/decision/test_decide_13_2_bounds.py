"""The 13.2 decision's work is bounded by the vocabulary, not by the contract's text: identical
atoms are merged, the generated tables are capped (past the cap the interpreter decides, with
the same results), and the trace gives each distinct atom's counts once. Each test counts
work or sizes; none is timed (speed is in ``benchmarks/``)."""

from __future__ import annotations

import itertools
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import reference132
from support.bench import contracts as bench_contracts

from kernel import decide, load_contract
from kernel.contract.model import Contract
from kernel.decision import dimensionwise_engine
from kernel.decision.dimensionwise import decide_dimensionwise
from kernel.decision.dimensionwise_engine import build_lookup
from kernel.decision.engine import MAX_SOURCE, engine_for
from kernel.testing import contracts, matrices


def _all(contract: Contract, value: str = "warn") -> dict[str, dict[str, str]]:
    return {d.id: dict.fromkeys(d.eligible_roles, value) for d in contract.dimensions}


def _traced_cells(contract: Contract) -> int:
    """Per-dimension counts in a trace that gives each distinct atom once."""
    from kernel.decision.dimensionwise import plan_of

    plan = plan_of(contract)
    return sum(len(plan.tests[test][0]) for _, _, test in plan.atoms)


def _distinct_atoms(contract: Contract) -> list[set[tuple[str, str]]]:
    """Per condition, its distinct (atom text, quantifier) pairs."""
    return [{(str(a), c.quantifier) for a in c.expression.atoms} for c in contract.conditions]


# --- merged atoms ------------------------------------------------------------------------


def test_an_atom_written_many_times_is_traced_once() -> None:
    # 10 dimensions, one condition of 225 atoms cycling through 34 distinct wide ones
    contract = load_contract(bench_contracts.v2_many_atoms(10, 1))
    condition = contract.conditions[1]
    assert len(condition.expression.atoms) > 200
    distinct = {str(a) for a in condition.expression.atoms}
    decision = decide(contract, _all(contract))
    assert decision.trace is not None
    assert [a.atom for a in decision.trace["F1"]] == list(dict.fromkeys(
        str(a) for a in condition.expression.atoms
    ))
    assert len(decision.trace["F1"]) == len(distinct) == decision.thresholds["F1"]


def test_one_decision_does_work_for_each_distinct_test_only() -> None:
    """The counts one decision makes: per distinct (seat set, scope, across, quantifier)
    test, one per selected dimension; not one per atom written."""
    from kernel.decision.dimensionwise import plan_of

    contract = load_contract(bench_contracts.v2_many_atoms(99, 4))
    written = sum(len(scope) for c in contract.conditions for scope in c.predicate.scopes)
    plan = plan_of(contract)
    assert plan.cells * 5 < written
    decision = decide(contract, _all(contract))
    assert decision.trace is not None
    made = {id(d) for atoms in decision.trace.values() for a in atoms for d in a.dimensions}
    assert len(made) <= plan.cells
    # the generated path's tables: one per priority class (5**5 rows each), not one per
    # dimension and atom
    from kernel.decision.dimensionwise_engine import table_work

    assert table_work(contract) <= 3 * 5**5
    assert build_lookup(contract, max_source=MAX_SOURCE)[0] is not None


def test_the_json_and_text_traces_give_each_distinct_atom_once() -> None:
    contract = load_contract(bench_contracts.v2_many_atoms(99, 4))
    decision = decide(contract, _all(contract))
    trace = decision.to_dict()["trace"]
    given_in_full = [a for atoms in trace.values() for a in atoms if "dimensions" in a]
    referred = [a for atoms in trace.values() for a in atoms if "same_as" in a]
    distinct = set().union(*_distinct_atoms(contract))
    assert referred  # the four conditions share atoms
    assert len(given_in_full) <= len(distinct)
    for a in referred:
        earlier = next(x for x in trace[a["same_as"]] if x["atom"] == a["atom"])
        assert earlier["held"] == a["held"] and "dimensions" in earlier
    cells = sum(len(a["dimensions"]) for a in given_in_full)
    assert cells <= _traced_cells(contract)
    lines = decision.explain(contract).splitlines()
    mentions = sum(len(atoms) for atoms in _distinct_atoms(contract))
    assert len(lines) <= 3 + len(contract.conditions) + mentions + cells


@pytest.mark.parametrize("wide", [False, True])
def test_the_1_mib_contract_has_a_trace_of_its_own_size(wide: bool) -> None:
    contract = load_contract(bench_contracts.v2_one_mebibyte(wide=wide))
    decision = decide(contract, _all(contract))
    lines = decision.explain(contract).splitlines()
    assert len(lines) < 100_000
    written = sum(len(c.expression.atoms) for c in contract.conditions)
    # one line per atom written at most, and each distinct atom's dimensions once
    assert len(lines) <= 3 + len(contract.conditions) + written + _traced_cells(contract)


# --- the capped table --------------------------------------------------------------------

# (Not "scores 'pass'": F0 reads that seat set at every dimension first.)
_ONE_DIMENSION_FORMS = (
    "{d} scores 'warn'",
    "{d} scores 'block'",
    "{d} has a fatal block",
    "{d} scores 'warn' or worse",
    "{d} scores 'pass' or worse",
)


def _distinct_tables(dimensions: int = 99) -> dict[str, Any]:
    """Every dimension mandatory with five seats, each read through its own ordered list of
    seat sets: no two dimensions share a row table."""
    orders = itertools.chain(
        itertools.permutations(_ONE_DIMENSION_FORMS, 3),
        itertools.permutations(_ONE_DIMENSION_FORMS, 4),
    )
    atoms = [
        form.format(d=f"D{i + 1}")
        for i, order in zip(range(dimensions), orders, strict=False)
        for form in order
    ]
    per = len(atoms) // 4 + 1
    expressions = [
        (" AND ".join(atoms[k : k + per]), "majority", "editorial_decision=major_revision")
        for k in range(0, len(atoms), per)
    ]
    roles = ("eic", "methodology", "domain", "perspective", "da")
    return bench_contracts.v2_contract(
        ["mandatory"] * dimensions, [roles] * dimensions, expressions
    )


def test_tables_over_the_cap_are_left_to_the_interpreter_with_the_same_results() -> None:
    from kernel.decision.dimensionwise_engine import MAX_TABLE_WORK, table_work

    data = _distinct_tables()
    contract = load_contract(data)
    assert table_work(contract) > MAX_TABLE_WORK
    assert build_lookup(contract, max_source=MAX_SOURCE) == (None, "")
    assert table_work(load_contract("13.2/reviewer/full")) <= MAX_TABLE_WORK
    rows = [
        {d.id: dict.fromkeys(d.eligible_roles, v) for d in contract.dimensions}
        for v in ("pass", "warn", "block:repairable", "block:fatal")
    ]
    rows.append({**rows[0], "D7": {**rows[0]["D7"], "eic": "block:fatal"}})
    for matrix in rows:
        got = [decide(contract, matrix) for _ in range(3)]  # the third would use the engine
        assert engine_for(contract).lookup is None
        want = reference132.decide(data, matrix)
        assert got[0] == got[2] and got[0].action == want["action"]
        assert dict(got[0].fired) == want["fired"]


@st.composite
def _repeated(draw: st.DrawFn) -> dict[str, Any]:
    """A 13.2 contract with some atoms written twice, in one condition or in two."""
    data = draw(contracts(dialect="13.2", max_dimensions=4, max_conditions=4))
    conditions = data["failure_conditions"]
    for c in conditions:
        if draw(st.booleans()):
            other = draw(st.sampled_from(conditions))["expression"]
            c["expression"] = " AND ".join(
                draw(st.permutations([c["expression"], other, c["expression"]]))
            )
    return data


@given(
    st.one_of(contracts(dialect="13.2"), _repeated()).flatmap(
        lambda c: st.tuples(st.just(c), st.lists(matrices(c), min_size=1, max_size=4))
    )
)
def test_the_table_path_and_the_interpreter_decide_alike(
    pair: tuple[dict[str, Any], list[dict[str, Any]]],
) -> None:
    data, ms = pair
    contract = load_contract(data)
    lookup, _ = build_lookup(contract, max_source=MAX_SOURCE)
    assert lookup is not None
    assert hasattr(dimensionwise_engine, "MAX_TABLE_WORK")  # the cap the interpreter takes over at
    with mock.patch.object(dimensionwise_engine, "MAX_TABLE_WORK", 0):
        capped = load_contract(data)
        assert build_lookup(capped, max_source=MAX_SOURCE) == (None, "")
        for m in ms:
            tabled = lookup(m)
            interpreted = decide_dimensionwise(contract, m)
            assert tabled == interpreted == decide_dimensionwise(capped, m)
            assert decide(capped, m) == decide(capped, m) == interpreted  # capped engine
            want = reference132.decide(data, m)
            assert (interpreted.action, dict(interpreted.fired)) == (
                want["action"],
                want["fired"],
            )


@given(
    st.one_of(contracts(dialect="13.2"), _repeated()).flatmap(
        lambda c: st.tuples(st.just(c), matrices(c))
    )
)
def test_explain_recounting_one_dimension_finds_what_deciding_every_change_finds(
    pair: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    from kernel.decision.dimensionwise import allowed_values, seat_flips
    from kernel.errors import MatrixError

    data, matrix = pair
    contract = load_contract(data)
    action = decide(contract, matrix).action
    want = []
    for d in contract.dimensions:
        for role in (r for r in contract.roles if r in d.eligible_roles):
            for after in (*allowed_values(d.priority), "not_assessed"):
                if after == matrix[d.id][role]:
                    continue
                changed = {**matrix, d.id: {**matrix[d.id], role: after}}
                try:
                    other = decide_dimensionwise(contract, changed)
                except MatrixError:
                    continue
                if other.action != action:
                    want.append((d.id, role, after, other.action, other.condition_id))
    flips = seat_flips(contract, matrix)
    assert [(f.dimension, f.role, f.after, f.action, f.condition_id) for f in flips] == want
