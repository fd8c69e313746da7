"""``sprint-kernel re-review`` and ``python -m kernel.re_review`` on the example bundles
(examples/re-review, one per outcome) and on bundles broken on purpose."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from support import paths
from support.re_review_bundles import OUTCOMES, SCENARIOS, build, records, write

from kernel.cli.main import main
from kernel.re_review.__main__ import main as drop_in
from kernel.re_review.canonical import canonical_sha256
from kernel.re_review.seal import seal

EXAMPLES = paths.EXAMPLES / "re-review"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["re-review", *argv])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = _run(capsys, *argv, "--format", "json")
    body: dict[str, Any] = json.loads(out)
    return code, body


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_each_example_is_decided_as_its_name_says(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    state, reason, rule, reject = OUTCOMES[name]
    code, body = _json(capsys, str(EXAMPLES / name))
    decision = body["decision"]
    assert (decision["decision_state"], decision["abort_reason"]) == (state, reason)
    assert (decision["base_rule"], decision["reject_recommended"]) == (rule, reject)
    if name == "aborted-manifest-hash-mismatch":
        assert (code, body["grade"], body["abort_reason"]) == (1, 2, "manifest_hash_mismatch")
        assert [d["code"] for d in body["diagnostics"]] == ["RR-025"]
        assert body["decision_state"] is None
    else:
        assert body["grade"] == 0 and body["ok"] is (state != "aborted")
        assert body["decision_state"] == state
        assert code == (1 if state == "aborted" else 0)
        assert all(h["state"] == "match" for h in body["hashed"])


def test_the_examples_are_what_the_builder_seals(tmp_path: Path) -> None:
    for name, draft in SCENARIOS.items():
        write(build(draft), str(tmp_path / name))
        made = sorted(p.name for p in (tmp_path / name).iterdir())
        assert made == sorted(p.name for p in (EXAMPLES / name).iterdir()), name
        for file in made:
            assert (tmp_path / name / file).read_bytes() == (EXAMPLES / name / file).read_bytes()


def test_text_output_names_the_state_rule_and_witness(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, str(EXAMPLES / "minor-revision"))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "re-review: Minor Revision (B5), witness pass",
        "All checks passed.",
    ]
    code, out, _ = _run(capsys, str(EXAMPLES / "aborted-criteria-drift"))
    assert code == 1
    assert out.splitlines()[0] == (
        "re-review: aborted (G1) [RE-REVIEW-ABORT: criteria_drift], witness pass"
    )


def test_explain_prints_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, str(EXAMPLES / "user-review-required"), "--explain")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "G2: (c) escalation exception ESC-1 has no approval [ESC-1]"
    assert lines[1:3] == [
        "flag: reject_recommended absent (G2 decided)",
        "decision: user_review_required",
    ]


def test_derive_prints_what_a_producer_writes(capsys: pytest.CaptureFixture[str]) -> None:
    folder = EXAMPLES / "major-reject"
    code, body = _json(capsys, str(folder), "--derive")
    written = json.loads((folder / "traceability.json").read_text("utf-8"))
    assert code == 0 and "grade" not in body
    assert body["derived"] == {
        "decision_state": "Major Revision",
        "abort_reason": None,
        "reject_recommended": True,
        "decision_inputs": written["decision_inputs"],
    }
    code, out, _ = _run(capsys, str(folder), "--derive")
    assert "reject_recommended: true" in out.splitlines()


def _copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(EXAMPLES / name, target)
    return target


def test_a_manuscript_in_the_folder_is_hashed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _copy("accept", tmp_path)
    (folder / "manuscript_v2.md").write_bytes(b"# Manuscript v2, edited after sealing\n")
    code, body = _json(capsys, str(folder))
    assert (code, body["grade"], body["abort_reason"]) == (1, 2, "manifest_hash_mismatch")
    [finding] = body["diagnostics"]
    assert finding["code"] == "RR-013" and finding["file"].endswith("manuscript_v2.md")
    assert finding["data"]["artifact"] == "revised_manuscript"
    (folder / "manuscript_v2.md").unlink()
    code, out, _ = _run(capsys, str(folder))
    assert code == 0
    assert "note: revised_manuscript is not in the folder: not hashed" in out.splitlines()


def _revision_two(tmp_path: Path) -> tuple[Path, Path]:
    first = build(SCENARIOS["user-review-required"])
    given = records(SCENARIOS["user-review-required"])
    given["traceability"]["revision"] = 2
    given["traceability"]["escalation_approvals"] = [
        {"exception_id": "ESC-1", "approval_state": "approved", "approved_by": "user"}
    ]
    write(seal(**given, previous=first.traceability), str(tmp_path / "rev2"))
    previous = tmp_path / "rev1.json"
    previous.write_text(json.dumps(first.traceability), "utf-8")
    return tmp_path / "rev2", previous


def test_previous_checks_the_link_to_the_emission_revised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, previous = _revision_two(tmp_path)
    code, body = _json(capsys, str(folder), "--previous", str(previous))
    assert (code, body["grade"], body["decision_state"]) == (0, 0, "Major Revision")
    assert body["previous"]["supersedes_hash"] == "match"
    assert body["previous"]["verdict_record_hash"] == "unchanged"
    old = json.loads(previous.read_text("utf-8"))
    old["post_letter_observations"].append("edited afterwards")
    old["verdict_record_hash"] = "f" * 64
    previous.write_text(json.dumps(old), "utf-8")
    code, body = _json(capsys, str(folder), "--previous", str(previous))
    assert (code, body["grade"], body["abort_reason"]) == (1, 2, "manifest_hash_mismatch")
    assert [(d["code"], d["data"]["field"]) for d in body["diagnostics"]] == [
        ("RR-142", "supersedes_hash"),
        ("RR-203", "verdict_record_hash"),
    ]
    assert body["diagnostics"][0]["data"]["expected"] == canonical_sha256(old)


def test_files_named_by_flags_alone(capsys: pytest.CaptureFixture[str]) -> None:
    folder = EXAMPLES / "accept"
    argv = [
        *("--manifest", str(folder / "manifest.json")),
        *("--precommitment", str(folder / "precommitment.json")),
        *("--verdict-record", str(folder / "verdict_record.json")),
        *("--traceability", str(folder / "traceability.json")),
        *("--roadmap", str(folder / "roadmap.json")),
        *("--letter", str(folder / "decision_letter.md")),
        *("--apply-report", str(folder / "apply_report_1.json")),
    ]
    code, body = _json(capsys, *argv)
    assert (code, body["decision_state"], body["hashed"]) == (0, "Accept", [])


def test_unreadable_input_and_usage_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _copy("accept", tmp_path)
    (folder / "traceability.json").write_text('{"round_id": "x",', "utf-8")
    code, body = _json(capsys, str(folder))
    assert code == 2 and body["grade"] == 2
    assert body["abort_reason"] == "phase2b_lint_failed"
    assert [d["code"] for d in body["diagnostics"]] == ["E-JSON"]
    code, _, err = _run(capsys)
    assert code == 2 and "give DIR" in err
    code, _, err = _run(capsys, "--manifest", "m.json")
    assert code == 2
    code, out, _ = _run(capsys, str(folder / "manifest.json"))
    assert code == 2 and "not a folder" in out


def _upstream_argv(folder: Path, reports: int = 1) -> list[str]:
    return [
        *("--manifest", str(folder / "manifest.json")),
        *("--precommitment", str(folder / "precommitment.json")),
        *("--verdict-record", str(folder / "verdict_record.json")),
        *("--traceability", str(folder / "traceability.json")),
        *("--roadmap", str(folder / "roadmap.json")),
        *("--letter", str(folder / "decision_letter.md")),
        *[
            a
            for n in range(1, reports + 1)
            for a in ("--apply-report", str(folder / f"apply_report_{n}.json"))
        ],
    ]


def test_the_drop_in_answers_as_upstream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert drop_in(_upstream_argv(EXAMPLES / "accept")) == 0
    out, err = capsys.readouterr()
    assert out == (
        "re-review synthesis ok: round 'ms-2291-round-2', revision 1, decision_state 'Accept', "
        "apply_chain_witness 'pass'\n"
    )
    assert err == ""
    assert drop_in(_upstream_argv(EXAMPLES / "aborted-manifest-hash-mismatch", 2)) == 2
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "[RE-REVIEW-ABORT: manifest_hash_mismatch]"
    assert len(lines) == 2 and lines[1].startswith("FAIL: ")
    folder = _copy("aborted-criteria-drift", tmp_path)
    doc = json.loads((folder / "traceability.json").read_text("utf-8"))
    doc["decision_state"] = "Major Revision"
    del doc["abort_reason"]
    doc["decision_inputs"]["reject_recommended"] = True
    (folder / "traceability.json").write_text(json.dumps(doc), "utf-8")
    assert drop_in(_upstream_argv(folder)) == 1
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "[RE-REVIEW-ABORT: synthesis_mismatch]"
    assert lines[1:] and all(line.startswith("MISMATCH: ") for line in lines[1:])


def test_a_manuscript_out_of_the_folder_or_not_a_file_is_never_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _copy("accept", tmp_path)
    outside = tmp_path / "elsewhere.md"
    outside.write_bytes((folder / "manuscript_v1.md").read_bytes())
    (folder / "manuscript_v1.md").unlink()
    (folder / "manuscript_v1.md").symlink_to(outside)
    code, body = _json(capsys, str(folder))
    states = {h["artifact"]: h["state"] for h in body["hashed"]}
    assert code == 0 and states["original_manuscript"] == "outside_folder"
    (folder / "manuscript_v1.md").unlink()
    (folder / "manuscript_v1.md").mkdir()
    code, body = _json(capsys, str(folder))
    assert code == 2 and [d["code"] for d in body["diagnostics"]] == ["E-NOT-FILE"]
    assert (body["grade"], body["abort_reason"]) == (2, "manifest_incomplete")


def test_a_previous_emission_that_cannot_be_read_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, previous = _revision_two(tmp_path)
    previous.write_text('{"revision": 1,', "utf-8")
    code, body = _json(capsys, str(folder), "--previous", str(previous))
    assert (code, body["grade"], body["abort_reason"]) == (2, 2, "manifest_incomplete")
    assert [d["code"] for d in body["diagnostics"]] == ["E-JSON"]
    assert body["previous"] == {
        "file": str(previous),
        "supersedes_hash": None,
        "verdict_record_hash": None,
    }
    code, body = _json(capsys, str(folder), "--previous", str(tmp_path / "missing.json"))
    assert code == 2 and [d["code"] for d in body["diagnostics"]] == ["E-READ"]


def test_derive_shows_what_stopped_it_and_nothing_about_the_emission(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, body = _json(capsys, str(EXAMPLES / "aborted-manifest-hash-mismatch"), "--derive")
    assert code == 1 and [d["code"] for d in body["diagnostics"]] == ["RR-025"]
    assert body["derived"]["abort_reason"] == "manifest_hash_mismatch"
    folder = _copy("accept", tmp_path)
    doc = json.loads((folder / "traceability.json").read_text("utf-8"))
    doc["decision_state"] = "Major Revision"  # a wrong emission: --derive does not judge it
    (folder / "traceability.json").write_text(json.dumps(doc), "utf-8")
    code, body = _json(capsys, str(folder), "--derive")
    assert (code, body["diagnostics"], body["derived"]["decision_state"]) == (0, [], "Accept")
    (folder / "traceability.json").write_text("{", "utf-8")
    code, body = _json(capsys, str(folder), "--derive")
    assert code == 2 and [d["code"] for d in body["diagnostics"]] == ["E-JSON"]
