"""python -m kernel.lint: output formats and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernel.cli.lint import detect_phase, main
from kernel.cli.scaffold import run
from kernel.contract.model import load_contract
from kernel.reviewer.render import render_phase1, render_phase2

FULL = load_contract("reviewer/full")
SCORES = {"D1": "block", "D2": "warn", "D3": "pass", "D4": "pass", "D5": "warn"}


@pytest.fixture
def docs(tmp_path: Path) -> dict[str, Path]:
    p1 = tmp_path / "eic.phase1.md"
    p1.write_text(render_phase1(FULL), encoding="utf-8")
    p2 = tmp_path / "eic.phase2.md"
    p2.write_text(render_phase2(FULL, SCORES), encoding="utf-8")
    bad = tmp_path / "bad.md"
    bad.write_text(render_phase2(FULL, SCORES).replace("score: warn", "score: meh"), "utf-8")
    latin1 = tmp_path / "latin1.md"
    latin1.write_bytes("## Contract Paraphrase\n\ncaf\xe9\n".encode("latin-1"))
    return {"p1": p1, "p2": p2, "bad": bad, "latin1": latin1}


def _run(argv: list[str]) -> int:
    return run(main, argv)


def test_phase2_ok(docs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code = _run([str(docs["p2"]), "--contract", "reviewer/full", "--phase1", str(docs["p1"])])
    assert code == 0
    assert capsys.readouterr() == ("All checks passed.\n", "")


def test_phase2_without_phase1_warns(
    docs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = tmp_path / "alone.phase2.md"  # no alone.phase1.md beside it
    alone.write_text(docs["p2"].read_text("utf-8"), "utf-8")
    assert _run([str(alone), "--contract", "reviewer/full"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{alone}:1:1: P2-043 consistency with Phase 1 was not checked")


def test_phase2_is_read_with_the_phase1_beside_it(
    docs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run([str(docs["p2"]), "--contract", "reviewer/full", "--strict", "-v"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out == f"{docs['p2']}: read with {docs['p1']}, found beside it\nAll checks passed.\n"


def test_failure_text(docs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code = _run([str(docs["bad"]), "--contract", "reviewer/full", "--phase1", str(docs["p1"])])
    assert code == 1
    lines = capsys.readouterr().out.splitlines()
    assert (
        lines[0] == f"{docs['bad']}:9:1: P2-014 score 'meh' for D2 is not one of block, warn, pass"
    )


def test_json(docs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code = _run([str(docs["p1"]), "--contract", "reviewer/full", "--format", "json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["diagnostics"] == []
    report, partner = data["files"]  # the Phase 2 beside it comes along
    assert report["phase"] == 1 and report["ok"] is True and report["findings"] == []
    assert partner["file"] == str(docs["p2"]) and partner["phase1_file"] == str(docs["p1"])


def test_forced_phase(docs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert _run([str(docs["p2"]), "--contract", "reviewer/full", "--phase", "1"]) == 1
    assert "P1-001" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["missing.md", "--contract", "reviewer/full"],
        ["{latin1}", "--contract", "reviewer/full"],
        ["{p2}", "--contract", "reviewer/full", "--phase", "3"],
        ["{p1}", "--contract", "reviewer/full", "--phase", "1", "--phase1", "{p1}"],
        ["{p2}"],
    ],
)
def test_usage_and_unreadable_exit_2(
    docs: dict[str, Path], argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [a.format(**{k: str(v) for k, v in docs.items()}) for a in argv]
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(_run(argv))
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    if argv[0] == "missing.md" or "latin1" in argv[0]:  # a finding, not a usage error
        assert err == "" and out.endswith("Found 1 error and 0 warnings in 1 file.\n")
    else:
        assert err and out == ""
    if "latin1" in argv[0]:
        assert "E-UTF8 not UTF-8" in out


def test_contract_errors(docs: dict[str, Path], tmp_path: Path) -> None:
    invalid = tmp_path / "invalid.json"
    invalid.write_text('{"contract_id": "x"}', encoding="utf-8")
    assert _run([str(docs["p1"]), "--contract", str(invalid)]) == 1
    assert _run([str(docs["p1"]), "--contract", str(tmp_path / "none.json")]) == 2


def test_detect_phase() -> None:
    assert detect_phase(render_phase1(FULL)) == 1
    assert detect_phase(render_phase2(FULL, SCORES)) == 2
    assert detect_phase("```\n## Review Body\n```\n") == 1


def test_a_document_whose_phase_is_detected_is_parsed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from kernel.text import markdown

    parsed: list[str] = []
    parse = markdown._tokens  # what parse_normalised and block_tokens both call

    def counting(text: str, *, joined: bool) -> object:
        parsed.append(text)
        return parse(text, joined=joined)

    monkeypatch.setattr(markdown, "_tokens", counting)
    markdown.parse_normalised.cache_clear()
    doc = tmp_path / "r.md"
    doc.write_text(render_phase2(FULL, SCORES) + "\n<!-- a document no other test parsed -->\n")
    assert main([str(doc), "--contract", "reviewer/full"]) == 0
    assert len(parsed) == 1
    assert capsys.readouterr().out.endswith("Found 0 errors and 1 warning in 1 file.\n")
