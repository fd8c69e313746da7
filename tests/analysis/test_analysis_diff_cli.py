"""``python -m kernel.analyze OLD --diff NEW``: report formats and exit codes."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from test_analysis_cli import ROOT, _run, _write
from test_analysis_diff import SWAP_NEW, SWAP_OLD
from test_analysis_html import check_no_reference_text, check_page
from test_analysis_space import _template

from kernel.cli import analyze as cli
from kernel.contract.model import load_contract
from kernel.decision.decision import decide
from kernel.errors import ContractError

AMENDED = str(ROOT / "examples" / "full_f2_any.json")


def test_text_shows_shares_and_grids(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["reviewer/full", "--diff", AMENDED], capsys)
    assert code == 0 and err == ""
    assert "outcome changed: 906,992,640 matrices (0.107 %)" in out
    assert "0.09295 % of matrices move from F3 to F2 (major_revision, same action)" in out
    assert "0.0141 % of matrices move from none to F2 (accept -> major_revision)" in out
    assert "  F3 -> F2: major_revision (F3) -> major_revision (F2)\n         r1    r2" in out
    assert "99.77 % stay with F1" in out


def test_json_counterexamples_make_their_transitions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["reviewer/full", "--diff", AMENDED, "--format", "json"], capsys)
    assert code == 0
    d = json.loads(out)
    assert d["space"] == 3**25 == sum(t["matrices"] for t in d["transitions"])
    assert d["changed"] == sum(t["matrices"] for t in d["transitions"] if t["old"] != t["new"])
    old, new = load_contract("reviewer/full"), load_contract(AMENDED)
    for t in d["transitions"]:
        matrix = t["counterexample"]["matrix"]
        assert (decide(old, matrix).condition_id or "none") == t["old"]
        assert (decide(new, matrix).condition_id or "none") == t["new"]
        assert t["counterexample"]["new"]["action"] == t["new_action"]


def test_html(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["reviewer/full", "--diff", AMENDED, "--format", "html"], capsys)
    assert code == 0
    check_page(out)
    check_no_reference_text(out.replace(AMENDED, "amended.json"))
    code, out, _ = _run(["reviewer/full", "--format", "html"], capsys)
    assert code == 0 and "Decision space of reviewer/reviewer_full/v1" in out


def test_a_diff_against_a_contract_without_the_accept_grade_f0_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = dict(SWAP_NEW)
    new["failure_conditions"] = [c for c in SWAP_NEW["failure_conditions"] if c["severity"] > 10]
    with pytest.raises(ContractError, match=r"\(R18\)"):
        decide(new, {"D1": ["pass", "pass"], "D2": ["pass", "pass"]})
    code, out, err = _run(
        [_write(tmp_path, SWAP_OLD), "--diff", _write(tmp_path, new, "n.json")], capsys
    )
    assert code == 1 and err == "" and "n.json:1:612: E-SCHEMA" in out and "accept-grade F0" in out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"panel_size": 3}, "panel_size differs"),
        ({"acceptance_dimensions": []}, "E-SCHEMA $.acceptance_dimensions"),
    ],
)
def test_bad_pairs_exit_1(
    change: dict[str, object], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, _template(**change))
    code, out, err = _run(["reviewer/full", "--diff", path], capsys)
    assert code == 1 and err == "" and message in out and "Traceback" not in out


@pytest.mark.parametrize(
    "argv",
    [
        ["reviewer/full", "--diff", "/nonexistent/new.json"],
        ["reviewer/full", "--diff", AMENDED, "--prior", "pass=1"],
        ["reviewer/full", "--diff"],
        ["reviewer/full", "--format", "xml"],
    ],
)
def test_usage_and_unreadable_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(argv, capsys)
    assert code == 2 and (err or out) and "Traceback" not in err + out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(cli, "PROGRESS_AFTER", 0.0)
    assert cli.main(["reviewer/full", "--diff", AMENDED, "--format", "json"]) == 0
    shown = terminal.getvalue()
    assert "analyze: columns" in shown and "analyze: panels" in shown and shown.endswith("\r")
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    assert cli.main(["reviewer/full", "--diff", AMENDED]) == 0
    assert pipe.getvalue() == ""
