"""``python -m kernel.consensus``: parse and round, text and JSON, exit codes 0/1/2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import paths

import kernel
from kernel.cli.consensus import main
from kernel.cli.scaffold import run

GOOD = '{"approve": true, "critical": false, "edits": ["x"], "extra": 1}'


def call(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(main, list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_parse_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.txt"
    path.write_text(f"Sure.\n```json\n{GOOD}\n```\n", encoding="utf-8")
    code, out, _ = call(capsys, "parse", str(path), "--kind", "critique")
    assert code == 0
    assert out.splitlines() == [  # sorted by line; a document-level finding stands at 1:1
        f"{path}:1:1: CN-MALFORMED strict: not JSON: Expecting value (column 1)",
        f"{path}:1:1: CN-UNKNOWN-FIELD info: fenced: unknown field 'extra' ignored",
        f"{path}:3:1: CN-OK info: valid critique response (method: fenced)",
        "Found 0 errors and 1 warning in 1 file.",
    ]
    code, out, _ = call(capsys, "parse", str(path), "--kind", "critique", "--strict-json")
    assert code == 1
    assert (
        f"{path}:1:1: CN-PARSE-FAILED no stage produced a valid critique response"
        in out.splitlines()
    )


def test_parse_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.txt"
    path.write_text(GOOD, encoding="utf-8")
    code, out, _ = call(capsys, "parse", str(path), "--kind", "critique", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["ok"] is True
    assert data["method"] == "strict"
    assert data["value"]["edits"] == ["x"]
    assert data["errors"] == []
    code, out, _ = call(capsys, "parse", str(path), "--kind", "update", "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["ok"] is False and data["value"] is None and len(data["errors"]) == 3


@pytest.mark.parametrize(
    "argv",
    [
        ["parse", "{missing}", "--kind", "critique"],
        ["parse", "{file}", "--kind", "nope"],
        ["parse", "{file}"],
        ["parse", "{notutf8}", "--kind", "critique"],
        ["round", "{missing}"],
        ["round", "{file}"],  # not JSON
        ["frobnicate"],
        [],
    ],
)
def test_usage_and_unreadable_input_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    (tmp_path / "f.txt").write_text("not json {", encoding="utf-8")
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe{}")
    names = {
        "missing": str(tmp_path / "missing.txt"),
        "file": str(tmp_path / "f.txt"),
        "notutf8": str(tmp_path / "bad.txt"),
    }
    with pytest.raises(SystemExit) as info:
        sys.exit(run(main, [a.format(**names) for a in argv]))
    assert info.value.code == 2
    capsys.readouterr()


ROUND: dict[str, Any] = {
    "participants": 3,
    "round": 3,
    "max_rounds": 3,
    "candidate": "b",
    "previous_candidate": "a",
    "critiques": [
        {"approve": True, "critical": False},
        {"approve": False, "critical": False, "objections": ["Too\nshort"], "missing": ["src"]},
    ],
}


def test_round_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(ROUND), encoding="utf-8")
    code, out, _ = call(capsys, "round", str(path))
    assert code == 1
    assert out.splitlines() == [
        f"{path}:1:1: CN-NO-CONSENSUS no consensus: 1 of 3 approved, 2 required",
        f"{path}:1:1: CN-STOP-MAX-ROUNDS stop (max_rounds): round 3 of 3 is the last",
        f"{path}:1:1: CN-OBJECTION info: (1 critique(s)) Too short",
        f"{path}:1:1: CN-MISSING info: src",
        "Found 1 error and 1 warning in 1 file.",
    ]
    code, out, _ = call(capsys, "round", str(path), "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["outcome"] == "stop" and data["stop_reason"] == "max_rounds"
    assert data["disagreement"]["objections"] == [{"text": "Too\nshort", "count": 1}]


def test_round_consensus_and_continue_exit_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "round.json"
    agreed = {**ROUND, "critiques": [ROUND["critiques"][0]] * 2}
    path.write_text(json.dumps(agreed), encoding="utf-8")
    code, out, _ = call(capsys, "round", str(path))
    assert code == 0
    assert out.startswith(f"{path}:1:1: CN-CONSENSUS info: consensus: 2 of 3 approved")
    going = {
        **ROUND,
        "round": 2,
        "critiques": [{"approve": False, "critical": False, "edits": ["e"]}] * 2,
    }
    path.write_text(json.dumps(going), encoding="utf-8")
    code, out, _ = call(capsys, "round", str(path), "--format", "json")
    assert code == 0
    assert json.loads(out)["outcome"] == "continue"


def test_invalid_round_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps({**ROUND, "participants": 1}), encoding="utf-8")
    code, out, _ = call(capsys, "round", str(path))
    assert code == 1
    assert out == (
        f"{path}:1:1: CN-ROUND-INVALID participants must be at least 2, got 1\n"
        "Found 1 error and 0 warnings in 1 file.\n"
    )
    code, out, _ = call(capsys, "round", str(path), "--format", "json")
    assert code == 1
    body = json.loads(out)
    assert [d["code"] for d in body.pop("diagnostics")] == ["CN-ROUND-INVALID"]
    assert body == {
        "version": kernel.__version__,
        "file": str(path),
        "ok": False,
        "errors": ["participants must be at least 2, got 1"],
    }


def test_module_entry_point(tmp_path: Path) -> None:
    path = tmp_path / "r.txt"
    path.write_text("no json here", encoding="utf-8")
    root = paths.ROOT
    done = subprocess.run(
        [sys.executable, "-m", "kernel.consensus", "parse", str(path), "--kind", "participant"],
        capture_output=True,
        text=True,
        cwd=root,
        check=False,
    )
    assert done.returncode == 1
    assert "CN-PARSE-FAILED" in done.stdout
    assert "Traceback" not in done.stderr
