"""``check_re_review``: the layers of design §4 on realistic bundles (the examples' rounds,
the worked examples of §7) and on bad input; every generated valid bundle passes and
matches the shipped schemas; a flipped byte of a hashed file aborts the round."""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.re_review_bundles import (
    OUTCOMES,
    SCENARIOS,
    Draft,
    build,
    drafts,
    records,
    write,
)

from kernel import KernelError, ReReviewReport, check_re_review, load_re_review
from kernel.re_review import canonical_sha256, seal
from kernel.re_review.load import ReReviewBundle
from kernel.re_review.schemas import SCHEMA_NAMES, document_schema_errors
from kernel.re_review.seal import Sealed


def _bundle(sealed: Sealed, **override: Any) -> ReReviewBundle:
    names = {
        e["path_or_passport_ref"][5:]: key
        for key, e in (
            ("roadmap", sealed.manifest["artifacts"]["revision_roadmap"]),
            ("letter", sealed.manifest["artifacts"]["editorial_decision_letter"]),
        )
        if e["present"]
    }
    given_: dict[str, Any] = {
        "manifest": sealed.manifest,
        "precommitment": sealed.precommitment,
        "verdict_record": sealed.verdict_record,
        "traceability": sealed.traceability,
    }
    for name, key in names.items():
        given_[key] = sealed.inputs[name]
    reports = sealed.manifest["artifacts"]["apply_reports"]
    if reports["present"]:
        given_["apply_reports"] = [
            sealed.inputs[i["path_or_passport_ref"][5:]] for i in reports["items"]
        ]
    given_.update(override)
    return load_re_review(**given_)


def _check(sealed: Sealed, **override: Any) -> ReReviewReport:
    return check_re_review(_bundle(sealed, **override))


def _codes(report: ReReviewReport) -> list[str]:
    return [d.code for d in report.diagnostics]


def _resealed(draft: Draft, change: Callable[[dict[str, Any]], None]) -> Sealed:
    """``draft``'s records changed by ``change`` (on the unsealed keyword arguments), then
    sealed: the emission is what the records give, so only the rule under test fails."""
    args = records(draft)
    change(args)
    return seal(**args)


BASE = SCENARIOS["accept"]


# --- the examples' rounds, and the worked examples of §7 -----------------------------------


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_each_example_round_checks_as_its_outcome(name: str, tmp_path: Path) -> None:
    write(build(SCENARIOS[name]), str(tmp_path))
    report = check_re_review(load_re_review(tmp_path))
    state, reason, rule, reject = OUTCOMES[name]
    assert report.decision.decision_state == state
    assert report.decision.abort_reason == reason
    if name == "aborted-manifest-hash-mismatch":  # example 12: the last link is broken
        assert (report.grade, report.abort_reason, _codes(report)) == (
            2,
            "manifest_hash_mismatch",
            ["RR-025"],
        )
        assert report.tag == "[RE-REVIEW-ABORT: manifest_hash_mismatch]"
        (finding,) = report.diagnostics
        assert finding.file == os.path.join(str(tmp_path), "apply_report_2.json")
        assert finding.data["report"] == 1
        return
    assert report.ok and report.grade == 0 and report.errors == ()
    assert report.decision_state == state and report.round_id == "ms-2291-round-2"
    assert report.decision.base_rule == rule and report.decision.reject_recommended == reject
    assert report.to_dict()["decision"]["decision_state"] == state


def test_example_10_an_unapproved_exception_emitted_as_major_is_rr_415() -> None:
    sealed = build(SCENARIOS["user-review-required"])
    trace = copy.deepcopy(sealed.traceability)
    trace["decision_state"] = "Major Revision"
    report = _check(sealed, traceability=trace)
    assert (report.grade, report.abort_reason) == (1, "synthesis_mismatch")
    (finding,) = report.errors
    assert finding.code == "RR-415"
    assert finding.data["pending"] == [{"kind": "c", "subject": "ESC-1"}]
    assert finding.data["expected"] == "user_review_required"
    assert report.decision.decision_state == "user_review_required"


def test_example_11_a_silent_change_emitted_as_accept_is_rr_414() -> None:
    sealed = build(SCENARIOS["aborted-criteria-drift"])
    trace = copy.deepcopy(sealed.traceability)
    trace["decision_state"] = "Accept"
    del trace["abort_reason"]
    trace["decision_inputs"]["reject_recommended"] = False
    report = _check(sealed, traceability=trace)
    assert report.grade == 1
    assert [d.code for d in report.errors] == ["RR-414"]
    assert report.errors[0].data["item"] == "REV-002"
    assert report.decision.abort_reason == "criteria_drift"


def test_example_13_an_unsound_letter_is_a_note_and_letter_fields_are_rr_311() -> None:
    def renumber(args: dict[str, Any]) -> None:
        args["letter"] = args["letter"].replace(b"**R2:", b"**R3:")

    sealed = _resealed(BASE, renumber)
    report = _check(sealed)
    assert "RR-902" in _codes(report) and report.grade == 1
    assert {d.code for d in report.errors} == {"RR-311"}
    note = next(d for d in report.diagnostics if d.code == "RR-902")
    assert note.severity == "info" and note.line is not None

    def drop_fields(args: dict[str, Any]) -> None:
        renumber(args)
        for rec in args["precommitment"]["items"]:
            rec["inherited_criterion"].pop("letter_text", None)
            rec["inherited_criterion"].pop("letter_item_ref", None)

    fixed = _check(_resealed(BASE, drop_fields))
    assert fixed.ok and [d.code for d in fixed.notes] == ["RR-902"]


def test_a_must_fix_record_missing_its_letter_criterion_is_rr_308() -> None:
    def drop(args: dict[str, Any]) -> None:
        rec = args["precommitment"]["items"][0]
        del rec["inherited_criterion"]["letter_text"]
        del rec["inherited_criterion"]["letter_item_ref"]

    report = _check(_resealed(BASE, drop))
    assert [d.code for d in report.errors] == ["RR-308"]
    assert report.errors[0].data == {"artifact": "precommitment", "item": "REV-001", "ref": "R1"}


def test_example_14_a_p1_dissent_without_adjudication_must_be_deferred() -> None:
    def dissent(args: dict[str, Any]) -> None:
        vr = args["verdict_record"]
        vr["dissents"].append(
            {
                "dissent_id": "DIS-1",
                "item_id": "REV-001",
                "criterion_hash": "0" * 64,
                "reason_code": "criterion_ambiguous",
                "original_operationalization": "power analysis reported",
                "replacement_operationalization": "a priori power analysis with effect size",
                "evidence": 'text: §3.2 "d = 0.4"',
                "decision_impact_note": "the verdict does not change",
            }
        )
        vr["items"][0]["applied_criterion"] = "dissented:DIS-1"

    sealed = _resealed(BASE, dissent)
    assert sealed.traceability["decision_state"] == "user_review_required"
    report = _check(sealed)
    assert report.ok and report.decision.pending == (("a", "DIS-1"),)
    stale = copy.deepcopy(sealed.verdict_record)
    stale["dissents"][0]["criterion_hash"] = "0" * 64
    trace = copy.deepcopy(sealed.traceability)
    trace["verdict_record_hash"] = canonical_sha256(stale)
    broken = _check(sealed, verdict_record=stale, traceability=trace)
    assert [d.code for d in broken.errors] == ["RR-314"]
    assert broken.decision.abort_reason == "synthesis_mismatch"


# --- L8 rules and emission equality on changed records -------------------------------------


@pytest.mark.parametrize(
    ("code", "change"),
    [
        ("RR-301", lambda a: a["verdict_record"].update(round_id="round-2")),
        (
            "RR-304",
            lambda a: a["precommitment"]["items"][2].update(
                priority="must_fix",
                operationalization={
                    "fully_addressed": "limitations named",
                    "partially_addressed": "some named",
                    "made_worse_discriminator": "claims widened",
                },
            ),
        ),
        (
            "RR-305",
            lambda a: a["precommitment"]["items"][0]["inherited_criterion"].update(
                roadmap_text="Add a power analysis."
            ),
        ),
        ("RR-306", lambda a: a["precommitment"]["items"][0].update(source_reviewer="Reviewer 1")),
        ("RR-307", lambda a: a["precommitment"]["items"][0].update(source_reviewer_labels=["R2"])),
        (
            "RR-309",
            lambda a: a["precommitment"]["items"][0]["inherited_criterion"].update(
                letter_item_ref="R2"
            ),
        ),
        (
            "RR-310",
            lambda a: a["precommitment"]["items"][0]["inherited_criterion"].update(
                letter_text="Something else."
            ),
        ),
        (
            "RR-316",
            lambda a: a["verdict_record"]["items"][3].update(applied_criterion="precommitted"),
        ),
        (
            "RR-317",
            lambda a: a["verdict_record"]["items"][0].update(applied_criterion="not_precommitted"),
        ),
        (
            "RR-323",
            lambda a: a["verdict_record"]["new_issues"][0].update(nearest_roadmap_item="REV-999"),
        ),
        ("RR-302", lambda a: a["precommitment"]["items"].append(a["precommitment"]["items"][0])),
        (
            "RR-396",
            lambda a: a["traceability"]["escalation_approvals"].append(
                {"exception_id": "ESC-7", "approval_state": "approved", "approved_by": "user"}
            ),
        ),
    ],
)
def test_each_cross_document_rule_fails_alone(
    code: str, change: Callable[[dict[str, Any]], None]
) -> None:
    report = _check(_resealed(BASE, change))
    assert report.grade == 1 and report.abort_reason == "synthesis_mismatch"
    assert code in {d.code for d in report.errors}, _codes(report)
    assert report.decision.abort_reason == "synthesis_mismatch"
    finding = next(d for d in report.errors if d.code == code)
    assert finding.json_path is not None and finding.data["artifact"]


def test_rows_that_disagree_with_their_sources_are_each_reported() -> None:
    sealed = build(BASE)
    trace = copy.deepcopy(sealed.traceability)
    row = trace["rows"][0]
    row["status"] = "NOT_ADDRESSED"
    row["verified"] = "NO"
    row["verified_by"] = "R3" if row["verified_by"] != "R3" else "R2"
    report = _check(sealed, traceability=trace)
    # L7 first: the sidecar is not what the verdict record hash binds? It binds the verdict
    # record, not the sidecar, so the change reaches L8 and every rule reports.
    assert {"RR-327", "RR-328", "RR-329"} <= {d.code for d in report.errors}


def test_decision_inputs_and_the_flag_are_compared_with_the_recomputation() -> None:
    sealed = build(SCENARIOS["minor-revision"])
    trace = copy.deepcopy(sealed.traceability)
    trace["decision_inputs"]["p2_addressed_rate"]["numerator"] += 1
    trace["decision_inputs"]["apply_chain_witness"] = "first_link_not_run"
    trace["decision_inputs"]["reject_recommended"] = True
    report = _check(sealed, traceability=trace)
    codes = [d.code for d in report.errors]
    assert {"RR-403", "RR-407", "RR-420"} <= set(codes)
    rate = next(d for d in report.errors if d.code == "RR-403")
    assert rate.data["expected"]["numerator"] + 1 == rate.data["emitted"]["numerator"]
    assert rate.json_path == "$.decision_inputs.p2_addressed_rate"
    del trace["decision_inputs"]["reject_recommended"]
    assert "RR-419" in _codes(_check(sealed, traceability=trace))


def test_an_emitted_state_the_records_do_not_give_is_rr_417() -> None:
    sealed = build(SCENARIOS["major-reject"])
    trace = copy.deepcopy(sealed.traceability)
    trace["decision_state"] = "Minor Revision"
    report = _check(sealed, traceability=trace)
    assert [d.code for d in report.errors] == ["RR-417", "RR-418"]
    assert report.errors[0].data["rule"] == "B1"


def test_an_aborted_emission_the_check_got_past_is_rr_411_and_413() -> None:
    sealed = build(BASE)
    trace = copy.deepcopy(sealed.traceability)
    trace["decision_state"] = "aborted"
    trace["abort_reason"] = "synthesis_mismatch"
    trace["decision_inputs"].pop("reject_recommended")
    assert [d.code for d in _check(sealed, traceability=trace).errors] == ["RR-411"]
    trace["abort_reason"] = "criteria_drift"
    assert [d.code for d in _check(sealed, traceability=trace).errors] == ["RR-413"]


# --- L1-L7 ---------------------------------------------------------------------------------


def _manifest(change: Callable[[dict[str, Any]], None]) -> ReReviewReport:
    sealed = build(BASE)
    manifest = copy.deepcopy(sealed.manifest)
    change(manifest)
    return _check(sealed, manifest=manifest)


@pytest.mark.parametrize(
    ("code", "reason", "change"),
    [
        ("RR-001", "manifest_incomplete", lambda m: m.pop("cross_model_active")),
        ("RR-001", "manifest_incomplete", lambda m: m.update(extra=1)),
        (
            "RR-002",
            "manifest_incomplete",
            lambda m: m["artifacts"]["round1_findings"].update(present=False, sha256="0" * 64),
        ),
        (
            "RR-003",
            "manifest_incomplete",
            lambda m: m["artifacts"]["revision_roadmap"].update(
                path_or_passport_ref="roadmap.json"
            ),
        ),
        (
            "RR-004",
            "manifest_incomplete",
            lambda m: m["artifacts"]["revision_roadmap"].update(
                path_or_passport_ref="path:../roadmap.json"
            ),
        ),
        (
            "RR-004",
            "manifest_incomplete",
            lambda m: m["artifacts"]["revision_roadmap"].update(
                path_or_passport_ref="path:C:/roadmap.json"
            ),
        ),
        (
            "RR-005",
            "manifest_incomplete",
            lambda m: m["artifacts"]["revision_roadmap"].update(sha256="F" * 64),
        ),
        (
            "RR-006",
            "manifest_incomplete",
            lambda m: m["artifacts"]["revision_roadmap"].pop("origin_date"),
        ),
        (
            "RR-007",
            "manifest_incomplete",
            lambda m: m["artifacts"]["revised_manuscript"].update(
                path_or_passport_ref="passport:ms-2291-v2", version_label=None
            ),
        ),
        (
            "RR-008",
            "manifest_incomplete",
            lambda m: m["artifacts"]["revision_patches"].update(items=[]),
        ),
        (
            "RR-009",
            "manifest_incomplete",
            lambda m: m["artifacts"].update(revised_manuscript={"present": False}),
        ),
        (
            "RR-010",
            "manifest_incomplete",
            lambda m: m["artifacts"].update(revision_patches={"present": False}),
        ),
        (
            "RR-011",
            "manifest_incomplete",
            lambda m: m["artifacts"]["revision_patches"]["items"].append(
                m["artifacts"]["revision_patches"]["items"][0]
            ),
        ),
        (
            "RR-012",
            "manifest_hash_mismatch",
            lambda m: m["artifacts"]["revision_roadmap"].update(origin_date="2000-01-01"),
        ),
    ],
)
def test_each_manifest_rule_stops_the_check(
    code: str, reason: str, change: Callable[[dict[str, Any]], None]
) -> None:
    report = _manifest(change)
    assert (report.grade, report.abort_reason) == (2, reason)
    assert code in _codes(report), _codes(report)
    assert report.decision.decision_state == "aborted" and report.decision.gate == "G0"


def test_a_stale_hash_link_is_manifest_hash_mismatch() -> None:
    sealed = build(BASE)
    for member, doc, code in (
        ("input_manifest_hash", "precommitment", "RR-201"),
        ("precommitment_hash", "verdict_record", "RR-202"),
        ("verdict_record_hash", "traceability", "RR-203"),
    ):
        changed = copy.deepcopy(getattr(sealed, doc))
        changed[member] = "0" * 64
        report = _check(sealed, **{doc: changed})
        assert (report.grade, report.abort_reason, _codes(report)) == (
            2,
            "manifest_hash_mismatch",
            [code],
        )
    reformatted = json.dumps(sealed.manifest, indent=7).encode()
    assert _check(sealed, manifest=reformatted).ok  # hashes are of values, not of text


@pytest.mark.parametrize(
    ("doc", "code", "reason", "change"),
    [
        ("precommitment", "RR-101", "phase1_lint_failed", lambda d: d.update(extra=True)),
        (
            "precommitment",
            "RR-104",
            "phase1_lint_failed",
            lambda d: d["items"][0]["operationalization"].pop("made_worse_discriminator"),
        ),
        (
            "precommitment",
            "RR-103",
            "phase1_lint_failed",
            lambda d: d["items"][2]["inherited_criterion"].update(
                letter_text="x", letter_item_ref="R2"
            ),
        ),
        (
            "verdict_record",
            "RR-121",
            "phase2a_lint_failed",
            lambda d: d["items"][0].update(verified_by="DA"),
        ),
        (
            "verdict_record",
            "RR-122",
            "phase2a_lint_failed",
            lambda d: d["items"][0].pop("evidence_anchor"),
        ),
        (
            "verdict_record",
            "RR-124",
            "phase2a_lint_failed",
            lambda d: d["items"][0].update(applied_criterion="dissented:DIS-0"),
        ),
        ("traceability", "RR-141", "phase2b_lint_failed", lambda d: d.update(revision=0)),
        ("traceability", "RR-142", "phase2b_lint_failed", lambda d: d.update(revision=2)),
        (
            "traceability",
            "RR-144",
            "phase2b_lint_failed",
            lambda d: d["rows"][0].pop("cross_model_status"),
        ),
        (
            "traceability",
            "RR-145",
            "phase2b_lint_failed",
            lambda d: d["rows"][2].update(cross_model_status="not_configured"),
        ),
    ],
)
def test_each_phase_schema_rule_stops_the_check_at_its_layer(
    doc: str, code: str, reason: str, change: Callable[[dict[str, Any]], None]
) -> None:
    sealed = build(BASE)
    changed = copy.deepcopy(getattr(sealed, doc))
    change(changed)
    report = _check(sealed, **{doc: changed})
    assert (report.grade, report.abort_reason) == (2, reason)
    assert code in _codes(report), _codes(report)


def test_a_finding_in_a_file_names_the_member_s_line_and_column(tmp_path: Path) -> None:
    sealed = build(BASE)
    write(sealed, str(tmp_path))
    path = tmp_path / "verdict_record.json"
    text = path.read_text("utf-8").replace('"verified_by": "R1"', '"verified_by": "DA"', 1)
    path.write_text(text, "utf-8")
    report = check_re_review(load_re_review(tmp_path))
    (finding,) = report.errors
    line = next(n for n, t in enumerate(text.splitlines(), 1) if '"DA"' in t)
    assert (finding.code, finding.file, finding.line) == ("RR-121", str(path), line)
    assert finding.json_path == "$.items[0].verified_by" and finding.column is not None


# --- bad input: a finding or a KernelError, never a traceback ------------------------------


def test_unreadable_documents_fail_at_their_own_layer(tmp_path: Path) -> None:
    sealed = build(BASE)
    cases = {
        "manifest": ("manifest_incomplete", b'{"round_id": "a", "round_id": "b"}', "E-JSON"),
        "precommitment": ("phase1_lint_failed", b'{"items": NaN}', "E-JSON"),
        "verdict_record": ("phase2a_lint_failed", b"[" * 10_000 + b"]" * 10_000, "E-JSON"),
        "traceability": ("phase2b_lint_failed", b"\xff\xfe{}", "E-UTF8"),
    }
    for name, (reason, data, code) in cases.items():
        report = _check(sealed, **{name: data})
        assert (report.grade, report.abort_reason, _codes(report)) == (2, reason, [code]), name
    big = _check(sealed, precommitment=b" " * 2_000_000)
    assert _codes(big) == ["E-SIZE"] and big.abort_reason == "phase1_lint_failed"


def test_a_flipped_roadmap_letter_or_report_byte_is_rr_013_even_when_it_breaks_the_json() -> None:
    sealed = build(BASE)
    roadmap = sealed.inputs["roadmap.json"]
    report = _check(sealed, roadmap=b"\xff" + roadmap[1:])
    assert (report.abort_reason, _codes(report)) == ("manifest_hash_mismatch", ["RR-013"])


@settings(max_examples=25, deadline=None)
@given(drafts(max_items=6), st.data())
def test_flipping_any_byte_of_any_hashed_file_aborts_manifest_hash_mismatch(
    draft: Draft, data: st.DataObject
) -> None:
    sealed = build(replace(draft, broken_last_link=False))
    names = sorted(sealed.inputs)
    name = data.draw(st.sampled_from(names))
    blob = bytearray(sealed.inputs[name])
    at = data.draw(st.integers(0, len(blob) - 1))
    blob[at] ^= data.draw(st.integers(1, 255))
    files = dict(sealed.inputs)
    files[name] = bytes(blob)
    report = _check(
        attrs_evolve(sealed, files),
    )
    assert report.grade == 2 and report.abort_reason == "manifest_hash_mismatch"
    assert _codes(report)[-1] == "RR-013"


def attrs_evolve(sealed: Sealed, inputs: dict[str, bytes]) -> Sealed:
    import attrs

    return attrs.evolve(sealed, inputs=inputs)


@settings(max_examples=30, deadline=None)
@given(drafts(max_items=8))
def test_every_sealed_bundle_passes_and_matches_the_shipped_schemas(draft: Draft) -> None:
    sealed = build(draft)
    for name in SCHEMA_NAMES:
        assert document_schema_errors(name, getattr(sealed, name)) == [], name
    report = _check(sealed)
    assert report.errors == (), [str(d) for d in report.errors]
    assert report.decision.decision_state == sealed.traceability["decision_state"]


def test_misuse_raises_a_kernel_error(tmp_path: Path) -> None:
    with pytest.raises(KernelError, match="max_bytes"):
        load_re_review(tmp_path, max_bytes=0)
    with pytest.raises(KernelError, match="not a folder"):
        load_re_review(tmp_path / "missing")
    with pytest.raises(KernelError, match="must be a path or bytes"):
        load_re_review(roadmap={"items": []})
    with pytest.raises(KernelError, match="not a JSON value"):
        load_re_review(manifest={"round_id": {1, 2}})
    with pytest.raises(KernelError, match="bundle from load_re_review"):
        check_re_review({"manifest": {}})  # type: ignore[arg-type]


def test_a_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    sealed = build(BASE)
    folder = tmp_path / "bundle"
    write(sealed, str(folder))
    outside = tmp_path / "elsewhere.json"
    outside.write_bytes(sealed.inputs["roadmap.json"])
    (folder / "roadmap.json").unlink()
    (folder / "roadmap.json").symlink_to(outside)
    with pytest.raises(KernelError, match="outside the folder"):
        load_re_review(folder)


def test_a_missing_or_passport_file_is_not_supplied(tmp_path: Path) -> None:
    sealed = build(BASE)
    write(sealed, str(tmp_path))
    (tmp_path / "decision_letter.md").unlink()
    report = check_re_review(load_re_review(tmp_path))
    assert (report.abort_reason, _codes(report)) == ("manifest_incomplete", ["E-READ"])
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    report = _check(sealed, letter=fifo)
    assert _codes(report) == ["E-NOT-FILE"]
    bare = load_re_review(
        manifest=sealed.manifest,
        precommitment=sealed.precommitment,
        verdict_record=sealed.verdict_record,
        traceability=sealed.traceability,
        roadmap=sealed.inputs["roadmap.json"],
    )
    assert _codes(check_re_review(bare)) == ["RR-015"]


def test_floats_big_integers_and_lone_surrogates_in_a_mapping_are_findings() -> None:
    sealed = build(BASE)
    trace = copy.deepcopy(sealed.traceability)
    trace["revision"] = 2**60
    trace["supersedes_hash"] = "0" * 64
    report = _check(sealed, traceability=trace)
    assert report.abort_reason == "phase2b_lint_failed" and _codes(report) == ["RR-141"]
    assert "2^53" in report.errors[0].message
    vr = copy.deepcopy(sealed.verdict_record)
    vr["new_issues"] = []
    vr["items"][0]["change_summary"] = "bad \ud800 text"
    report = _check(sealed, verdict_record=vr)
    assert _codes(report) == ["RR-121"] and "surrogate" in report.errors[0].message
    pre = copy.deepcopy(sealed.precommitment)
    pre["items"][0]["priority"] = 1.0
    assert set(_codes(_check(sealed, precommitment=pre))) == {"RR-101"}


# --- the deferral loop (design §7 example 15 and G2(b)) -------------------------------------

F, P, N, C = "FULLY_ADDRESSED", "PARTIALLY_ADDRESSED", "NOT_ADDRESSED", "CANNOT_VERIFY"


def _reapplication(rid: str, item: str, refs: list[str], pre: str, after: str) -> dict[str, Any]:
    found: dict[str, Any] = {
        "reapplication_id": rid,
        "item_id": item,
        "answer_refs": refs,
        "pre_reapplication_verdict": pre,
        "reapplied_verdict": after,
        "rationale": "Re-read against the upheld criterion: the supplement is not in the bundle.",
        "criterion_ref": f"phase1:{item}",
    }
    if after == C:
        found["cannot_verify_reason"] = "the supplement S2 is missing from the submission"
    else:
        found["evidence_anchor"] = [
            {"anchor": 'table: Table 3 "both specifications"', "anchor_artifact": "manuscript"}
        ]
    return found


def _example_15() -> dict[str, Any]:
    """Example 15: a P1 dissent upheld, its reapplication fail-closed, the user accepts."""
    from support.re_review_bundles import Item

    given = records(
        Draft(
            (
                Item("REV-001", "must_fix", "major", F),
                Item("REV-002", "must_fix", "major", F),
                Item("REV-003", "must_fix", "major", F),
            )
        )
    )
    vr, tr = given["verdict_record"], given["traceability"]
    vr["dissents"] = [
        {
            "dissent_id": "DIS-1",
            "item_id": "REV-001",
            "criterion_hash": "0" * 64,
            "reason_code": "criterion_ambiguous",
            "original_operationalization": "a power analysis is reported",
            "replacement_operationalization": "an a priori power analysis with effect size",
            "evidence": 'text: §3.2 "post hoc power"',
            "decision_impact_note": "may move the verdict to PARTIALLY_ADDRESSED",
        }
    ]
    vr["items"][0]["applied_criterion"] = "dissented:DIS-1"
    tr["dissent_adjudications"] = [
        {
            "dissent_id": "DIS-1",
            "adjudicator": "user",
            "outcome": "original_upheld",
            "rationale": "The criterion as written is what the letter asked for.",
        }
    ]
    tr["reapplications"] = [_reapplication("RAP-1", "REV-001", ["adjudication:DIS-1"], F, C)]
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
            "rationale": "The user accepts the fail-closed verdict.",
            "cannot_verify_reason": "the supplement S2 is missing from the submission",
            "source_ref": "acceptance:ACC-1",
        }
    ]
    tr["rows"][0]["final_verdict"] = C
    tr["rows"][0]["adjustment_id"] = "ADJ-1"
    return given


def test_example_15_an_accepted_fail_closed_round_checks_clean_as_b3() -> None:
    report = _check(seal(**_example_15()))
    assert report.errors == (), [str(d) for d in report.errors]
    assert (report.decision_state, report.decision.base_rule) == ("Major Revision", "B3")


def _superseded_upheld(tr: dict[str, Any]) -> None:
    tr["reapplications"][:] = [
        _reapplication("RAP-1", "REV-001", ["adjudication:DIS-1"], F, N),
        {
            **_reapplication("RAP-2", "REV-001", ["adjudication:DIS-1"], F, C),
            "supersedes_reapplication_id": "RAP-1",
        },
    ]


_DERIVED_ON_CANNOT_VERIFY = {
    "adjustment_id": "ADJ-2",
    "item_id": "REV-002",
    "from_verdict": F,
    "to_verdict": N,
    "basis": "cross_model_adjudication",
    "rationale": "r",
    "evidence_anchor": [{"anchor": "text: §2", "anchor_artifact": "manuscript"}],
    "source_ref": "reapplication:RAP-1",
}
_SECOND_ACCEPTANCE = {
    "acceptance_id": "ACC-2",
    "item_id": "REV-001",
    "reapplication_id": "RAP-1",
    "accepted_by": "user",
}
_USER_INTENT = {
    "intent_id": "INT-1",
    "item_id": "REV-001",
    "answered_by": "user",
    "guidance_note": "look at supplement S2",
}


@pytest.mark.parametrize(
    ("code", "change"),
    [
        ("RR-340", lambda tr: tr["dissent_adjudications"][0].update(dissent_id="DIS-7")),
        ("RR-341", lambda tr: tr["dissent_adjudications"][0].update(adjudicator="cross_model")),
        ("RR-345", lambda tr: tr["reapplications"][0].update(answer_refs=["intent:INT-4"])),
        ("RR-348", lambda tr: tr["reapplications"][0].update(criterion_ref="dissent:DIS-1")),
        ("RR-353", lambda tr: tr["adjustments"].append(dict(_DERIVED_ON_CANNOT_VERIFY))),
        ("RR-360", lambda tr: tr["resolution_intents"].append(dict(_USER_INTENT))),
        ("RR-373", lambda tr: tr["g2d_acceptances"].append(dict(_SECOND_ACCEPTANCE))),
        ("RR-375", lambda tr: tr["adjustments"][0].update(cannot_verify_reason="other")),
        ("RR-377", _superseded_upheld),
    ],
)
def test_each_deferral_rule_fails_on_the_example_15_round(
    code: str, change: Callable[[dict[str, Any]], None]
) -> None:
    given = _example_15()
    change(given["traceability"])
    report = _check(seal(**given))
    assert report.grade == 1, _codes(report)
    assert code in {d.code for d in report.errors}, _codes(report)


def test_a_reapplication_cycle_and_a_retry_from_another_verdict() -> None:
    given = _example_15()
    tr = given["traceability"]
    first = tr["reapplications"][0]
    tr["reapplications"].append(
        {
            **_reapplication("RAP-2", "REV-001", ["adjudication:DIS-1"], N, C),
            "supersedes_reapplication_id": "RAP-1",
        }
    )
    tr["g2d_acceptances"][0]["reapplication_id"] = "RAP-2"
    codes = {d.code for d in _check(seal(**given)).errors}
    assert "RR-378" in codes  # a retry starts from the verdict the first one started from
    first["supersedes_reapplication_id"] = "RAP-2"
    codes = {d.code for d in _check(seal(**given)).errors}
    assert "RR-344" in codes


def test_deep_nesting_in_a_mapping_or_a_hashed_file_is_a_finding() -> None:
    sealed = build(BASE)
    deep: Any = "bottom"
    for _ in range(10_000):
        deep = {"d": deep}
    trace = copy.deepcopy(sealed.traceability)
    trace["post_letter_observations"] = [deep]
    report = _check(sealed, traceability=trace)
    assert (report.grade, report.abort_reason) == (2, "phase2b_lint_failed")
    assert set(_codes(report)) == {"RR-141"}
    roadmap = b'{"items": ' + b"[" * 10_000 + b"]" * 10_000 + b"}"
    manifest = copy.deepcopy(sealed.manifest)
    manifest["artifacts"]["revision_roadmap"]["sha256"] = hashlib.sha256(roadmap).hexdigest()
    report = _check(sealed, manifest=manifest, roadmap=roadmap)
    assert (report.abort_reason, _codes(report)) == ("manifest_incomplete", ["E-JSON"])


# --- the critical-rebuttal machinery --------------------------------------------------------

_LETTER_ANCHOR = [
    {"anchor": 'text: response R1 "the effect is in S3"', "anchor_artifact": "letter"}
]


def _critical_rebuttal() -> dict[str, Any]:
    """A critical P1 item closed by a valid rebuttal, checked by an upheld adjudication and
    booked from its drafted proposal."""
    from support.re_review_bundles import Item

    given = records(
        Draft(
            (
                Item("REV-001", "must_fix", "critical", N, F),
                Item("REV-002", "should_fix", "minor", F),
            )
        )
    )
    given["manifest"]["cross_model_active"] = True
    tr = given["traceability"]
    drafted = {
        "item_id": "REV-001",
        "from_verdict": N,
        "to_verdict": F,
        "basis": "valid_rebuttal",
        "rationale": "The authors show the analysis was already in supplement S3.",
        "evidence_anchor": _LETTER_ANCHOR,
    }
    tr["adjustments"] = [
        {"adjustment_id": "ADJ-1", **drafted, "critical_rebuttal_check": "adjudicated:RADJ-1"}
    ]
    tr["rebuttal_adjudications"] = [
        {
            "rebuttal_adjudication_id": "RADJ-1",
            "item_id": "REV-001",
            "verdict": "upheld",
            "rationale": "The cited supplement holds the analysis.",
        }
    ]
    tr["pending_rebuttal_upgrades"] = [
        {
            "proposal_id": "PRB-1",
            "item_id": "REV-001",
            "drafted_adjustment": drafted,
            "disposition": "booked:ADJ-1",
        }
    ]
    row = tr["rows"][0]
    row["final_verdict"] = F
    row["adjustment_id"] = "ADJ-1"
    row["addressed_by_rebuttal"] = True
    row["cross_model_status"] = "unavailable"
    return given


def test_a_booked_critical_rebuttal_checks_clean() -> None:
    report = _check(seal(**_critical_rebuttal()))
    assert report.errors == (), [str(d) for d in report.errors]
    assert report.decision_state == "Accept"


def _challenged(tr: dict[str, Any]) -> None:
    tr["rebuttal_adjudications"][0]["verdict"] = "challenged"
    tr["pending_rebuttal_upgrades"][0]["disposition"] = "challenged:RADJ-1"


@pytest.mark.parametrize(
    ("codes", "change"),
    [
        ({"RR-381", "RR-391"}, lambda tr: tr["adjustments"][0].pop("critical_rebuttal_check")),
        (
            {"RR-382", "RR-391"},
            lambda tr: tr["rebuttal_adjudications"][0].update(verdict="challenged"),
        ),
        (
            {"RR-392"},
            lambda tr: tr["pending_rebuttal_upgrades"][0].update(
                disposition="booked_disclosed:ADJ-1"
            ),
        ),
        ({"RR-390"}, lambda tr: tr["adjustments"][0].update(rationale="Another reason.")),
        ({"RR-382", "RR-394", "RR-395"}, _challenged),
        (
            {"RR-388", "RR-394"},
            lambda tr: tr["pending_rebuttal_upgrades"][0].update(disposition="booked:ADJ-9"),
        ),
        (
            {"RR-385", "RR-389"},
            lambda tr: tr["pending_rebuttal_upgrades"].append(
                {**tr["pending_rebuttal_upgrades"][0], "proposal_id": "PRB-2"}
            ),
        ),
    ],
)
def test_each_rebuttal_rule_fails_alone(
    codes: set[str], change: Callable[[dict[str, Any]], None]
) -> None:
    given = _critical_rebuttal()
    change(given["traceability"])
    report = _check(seal(**given))
    assert report.grade == 1, _codes(report)
    assert {d.code for d in report.errors} == codes


def test_rebuttal_records_while_inactive() -> None:
    given = _critical_rebuttal()
    given["manifest"]["cross_model_active"] = False
    given["traceability"]["rows"][0]["cross_model_status"] = "not_configured"
    codes = {d.code for d in _check(seal(**given)).errors}
    assert codes == {"RR-380"}


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*prefix, i))
    return found


_ODD: tuple[Any, ...] = (
    None,
    "",
    0,
    -1,
    2**60,
    True,
    [],
    {},
    "x",
    "REV-001",
    "CANNOT_VERIFY",
    "MUST_FIX",
    "ADJ-1",
)


_ROUNDS: dict[str, Callable[[], dict[str, Any]]] = {
    **{name: functools.partial(records, draft) for name, draft in SCENARIOS.items()},
    "example-15": _example_15,
    "critical-rebuttal": _critical_rebuttal,
}


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(_ROUNDS)), st.sampled_from(SCHEMA_NAMES), st.data())
def test_any_one_changed_member_gives_a_report_never_an_exception(
    scenario: str, name: str, data: st.DataObject
) -> None:
    sealed = seal(**_ROUNDS[scenario]())
    doc = copy.deepcopy(getattr(sealed, name))
    path = data.draw(st.sampled_from(_paths(doc)[1:]))
    parent = doc
    for part in path[:-1]:
        parent = parent[part]
    if isinstance(parent, dict) and data.draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = data.draw(st.sampled_from(_ODD))
    report = _check(sealed, **{name: doc})
    assert isinstance(report, ReReviewReport)
    assert report.grade in (0, 1, 2) and report.decision.decision_state
    json.dumps(report.to_dict())
