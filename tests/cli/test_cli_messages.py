"""Messages that say what is wrong and where (issue 39): ``rule`` takes a code in any case
and upstream's tag names, and ``decide DIR`` names a seat taken twice as its cause."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support import paths

from kernel.cli.main import main

V2 = paths.EXAMPLES / "full-13.2"


def sk(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_rule_takes_lower_case_and_upstream_tags(capsys: pytest.CaptureFixture[str]) -> None:
    code, page, _ = sk(capsys, "rule", "P2-114")
    assert code == 0 and page.startswith("P2-114 (error): [TRIGGER-DRIFT]")
    assert sk(capsys, "rule", "p2-114") == (0, page, "")
    assert sk(capsys, "rule", "TRIGGER-DRIFT") == (0, page, "")
    assert sk(capsys, "rule", "[trigger-drift]") == (0, page, "")
    # a tag several codes carry gives each of their pages
    code, out, _ = sk(capsys, "rule", "REPORT-PARSE", "--format", "json")
    assert code == 0 and {r["code"] for r in json.loads(out)} >= {"P2-107", "P2-108", "P2-135"}
    code, _, err = sk(capsys, "rule", "TRIGGER-DRIFTS")
    assert code == 2 and "unknown code(s): 'TRIGGER-DRIFTS'" in err


def test_decide_names_a_seat_taken_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    round_ = tmp_path / "round"
    round_.mkdir()
    for path in V2.glob("*.phase[12].md"):
        shutil.copy(path, round_ / path.name)
    shutil.copy(V2 / "contract.json", tmp_path / "contract.json")
    report = round_ / "methodology.phase2.md"
    report.write_text(
        report.read_text("utf-8").replace("contract_role: methodology", "contract_role: eic")
    )
    code, out, _ = sk(capsys, "decide", "round", "--contract", "contract.json")
    assert code == 1
    lines = out.splitlines()
    assert (
        "round/methodology.phase2.md:1:1: P2-140 [PANEL-CARDINALITY: duplicate roles ['eic']] "
        "this Phase 2 document and round/eic.phase2.md both take the seat eic"
    ) in lines
    assert "the round is aborted: the seat eic is taken by two reports" in lines
    assert "P2-125" not in out and "OUT-OF-ROLE-SCORE" not in out  # consequences, not causes
