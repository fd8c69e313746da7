"""Command-line details pinned in process: GitHub annotation ranges, --max-bytes spellings,
the check command's usage error and JSON counts, codes --check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernel.cli import check, codes
from kernel.cli.scaffold import _max_bytes, github_lines
from kernel.diagnostics import Diagnostic


def test_a_github_annotation_carries_the_whole_range() -> None:
    d = Diagnostic("P1-007", "m", file="f.md", line=3, column=2, end_line=4, end_column=5)
    assert github_lines([d]) == [
        "::error file=f.md,line=3,col=2,endLine=4,endColumn=5,title=P1-007::m"
    ]


def test_max_bytes_takes_up_to_ten_digits() -> None:
    assert _max_bytes("0000000100") == 100
    with pytest.raises(Exception, match="must be a whole number of bytes"):
        _max_bytes("00000000100")


def test_a_bad_ars_version_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        check.main(["reviewer/full", "--ars-version", "v1"])
    assert info.value.code == 2
    assert "--ars-version must look like vX.Y.Z, got 'v1'" in capsys.readouterr().err


def test_check_json_counts_errors_and_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check.main(["reviewer/full", "--format", "json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["files"]
    assert (entry["errors"], entry["warnings"]) == (0, 0)
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1}', "utf-8")
    assert check.main([str(bad), "--format", "json"]) == 1
    (entry,) = json.loads(capsys.readouterr().out)["files"]
    assert entry["errors"] > 0 and entry["warnings"] == 0


def test_codes_check_says_current_or_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "codes.md"
    assert codes.main(["--write", str(page)]) == 0
    assert codes.main(["--check", str(page)]) == 0
    page.write_text(page.read_text("utf-8") + "x", "utf-8")
    assert codes.main(["--check", str(page)]) == 1
    capsys.readouterr()
