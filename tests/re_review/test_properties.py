"""Properties of the re-review decision over sealed bundles of any size (the strategy of
tests/support/re_review_bundles.py). Two documented exceptions of upstream's table
(docs/decisions-where-spec-is-silent.md) are pinned by examples at the end."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st
from support.re_review_bundles import SCENARIOS, Draft, Item, build, drafts

from kernel.re_review.check import check_re_review
from kernel.re_review.decide import decide_re_review
from kernel.re_review.decision import (
    DECISION_ORDER,
    Operands,
    ReReviewDecision,
    derive,
    verdict_rank,
)
from kernel.re_review.load import ReReviewBundle, load_re_review
from kernel.re_review.seal import Sealed

F, P, N, W, C = (
    "FULLY_ADDRESSED",
    "PARTIALLY_ADDRESSED",
    "NOT_ADDRESSED",
    "MADE_WORSE",
    "CANNOT_VERIFY",
)


def _state(d: ReReviewDecision) -> int:
    return DECISION_ORDER[d.decision_state]


def _final(item: Item) -> str:
    return item.final or item.verdict


@given(drafts(), st.data())
def test_a_verdict_moving_towards_fully_addressed_never_makes_the_decision_worse(
    draft: Draft, data: st.DataObject
) -> None:
    if not draft.items:
        return
    before = build(draft).decision
    if before.gate is not None:
        return
    n = data.draw(st.integers(0, len(draft.items) - 1))
    item = draft.items[n]
    better = [v for v in (P, F) if verdict_rank(v) > verdict_rank(_final(item))]
    if _final(item) in (W, C):
        better.insert(0, N)
    if not better:
        return
    target = data.draw(st.sampled_from(better))
    magnitude = data.draw(st.sampled_from(("must_fix", "should_fix", "consider")))
    moved = replace(item, final=target, final_magnitude=magnitude)
    if target == item.verdict:
        moved = replace(moved, final=None)
    after = build(replace(draft, items=(*draft.items[:n], moved, *draft.items[n + 1 :]))).decision
    assert after.gate is None
    effective = target == P and (magnitude if moved.final else item.magnitude) == "must_fix"
    if not (item.priority == "should_fix" and effective):  # exception 1: P2 → PARTIALLY/must_fix
        assert _state(after) <= _state(before), (item, target, before.explain(), after.explain())
    if not (item.priority == "must_fix" and _final(item) == C):  # exception 2: P1 out of CV
        assert after.reject_recommended <= before.reject_recommended  # type: ignore[operator]


@given(
    drafts(),
    st.sampled_from(
        ("research_integrity", "ethics", "safety", "legal_compliance", "fatal_validity")
    ),
    st.sampled_from(("Minor Revision", "Major Revision")),
)
def test_an_approved_exception_never_lowers_the_decision(
    draft: Draft, cls: str, impact: str
) -> None:
    draft = replace(draft, original=True)
    before = build(draft).decision
    after = build(
        replace(draft, escalations=(*draft.escalations, (cls, impact, "approved")))
    ).decision
    assert after.gate == before.gate
    if before.gate is not None:
        assert after.decision_state == before.decision_state
        return
    assert _state(after) >= _state(before) and _state(after) >= DECISION_ORDER[impact]
    assert after.base_rule == before.base_rule
    assert after.reject_recommended >= before.reject_recommended  # type: ignore[operator]
    assert after.reject_recommended or cls != "research_integrity"
    assert after.floors[-1] == f"ESC-{len(draft.escalations) + 1}"


@given(drafts(), st.data())
def test_a_change_from_2a_without_an_adjustment_always_aborts_criteria_drift(
    draft: Draft, data: st.DataObject
) -> None:
    if not draft.items:
        return
    n = data.draw(st.integers(0, len(draft.items) - 1))
    item = draft.items[n]
    final = data.draw(st.sampled_from([v for v in (F, P, N, W, C) if v != item.verdict]))
    silent = replace(item, final=final, silent=True)
    d = build(replace(draft, items=(*draft.items[:n], silent, *draft.items[n + 1 :]))).decision
    assert (d.decision_state, d.abort_reason, d.gate) == ("aborted", "criteria_drift", "G1")
    assert item.id in d.reasons[0][2]
    assert d.reject_recommended is None


@given(drafts())
def test_derive_over_the_sealed_decision_inputs_is_the_decision(draft: Draft) -> None:
    sealed = build(draft)
    d = sealed.decision
    inputs = sealed.traceability["decision_inputs"]
    assert inputs["apply_chain_witness"] == d.witness
    if d.gate is not None:
        assert "reject_recommended" not in inputs
        return
    derived = derive(Operands.from_decision_inputs(inputs))
    assert (derived.decision_state, derived.reject_recommended, derived.base_rule) == (
        d.decision_state,
        d.reject_recommended,
        d.base_rule,
    )
    assert inputs["reject_recommended"] == d.reject_recommended
    assert sealed.traceability["decision_state"] == d.decision_state


def test_exception_1_a_p2_item_partially_addressed_with_a_must_fix_gap_is_worse_than_not() -> None:
    p1 = Item("REV-001", "must_fix", "major", F)
    p2 = Item("REV-002", "should_fix", "minor", N)
    assert build(Draft((p1, p2))).decision.decision_state == "Minor Revision"  # B5, rate 0 %
    moved = replace(p2, final=P, final_magnitude="must_fix")
    assert build(Draft((p1, moved))).decision.decision_state == "Major Revision"  # B4


def test_exception_2_a_p1_item_out_of_cannot_verify_into_not_addressed_recommends_reject() -> None:
    items = (Item("REV-001", "must_fix", "major", C), Item("REV-002", "must_fix", "major", F))
    before = build(Draft(items)).decision
    assert (before.base_rule, before.reject_recommended) == ("B3", False)
    after = build(Draft((replace(items[0], final=N), items[1]))).decision
    assert (after.base_rule, after.reject_recommended) == ("B2", True)


def _loaded(sealed: Sealed) -> ReReviewBundle:
    inputs = sealed.inputs
    return load_re_review(
        manifest=sealed.manifest,
        precommitment=sealed.precommitment,
        verdict_record=sealed.verdict_record,
        traceability=sealed.traceability,
        roadmap=inputs["roadmap.json"],
        letter=inputs.get("decision_letter.md"),
        apply_reports=[inputs[k] for k in sorted(inputs) if k.startswith("apply_report_")],
    )


@given(drafts())
def test_every_sealed_bundle_checks_and_decide_re_review_is_derive(draft: Draft) -> None:
    sealed = build(draft)
    bundle = _loaded(sealed)
    report = check_re_review(bundle)
    assert report.grade == 0, [str(d) for d in report.diagnostics if d.severity == "error"]
    decided = decide_re_review(bundle)
    assert decided == report.decision
    assert decided.to_dict() == sealed.decision.to_dict()
    assert report.decision_state == sealed.traceability["decision_state"]
    if decided.gate is None:
        derived = derive(Operands.from_decision_inputs(sealed.traceability["decision_inputs"]))
        assert (derived.decision_state, derived.reject_recommended) == (
            decided.decision_state,
            decided.reject_recommended,
        )


@given(drafts(max_items=6), st.data())
def test_decide_re_review_ignores_what_the_sidecar_emits(draft: Draft, data: st.DataObject) -> None:
    sealed = build(draft)
    tr = dict(sealed.traceability)
    tr["decision_state"] = data.draw(
        st.sampled_from(("Accept", "Minor Revision", "Major Revision", "user_review_required"))
    )
    tr.pop("abort_reason", None)
    tr.pop("decision_inputs")
    tampered = Sealed(
        sealed.manifest,
        sealed.precommitment,
        sealed.verdict_record,
        tr,
        sealed.inputs,
        sealed.decision,
    )
    assert decide_re_review(_loaded(tampered)).to_dict() == sealed.decision.to_dict()


@given(drafts(max_items=5), st.data())
def test_flipping_any_byte_of_a_hashed_file_aborts_manifest_hash_mismatch(
    draft: Draft, data: st.DataObject
) -> None:
    sealed = build(draft)
    names = sorted(n for n in sealed.inputs if n.endswith((".json", ".md")))
    name = data.draw(st.sampled_from(names))
    raw = bytearray(sealed.inputs[name])
    at = data.draw(st.integers(0, len(raw) - 1))
    raw[at] ^= data.draw(st.integers(1, 255))
    flipped = Sealed(
        sealed.manifest,
        sealed.precommitment,
        sealed.verdict_record,
        sealed.traceability,
        {**sealed.inputs, name: bytes(raw)},
        sealed.decision,
    )
    report = check_re_review(_loaded(flipped))
    assert (report.grade, report.abort_reason) == (2, "manifest_hash_mismatch")
    assert [d.code for d in report.diagnostics if d.severity == "error"] == ["RR-013"]
    assert decide_re_review(_loaded(flipped)).tag == "[RE-REVIEW-ABORT: manifest_hash_mismatch]"


@given(drafts(max_items=5), st.sampled_from(("manifest", "precommitment", "verdict_record")))
def test_a_changed_upstream_document_breaks_the_hash_chain(draft: Draft, which: str) -> None:
    sealed = build(draft)
    docs = {
        "manifest": dict(sealed.manifest),
        "precommitment": dict(sealed.precommitment),
        "verdict_record": dict(sealed.verdict_record),
    }
    docs[which]["round_id"] = docs[which]["round_id"] + "-b"
    changed = Sealed(
        docs["manifest"],
        docs["precommitment"],
        docs["verdict_record"],
        sealed.traceability,
        sealed.inputs,
        sealed.decision,
    )
    report = check_re_review(_loaded(changed))
    link = {"manifest": "RR-201", "precommitment": "RR-202", "verdict_record": "RR-203"}[which]
    assert (report.grade, report.abort_reason) == (2, "manifest_hash_mismatch")
    assert [d.code for d in report.diagnostics if d.severity == "error"] == [link]


def test_a_verdict_that_is_not_text_is_a_finding_never_an_exception() -> None:
    sealed = build(SCENARIOS["accept"])
    tr = {**sealed.traceability, "adjustments": [dict(sealed.traceability["adjustments"][0])]}
    tr["adjustments"][0]["from_verdict"] = ["PARTIALLY_ADDRESSED"]
    broken = Sealed(
        sealed.manifest,
        sealed.precommitment,
        sealed.verdict_record,
        tr,
        sealed.inputs,
        sealed.decision,
    )
    report = check_re_review(_loaded(broken))
    assert (report.grade, report.abort_reason) == (2, "phase2b_lint_failed")
    codes = [d.code for d in report.diagnostics if d.severity == "error"]
    assert codes and all("RR-141" <= code <= "RR-156" for code in codes)
