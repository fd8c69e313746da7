"""Worst cases of the reviewer lints (issue 12): every input the 1 MiB limit admits must be
linted in under 5 s or refused at once.

The 13.2 cases (issue 30) each put one long run where a pattern or the manuscript-leak
check once read it in quadratic time, at 64 KB and at 1 MiB; docs/benchmarks.md gives the
times before the fix.

Usage: ``python benchmarks/bench_lintworst.py [--quick]``, or through the runner:
``python benchmarks/run.py --only lintworst``. ``run(quick)`` returns one row per input
(``case``, ``impl``, ``median_s``, ``note`` with the bytes and the finding codes).
"""

from __future__ import annotations

import functools
import json
import statistics
import sys
import time
from collections.abc import Callable

from benchmarks import documents
from benchmarks.timing import Row, row
from kernel.contract.model import load_contract
from kernel.errors import KernelError
from kernel.reviewer.lint import LintReport, lint_phase1, lint_phase2
from kernel.reviewer.lint.phase1_v2 import lint_phase1_v2
from kernel.reviewer.lint.phase2_v2 import lint_phase2_v2
from kernel.reviewer.lint.receipts import receipt_findings
from kernel.reviewer.render_v2 import render_phase1_v2, render_phase2_v2
from kernel.reviewer.roles import scope_of
from kernel.reviewer.synthesis_v2 import Recomputed, check_synthesis_v2
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


SCOPE_V2 = scope_of(json.loads((documents.EXAMPLE_13_2 / "contract.json").read_text("utf-8")))
EIC_P1 = render_phase1_v2(SCOPE_V2, "eic")
EIC_P2 = render_phase2_v2(SCOPE_V2, "eic", {"D3": "block:repairable", "D4": "warn", "D5": "pass"})
DA_P1 = render_phase1_v2(SCOPE_V2, "da")
DA_P2 = render_phase2_v2(SCOPE_V2, "da", {})
_FINDING = "**Severity**: Major\n"
_ABSTAIN = "abstain_reason: the manuscript gives nothing to assess here"
_PROSE = "The report's findings follow."
_DISSENT = "## Scoring Plan Dissent\n\ndimension_id: D3\n"
SIZES_V2 = {"64 KB": 1 << 16, "1 MiB": MIB}


def _within(text: str, marker: str, head: str, unit: str, tail: str, size: int) -> str:
    """``text`` with ``marker`` replaced by ``head``, ``unit`` repeated, ``tail``, the whole
    document ``size`` bytes at most (the filler near ``size``)."""
    room = size - len(text.encode()) + len(marker.encode()) - len((head + tail).encode())
    return text.replace(marker, head + unit * (room // len(unit.encode())) + tail, 1)


def _eic(head: str, unit: str, tail: str, at: str = _FINDING) -> Callable[[int], str]:
    return lambda size: _within(EIC_P2, at, at + "\n" + head, unit, tail + "\n", size)


def _da(head: str, unit: str, tail: str = "") -> Callable[[int], str]:
    return lambda size: _within(DA_P2, _PROSE, head, unit, tail, size)


#: (Phase 2 document of a size, seat): the slow 13.2 inputs of issue 30.
CASES_V2: dict[str, tuple[Callable[[int], str], str]] = {
    "finding line '|' + blanks + 'x'": (_eic("|", " ", "x"), "eic"),
    "finding line '|' + blanks + anchor": (_eic("|", " ", "**Evidence Anchor**:|x"), "eic"),
    "abstain_reason: x + blanks + y": (
        lambda size: _within(DA_P2, _ABSTAIN, "abstain_reason: x", " ", "y", size),
        "da",
    ),
    "dissent rationale: x + blanks + y": (
        lambda size: _within(
            EIC_P2,
            "## Dimension Scores",
            _DISSENT + "rationale: x",
            " ",
            "y\n\n## Dimension Scores",
            size,
        ),
        "eic",
    ),
    "dissent line of '<'": (
        lambda size: _within(
            EIC_P2,
            "## Dimension Scores",
            "## Scoring Plan Dissent\n\n",
            "<",
            "\n\n## Dimension Scores",
            size,
        ),
        "eic",
    ),
    "DA line '| ' + '['": (_da("| ", "["), "da"),
    "DA line '| ' + '<'": (_da("| ", "<"), "da"),
    "DA line '| ' + '[a]('": (_da("| ", "[a]("), "da"),
    # issue 38: the rendered page is read from a render; past 50,000 places of markup the
    # report is refused at once
    "Review Body of '<a ' (rendered page)": (_da("", "<a "), "da"),
    "Review Body of '&#58; ' (rendered page)": (_da("", "&#58; "), "da"),
    "Review Body of '<span hidden>x' (rendered page)": (_da("", "<span hidden>x"), "da"),
}


def _leak_case(size: int) -> tuple[str, str]:
    """(Phase 1, manuscript), each ``size`` bytes at most: every manuscript shingle's inner
    words occur in Phase 1, never with its first and last word."""
    manuscript = "a " * (size // 2)
    phase1 = _within(
        EIC_P1, "[CONTRACT-ACKNOWLEDGED]", "", "a " * 10 + "x ", "\n\n[CONTRACT-ACKNOWLEDGED]", size
    )
    return phase1, manuscript


def _v2_rows(quick: bool) -> list[Row]:
    rows: list[Row] = []
    meta = {"title": "t", "field": "f", "word_count": 1}
    for size_name, size in SIZES_V2.items():
        lints: dict[str, tuple[Callable[[], LintReport], int]] = {}
        for name, (make, seat) in CASES_V2.items():
            text = make(size)
            p1 = DA_P1 if seat == "da" else EIC_P1
            lints[f"13.2 {name}, {size_name}, lint_phase2_v2"] = (
                functools.partial(lint_phase2_v2, text, SCOPE_V2, p1, role=seat),
                len(text.encode()),
            )
        phase1, manuscript = _leak_case(size)
        lints[f"13.2 manuscript leak, near-matches, {size_name} each, lint_phase1_v2"] = (
            functools.partial(
                lint_phase1_v2, phase1, SCOPE_V2, "eic", manuscript=manuscript, metadata=meta
            ),
            len(phase1.encode()),
        )
        for case, (lint, length) in lints.items():
            times = []
            for _ in range(1 if quick else 3):
                parse_normalised.cache_clear()
                start = time.perf_counter()
                report = lint()
                times.append(time.perf_counter() - start)
            codes = ",".join(sorted({f.code for f in report.findings})) or "none"
            note = f"{length / 1024:.0f} KiB; codes {codes}"
            rows.append(
                row(SECTION, case, "kernel", statistics.median(times) * 1e9, note=note, kernel=True)
            )
    return rows


#: A methodology card with no receipts section yet (the fork reading renders none).
METHODOLOGY_P2 = render_phase2_v2(SCOPE_V2, "methodology", {"D1": "warn"}, ars="fork")
_RECEIPT = (
    "procedure_id: grim\nevidence_anchor: table: Table 3\nreported_inputs: N=23\n"
    "assumptions: one item\nderivation: 60/23\nderived_value_or_range: 2.6087\n"
    "comparison_rule: rounds to 2.63\nrounding_interval: [2.625, 2.635)\n"
    "nearest_achievable: 2.6087\nstatus: consistent\n"
)
_SECTION = "\n## Arithmetic Receipts\n\n"


def _receipts(unit: str, head: str = "", tail: str = "", size: int = MIB) -> str:
    """A methodology card whose receipts section is ``head``, ``unit`` repeated up to
    ``size`` bytes, ``tail``."""
    base = METHODOLOGY_P2 + _SECTION
    return _within(base + "@", "@", head, unit, tail, size)


def _entries(count: int, body: str) -> str:
    return METHODOLOGY_P2 + _SECTION + "".join(f"### AR{k}\n{body}" for k in range(1, count + 1))


#: (card, max_bytes): the receipts gate's worst cases (ars main §4).
CASES_RECEIPTS: dict[str, Callable[[], tuple[str, int]]] = {
    "1 MiB section of prose lines": lambda: (
        _receipts("The sums bracket the mean.\n", "no_recomputable_statistics: none\n"),
        MIB,
    ),
    "1 MiB fence in the section": lambda: (
        _receipts("status: consistent\n", "```text\n", "```\n"),
        MIB,
    ),
    "1 MiB section line of '|'": lambda: (_receipts("|", "### AR1\n", "\n"), MIB),
    "1 MiB section line of '<'": lambda: (_receipts("<", "### AR1\n", "\n"), MIB),
    "1 MiB section line of '`'": lambda: (_receipts("`", "### AR1\n", "\n"), MIB),
    "1 MiB section line of '](('": lambda: (_receipts("](", "### AR1\n", "\n"), MIB),
    "1 MiB section line of '&#58;'": lambda: (_receipts("&#58;", "### AR1\n", "\n"), MIB),
    "1 MiB body line of '<!--'": lambda: (
        _within(METHODOLOGY_P2, _FINDING, _FINDING + "\n", "<!--", "\n", MIB - 100)
        + _SECTION
        + "no_recomputable_statistics: none\n",
        MIB,
    ),
    "1 MiB body line of cells '| **Arithmetic Receipt**: AR1 '": lambda: (
        _within(
            METHODOLOGY_P2,
            _FINDING,
            _FINDING + "\n",
            "| **Arithmetic Receipt**: AR1 ",
            "\n",
            MIB - 100,
        )
        + _SECTION
        + "no_recomputable_statistics: none\n",
        MIB,
    ),
    "10,000 empty '### ARk' entries": lambda: (_entries(10_000, ""), MIB),
    "10,000 full '### ARk' receipts (8 MiB allowed)": lambda: (
        _entries(10_000, _RECEIPT),
        8 * MIB,
    ),
}


def _receipt_rows(quick: bool) -> list[Row]:
    rows: list[Row] = []
    for name, make in CASES_RECEIPTS.items():
        text, limit = make()
        times = []
        for _ in range(1 if quick else 3):
            parse_normalised.cache_clear()
            start = time.perf_counter()
            found = receipt_findings(text, role="methodology", max_bytes=limit)
            times.append(time.perf_counter() - start)
        codes = ",".join(sorted({f.code for f in found})) or "none"
        note = f"{len(text.encode()) / 1024:.0f} KiB; codes {codes}"
        rows.append(
            row(
                SECTION,
                f"receipts: {name}, receipt_findings",
                "kernel",
                statistics.median(times) * 1e9,
                note=note,
                kernel=True,
            )
        )
    return rows


_AUDIT = (
    "fired_conditions: [F2, F3, F4]\n"
    "dimension_verdicts: [D1=warn, D2=pass, D3=warn, D4=warn, D5=warn, D6=block]\n"
    "da_critical_adjudications: [C1=VALIDATED]\n"
    "editorial_decision=major_revision\n"
)
_RECOMPUTED = Recomputed(
    ("F2", "F3", "F4"),
    "editorial_decision=major_revision",
    {"D1": "warn", "D2": "pass", "D3": "warn", "D4": "warn", "D5": "warn", "D6": "block"},
    ("C1",),
)


def _growing_runs(size: int) -> str:
    """Backtick runs of lengths 2, 3, … (none pairs), then single backticks: the code-span
    pairing's worst case."""
    out, length, used = [], 2, 0
    while used < size // 4:
        out.append("`" * length + " ")
        used += length + 1
        length += 1
    return "".join(out) + "` " * ((size - used) // 2)


#: (synthesis text, reading): the synthesis display forms' worst cases (ars main §2).
CASES_SYNTHESIS: dict[str, Callable[[], str]] = {
    "10,000 repeated audit lines": lambda: "# Synthesis\n\n" + _AUDIT * 2_500,
    "1 MiB fence of long lines, audit lines last": lambda: _fill(
        "# Synthesis\n\n```text\n", "x" * 199 + "\n", _AUDIT + "```\n"
    ),
    "10,000 distinct fired lines in a fence": lambda: (
        "# Synthesis\n\n" + _AUDIT + "```\n"
        + "".join(f"fired_conditions: [F{k}]\n" for k in range(10_000)) + "```\n"
    ),
    "1 MiB unclosed fence of long lines": lambda: _fill(_AUDIT + "\n~~~\n", "x" * 199 + "\n"),
    "1 MiB line of backticks": lambda: _fill(_AUDIT + "\n", "`"),
    "1 MiB of whole-line code spans": lambda: _fill(_AUDIT + "\n", "`" + "x" * 196 + "`\n\n"),
}

#: The dissent section's worst cases under later main's rules (ars main §5).
CASES_DISSENT: dict[str, str] = {
    "1 MiB dissent line of '<!--'": "<!--",
    "1 MiB dissent line of '<a'": "<a",
    "1 MiB dissent line of growing backtick runs": "",
}


def _synthesis_rows(quick: bool) -> list[Row]:
    rows: list[Row] = []
    cases: dict[str, Callable[[], object]] = {}
    for name, make in CASES_SYNTHESIS.items():
        text = make()
        for ars in ("main", "fork"):
            cases[f"synthesis: {name}, check_synthesis_v2 ars={ars}"] = functools.partial(
                check_synthesis_v2, SCOPE_V2, _RECOMPUTED, text, ars=ars
            )
    head, tail = "## Scoring Plan Dissent\n\ndimension_id: D3\n", "\n\n## Dimension Scores"
    for name, unit in CASES_DISSENT.items():
        dissent = (
            _within(EIC_P2, "## Dimension Scores", head, unit, tail, MIB - 100)
            if unit
            else EIC_P2.replace("## Dimension Scores", head + _growing_runs(MIB - 4096) + tail)
        )
        cases[f"{name}, lint_phase2_v2 ars=main"] = functools.partial(
            lint_phase2_v2, dissent, SCOPE_V2, EIC_P1, role="eic", ars="main"
        )
    for case, call in cases.items():
        times = []
        note = ""
        for _ in range(1 if quick else 3):
            parse_normalised.cache_clear()
            start = time.perf_counter()
            try:
                found = call()
            except KernelError as exc:  # refused as a whole: over a work bound
                note = f"refused ({exc.message[:60]})"
            else:
                codes = {f.code for f in getattr(found, "findings", ())}
                note = f"codes {','.join(sorted(codes)) or 'none'}"
            times.append(time.perf_counter() - start)
        rows.append(
            row(SECTION, case, "kernel", statistics.median(times) * 1e9, note=note, kernel=True)
        )
    return rows


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
    return rows + _v2_rows(quick) + _receipt_rows(quick) + _synthesis_rows(quick)


if __name__ == "__main__":
    for r in run("--quick" in sys.argv):
        print(f"{(r['median_ns'] or 0) / 1e9:7.3f} s  {r['case']}  ({r['note']})")
