"""Step 1 of the re-review decision (design/re-review.md sec. 5.2): G1 (a silent verdict change
aborts with criteria_drift) and G2's four pending states, on sealed bundles (sec. 7 examples 10,
11, 14, 15), and what ``explain`` says about each."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from support.re_review_bundles import SCENARIOS, Draft, Item, records

from kernel.re_review.decision import decide_records, gates
from kernel.re_review.seal import seal

F, P, N, W, C = (
    "FULLY_ADDRESSED",
    "PARTIALLY_ADDRESSED",
    "NOT_ADDRESSED",
    "MADE_WORSE",
    "CANNOT_VERIFY",
)


def _items(given: dict[str, Any]) -> list[dict[str, Any]]:
    import json

    items: list[dict[str, Any]] = json.loads(given["roadmap"])["items"]
    return items


def test_example_11_a_silent_change_aborts_with_criteria_drift() -> None:
    sealed = seal(**records(SCENARIOS["aborted-criteria-drift"]))
    d = sealed.decision
    assert (d.decision_state, d.abort_reason, d.gate) == ("aborted", "criteria_drift", "G1")
    assert d.tag == "[RE-REVIEW-ABORT: criteria_drift]"
    assert d.reject_recommended is None and d.base_rule is None
    assert d.reasons[0][2] == ("REV-002",)
    assert d.explain().splitlines()[0].startswith("G1: a row's final verdict differs")
    assert d.explain().splitlines()[1:] == [
        "flag: reject_recommended absent (G1 decided)",
        "decision: aborted [RE-REVIEW-ABORT: criteria_drift]",
    ]


def test_an_adjustment_on_the_item_carries_the_change() -> None:
    draft = SCENARIOS["aborted-criteria-drift"]
    carried = replace(draft, items=tuple(replace(i, silent=False) for i in draft.items))
    d = seal(**records(carried)).decision
    assert d.gate is None and d.decision_state == "Major Revision"  # REV-002 NOT: B2


def test_example_10_an_exception_without_approval_defers() -> None:
    d = seal(**records(SCENARIOS["user-review-required"])).decision
    assert (d.decision_state, d.gate, d.pending) == (
        "user_review_required",
        "G2",
        (("c", "ESC-1"),),
    )
    assert d.reject_recommended is None
    assert "(c) escalation exception ESC-1 has no approval" in d.explain()


def _dissent(n: int, item: str) -> dict[str, Any]:
    return {
        "dissent_id": f"DIS-{n}",
        "item_id": item,
        "criterion_hash": "",
        "reason_code": "criterion_ambiguous",
        "original_operationalization": "as precommitted",
        "replacement_operationalization": "a narrower reading",
        "evidence": "the criterion names two surfaces",
        "decision_impact_note": "none expected",
    }


def test_example_14_a_dissent_on_a_p1_item_trips_the_bound() -> None:
    given = records(SCENARIOS["accept"])
    given["verdict_record"]["dissents"] = [_dissent(1, "REV-002")]
    given["verdict_record"]["items"][1]["applied_criterion"] = "dissented:DIS-1"
    sealed = seal(**given)
    d = sealed.decision
    assert (d.decision_state, d.pending) == ("user_review_required", (("a", "DIS-1"),))
    found = gates(_items(given), sealed.verdict_record, sealed.traceability)
    assert found.bound_tripped and found.g1 == ()
    # adjudicated: nothing pending
    given["traceability"]["dissent_adjudications"] = [
        {
            "dissent_id": "DIS-1",
            "adjudicator": "user",
            "outcome": "replacement_approved",
            "rationale": "r",
        }
    ]
    assert seal(**given).decision.decision_state == "Accept"


def test_the_bound_counts_dissents_against_a_third_of_the_items() -> None:
    given = records(SCENARIOS["accept"])  # 4 items: the bound is ceil(4/3) = 2 dissents
    sealed = seal(**given)
    vr, tr = sealed.verdict_record, sealed.traceability
    vr["dissents"] = [_dissent(1, "REV-003"), _dissent(2, "REV-003")]
    assert not gates(_items(given), vr, tr).bound_tripped
    vr["dissents"].append(_dissent(3, "REV-003"))
    found = gates(_items(given), vr, tr)
    assert found.bound_tripped and [p[0] for p in found.pending] == ["a", "a", "a"]


def _reapplication(rid: str, item: str, refs: list[str], pre: str, verdict: str) -> dict[str, Any]:
    reapp: dict[str, Any] = {
        "reapplication_id": rid,
        "item_id": item,
        "answer_refs": refs,
        "pre_reapplication_verdict": pre,
        "reapplied_verdict": verdict,
        "rationale": "re-applied",
        "criterion_ref": f"phase1:{item}",
    }
    if verdict == C:
        reapp["cannot_verify_reason"] = "the supplement is missing"
    return reapp


def test_g2b_a_diverging_p1_row_needs_a_covering_resolution() -> None:
    given = records(SCENARIOS["accept"])
    given["manifest"]["cross_model_active"] = True
    row = given["traceability"]["rows"][1]  # REV-002, final FULLY
    row["cross_model_status"] = "diverges"
    row["cross_model_verdict"] = N
    d = seal(**given).decision
    assert d.pending == (("b", "REV-002"),)
    tr = given["traceability"]
    tr["resolution_intents"] = [
        {"intent_id": "INT-1", "item_id": "REV-002", "answered_by": "system"}
    ]
    tr["reapplications"] = [_reapplication("RAP-1", "REV-002", ["intent:INT-1"], F, F)]
    tr["cross_model_resolutions"] = [
        {
            "resolution_id": "RES-1",
            "item_id": "REV-002",
            "intent_id": "INT-1",
            "reapplication_id": "RAP-1",
            "state": "primary_upheld",
            "resolved_by": "system",
            "rationale": "r",
        }
    ]
    assert seal(**given).decision.decision_state == "Accept"
    # a system resolution covers only when its reapplied verdict is the row's final one
    tr["reapplications"][0]["reapplied_verdict"] = P
    assert seal(**given).decision.pending == (("b", "REV-002"),)
    # a user resolution is read on the pre-reapplication verdict
    tr["cross_model_resolutions"][0]["resolved_by"] = "user"
    assert seal(**given).decision.pending == ()


def test_example_15_an_accepted_fail_closed_reapplication_decides_b3() -> None:
    draft = Draft(
        (
            Item("REV-001", "must_fix", "major", F),
            Item("REV-002", "must_fix", "major", F),
            Item("REV-003", "must_fix", "major", F),
        )
    )
    given = records(draft)
    vr, tr = given["verdict_record"], given["traceability"]
    vr["dissents"] = [_dissent(1, "REV-001")]
    vr["items"][0]["applied_criterion"] = "dissented:DIS-1"
    tr["dissent_adjudications"] = [
        {
            "dissent_id": "DIS-1",
            "adjudicator": "user",
            "outcome": "original_upheld",
            "rationale": "r",
        }
    ]
    tr["reapplications"] = [_reapplication("RAP-1", "REV-001", ["adjudication:DIS-1"], F, C)]
    d = seal(**given).decision
    assert (d.decision_state, d.pending) == ("user_review_required", (("d", "DIS-1"),))
    tr["g2d_acceptances"] = [
        {
            "acceptance_id": "ACC-1",
            "item_id": "REV-001",
            "reapplication_id": "RAP-1",
            "accepted_by": "user",
        }
    ]
    tr["adjustments"] = [
        {
            "adjustment_id": "ADJ-1",
            "item_id": "REV-001",
            "from_verdict": F,
            "to_verdict": C,
            "basis": "user_accepted_fail_closed",
            "rationale": "the user accepts the fail-closed verdict",
            "cannot_verify_reason": "the supplement is missing",
            "source_ref": "acceptance:ACC-1",
        }
    ]
    tr["rows"][0]["final_verdict"] = C
    tr["rows"][0]["adjustment_id"] = "ADJ-1"
    d = seal(**given).decision
    assert (d.decision_state, d.base_rule, d.reject_recommended) == ("Major Revision", "B3", False)
    assert d.reasons[0][2] == ("REV-001",)


def test_decide_records_ignores_what_the_sidecar_emits() -> None:
    given = records(SCENARIOS["major-reject"])
    sealed = seal(**given)
    tr = dict(sealed.traceability)
    tr.update(decision_state="Accept", decision_inputs={"per_item": "anything"})
    tr.pop("abort_reason", None)
    items = _items(given)
    d = decide_records(items, sealed.verdict_record, tr, "pass")
    assert (d.decision_state, d.base_rule, d.reject_recommended) == ("Major Revision", "B1", True)
    assert d.decision_inputs == sealed.traceability["decision_inputs"]
    assert d.reasons[0][2] == ("REV-001",)  # the major regression NEW-1 is B3's, not B1's


def test_records_that_are_not_shaped_are_a_kernel_error() -> None:
    import pytest

    from kernel.re_review.decision import decision_inputs, operands
    from kernel.re_review.model import ReReviewError

    given = records(SCENARIOS["accept"])
    items = _items(given)
    broken = {**given["traceability"], "rows": [{"item_id": "REV-001"}]}
    for call in (
        lambda: decide_records(items, given["verdict_record"], broken, "pass"),
        lambda: gates(items, given["verdict_record"], {"rows": [None]}),
        lambda: operands([{"id": "REV-001"}], given["verdict_record"], broken),
        lambda: decision_inputs(items, {"new_issues": [{}]}, broken, "pass"),
    ):
        with pytest.raises(ReReviewError, match="not shaped"):
            call()
