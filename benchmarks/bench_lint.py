"""lint_phase1 / lint_phase2 against markdown-it-py's bare parse of the same documents.

Documents: Phase 1 and Phase 2 at 2 KB, 10 KB and 100 KB (long prose paragraphs), and a
Phase 2 document whose 100 KB Review Body is short paragraphs, and Phase 2 padded with the
documentation's own prose (a vocabulary of thousands of words); then 13.2 reports padded with
the generated prose (about 120 distinct words) and with the documentation's prose. The target
(issue 16) is the ratio to the block-only parse: at most 2. A last row per case times the
injection scan alone, which every lint runs over the whole document as its advisory check.

The peer is ``MarkdownIt("commonmark").parse(text)``: what any tool reading the document
as CommonMark pays at least. A second reference row is the block-level parse alone (inline
rules disabled), which is all the lints need for structure. ``lint_phase2`` also reads the
reviewer's Phase 1 plan (check 5), so in Phase 2 both peers parse that document too.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks import documents
from benchmarks.timing import NOT_AVAILABLE, Row, compare, row, set_ratios

SECTION = "lint"
SIZES = (2_000, 10_000, 100_000)
FULL_PARSE = "markdown-it-py parse (commonmark)"
BLOCK_PARSE = "markdown-it-py block-only parse"
#: Not a peer: the injection scan every lint runs as its advisory check (Phase 1 check 6),
#: shown so that the lint's own cost can be told from the scan's.
SCAN = "(within the lint) scan_injection"


def run(quick: bool) -> list[Row]:
    try:
        lint: Any = importlib.import_module("kernel.reviewer.lint")
    except ImportError as e:
        return [row(SECTION, "-", "lint_phase1 / lint_phase2", status=NOT_AVAILABLE, note=str(e))]
    from markdown_it import MarkdownIt

    import kernel

    contract = kernel.load_contract("reviewer/full")
    scan: Callable[[str], object] = importlib.import_module("kernel.text.injection").scan_injection
    full_md = MarkdownIt("commonmark")
    block_md = MarkdownIt("commonmark").disable("inline")
    plan = documents.phase1(SIZES[0])
    # The parser keeps the last two documents; each timed lint starts without them, as a
    # lint of a new document does.
    forget: Callable[[], None] = importlib.import_module(
        "kernel.text.markdown"
    ).parse_normalised.cache_clear

    def lint1(text: str) -> object:
        forget()
        return lint.lint_phase1(text, contract)

    def lint2(text: str) -> object:
        forget()
        return lint.lint_phase2(text, contract, plan)

    def parsers(phase: int) -> tuple[Callable[[str], object], Callable[[str], object]]:
        """The peers; in Phase 2 they parse the Phase 1 plan too, as the lint reads both."""
        if phase == 1:
            return full_md.parse, block_md.parse
        return (
            lambda text: (full_md.parse(text), full_md.parse(plan)),
            lambda text: (block_md.parse(text), block_md.parse(plan)),
        )

    cases: list[tuple[int, Callable[[int], str], Callable[[str], object], int, str]] = [
        (phase, make, lint_one, size, "")
        for phase, make, lint_one in ((1, documents.phase1, lint1), (2, documents.phase2, lint2))
        for size in SIZES
    ]
    cases.append((2, documents.phase2_paragraphs, lint2, SIZES[-1], ", short paragraphs"))
    # The same kind of report padded with English of a real vocabulary (the documentation's
    # prose), as the 13.2 rows below are.
    cases += [(2, documents.phase2_prose, lint2, size, ", real vocabulary") for size in SIZES]
    # Dialect 13.2: a scoring seat's report, linted for its role against its Phase 1.
    contract_v2 = kernel.load_contract(str(documents.EXAMPLE_13_2 / "contract.json"))
    plan_v2 = (documents.EXAMPLE_13_2 / "methodology.phase1.md").read_text("utf-8")

    def lint2_v2(text: str) -> object:
        forget()
        return lint.lint_phase2(text, contract_v2, plan_v2, role="methodology")

    cases += [(2, documents.phase2_v2, lint2_v2, size, ", dialect 13.2") for size in SIZES]
    # The same report padded with English of a real vocabulary (the documentation's prose).
    cases += [
        (2, documents.phase2_v2_prose, lint2_v2, size, ", dialect 13.2, real vocabulary")
        for size in SIZES
    ]
    rows: list[Row] = []
    for phase, make, lint_one, size, shape in cases:
        text = make(size)
        report: Any = lint_one(text)
        case = f"phase {phase}, {len(text.encode()) / 1000:.0f} KB{shape}"
        name = f"lint_phase{phase}" + (" (13.2)" if "13.2" in shape else "")
        note = "document passes" if report.ok else f"document FAILS: {len(report.findings)}"
        if phase == 2:
            note += (
                "; also reads the seat's Phase 1 (so do the parse rows)"
                if "13.2" in shape
                else "; also reads the 2 KB Phase 1 plan (so do the parse rows)"
            )
        full, block = parsers(phase)
        if "13.2" in shape:
            full, block = (
                lambda text: (full_md.parse(text), full_md.parse(plan_v2)),
                lambda text: (block_md.parse(text), block_md.parse(plan_v2)),
            )
        impls: Sequence[tuple[str, Callable[[Any], object], Sequence[Any]]] = (
            (name, lint_one, [text]),
            (FULL_PARSE, full, [text]),
            (BLOCK_PARSE, block, [text]),
            (SCAN, scan, [text]),
        )
        medians = compare(impls, batches=5 if quick else 21, target_ns=1e6 if quick else 2e7)
        case_rows = [
            row(SECTION, case, name, medians[name], note=note, kernel=True),
            row(SECTION, case, FULL_PARSE, medians[FULL_PARSE], note="tokens incl. inline"),
            row(SECTION, case, BLOCK_PARSE, medians[BLOCK_PARSE], note="what the lints run"),
            row(SECTION, case, SCAN, medians[SCAN], note="part of the lint: its advisory check"),
        ]
        set_ratios(case_rows, medians[name])
        rows += case_rows
    return rows
