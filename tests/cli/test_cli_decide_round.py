"""python -m kernel.decide: --matrix FILE.jsonl (one decision per line), --synthesis (R17) and
duplicate reports (R16) in markdown mode."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import paths

from kernel import decide, load_contract
from kernel._version import __version__
from kernel.cli.decide import main
from kernel.cli.scaffold import run
from kernel.testing import matrices

E = paths.EXAMPLES / "full"
ROLES = ("eic", "methodology", "domain", "perspective", "da")
FULL = load_contract("reviewer/full")


def _documents(directory: Path = E) -> list[str]:
    argv: list[str] = []
    for role in ROLES:
        argv += [
            str(directory / f"{role}.phase2.md"),
            "--phase1",
            str(directory / f"{role}.phase1.md"),
        ]
    return argv


def _jsonl(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "matrices.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


# --- --matrix FILE.jsonl --------------------------------------------------------------------


@settings(max_examples=20)
@given(st.lists(matrices(FULL), min_size=1, max_size=6))
def test_one_decision_per_line_in_order(ms: list[dict[str, list[str]]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _jsonl(Path(tmp), [json.dumps(m) for m in ms])
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["--contract", "reviewer/full", "--matrix", path]) == 0
    lines = out.getvalue().splitlines()
    envelope = {"version": __version__, "ok": True, "diagnostics": []}
    same_keys = {"dialect": "13", "trace": None, "verdicts": None}
    assert [json.loads(line) for line in lines] == [
        {**envelope, **decide(FULL, m).to_dict(), **same_keys} for m in ms
    ]


def test_the_shipped_example(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(paths.EXAMPLES / "full_matrices.jsonl")
    assert main(["--contract", "reviewer/full", "--matrix", path]) == 0
    actions = [json.loads(line)["action"] for line in capsys.readouterr().out.splitlines()]
    assert actions == [
        "editorial_decision=accept",
        "editorial_decision=major_revision",
        "editorial_decision=reject_or_major_revision",
    ]


PASS = json.dumps({d: ["pass"] * 5 for d in FULL.dimension_ids})
SHORT = json.dumps({d: ["pass"] * 4 for d in FULL.dimension_ids})


@pytest.mark.parametrize(
    ("bad", "code", "message"),
    [
        ("{not json", 2, ":3:2: not JSON"),
        ("", 2, ":3:1: not JSON"),
        ('{"D1": ["pass"], "D1": ["warn"]}', 2, ":3: not strict JSON: duplicate key"),
        ('{"D1": ["pass"]}', 1, ":3: matrix: missing scores for dimension(s) D2, D3, D4, D5"),
        (SHORT, 1, ":3: only 4 usable reviewer(s) for panel_size=5 [PANEL-SHRUNK: usable=4"),
        ("[]", 1, ":3: matrix must map dimension ids"),
    ],
)
def test_a_bad_line_stops_the_run_and_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str, code: int, message: str
) -> None:
    path = _jsonl(tmp_path, [PASS, PASS, bad, PASS])
    assert main(["--contract", "reviewer/full", "--matrix", path]) == code
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 2
    assert captured.err.startswith(f"error: {path}{message}")
    assert captured.err.rstrip().endswith("(nothing after line 3 was read)")


def test_batch_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _jsonl(tmp_path, [PASS])
    for extra in (["--explain"], ["--synthesis", str(E / "synthesis.md")]):
        with pytest.raises(SystemExit) as info:
            main(["--contract", "reviewer/full", "--matrix", path, *extra])
        assert info.value.code == 2
    assert "no --explain or --synthesis" in capsys.readouterr().err
    assert run(main, ["--contract", "reviewer/full", "--matrix", str(tmp_path / "no.jsonl")]) == 2


# --- --synthesis ----------------------------------------------------------------------------


def test_an_agreeing_synthesis(capsys: pytest.CaptureFixture[str]) -> None:
    synthesis = str(E / "synthesis.md")
    assert main(["--contract", "reviewer/full", *_documents(), "--synthesis", synthesis]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-2:] == [
        f"synthesis: {synthesis} agrees with the decision",
        "All checks passed.",
    ]


def test_a_disagreeing_synthesis_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    synthesis = tmp_path / "synthesis.md"
    synthesis.write_text("fired_conditions: [F2, F3]\n\neditorial_decision=reject\n", "utf-8")
    matrix = str(paths.EXAMPLES / "full_major_revision.json")
    argv = ["--contract", "reviewer/full", "--matrix", matrix, "--synthesis", str(synthesis)]
    assert main(argv) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        f"{synthesis}:3:1: SY-010 written editorial_decision=reject, computed "
        "editorial_decision=major_revision"
    )
    assert out[-2:] == [
        f"synthesis: {synthesis} DISAGREES with the decision",
        "Found 1 error and 0 warnings in 1 file.",
    ]
    assert main([*argv, "--format", "json"]) == 1
    body = json.loads(capsys.readouterr().out)
    assert body["action"] == "editorial_decision=major_revision"
    assert body["synthesis"]["ok"] is False and body["synthesis"]["file"] == str(synthesis)
    assert [f["code"] for f in body["synthesis"]["findings"]] == ["SY-010"]


def test_fired_set_disagreement_is_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    synthesis = tmp_path / "s.md"
    synthesis.write_text("fired_conditions: [F2]\neditorial_decision=major_revision\n", "utf-8")
    matrix = str(paths.EXAMPLES / "full_major_revision.json")
    assert (
        main(["--contract", "reviewer/full", "--matrix", matrix, "--synthesis", str(synthesis)])
        == 1
    )
    out = capsys.readouterr().out
    assert f"{synthesis}:1:1: SY-006 missing fired condition(s) F3" in out


# --- R16 in markdown mode -------------------------------------------------------------------


def test_a_copied_report_aborts_the_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for f in E.glob("*.md"):
        shutil.copy(f, tmp_path / f.name)
    shutil.copy(E / "eic.phase2.md", tmp_path / "perspective.phase2.md")
    shutil.copy(E / "eic.phase1.md", tmp_path / "perspective.phase1.md")
    assert main(["--contract", "reviewer/full", *_documents(tmp_path), "--format", "json"]) == 1
    body = json.loads(capsys.readouterr().out)
    assert body["action"] is None
    assert body["tags"] == [
        "[PROTOCOL-VIOLATION: reviewer=perspective.phase2, contract=reviewer/reviewer_full/v1, "
        "phase2_lint_failed=duplicate_report]",
        "[PANEL-SHRUNK: usable=4, panel_size=5]",
    ]
