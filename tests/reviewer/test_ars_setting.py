"""The ARS reading of 13.2 documents (``ars = "main" | "fork"``): one value, validated once,
taken by every function and command that reads reviewer documents and named in their
output; the configuration key, the flag and ``--show-settings``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import paths

from kernel.cli.main import main
from kernel.decision.decision import decide
from kernel.errors import KernelError
from kernel.reviewer.lint.ars import ARS, DEFAULT_ARS, READINGS, reading
from kernel.reviewer.lint.dialects import lint_phase1, lint_phase2
from kernel.reviewer.render import render_phase1, render_phase2
from kernel.reviewer.review import decide_documents
from kernel.reviewer.round_v2 import RoundV2Outcome
from kernel.reviewer.synthesis import check_synthesis
from kernel.round import start

EXAMPLE = paths.ROOT / "examples" / "full-13.2"
CONTRACT = json.loads((EXAMPLE / "contract.json").read_text("utf-8"))
SEATS = ("eic", "methodology", "domain", "perspective", "da")


def test_main_is_the_default_and_each_reading_is_a_row_of_one_table() -> None:
    assert DEFAULT_ARS == "main" and ARS == ("main", "fork")
    assert reading("main") is READINGS["main"] and reading(READINGS["fork"]) is READINGS["fork"]
    main_, fork = READINGS["main"], READINGS["fork"]
    assert (main_.display_forms, main_.severity_escalation, main_.dissent_html) == (True,) * 3
    assert (fork.display_forms, fork.severity_escalation, fork.dissent_html) == (False,) * 3


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("mian", "'mian' is no ARS reading; did you mean 'main'?"),
        ("Fork", "did you mean 'fork'?"),
        ("", "'' is no ARS reading"),
        ("x" * 10_000, "is no ARS reading"),
        (None, "ars must be one of main, fork, got NoneType"),
        (13, "got int"),
    ],
)
def test_a_bad_reading_is_refused_with_the_closest_name(value: object, expected: str) -> None:
    with pytest.raises(KernelError) as exc:
        reading(value)
    assert expected in exc.value.message
    assert len(exc.value.message) < 300


def _reports() -> list[tuple[str, str, str]]:
    return [
        (
            seat,
            (EXAMPLE / f"{seat}.phase2.md").read_text("utf-8"),
            (EXAMPLE / f"{seat}.phase1.md").read_text("utf-8"),
        )
        for seat in SEATS
    ]


def test_every_library_function_that_reads_documents_takes_ars_and_checks_it() -> None:
    p1 = (EXAMPLE / "eic.phase1.md").read_text("utf-8")
    p2 = (EXAMPLE / "eic.phase2.md").read_text("utf-8")
    calls: list[Callable[[str], Any]] = [
        lambda ars: lint_phase1(p1, CONTRACT, role="eic", ars=ars),
        lambda ars: lint_phase2(p2, CONTRACT, p1, role="eic", ars=ars),
        lambda ars: decide_documents(CONTRACT, _reports(), ars=ars),
        lambda ars: start(CONTRACT, SEATS, ars=ars),
        lambda ars: render_phase1(CONTRACT, role="eic", ars=ars),
        lambda ars: render_phase2(CONTRACT, {"D1": "pass"}, role="eic", ars=ars),
        lambda ars: lint_phase1("", "reviewer/full", ars=ars),  # dialect 13 checks it too
    ]
    for call in calls:
        for ars in ARS:
            call(ars)
        with pytest.raises(KernelError, match="did you mean 'fork'"):
            call("frok")


def test_the_round_and_the_decision_name_the_reading() -> None:
    for ars in ARS:
        outcome = decide_documents(CONTRACT, _reports(), ars=ars)
        assert outcome.to_dict()["ars"] == ars
        state = start(CONTRACT, SEATS, ars=ars)
        assert state.ars == ars and state.events[0]["ars"] == ars
    assert "ars" not in start("reviewer/full", ["a", "b", "c", "d", "e"]).events[0]


def test_check_synthesis_takes_the_reading() -> None:
    outcome = decide_documents(CONTRACT, _reports())
    assert isinstance(outcome, RoundV2Outcome) and outcome.matrix is not None
    decision = decide(CONTRACT, {d: dict(v) for d, v in outcome.matrix.items()})
    text = (EXAMPLE / "synthesis.md").read_text("utf-8")
    da = (EXAMPLE / "da.phase2.md").read_text("utf-8")
    for ars in ARS:
        assert check_synthesis(CONTRACT, decision, text, da_report=da, ars=ars).ok
    with pytest.raises(KernelError, match="no ARS reading"):
        check_synthesis(CONTRACT, decision, text, da_report=da, ars="upstream")


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_lint_and_decide_take_ars_and_name_it(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--contract", str(EXAMPLE / "contract.json"), str(EXAMPLE), "--isolated"]
    for command in ("lint", "decide"):
        for ars in ARS:
            code, out, _ = _run([command, *base, "--ars", ars, "--format", "json"], capsys)
            assert code == 0 and json.loads(out)["ars"] == ars
        code, out, _ = _run([command, *base, "--format", "json"], capsys)
        assert json.loads(out)["ars"] == "main"
        code, _, err = _run([command, *base, "--ars", "mian"], capsys)
        assert code == 2 and "did you mean 'main'?" in err and "Traceback" not in err


def test_the_configuration_key_and_show_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    doc = str(EXAMPLE / "eic.phase2.md")
    contract = str(EXAMPLE / "contract.json")
    (tmp_path / "sprint-kernel.toml").write_text('ars = "fork"\n', encoding="utf-8")
    argv = ["lint", "--contract", contract, doc, "--config", "sprint-kernel.toml"]
    code, out, _ = _run([*argv, "--show-settings", "--format", "json"], capsys)
    shown = json.loads(out)["settings"]["ars"]
    assert code == 0 and shown["value"] == "fork" and shown["from"].endswith("sprint-kernel.toml")
    code, out, _ = _run([*argv, "--ars", "main", "--show-settings", "--format", "json"], capsys)
    assert json.loads(out)["settings"]["ars"] == {"value": "main", "from": "command line (--ars)"}
    code, out, _ = _run([*argv, "--format", "json"], capsys)
    assert json.loads(out)["ars"] == "fork"
    (tmp_path / "pyproject.toml").write_text('[tool.sprint-kernel]\nars = "frok"\n', "utf-8")
    code, _, err = _run(["lint", "--contract", contract, doc, "--config", "pyproject.toml"], capsys)
    assert code == 2 and "ars: must be one of main, fork; did you mean 'fork'?" in err
    (tmp_path / "pyproject.toml").write_text("[tool.sprint-kernel]\nars = 1\n", "utf-8")
    code, _, err = _run(["lint", "--contract", contract, doc, "--config", "pyproject.toml"], capsys)
    assert code == 2 and "ars: must be one of main, fork" in err


LLM_SYNTHESIS = """# Editorial synthesis — round 1

## Summary

Five seats reported. The methodology seat flags underpowered subgroup analyses; the devil's
advocate's objection about the comparison group's later start stands (a repairable block on
D6). Attrition by arm (C2) is answered by Table 4.

C2 rejection rationale: Table 4 reports attrition by arm and it does not differ.

## Audit lines

```text
fired_conditions: [F2, F3, F4]
dimension_verdicts: [D1=warn, D2=pass, D3=warn, D4=warn, D5=warn, D6=block]
da_critical_adjudications: [C1=VALIDATED, C2=REJECTED]
editorial_decision=major_revision
```
"""


def test_decide_reads_a_fenced_synthesis_under_main_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written = tmp_path / "synthesis.md"
    written.write_text(LLM_SYNTHESIS, encoding="utf-8")
    argv = ["decide", "--contract", str(EXAMPLE / "contract.json"), str(EXAMPLE), "--isolated"]
    argv += ["--synthesis", str(written), "--format", "json"]
    code, out, _ = _run(argv, capsys)
    body = json.loads(out)
    assert code == 0 and body["ars"] == "main" and body["synthesis"]["ok"]
    code, out, _ = _run([*argv, "--ars", "fork"], capsys)
    body = json.loads(out)
    assert code == 1 and body["ars"] == "fork"
    (finding,) = body["synthesis"]["findings"]
    assert "expected exactly one fired_conditions line, found 0" in finding["message"]
    conflicting = LLM_SYNTHESIS + "\nfired_conditions: [F2, F3]\n"
    written.write_text(conflicting, encoding="utf-8")
    code, out, _ = _run(argv, capsys)
    (finding,) = json.loads(out)["synthesis"]["findings"]
    assert code == 1 and finding["code"] == "SY-101" and "found 2" in finding["message"]
