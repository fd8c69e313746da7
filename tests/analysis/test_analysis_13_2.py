"""analyze on dialect 13.2 contracts (13.2 §J6): exact counts over every assignment of values
to the eligible seats, checked against enumerating every matrix through decide."""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from typing import Any

import pytest
from hypothesis import assume, example, given

from kernel import ContractError, KernelError, decide, load_contract, shipped_template
from kernel.analysis import analyze, analyze_diff
from kernel.analysis.dimensionwise import seat_values, space_size
from kernel.contract.model import Contract
from kernel.contract.quantifiers import ACTION_RANK
from kernel.testing import contracts


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


def _brute(contract: Contract) -> tuple[Counter[str], bool]:
    matrices = _every_matrix(contract)
    outcomes: Counter[str] = Counter()
    rank = {}
    for i, m in enumerate(matrices):
        d = decide(contract, m)
        outcomes[d.condition_id or "none"] += 1
        rank[i] = ACTION_RANK[d.action]
    index = {repr(m): i for i, m in enumerate(matrices)}
    monotone = True
    for i, m in enumerate(matrices):
        for dim in contract.dimensions:
            values = seat_values(dim.priority)
            for role, value in m[dim.id].items():
                step = values.index(value) + 1
                if step < len(values):
                    worse = {k: dict(v) for k, v in m.items()}
                    worse[dim.id][role] = values[step]
                    if rank[index[repr(worse)]] < rank[i]:
                        monotone = False
    return outcomes, monotone


@given(contracts(dialect="13.2", max_dimensions=3, max_conditions=4))
@example(shipped_template("13.2/reviewer/methodology_focus"))
def test_analyze_counts_what_enumeration_counts(data: dict[str, Any]) -> None:
    contract = load_contract(data)
    assume(space_size(contract) <= 3000)
    a = analyze(contract)
    outcomes, monotone = _brute(contract)
    assert a.space == space_size(contract) == sum(outcomes.values())
    assert {o.key: o.matrices for o in a.outcomes if o.matrices} == dict(outcomes)
    assert a.unreachable == tuple(
        c.condition_id for c in contract.conditions if not outcomes[c.condition_id]
    )
    assert a.monotone == monotone
    for o in a.outcomes:  # each example is decided as its outcome says
        if o.example is not None:
            d = decide(contract, o.example.matrix)
            assert (d.condition_id or "none") == o.key
    if not a.monotone:
        f = next(f for f in a.findings if f.code == "AN-3")
        before, after = (decide(contract, e.matrix) for e in f.examples)
        assert ACTION_RANK[after.action] < ACTION_RANK[before.action]


def test_reviewer_full_13_2() -> None:
    a = analyze("13.2/reviewer/full")
    assert a.dialect == "13.2" and a.space == 4 * 4 * 4**3 * 3**2 * 3**2 * 4 == 331776
    assert a.outcome("F1").matrices == 331776 - 3**6 * 3**2 * 3**2  # no fatal seat anywhere
    assert a.monotone and a.unreachable == ()
    out = a.to_dict()
    assert out["dialect"] == "13.2" and sum(out["outcomes"].values()) == a.space
    assert "block:fatal" in str(out["examples"]["F1"]["matrix"])


@given(contracts(dialect="13.2", max_dimensions=3, max_conditions=3))
def test_analyze_diff_counts_what_enumeration_counts(data: dict[str, Any]) -> None:
    old = load_contract(data)
    assume(space_size(old) <= 2000)
    changed = copy.deepcopy(data)
    for c in changed["failure_conditions"]:
        c["cross_reviewer_quantifier"] = {"any": "majority", "majority": "all", "all": "any"}[
            c["cross_reviewer_quantifier"]
        ]
    new = load_contract(changed)
    d = analyze_diff(old, new)
    want: Counter[tuple[str, str]] = Counter()
    for m in _every_matrix(old):
        want[decide(old, m).condition_id or "none", decide(new, m).condition_id or "none"] += 1
    assert dict(d.transitions) == dict(want)
    assert d.space == space_size(old) and d.to_dict()["dialect"] == "13.2"
    for t in d.rows:
        c = t.counterexample
        assert (decide(old, c.matrix).condition_id or "none") == t.old
        assert (decide(new, c.matrix).condition_id or "none") == t.new


def test_a_diff_across_dialects_is_refused() -> None:
    with pytest.raises(KernelError, match="of one dialect"):
        analyze_diff("reviewer/full", "13.2/reviewer/full")
    with pytest.raises(KernelError, match="panel_size differs"):
        analyze_diff("13.2/reviewer/full", "13.2/reviewer/methodology_focus")
    moved = shipped_template("13.2/reviewer/full")
    moved["acceptance_dimensions"][4]["eligible_roles"] = ["eic"]
    with pytest.raises(KernelError, match="D5 has other seats"):
        analyze_diff("13.2/reviewer/full", moved)


@pytest.mark.parametrize("name", ["13.2/writer/full", "13.2/evaluator/full"])
def test_writer_and_evaluator_contracts_are_refused(name: str) -> None:
    with pytest.raises(ContractError, match="no executable decision procedure"):
        analyze(name)


def test_the_reports_show_13_2_matrices_by_role() -> None:
    from kernel.analysis import format_analysis
    from kernel.analysis.html import html_analysis

    a = analyze("13.2/reviewer/methodology_focus")
    text = format_analysis(a, "focus")
    assert "Schema 13.2: every value of every eligible seat of 2 dimensions" in text
    assert "eic" in text and "methodology" in text
    page = html_analysis(a, "focus")
    assert "<svg" in page and ">meth<" in page and "every eligible seat" in page


def test_what_reads_reviewers_columns_refuses_13_2() -> None:
    from kernel.analysis import PriorError, parse_prior, probabilities, sensitivity

    matrix = {"D1": {"methodology": "pass"}, "D2": {"eic": "pass", "methodology": "pass"}}
    with pytest.raises(ContractError, match="sensitivity reads reviewers' columns"):
        sensitivity("13.2/reviewer/methodology_focus", matrix)  # type: ignore[arg-type]
    with pytest.raises(PriorError, match=r"a 13\.2 contract takes a SeatPrior"):
        probabilities("13.2/reviewer/methodology_focus", parse_prior("pass=1"))
