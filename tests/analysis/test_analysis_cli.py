"""``python -m kernel.analyze``: report, JSON keys, exit codes, progress only on a terminal."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import paths
from test_analysis_space import NO_FALLBACK, NON_MONOTONE, SHADOWED

from kernel.cli import analyze as cli
from kernel.cli.scaffold import run
from kernel.contract.model import load_contract
from kernel.contract.quantifiers import ACTION_RANK
from kernel.decision.decision import decide

ROOT = paths.ROOT


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = run(cli.main, argv)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _write(tmp_path: Path, data: Any, name: str = "c.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_reviewer_full_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["reviewer/full"], capsys)
    assert code == 0 and err == ""
    assert "847,288,609,443 possible matrices" in out
    assert "\n  F0       accept" in out
    assert "  F0       accept                               7,776  9.178e-07 %\n" in out
    assert "reviewer/full:1:1: AN-1 127,394,208 of 847,288,609,443 matrices" in out
    assert "unreachable conditions: none" in out and "monotone: yes" in out


def test_reviewer_full_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["reviewer/full", "--format", "json"], capsys)
    assert code == 0
    d = json.loads(out)
    assert d["space"] == 3**25
    assert d["outcomes"]["F0"] == 7776 and sum(d["outcomes"].values()) == d["space"]
    assert d["unreachable"] == [] and d["monotone"] is True
    (fallback,) = d["counterexamples"]
    decision = decide(load_contract("reviewer/full"), fallback["matrices"][0]["matrix"])
    assert decision.fallback and fallback["code"] == "AN-1"


def test_non_monotone_exits_1_with_a_real_counterexample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, NON_MONOTONE)
    code, out, _ = _run([path, "--format", "json"], capsys)
    assert code == 1
    d = json.loads(out)
    assert d["monotone"] is False and d["ok"] is False
    (finding,) = [c for c in d["counterexamples"] if c["code"] == "AN-3"]
    contract = load_contract(NON_MONOTONE)
    before, after = (decide(contract, m["matrix"]) for m in finding["matrices"])
    assert ACTION_RANK[after.action] < ACTION_RANK[before.action]
    code, out, _ = _run([path], capsys)
    assert code == 1 and f"{path}:1:1: AN-3 worsening one score" in out and "after D1[0]" in out


def test_the_html_report_exits_as_the_text_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run([_write(tmp_path, NON_MONOTONE), "--format", "html"], capsys)
    assert code == 1 and out.lstrip().lower().startswith("<!doctype html>")


def test_a_finding_about_a_condition_stands_at_its_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """AN-2 names a condition: in text and JSON alike it stands where that condition's
    condition_id value starts in the file (a finding about the whole contract: at 1:1)."""
    from kernel.io import json_positions

    path = _write(tmp_path, SHADOWED)
    status, out, err = _run([path], capsys)
    assert status == 1 and err == ""
    _, body, _ = _run([path, "--format", "json"], capsys)
    found = [d for d in json.loads(body)["diagnostics"] if d["code"] == "AN-2"]
    ids = [c["condition_id"] for c in SHADOWED["failure_conditions"]]
    positions = json_positions(Path(path).read_text("utf-8"))
    assert len(found) == 2
    for an2 in found:
        cid = an2["message"].split()[0]  # "F2 never decides: …"
        line, column = positions[f"$.failure_conditions[{ids.index(cid)}].condition_id"]
        assert (an2["line"], an2["column"]) == (line, column) != (1, 1)
        assert f"{path}:{line}:{column}: AN-2 {cid} " in out


def test_an_invalid_contract_is_reported_as_check_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NO_FALLBACK lacks the accept-grade F0 (R18): refused before analysis, with the finding
    check gives, at the same line and column (it used to stand at 1:1 as E-CONTRACT)."""
    from kernel.cli.check import main as check_main

    path = _write(tmp_path, NO_FALLBACK)
    status, out, err = _run([path], capsys)
    assert check_main([path]) == status == 1
    checked = capsys.readouterr().out
    assert out == checked and err == ""
    assert f"{path}:1:1: " not in out and "E-SCHEMA $.failure_conditions: " in out


def test_prior(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["reviewer/full", "--prior", "pass=0.7,warn=0.2,block=0.1"], capsys)
    assert code == 0 and "probabilities (prior: every dimension: pass=7/10" in out
    prior = _write(tmp_path, {"*": {"pass": 1}}, "prior.json")
    code, out, _ = _run(["reviewer/full", "--prior-file", prior, "--format", "json"], capsys)
    assert code == 0
    outcomes = json.loads(out)["probabilities"]["outcomes"]
    assert outcomes["F0"] == {"exact": "1", "probability": 1.0}
    assert outcomes["none"] == {"exact": "0", "probability": 0.0}


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["reviewer/full", "--prior", "pass=0.5"],
        ["reviewer/full", "--prior", "pass=1", "--prior-file", "x.json"],
        ["reviewer/full", "--prior-file", "/nonexistent/prior.json"],
        ["/nonexistent/contract.json"],
    ],
)
def test_usage_and_unreadable_input_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(argv, capsys)
    assert code == 2 and (err if not argv or "/nonexistent" not in argv[-1] else out)


def test_prior_naming_a_missing_dimension_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prior = _write(tmp_path, {"D9": {"pass": 1}, "*": {"pass": 1}}, "prior.json")
    code, _, err = _run(["reviewer/full", "--prior-file", prior], capsys)
    assert code == 2 and "no dimension D9" in err


def test_invalid_contract_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run([_write(tmp_path, {"contract_id": 1})], capsys)
    assert code == 1 and err == "" and "E-SCHEMA $.contract_id" in out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_only_on_a_terminal_after_the_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["reviewer/full", "--format", "json"]) == 0
    assert terminal.getvalue() == ""  # fast: nothing shown
    monkeypatch.setattr(cli, "PROGRESS_AFTER", 0.0)
    assert cli.main(["reviewer/full", "--format", "json"]) == 0
    shown = terminal.getvalue()
    assert "analyze: panels" in shown and shown.endswith("\r")
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    assert cli.main(["reviewer/full"]) == 0
    assert pipe.getvalue() == ""


def test_module_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kernel.analyze", "reviewer/methodology_focus", "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["space"] == 3 ** (2 * 2)


def test_too_large_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from test_analysis_space import too_many_named_dimensions

    path = _write(tmp_path, too_many_named_dimensions())
    code, out, err = _run([path], capsys)
    assert code == 1 and err == "" and "classes of reviewer columns" in out
