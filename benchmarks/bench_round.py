"""A real-size review round, linted and decided, against markdown-it-py's full CommonMark parse
of the same documents.

The round (:mod:`benchmarks.round_documents`): five seats, each a Phase 1 of 3 to 8 KB and a
Phase 2 of 10 to 25 KB of varied English with findings, anchors and DA tables, a 30 KB
manuscript (read by the 13.2 Phase 1 manuscript-leak check) and a synthesis. The kernel's
call is what an orchestrator makes: each seat's Phase 1 linted (13.2: with the manuscript),
each Phase 2 linted against it, then the round decided from those reports and the synthesis
checked. The peer parses the ten seat documents and the synthesis (``MarkdownIt("commonmark")
.parse``, inline rules included). Target (issue 40): the round ≤ 2x the parse. Once the
kernel takes ``ars=``, each round is measured under both readings (``ars="main"``,
``ars="fork"``).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from benchmarks import round_documents
from benchmarks.timing import NOT_AVAILABLE, Row, compare, row, set_ratios

SECTION = "round"
FULL_PARSE = "markdown-it-py parse (commonmark)"


def _forget() -> Callable[[], None]:
    """Clears the caches that keep a document's parse, so each timed round starts as a round
    of new documents does."""
    clears: list[Callable[[], None]] = []
    for module, name in (
        ("kernel.text.markdown", "parse_normalised"),
        ("kernel.reviewer.lint.readings", "readings"),
        ("kernel.reviewer.lint.readings", "forget_readings"),
    ):
        fn = getattr(importlib.import_module(module), name, None)
        if fn is not None and hasattr(fn, "cache_clear"):
            clears.append(fn.cache_clear)
        elif fn is not None and name.startswith("forget"):
            clears.append(fn)

    def forget() -> None:
        for clear in clears:
            clear()

    return forget


def run(quick: bool) -> list[Row]:
    try:
        lint: Any = importlib.import_module("kernel.reviewer.lint")
        review: Any = importlib.import_module("kernel.reviewer.review")
    except ImportError as e:
        return [row(SECTION, "-", "round", status=NOT_AVAILABLE, note=str(e))]
    from markdown_it import MarkdownIt

    forget = _forget()
    md = MarkdownIt("commonmark")
    # Reports the caller has linted are handed to the decision when it takes them.
    takes_reports = "reports" in inspect.signature(review.decide_documents).parameters
    rows: list[Row] = []
    for dialect in round_documents.DIALECTS:
        for reading, extra in _readings(review.decide_documents).items():
            rows += _case(lint, review, md, forget, takes_reports, dialect, reading, extra, quick)
    return rows


def _readings(decide_documents: Callable[..., object]) -> dict[str, dict[str, Any]]:
    """The readings a round is measured under: ``ars="main"`` and ``ars="fork"`` once the
    kernel takes ``ars=``, else the one reading."""
    if "ars" in inspect.signature(decide_documents).parameters:
        return {", ars=main": {"ars": "main"}, ", ars=fork": {"ars": "fork"}}
    return {"": {}}


def _case(
    lint: Any,
    review: Any,
    md: Any,
    forget: Callable[[], None],
    takes_reports: bool,
    dialect: str,
    reading: str,
    extra: dict[str, Any],
    quick: bool,
) -> list[Row]:
    import kernel

    r = round_documents.round_of(dialect)
    contract = kernel.load_contract(r.contract)
    leak: dict[str, Any] = {}
    if dialect == "13.2":
        leak = {"manuscript": r.manuscript, "metadata": round_documents.METADATA}

    def lint_and_decide(_: object) -> Any:
        forget()
        reports = []
        for role, p2, p1 in r.seats:
            one = lint.lint_phase1(p1, contract, role=role, **leak, **extra)
            two = lint.lint_phase2(p2, contract, p1, role=role, **extra)
            reports.append((one, two))
        if takes_reports:
            return review.decide_documents(
                contract, r.seats, synthesis=r.synthesis, reports=reports, **extra
            )
        return review.decide_documents(contract, r.seats, synthesis=r.synthesis, **extra)

    def parse(_: object) -> object:
        return [md.parse(t) for t in r.documents]

    size = sum(len(t.encode()) for t in r.documents)
    case = f"dialect {dialect}{reading}, 5 seats, {size / 1000:.0f} KB" + (
        f" + {len(r.manuscript) / 1000:.0f} KB manuscript" if leak else ""
    )
    name = "lint 10 documents + decide + synthesis check"
    try:
        outcome = lint_and_decide(None)
    except Exception as e:  # a reading this dialect does not take
        return [row(SECTION, case, name, status=NOT_AVAILABLE, note=f"{type(e).__name__}: {e}")]
    decided = outcome.decision is not None and outcome.synthesis is not None
    ok = decided and outcome.synthesis.ok and not outcome.tags
    if not ok:  # a failing round lints less: its time would flatter the kernel
        raise RuntimeError(f"{case}: the benchmark's round does not pass: {outcome.tags}")
    note = "round decided, synthesis agrees"
    impls = ((name, lint_and_decide, [None]), (FULL_PARSE, parse, [None]))
    medians = compare(impls, batches=3 if quick else 11, target_ns=1e6 if quick else 2e8)
    case_rows = [
        row(SECTION, case, name, medians[name], note=note, kernel=True),
        row(SECTION, case, FULL_PARSE, medians[FULL_PARSE], note="the 11 documents"),
    ]
    set_ratios(case_rows, medians[name])
    return case_rows
