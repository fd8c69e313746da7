"""``seal`` fills a bundle's hash links, derived members and decision (design/re-review.md
sec. 3, sec. 5.1), and ``apply_chain_witness`` judges the apply chain (RR-018…025, RR-901)."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest
from support.re_review_bundles import (
    ORIGINAL_SHA,
    PATCH_SHA,
    REVISED_SHA,
    SCENARIOS,
    Draft,
    build,
    records,
)

from kernel.re_review.canonical import canonical_sha256
from kernel.re_review.model import ReReviewError
from kernel.re_review.seal import Witness, apply_chain_witness, seal


def test_seal_fills_every_hash_link() -> None:
    given = records(SCENARIOS["accept"])
    sealed = seal(**given)
    artifacts = sealed.manifest["artifacts"]
    assert artifacts["revision_roadmap"]["sha256"] == hashlib.sha256(given["roadmap"]).hexdigest()
    assert (
        artifacts["editorial_decision_letter"]["sha256"]
        == hashlib.sha256(given["letter"]).hexdigest()
    )
    assert (
        artifacts["apply_reports"]["items"][0]["sha256"]
        == hashlib.sha256(given["apply_reports"][0]).hexdigest()
    )
    assert sealed.precommitment["input_manifest_hash"] == canonical_sha256(sealed.manifest)
    assert sealed.verdict_record["precommitment_hash"] == canonical_sha256(sealed.precommitment)
    assert sealed.traceability["verdict_record_hash"] == canonical_sha256(sealed.verdict_record)
    assert "supersedes_hash" not in sealed.traceability
    files = sealed.files()
    assert json.loads(files["manifest.json"]) == sealed.manifest
    assert files["roadmap.json"] == given["roadmap"]
    assert files["decision_letter.md"] == given["letter"]


def test_seal_leaves_its_arguments_alone() -> None:
    given = records(SCENARIOS["accept"])
    before = copy.deepcopy(given)
    seal(**given)
    assert given == before


def test_seal_fills_the_derived_members_and_the_decision() -> None:
    sealed = build(SCENARIOS["accept"])
    tr = sealed.traceability
    rows = {row["item_id"]: row for row in tr["rows"]}
    assert rows["REV-001"]["priority"] == "MUST_FIX"
    assert rows["REV-001"]["phase2a_verdict"] == "PARTIALLY_ADDRESSED"
    assert rows["REV-001"]["status"] == rows["REV-001"]["final_verdict"] == "FULLY_ADDRESSED"
    assert rows["REV-001"]["verified"] == "YES" and rows["REV-004"]["verified"] == "NO"
    assert tr["new_issues"] == sealed.verdict_record["new_issues"]
    assert tr["decision_state"] == "Accept" and "abort_reason" not in tr
    inputs = tr["decision_inputs"]
    assert inputs["reject_recommended"] is False
    assert inputs["apply_chain_witness"] == "pass"
    assert inputs["per_item"] == [
        {"item_id": "REV-001", "final_verdict": "FULLY_ADDRESSED", "driving_severity": "major"},
        {"item_id": "REV-002", "final_verdict": "FULLY_ADDRESSED", "driving_severity": "major"},
    ]
    assert inputs["verdict_counts"]["consider"]["NOT_ADDRESSED"] == 1
    assert inputs["p2_addressed_rate"] == {"numerator": 1, "denominator": 1}
    assert inputs["non_regression_new_issue_ids"] == ["NEW-1"]


def test_a_gated_emission_has_no_reject_flag() -> None:
    tr = build(SCENARIOS["user-review-required"]).traceability
    assert tr["decision_state"] == "user_review_required"
    assert "reject_recommended" not in tr["decision_inputs"]
    assert tr["decision_inputs"]["escalations"] == [
        {
            "exception_id": "ESC-1",
            "effective_approval_state": "pending",
            "escalation_class": "research_integrity",
            "mechanical_decision_impact": "Major Revision",
        }
    ]
    drift = build(SCENARIOS["aborted-criteria-drift"]).traceability
    assert (drift["decision_state"], drift["abort_reason"]) == ("aborted", "criteria_drift")
    assert "reject_recommended" not in drift["decision_inputs"]


def test_a_broken_apply_chain_seals_an_abort_with_witness_fail() -> None:
    sealed = build(SCENARIOS["aborted-manifest-hash-mismatch"])
    tr = sealed.traceability
    assert (tr["decision_state"], tr["abort_reason"]) == ("aborted", "manifest_hash_mismatch")
    assert tr["decision_inputs"]["apply_chain_witness"] == "fail"
    assert sealed.decision.tag == "[RE-REVIEW-ABORT: manifest_hash_mismatch]"
    assert "revised manuscript" in sealed.decision.explain()


def test_seal_links_a_revision_to_the_emission_it_revises() -> None:
    first = build(SCENARIOS["user-review-required"])
    given = records(SCENARIOS["user-review-required"])
    given["traceability"]["revision"] = 2
    given["traceability"]["escalation_approvals"] = [
        {"exception_id": "ESC-1", "approval_state": "approved", "approved_by": "user"}
    ]
    second = seal(**given, previous=first.traceability)
    assert second.traceability["supersedes_hash"] == canonical_sha256(first.traceability)
    # the 2A record is the same: its hash does not move across a deferral iteration
    assert second.traceability["verdict_record_hash"] == first.traceability["verdict_record_hash"]
    assert second.decision.decision_state == "Major Revision"
    assert second.decision.reject_recommended is True  # research_integrity, not B1/B2
    assert second.decision.base_rule == "B6"


def test_dissent_criterion_hashes_are_filled() -> None:
    given = records(SCENARIOS["accept"])
    given["verdict_record"]["dissents"] = [
        {
            "dissent_id": "DIS-1",
            "item_id": "REV-003",
            "criterion_hash": "",
            "reason_code": "criterion_ambiguous",
            "original_operationalization": "a",
            "replacement_operationalization": "b",
            "evidence": "c",
            "decision_impact_note": "d",
        }
    ]
    sealed = seal(**given)
    record = next(r for r in sealed.precommitment["items"] if r["item_id"] == "REV-003")
    assert sealed.verdict_record["dissents"][0]["criterion_hash"] == canonical_sha256(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"roadmap": b"{not json"}, "roadmap"),
        ({"apply_reports": []}, "declares 1 apply report"),
        ({"traceability": {"rows": "none"}}, "not shaped"),
    ],
)
def test_seal_refuses_records_it_cannot_fill(change: dict[str, Any], message: str) -> None:
    given = {**records(SCENARIOS["accept"]), **change}
    with pytest.raises(ReReviewError, match=message):
        seal(**given)


def test_seal_refuses_a_letter_the_manifest_declares_absent() -> None:
    given = records(Draft(SCENARIOS["accept"].items, letter=False))
    with pytest.raises(ReReviewError, match="declares it absent"):
        seal(**{**given, "letter": b"# a letter\n"})


# --- the witness ------------------------------------------------------------------------------


def _manifest(original: bool = True, patches: int = 1) -> dict[str, Any]:
    entry = {
        "present": True,
        "path_or_passport_ref": "path:x",
        "version_label": None,
        "origin_date": None,
    }
    return {
        "artifacts": {
            "original_manuscript": {**entry, "sha256": ORIGINAL_SHA}
            if original
            else {"present": False},
            "revised_manuscript": {**entry, "sha256": REVISED_SHA},
            "revision_patches": {"present": True, "items": [{"sha256": PATCH_SHA}] * patches},
        }
    }


def _report(
    base: str, out: str, version: str = "1.2", digest: str | None = PATCH_SHA
) -> dict[str, Any]:
    report: dict[str, Any] = {
        "report_format_version": version,
        "base_draft_hash": base,
        "output_draft_hash": out,
    }
    if digest is not None:
        report["patch_digest"] = digest
    return report


MID = "abcdefabcdef"


def test_witness_states() -> None:
    assert apply_chain_witness(_manifest(), []) == Witness("not_run_no_reports")
    one = [_report(ORIGINAL_SHA[:12], REVISED_SHA[:12])]
    assert apply_chain_witness(_manifest(), one) == Witness("pass")
    assert apply_chain_witness(_manifest(original=False), one) == Witness("first_link_not_run")
    two = [_report(ORIGINAL_SHA[:12], MID, "1.1", None), _report(MID, REVISED_SHA[:12], "1.10")]
    assert apply_chain_witness(_manifest(patches=2), two) == Witness(
        "pass", ((0, "[PATCH-BINDING-ABSENT: report format < 1.2]"),)
    )


@pytest.mark.parametrize(
    ("reports", "code", "reason"),
    [
        (["a report"], "RR-018", "manifest_incomplete"),
        (
            [{"report_format_version": "1.2", "base_draft_hash": ORIGINAL_SHA[:12]}],
            "RR-018",
            "manifest_incomplete",
        ),
        ([_report(ORIGINAL_SHA[:12], REVISED_SHA[:12], "v1.2")], "RR-019", "manifest_incomplete"),
        ([_report(ORIGINAL_SHA[:12], REVISED_SHA[:12], "1.2\n")], "RR-019", "manifest_incomplete"),
        ([_report(ORIGINAL_SHA[:12].upper(), REVISED_SHA[:12])], "RR-020", "manifest_incomplete"),
        (
            [_report(ORIGINAL_SHA[:12], REVISED_SHA[:12], "2.0", None)],
            "RR-021",
            "manifest_incomplete",
        ),
        (
            [_report(ORIGINAL_SHA[:12], REVISED_SHA[:12], "1.2", "0" * 64)],
            "RR-022",
            "manifest_hash_mismatch",
        ),
        ([_report(MID, REVISED_SHA[:12])], "RR-023", "manifest_hash_mismatch"),
        (
            [_report(ORIGINAL_SHA[:12], MID), _report("0" * 12, REVISED_SHA[:12])],
            "RR-024",
            "manifest_hash_mismatch",
        ),
        ([_report(ORIGINAL_SHA[:12], MID)], "RR-025", "manifest_hash_mismatch"),
    ],
)
def test_witness_breaks(reports: list[Any], code: str, reason: str) -> None:
    with pytest.raises(ReReviewError) as raised:
        apply_chain_witness(_manifest(patches=len(reports)), reports)
    assert (raised.value.code, raised.value.abort_reason) == (code, reason)
    assert raised.value.tag == f"[RE-REVIEW-ABORT: {reason}]"


def test_fields_are_checked_before_links() -> None:
    reports = [_report(MID, MID), _report(MID, REVISED_SHA[:12], "x")]
    with pytest.raises(ReReviewError) as raised:
        apply_chain_witness(_manifest(patches=2), reports)
    assert raised.value.code == "RR-019"


@pytest.mark.parametrize(
    "manifest",
    [{}, {"artifacts": []}, {"artifacts": {"revision_patches": {"items": 3}}}, None],
)
def test_a_manifest_the_witness_cannot_read_is_a_kernel_error(manifest: Any) -> None:
    report = _report(ORIGINAL_SHA[:12], REVISED_SHA[:12])
    with pytest.raises(ReReviewError) as raised:
        apply_chain_witness(manifest, [report])
    assert (raised.value.code, raised.value.abort_reason) == ("RR-001", "manifest_incomplete")
