"""Migrating the shipped Schema 13 templates to 13.2, with the exact decision-change report.

    python benchmarks/bench_migrate.py [--quick]

Rows (median wall time):

- ``migrate`` of reviewer/full (3^25 old matrices) and reviewer/methodology_focus, and of
  reviewer/full with a prior (the counts run twice: matrices, then probabilities);
- the command line, cold, as a user runs it: ``python -m kernel.migrate reviewer/full`` (text
  report) and ``--format html``, for both templates;
- contracts past the work bound, refused with an estimate: 12 dimensions named by id (panel
  5), reviewer/full with a panel of 20, reviewer/methodology_focus with a panel of 4000.

Target for every row: under 5 s (finished or refused).
"""

from __future__ import annotations

import argparse
import copy
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.timing import Row, row
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


def _median(fn: Callable[[], object], repeat: int) -> tuple[float, str]:
    times = []
    outcome = "finished"
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            fn()
        except KernelError:
            outcome = "refused"
        times.append(time.perf_counter() - start)
    return statistics.median(times), outcome


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
    ]


def run(quick: bool) -> list[Row]:
    repeat = 1 if quick else 5
    rows = []
    for name, fn in cases():
        seconds, outcome = _median(fn, repeat)
        met = "met" if seconds < TARGET_S else "MISSED"
        note = f"{outcome}; target < {TARGET_S:g} s: {met}"
        rows.append(row(SECTION, name, "kernel", seconds * 1e9, note=note, kernel=True))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one run per row, not five")
    args = parser.parse_args(argv)
    rows = run(args.quick)
    width = max(len(r["case"]) for r in rows)
    for r in rows:
        print(f"{r['case']:<{width}}  {(r['median_ns'] or 0) / 1e6:8.1f} ms  {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
