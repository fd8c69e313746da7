"""render → lint passes → extracted scores, fired flags and decision equal the input."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st
from support.lint_strategies import contracts, plans, score_maps

from kernel.contract.model import Contract, load_contract
from kernel.errors import KernelError
from kernel.reviewer.lint import lint_phase1, lint_phase2
from kernel.reviewer.render import expected_decision, expected_fired, render_phase1, render_phase2


def _reference_fired(contract: Contract, scores: dict[str, str]) -> dict[str, bool]:
    """R12 written out independently: each predicate through the decision engine's panel of
    one (threshold 1 is the same as the predicate when the panel has one reviewer)."""
    from kernel.decision.decision import signature

    rank = {"pass": 0, "warn": 1, "block": 2}
    holds = signature(contract, [rank[scores[d.id]] for d in contract.dimensions])
    return {c.condition_id: h for c, h in zip(contract.conditions, holds, strict=True)}


@given(st.data())
def test_round_trip(data: st.DataObject) -> None:
    contract = data.draw(contracts())
    plan = data.draw(plans(contract))
    scores = data.draw(score_maps(contract))
    phase1 = render_phase1(contract, plan)
    report1 = lint_phase1(phase1, contract)
    assert report1.ok, report1.findings
    assert report1.findings == ()
    fired = expected_fired(contract, scores)
    try:
        decision = expected_decision(contract, fired)
    except KernelError:
        assume(False)
        raise
    phase2 = render_phase2(contract, scores, plan=plan)
    report2 = lint_phase2(phase2, contract, phase1)
    assert report2.ok, report2.findings
    assert report2.findings == ()
    assert report2.consistency_checked
    assert dict(report2.scores or {}) == scores
    assert dict(report2.fired or {}) == fired == _reference_fired(contract, scores)
    assert report2.decision == decision
    assert not report2.multi_dissent


@given(st.data())
def test_round_trip_crlf_and_bom(data: st.DataObject) -> None:
    contract = data.draw(contracts())
    plan = data.draw(plans(contract))
    scores = data.draw(score_maps(contract))
    try:
        phase2 = render_phase2(contract, scores, plan=plan)
    except KernelError:
        assume(False)
        raise
    phase1 = render_phase1(contract, plan)
    ending = data.draw(st.sampled_from(("\r\n", "\r", "\n")))
    bom = data.draw(st.sampled_from(("", "\ufeff")))
    p1 = bom + phase1.replace("\n", ending)
    p2 = bom + phase2.replace("\n", ending)
    assert lint_phase1(p1, contract).ok
    report = lint_phase2(p2, contract, p1)
    assert report.ok, report.findings
    assert dict(report.scores or {}) == scores


@given(st.data())
def test_single_dissent_is_accepted(data: st.DataObject) -> None:
    contract = data.draw(contracts())
    plan = data.draw(plans(contract))
    scores = data.draw(score_maps(contract))
    dim = data.draw(st.sampled_from(contract.dimension_ids))
    try:
        phase2 = render_phase2(contract, scores, plan=plan, dissent={dim: "plan was wrong"})
    except KernelError:
        assume(False)
        raise
    report = lint_phase2(phase2, contract, render_phase1(contract, plan))
    assert report.ok, report.findings
    assert not report.multi_dissent


def test_shipped_example_decision() -> None:
    contract = load_contract("reviewer/full")
    scores = {"D1": "block", "D2": "warn", "D3": "pass", "D4": "pass", "D5": "warn"}
    report = lint_phase2(render_phase2(contract, scores), contract, render_phase1(contract))
    assert report.ok
    assert report.decision == "editorial_decision=reject_or_major_revision"
    assert dict(report.fired or {}) == {"F1": True, "F2": True, "F3": False, "F0": False}
