"""What a command line loads at start-up: only what the command needs."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from support.paths import EXAMPLES

from kernel.cli import scaffold


@pytest.mark.parametrize("columns", [None, "50", "0", "-3", "wide", "200"])
def test_help_is_as_wide_as_shutil_would_make_it(
    columns: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert scaffold._columns() == shutil.get_terminal_size().columns


def _loaded(*argv: str) -> set[str]:
    code = (
        "import sys, runpy\n"
        f"sys.argv = {list(argv)!r}\n"
        "try:\n"
        f"    runpy.run_module({argv[0]!r}, run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.__stderr__.write(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    return set(done.stderr.split()[-1000:])


VOTES = str(EXAMPLES / "panel" / "votes.json")
REVIEW = str(EXAMPLES / "arena" / "review.md")


@pytest.mark.parametrize(
    ("argv", "absent"),
    [
        (
            ["kernel.check", "reviewer/full"],
            {"jsonschema", "lark", "shutil", "markdown_it", "tomllib", "pathspec"},
        ),
        (
            ["kernel.lint", str(EXAMPLES / "full" / "eic.phase1.md"), "--contract=reviewer/full"],
            {"tomllib", "pathspec", "xml.etree", "hashlib"},
        ),
        (
            ["kernel.analyze", "reviewer/full"],
            {"jsonschema", "lark", "kernel.analysis.diff", "tomllib", "pathspec"},
        ),
        (["kernel.panel", "resolve", VOTES], {"jsonschema", "kernel.text.injection"}),
        (["kernel.arena", "verdict", REVIEW], {"jsonschema", "kernel.arena.machine"}),
        (
            ["kernel.consensus", "parse", "--kind", "critique", "-"],
            {"jsonschema", "rapidfuzz", "markdown_it"},
        ),
    ],
)
def test_a_command_line_loads_only_what_it_runs(argv: list[str], absent: set[str]) -> None:
    loaded = _loaded(*argv)
    assert "kernel.cli.scaffold" in loaded  # the command ran
    assert not absent & loaded
