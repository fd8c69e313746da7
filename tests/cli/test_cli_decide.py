"""python -m kernel.decide with a matrix: output, exit codes, JSON shape."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import paths

from kernel.cli.decide import main

EXAMPLES = paths.EXAMPLES


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main([*argv, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def write(tmp_path: Path, value: Any) -> str:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    return str(path)


def test_decides_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, body = run_json(
        capsys,
        "--contract",
        "reviewer/full",
        "--matrix",
        str(EXAMPLES / "full_major_revision.json"),
    )
    assert code == 0
    assert body["action"] == "editorial_decision=major_revision"
    assert body["condition_id"] == "F2"
    assert body["tags"] == []
    assert body["fired"] == {"F1": False, "F2": True, "F3": True, "F0": False}


def test_text_output_has_the_fired_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--contract", "reviewer/full", "--matrix", str(EXAMPLES / "full_fallback.json")]) == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("decision: editorial_decision=accept (no condition fired; R5 fallback")
    assert "F0" in out and "4/5" in out


def test_shrunk_panel_aborts_with_tag(capsys: pytest.CaptureFixture[str]) -> None:
    code, body = run_json(
        capsys, "--contract", "reviewer/full", "--matrix", str(EXAMPLES / "full_shrunk.json")
    )
    assert code == 1
    assert body["action"] is None
    assert body["tags"] == ["[PANEL-SHRUNK: usable=4, panel_size=5]"]


def test_unrecognised_expression_aborts_with_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kernel import shipped_template

    c = shipped_template("reviewer/methodology_focus")
    c["failure_conditions"][2]["expression"] = "D1 passes"
    contract = tmp_path / "c.json"
    contract.write_text(json.dumps(c), encoding="utf-8")
    matrix = write(tmp_path, {"D1": ["pass", "pass"], "D2": ["pass", "pass"]})
    code, body = run_json(capsys, "--contract", str(contract), "--matrix", matrix)
    assert code == 1
    assert body["tags"] == ["[EXPRESSION-UNRECOGNISED: condition_id=F0, expression=D1 passes]"]


def test_bad_matrix_is_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    matrix = write(tmp_path, {"D1": ["pass", "maybe"], "D2": ["pass", "pass"]})
    code, body = run_json(capsys, "--contract", "reviewer/methodology_focus", "--matrix", matrix)
    assert code == 1
    assert "matrix['D1'][1]: 'maybe' is not a score" in body["error"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--contract", "reviewer/full"],
        ["--matrix", "m.json"],
        ["--contract", "reviewer/full", "--matrix", "m.json", "p2.md"],
        ["--contract", "reviewer/full", "p2.md"],
        ["--contract", "reviewer/full", "--format", "yaml", "--matrix", "m.json"],
    ],
)
def test_usage_errors_exit_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2


def test_unreadable_inputs_exit_2(tmp_path: Path) -> None:
    for argv in (
        ["--contract", "reviewer/full", "--matrix", str(tmp_path / "missing.json")],
        [
            "--contract",
            str(tmp_path / "missing.json"),
            "--matrix",
            str(EXAMPLES / "full_reject.json"),
        ],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "kernel.decide", *argv], capture_output=True, text=True
        )
        assert done.returncode == 2, done.stderr
        assert "no such file" in done.stdout
        assert done.stderr == ""


def test_cli_module_refuses_import() -> None:
    with pytest.raises(ImportError, match="from kernel import decide"):
        __import__("kernel.decide")
    import kernel

    assert callable(kernel.decide)
