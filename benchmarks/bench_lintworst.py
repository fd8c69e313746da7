"""Worst cases of the reviewer lints (issue 12): every input the 1 MiB limit admits must be
linted in under 5 s or refused at once.

Usage: ``python benchmarks/bench_lintworst.py [--quick]``, or through the runner:
``python benchmarks/run.py --only lintworst``. ``run(quick)`` returns one row per input
(``case``, ``impl``, ``median_s``, ``note`` with the bytes and the finding codes).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from benchmarks import documents
from benchmarks.timing import Row, row
from kernel.contract.model import load_contract
from kernel.reviewer.lint import LintReport, lint_phase1, lint_phase2
from kernel.text.markdown import MAX_STRUCTURE_UNITS, parse_normalised

SECTION = "lintworst"

MIB = 1 << 20


def _fill(head: str, unit: str, tail: str = "") -> str:
    room = MIB - len(head.encode()) - len(tail.encode())
    return head + unit * (room // len(unit.encode())) + tail


def _body(unit: str) -> str:
    """A conforming Phase 2 document whose Review Body is ``unit`` repeated up to 1 MiB."""
    head, tail = documents.phase2(2_000).split("## Editorial Decision")
    return _fill(head, unit, "\n\n## Editorial Decision" + tail)


def _at_cap(unit: str, markers: int) -> str:
    """``## Review Body`` then ``unit`` lines just under the work bound."""
    per_line = 1 + 3 * markers
    return "## Review Body\n" + unit * ((MAX_STRUCTURE_UNITS - 6) // per_line)


CASES: dict[str, Callable[[], str]] = {
    "500k short lines (refused)": lambda: _fill("", "a\n"),
    "140k '### F1' headings (refused)": lambda: _fill("## Failure Condition Checks\n", "### F1\n"),
    "paragraph lines at the bound": lambda: _at_cap("a\n", 0),
    "list items at the bound": lambda: _at_cap("- a\n", 1),
    "4-deep list lines at the bound": lambda: _at_cap("- - - - a\n", 4),
    "reference definitions at the bound": lambda: _at_cap("[a]: b\n", 1),
    "score lines at the bound (check 8)": lambda: _at_cap("score: block\n", 0),
    "1 MiB prose body": lambda: _body("word "),
    "1 MiB body of code spans": lambda: _body("sam`ple` "),
    "1 MiB body of inline HTML": lambda: _body("<b>x</b> "),
    "1 MiB body of '['": lambda: _body("["),
    "1 MiB paraphrase naming D1": lambda: _fill("## Contract Paraphrase\n\n", "D1 "),
}


def run(quick: bool) -> list[Row]:
    contract = load_contract("reviewer/full")
    plan = documents.phase1(2_000)
    rows: list[Row] = []
    for name, make in CASES.items():
        text = make()
        lints: tuple[tuple[int, Callable[[str], LintReport]], ...] = (
            (1, lambda t: lint_phase1(t, contract)),
            (2, lambda t: lint_phase2(t, contract, plan)),
        )
        for phase, lint in lints:
            times = []
            for _ in range(1 if quick else 3):
                parse_normalised.cache_clear()  # each run parses, as a new document does
                start = time.perf_counter()
                report = lint(text)
                times.append(time.perf_counter() - start)
            codes = ",".join(sorted({f.code for f in report.findings})) or "none"
            case = f"{name}, lint_phase{phase}"
            note = f"{len(text.encode()) / 1024:.0f} KiB; codes {codes}"
            rows.append(
                row(SECTION, case, "kernel", statistics.median(times) * 1e9, note=note, kernel=True)
            )
    return rows


if __name__ == "__main__":
    for r in run("--quick" in sys.argv):
        print(f"{(r['median_ns'] or 0) / 1e9:7.3f} s  {r['case']}  ({r['note']})")
