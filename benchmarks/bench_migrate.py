"""Migrating the shipped Schema 13 templates to 13.2, with the exact decision-change report.

    python benchmarks/bench_migrate.py [--quick]

Rows (median wall time):

- ``migrate`` of reviewer/full (3^25 old matrices) and reviewer/methodology_focus, and of
  reviewer/full with a prior (the counts run twice: matrices, then probabilities);
- the command line, cold, as a user runs it: ``python -m kernel.migrate reviewer/full`` (text
  report) and ``--format html``, for both templates;
- contracts past the work bound, refused with an estimate: 12 dimensions named by id (panel
  5), reviewer/full with a panel of 20, reviewer/methodology_focus with a panel of 4000;
- the worst cases with a prior (issue 38): an 8.5 KB contract of 99 dimensions at panels 50
  and 80 with a 43-character prior (22 s and 84 s before; now refused at once, as analyze
  refuses it), with an ordinary prior at panel 80 (9 s before), and with the longest prior it
  accepts at panels 50 and 65.

Target for every row: under 5 s (finished or refused).
"""

from __future__ import annotations

import copy
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.timing import Row, target_main, target_rows
from kernel.analysis.probability import parse_prior
from kernel.contract.templates import shipped_template
from kernel.errors import KernelError
from kernel.migration import migrate

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 5.0
SECTION = "migrate"


def named_dimensions(count: int) -> dict[str, Any]:
    """reviewer/full with ``count`` normal dimensions, each named by id in a condition."""
    data = copy.deepcopy(dict(shipped_template("reviewer/full")))
    data["acceptance_dimensions"] = [
        {"id": f"D{i}", "name": f"dim_{i}", "description": "d", "priority": "normal"}
        for i in range(1, count + 1)
    ]
    data["failure_conditions"] = [
        {
            "condition_id": f"F{i}",
            "severity": 50,
            "expression": f"D{i} scores 'block'",
            "cross_reviewer_quantifier": "majority",
            "action": "editorial_decision=major_revision",
        }
        for i in range(1, count + 1)
    ] + [
        {
            "condition_id": "F0",
            "severity": 10,
            "expression": "every normal dimension scores 'pass'",
            "cross_reviewer_quantifier": "all",
            "action": "editorial_decision=accept",
        }
    ]
    return data


def wide_contract(panel: int, dimensions: int = 99) -> dict[str, Any]:
    """A Schema 13 methodology-focus contract with reviewer/full's five dimensions and
    conditions (F2 counted with ``any``), padded to ``dimensions`` dimensions (8.5 KB)."""
    data = copy.deepcopy(dict(shipped_template("reviewer/methodology_focus")))
    full = shipped_template("reviewer/full")
    data["panel_size"] = panel
    data["acceptance_dimensions"] = copy.deepcopy(full["acceptance_dimensions"]) + [
        {"id": f"D{i}", "name": f"d{i}", "description": "d", "priority": "normal"}
        for i in range(6, dimensions + 1)
    ]
    data["failure_conditions"] = copy.deepcopy(full["failure_conditions"])
    data["failure_conditions"][1]["cross_reviewer_quantifier"] = "any"
    return data


def _cli(*argv: str) -> Callable[[], object]:
    def call() -> object:
        done = subprocess.run(
            [sys.executable, "-m", "kernel.migrate", *argv],
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            raise KernelError(done.stderr.decode("utf-8", "replace"))
        return done

    return call


def cases() -> list[tuple[str, Callable[[], object]]]:
    prior = parse_prior("pass=0.7,warn=0.2,block=0.1")
    big = named_dimensions(12)
    wide = dict(shipped_template("reviewer/full"), panel_size=20)
    wider = dict(shipped_template("reviewer/methodology_focus"), panel_size=4000)
    return [
        ("migrate reviewer/full (3^25 old matrices)", lambda: migrate("reviewer/full")),
        ("migrate reviewer/methodology_focus (3^4)", lambda: migrate("reviewer/methodology_focus")),
        (
            "migrate reviewer/full --prior pass=0.7,warn=0.2,block=0.1",
            lambda: migrate("reviewer/full", prior=prior),
        ),
        ("python -m kernel.migrate reviewer/full (cold, text)", _cli("reviewer/full")),
        (
            "python -m kernel.migrate reviewer/full --format html (cold)",
            _cli("reviewer/full", "--format", "html"),
        ),
        (
            "python -m kernel.migrate reviewer/methodology_focus (cold, text)",
            _cli("reviewer/methodology_focus"),
        ),
        ("migrate 12 dimensions named by id, panel 5 (refused)", lambda: migrate(big)),
        ("migrate reviewer/full with panel_size 20 (refused)", lambda: migrate(wide)),
        (
            "migrate reviewer/methodology_focus with panel_size 4000 (refused)",
            lambda: migrate(wider),
        ),
        *_with_a_prior(),
    ]


def _with_a_prior() -> list[tuple[str, Callable[[], object]]]:
    long = parse_prior("pass=0.123456789,warn=0.1,block=0.776543211")
    ordinary = parse_prior("pass=0.7,warn=0.2,block=0.1")
    halves = parse_prior("pass=1/2,warn=1/2")
    at = {panel: wide_contract(panel) for panel in (50, 65, 80)}
    return [
        (
            "migrate 99 dims (8.5 KB), panel 50, --prior of 43 characters (refused)",
            lambda: migrate(at[50], prior=long),
        ),
        (
            "migrate 99 dims (8.5 KB), panel 80, --prior of 43 characters (refused)",
            lambda: migrate(at[80], prior=long),
        ),
        (
            "migrate 99 dims (8.5 KB), panel 80, --prior pass=0.7,warn=0.2,block=0.1 (refused)",
            lambda: migrate(at[80], prior=ordinary),
        ),
        (
            "migrate 99 dims (8.5 KB), panel 50, --prior pass=1/2,warn=1/2",
            lambda: migrate(at[50], prior=halves),
        ),
        (
            "migrate 99 dims (8.5 KB), panel 65, --prior pass=1/2,warn=1/2",
            lambda: migrate(at[65], prior=halves),
        ),
    ]


def run(quick: bool) -> list[Row]:
    return target_rows(SECTION, cases(), quick, TARGET_S)


def main(argv: Sequence[str] | None = None) -> int:
    return target_main(run, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
