"""python -m kernel.decide on 13.2 reports: the round from the reports' contract_role, panel
cardinality, and --synthesis against the recomputation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import paths

from kernel.cli.decide import main
from kernel.cli.scaffold import run

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
    assert out["decision"]["action"] == "editorial_decision=major_revision"
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
