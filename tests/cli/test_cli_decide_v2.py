"""python -m kernel.decide on 13.2 reports: the round from the reports' contract_role, panel
cardinality, and --synthesis against the recomputation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import paths

from kernel.cli.decide import main
from kernel.cli.scaffold import run
from kernel.contract.model import load_contract

EXAMPLE = paths.ROOT / "examples" / "full-13.2"
CONTRACT = str(EXAMPLE / "contract.json")
ROLES = ("eic", "methodology", "domain", "perspective", "da")


def argv(roles: tuple[str, ...] = ROLES) -> list[str]:
    out = ["--contract", CONTRACT]
    for r in roles:
        out += [str(EXAMPLE / f"{r}.phase2.md"), "--phase1", str(EXAMPLE / f"{r}.phase1.md")]
    return out


def test_the_worked_round(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(main, [*argv(), "--synthesis", str(EXAMPLE / "synthesis.md"), "--format", "json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["action"] == "editorial_decision=major_revision"
    assert out["dialect"] == "13.2" and "decision" not in out
    assert out["recomputed"]["fired"] == ["F2", "F3", "F4"]
    assert out["synthesis"]["ok"] is True
    assert [s["role"] for s in out["seats"]] == list(ROLES)


def test_a_disagreeing_synthesis_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = tmp_path / "synthesis.md"
    text = (EXAMPLE / "synthesis.md").read_text()
    wrong.write_text(text.replace("[F2, F3, F4]", "[F2, F3]"))
    assert run(main, [*argv(), "--synthesis", str(wrong)]) == 1
    out = capsys.readouterr().out
    assert (
        "[PANEL-SYNTHESIS-MISMATCH: fired=['F2', 'F3'], recomputed_fired=['F2', 'F3', 'F4']]" in out
    )
    assert "DISAGREES with the recomputation" in out


def test_a_short_panel_aborts(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(main, argv(ROLES[:3])) == 1
    out = capsys.readouterr().out
    assert "[PANEL-CARDINALITY: got=3, panel_size=5]" in out
    assert "the round is aborted: no decision" in out


def test_dispatched_roles_bind_the_reports(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(main, [*argv(), "--roles", ",".join(ROLES)]) == 0
    swapped = "methodology, eic, domain, perspective, da"
    assert run(main, [*argv(), "--roles", swapped]) == 1
    out = capsys.readouterr().out
    assert "[ROLE-BINDING: report[0] declares eic, dispatched as methodology]" in out
    assert "[ROLE-BINDING: report[1] declares methodology, dispatched as eic]" in out
    assert run(main, [*argv(), "--roles", "eic,methodology"]) == 2
    assert "[ROLE-BINDING: --roles count=2 does not match reports=5]" in capsys.readouterr().err


def test_explain_lists_the_seat_changes_of_a_13_2_round(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A 13.2 round from documents explains itself as a 13.2 matrix does: every single-seat
    change of the reports' matrix that changes the action."""
    from kernel.decision.dimensionwise import seat_flips
    from kernel.reviewer.round_v2 import decide_reports_v2

    e = paths.ROOT / "examples" / "full-13.2"
    args = [str(e), "--contract", str(e / "contract.json"), "--explain", "--format", "json"]
    assert main(args) == 0
    said = json.loads(capsys.readouterr().out)["explain"]["flips"]
    contract = load_contract(str(e / "contract.json"))
    roles = ("eic", "methodology", "domain", "perspective", "da")
    reports = [
        (r, (e / f"{r}.phase2.md").read_text("utf-8"), (e / f"{r}.phase1.md").read_text("utf-8"))
        for r in roles
    ]
    outcome = decide_reports_v2(contract, reports)
    assert said == [f.to_dict() for f in seat_flips(contract, outcome.matrix)] and said


def test_a_marker_count_too_long_to_read_is_exit_2_naming_the_synthesis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = tmp_path / "synthesis.md"
    text = (EXAMPLE / "synthesis.md").read_text()
    long.write_text(text + "\n[DA-CRITICAL-VS-ACCEPT: " + "9" * 5000 + " validated/unresolved]\n")
    assert run(main, [*argv(), "--synthesis", str(long)]) == 2
    err = capsys.readouterr().err
    assert str(long) in err
    assert "5000 digits" in err
    assert "Traceback" not in err
