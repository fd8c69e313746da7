"""Command-line edges run in this process (no console script): the repository-root
``.gitignore``, the configuration search, the exit codes of written reports and aborted
rounds, and the usage errors of ``codes`` and ``lint``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support import paths

from kernel.cli import analyze, codes, decide, lint
from kernel.cli.config import Settings, find_config
from kernel.cli.files import expand

FULL = paths.EXAMPLES / "full"


def test_a_gitignore_at_the_repository_root_is_read(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("draft.phase2.md\n")
    for name in ("eic.phase2.md", "draft.phase2.md"):
        shutil.copy(FULL / "eic.phase2.md", tmp_path / name)
    found = expand([str(tmp_path)], (".phase2.md",), Settings())
    assert found == [str(tmp_path / "eic.phase2.md")]


def test_the_configuration_is_found_upward(tmp_path: Path) -> None:
    (tmp_path / "sprint-kernel.toml").write_text('select = ["P2"]\n')
    below = tmp_path / "a" / "b"
    below.mkdir(parents=True)
    assert find_config(str(below)) == str(tmp_path / "sprint-kernel.toml")
    assert find_config(str(tmp_path)) == str(tmp_path / "sprint-kernel.toml")


def test_an_html_report_that_cannot_be_written_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unwritable = str(tmp_path / "missing" / "report.html")
    assert analyze.main(["reviewer/full", "--format", "html", "-o", unwritable]) == 2
    assert capsys.readouterr().err.startswith(f"error: {unwritable}: cannot be written (")


def test_a_round_with_more_reviewers_than_seats_is_aborted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for i in range(6):
        for phase in (1, 2):
            shutil.copy(FULL / f"eic.phase{phase}.md", tmp_path / f"r{i}.phase{phase}.md")
    code = decide.main([str(tmp_path), "--contract", "reviewer/full", "--format", "json"])
    body = json.loads(capsys.readouterr().out)
    assert code == 1
    assert body["action"] is None and "panel_size=5" in body["error"]


def test_decide_reports_an_output_file_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = tmp_path / "matrices.jsonl"
    lines.write_text(json.dumps({f"D{i}": ["pass"] * 5 for i in range(1, 6)}) + "\n")
    out = str(tmp_path / "missing" / "out.jsonl")
    code = decide.main(["--contract", "reviewer/full", "--matrix", str(lines), "-o", out])
    assert code == 2
    assert capsys.readouterr().err.startswith(f"error: {out}: cannot be written (")


def test_codes_check_of_an_unreadable_page_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert codes.main(["--check", "x" * 300]) == 2  # a name too long to look up
    assert "cannot be read (File name too long)" in capsys.readouterr().err


def test_lint_phase1_goes_with_one_document(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        lint.main(
            [
                str(FULL / "eic.phase2.md"),
                str(FULL / "da.phase2.md"),
                "--phase1",
                str(FULL / "eic.phase1.md"),
                "--contract",
                "reviewer/full",
            ]
        )
    assert info.value.code == 2
    assert "--phase1 goes with one Phase 2 document" in capsys.readouterr().err
