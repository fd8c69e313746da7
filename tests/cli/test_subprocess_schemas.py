"""Every JSON output a test gets from a subprocess is checked against its shipped schema
(tests/conftest.py wraps ``subprocess.run``; issue 31: no JSON output of the suite escapes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import output_schemas, paths
from support.output_schemas import cli_argv


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ([sys.executable, "-m", "kernel", "check", "c.json"], ["check", "c.json"]),
        ([sys.executable, "-m", "kernel.arena", "verdict", "r.md"], ["arena", "verdict", "r.md"]),
        (["/venv/bin/sprint-kernel", "lint", "d.md"], ["lint", "d.md"]),
        (["bash", "-c", "sprint-kernel check c.json 2>/dev/null"], ["check", "c.json"]),
        ("printf x | python -m kernel.panel delta - f.json", ["panel", "delta", "-", "f.json"]),
        ("sprint-kernel check c.json > out.json", None),
        ("sprint-kernel check c.json; echo done", None),
        (["git", "status"], None),
        ([sys.executable, "-m", "kernel.cli.main"], None),
    ],
)
def test_the_command_line_is_recognised_however_it_is_run(
    command: Any, argv: list[str] | None
) -> None:
    assert cli_argv(command) == argv


@pytest.mark.parametrize(
    ("argv", "schema"),
    [
        (["check", "reviewer/full", "--format", "json"], "check"),
        (["check", "reviewer/full", "--format=json", "--statistics"], "statistics"),
        (
            ["arena", "verdict", str(paths.EXAMPLES / "arena" / "review.md"), "--format", "json"],
            "arena-verdict",
        ),
        (
            [
                "decide",
                "--contract",
                "reviewer/full",
                "--matrix",
                str(paths.EXAMPLES / "full_matrices.jsonl"),
            ],
            "decide-line",
        ),
    ],
)
def test_a_subprocess_json_output_is_checked(
    argv: list[str], schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    check = output_schemas.check_output

    def recorded(name: str | None, text: str) -> None:
        seen.append(str(name))
        check(name, text)

    monkeypatch.setattr(output_schemas, "check_output", recorded)
    done = subprocess.run(
        [sys.executable, "-m", "kernel", *argv],
        capture_output=True,
        cwd=Path(paths.ROOT),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert seen and set(seen) == {schema}
