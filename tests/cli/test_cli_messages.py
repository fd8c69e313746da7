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
        "this Phase 2 document and round/eic.phase2.md both take the seat eic; a round seats "
        "each role once: remove the copy, or correct the contract_role: line of the report that "
        "is another seat's"
    ) in lines
    assert "the round is aborted: the seat eic is taken by two reports" in lines
    assert "P2-125" not in out and "OUT-OF-ROLE-SCORE" not in out  # consequences, not causes


@pytest.fixture
def seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The eic seat's two documents and the contract, in the working directory."""
    monkeypatch.chdir(tmp_path)
    for name in ("eic.phase1.md", "eic.phase2.md", "contract.json"):
        shutil.copy(V2 / name, tmp_path / name)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_trigger_drift_stands_on_its_trigger_line_quoting_both_sides(
    seat: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit(seat / "eic.phase1.md", "and never shown", "and never proved")
    code, out, _ = sk(capsys, "lint", "eic.phase2.md", "--contract", "contract.json")
    assert code == 1
    assert out.splitlines()[0] == (
        "eic.phase2.md:20:1: P2-114 [TRIGGER-DRIFT: D4 what_triggers_warn does not contain "
        "emitted trigger text] trigger 'the relevance to neighbouring fields is asserted in one "
        "sentence and never shown' is not in the Phase 1 what_triggers_warn 'the relevance to "
        "neighbouring fields is asserted in one sentence and never proved'; quote words of that "
        "commitment"
    )


def test_a_trigger_where_none_belongs_says_remove_it(
    seat: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit(
        seat / "eic.phase2.md",
        "### D3: argumentative_coherence\n\nscore: pass\n",
        '### D3: argumentative_coherence\n\nscore: pass\ntrigger: "the conclusion follows"\n',
    )
    code, out, _ = sk(capsys, "lint", "eic.phase2.md", "--contract", "contract.json")
    assert code == 1
    assert out.splitlines()[0] == (
        "eic.phase2.md:16:1: P2-113 [TRIGGER-GRAMMAR: eic.phase2.md: D3 trigger is required iff "
        "an eligible dimension scores block or warn] remove it: D3 scores pass, which takes no "
        "trigger"
    )


def test_a_misnamed_heading_names_the_expected_one(
    seat: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit(
        seat / "eic.phase1.md", "### D3: argumentative_coherence", "### D3: Argumentative coherence"
    )
    code, out, _ = sk(
        capsys, "lint", "eic.phase1.md", "--contract", "contract.json", "--phase", "1"
    )
    assert code == 1
    assert out.splitlines()[:-1] == [
        "eic.phase1.md:17:1: P1-105 [PHASE1-GRAMMAR: eic.phase1.md: D3 name mismatch] write "
        "'### D3: argumentative_coherence' (headings name the dimension exactly as the contract "
        "does, case included)"
    ]
    _edit(
        seat / "eic.phase2.md", "### D3: argumentative_coherence", "### D3: Argumentative coherence"
    )
    code, out, _ = sk(capsys, "lint", "eic.phase2.md", "--contract", "contract.json", "--isolated")
    assert code == 1 and "write '### D3: argumentative_coherence'" in out


def test_a_bulleted_field_line_is_one_finding(
    seat: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit(
        seat / "eic.phase1.md",
        "what_triggers_warn: the relevance",
        "- what_triggers_warn: the relevance",
    )
    code, out, _ = sk(
        capsys, "lint", "eic.phase1.md", "--contract", "contract.json", "--phase", "1"
    )
    assert code == 1
    *found, summary = out.splitlines()
    assert [line.split(" ")[1] for line in found] == ["P1-109"]
    assert found[0].startswith("eic.phase1.md:30:1: P1-109") and summary.startswith("Found 1 error")


def test_a_da_band_heading_in_another_case_says_headings_are_case_sensitive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("da.phase1.md", "da.phase2.md", "contract.json"):
        shutil.copy(V2 / name, tmp_path / name)
    _edit(tmp_path / "da.phase2.md", "#### MAJOR", "#### Major")
    code, out, _ = sk(capsys, "lint", "da.phase2.md", "--contract", "contract.json")
    assert code == 1
    assert out.splitlines()[0] == (
        "da.phase2.md:43:1: P2-133 [DA-MAJOR-PARSE: da.phase2.md: expected exactly one #### MAJOR "
        "section, found 0] '#### Major' is not '#### MAJOR': headings are case-sensitive"
    )


def test_a_forbidden_block_class_or_reason_stands_on_its_line_and_says_remove_it(
    seat: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit(
        seat / "eic.phase2.md",
        "### D3: argumentative_coherence\n\nscore: pass\n",
        "### D3: argumentative_coherence\n\nscore: pass\nblock_class: repairable\n"
        "abstain_reason: out of my depth\n",
    )
    code, out, _ = sk(capsys, "lint", "eic.phase2.md", "--contract", "contract.json")
    assert code == 1
    found = out.splitlines()[:-1]
    assert (
        "eic.phase2.md:16:1: P2-112 [BLOCK-CLASS-INVALID: eic.phase2.md: D3 block_class is "
        "required iff an eligible mandatory dimension scores block] remove it: only a block on a "
        "mandatory dimension the role may score takes one"
    ) in found
    assert (
        "eic.phase2.md:17:1: P2-110 [ABSTENTION-INVALID: eic.phase2.md: D3 scored result may not "
        "carry abstain_reason] remove it"
    ) in found
