"""``sprint-kernel migrate``: the report, -o, options, JSON and HTML, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import paths

from kernel.cli import migrate as cli
from kernel.cli.scaffold import run
from kernel.contract.model import load_contract


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = run(cli.main, argv)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_text_report_and_the_written_contract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = tmp_path / "new.json"
    code, out, err = _run(["reviewer/full", "-o", str(new)], capsys)
    assert (code, err) == (0, "")
    assert "847,288,609,443 old matrices" in out
    assert "31,479,798,528 decided differently" in out
    assert "$.failure_conditions[F1].action: editorial_decision=reject_or_major_revision" in out
    assert "role da was eligible on no dimension" in out
    assert "not assessed under 13.2: D4 r3 (domain): block" in out
    assert f"\nwrote {new}\n" in out
    contract = load_contract(str(new), dialect="13.2")
    assert contract.contract_id == "reviewer/reviewer_full/v2"
    # The written file keeps the old document's key order.
    assert list(json.loads(new.read_text("utf-8")))[:2] == ["contract_id", "mode"]


def test_options_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        [
            "reviewer/methodology_focus",
            "--actions",
            "reject_or_major_revision=reject",
            "--roles",
            "D2=methodology,eic",
            "--fatal",
            "D1",
            "--prior",
            "pass=0.7,warn=0.2,block=0.1",
            "--format",
            "json",
        ],
        capsys,
    )
    assert code == 0
    body = json.loads(out)
    assert body["ok"] is True and body["output"] is None
    assert body["contract"]["failure_conditions"][0]["action"] == "editorial_decision=reject"
    assert body["contract"]["acceptance_dimensions"][1]["owner_role"] == "methodology"
    assert body["fatal"] == ["D1"]
    assert sum(t["matrices"] for t in body["transitions"]) == body["space"] == 81
    for t in body["transitions"]:
        example = t["example"]
        assert (example is None) == (not t["changed"])
        if example is not None:
            assert example["old_decision"]["action"] == t["old"]
            assert example["new_decision"]["action"] == t["new"]
    assert body["changed_probability"] is not None
    codes = {d["code"] for d in body["diagnostics"]}
    assert codes == {"MG-1", "MG-2", "SC-15"}  # D1 has one eligible role: a single judge


def test_html_page(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["reviewer/methodology_focus", "--format", "html"], capsys)
    assert code == 0
    assert out.startswith("<!DOCTYPE html>")
    assert "old action by new action" in out and "<svg" in out
    assert "Choices the migration made (9)" in out
    assert out.count("Score grids:") == 2  # the legends of both grids, under the examples
    assert "decided differently" in out


@pytest.mark.parametrize(
    ("argv", "want", "text"),
    [
        (["reviewer/full", "--mode", "reviewer_guided"], 1, "E-MIGRATE"),
        (["reviewer/full", "--roles", "D1"], 2, "expected KEY=VALUE"),
        (["reviewer/full", "--roles", "D1=eic", "--roles", "D1=da"], 2, "given twice"),
        (["reviewer/full", "--fatal", "D5"], 1, "fatal['D5']"),
        (["13.2/reviewer/full"], 1, "already a Schema 13.2"),
        (["no-such-file.json"], 2, "E-READ"),
        (["reviewer/full", "--prior", "pass=2"], 2, "probability"),
    ],
)
def test_refusals_and_usage_errors(
    argv: list[str], want: int, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(argv, capsys)
    assert code == want
    assert text in out + err


def test_an_unwritable_output_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(["reviewer/full", "-o", str(tmp_path / "no" / "new.json")], capsys)
    assert code == 2
    assert "cannot be written" in err


def test_python_m_kernel_migrate_is_the_same_command(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kernel.migrate", "reviewer/methodology_focus"],
        capture_output=True,
        text=True,
        cwd=paths.ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "reviewer/reviewer_methodology_focus/v2" in done.stdout
