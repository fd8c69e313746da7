"""python -m kernel.arena verdict|conformance: output formats and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import paths
from support.arena_support import drive_records, two_round_events

from kernel.cli.arena import main
from kernel.cli.scaffold import run


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(main, list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return str(path)


def trail_text(records: list[dict[str, object]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def test_verdict_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "review.md", "Good.\r\nVERDICT: approved\r\n")
    assert cli(capsys, "verdict", f) == (
        0,
        f"{f}:2:1: ARENA-VERDICT info: APPROVED\nAll checks passed.\n",
        "",
    )


def test_verdict_multiple(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "review.md", "VERDICT: APPROVED\nhmm\nVERDICT: REVISE\n")
    code, out, _ = cli(capsys, "verdict", f)
    assert code == 0
    assert out.splitlines() == [
        f"{f}:3:1: PARSER_WARNING_MULTIPLE_VERDICTS 2 verdict lines (1, 3); the last one counts",
        f"{f}:3:1: ARENA-VERDICT info: REVISE",
        "Found 0 errors and 1 warning in 1 file.",
    ]


def test_verdict_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "review.md", "VERDICT: APPROVED.\n")
    code, out, _ = cli(capsys, "verdict", f, "--format", "json")
    assert code == 1
    body = json.loads(out)
    assert body.pop("version") and body.pop("ok") is False
    assert [d["code"] for d in body.pop("diagnostics")] == ["PARSER_ERROR_MISSING_VERDICT"]
    assert body == {
        "file": f,
        "verdict": None,
        "codes": ["PARSER_ERROR_MISSING_VERDICT"],
        "line": None,
        "verdict_lines": [],
    }


def test_verdict_ignores_a_bom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "review.md", "\ufeffVERDICT: REVISE")
    assert cli(capsys, "verdict", f)[0] == 0


def test_conformance_compliant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "run.jsonl", trail_text(drive_records(two_round_events())))
    assert cli(capsys, "conformance", f) == (
        0,
        f"{f}: Compliant (13/13 checks passed)\nAll checks passed.\n",
        "",
    )
    code, out, _ = cli(capsys, "conformance", f, "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["level"] == "Compliant"
    assert [c["passed"] for c in doc["checks"]] == [True] * 13


def test_conformance_conditionally(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = drive_records(two_round_events())
    i = next(i for i, r in enumerate(records) if r["event"] == "ROUND_RECORDED")
    records[i]["reviewer_output"] = str(records[i]["reviewer_output"]) + "\nThanks."
    f = write(tmp_path, "run.jsonl", trail_text(records))
    code, out, _ = cli(capsys, "conformance", f)
    assert code == 0
    assert out.splitlines() == [
        f"{f}:{i + 1}:1: ARENA-C05 [SHOULD] verdict-parsing: the verdict (line 2 of "
        "reviewer_output) is not the last non-empty line (§7.1)",
        f"{f}: Conditionally Compliant (13/13 checks passed)",
        "Found 0 errors and 1 warning in 1 file.",
    ]


def test_conformance_non_compliant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = drive_records(two_round_events())
    records.insert(3, {"event": "COFFEE_BREAK", "timestamp": "2026-02-23T10:00:00Z"})
    f = write(tmp_path, "run.jsonl", trail_text(records))
    code, out, _ = cli(capsys, "conformance", f)
    assert code == 1
    assert f"{f}:4:1: ARENA-C12 [MUST] audit-trail: malformed record: unknown event" in out
    assert out.splitlines()[-2:] == [
        f"{f}: Non-Compliant (12/13 checks passed)",
        "Found 1 error and 0 warnings in 1 file.",
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"event": "RUN_STARTED"}\n{oops}\n', ":2:2: E-JSON not JSON"),
        (b'{"a": 1, "a": 2}\n', ":1:1: E-JSON not strict JSON: duplicate key 'a'"),
        (b"\xff\xfe\n", "not UTF-8"),
    ],
)
def test_unreadable_trails_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(content)
    code, out, err = cli(capsys, "conformance", str(path))
    assert (code, err) == (2, "")
    assert message in out and "Traceback" not in out
    assert out.endswith("Found 1 error and 0 warnings in 1 file.\n")


def test_missing_file_and_usage_errors_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(capsys, "verdict", str(tmp_path / "nope.md"))[0] == 2
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["verdict"])
    assert info.value.code == 2


def test_module_entry_point(tmp_path: Path) -> None:
    f = write(tmp_path, "review.md", "VERDICT: REVISE\n")
    done = subprocess.run(
        [sys.executable, "-m", "kernel.arena", "verdict", f, "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        cwd=paths.ROOT,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["verdict"] == "REVISE"
