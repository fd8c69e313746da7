"""``sprint-kernel lint DOC... --contract C [--phase1 P1] [--phase 1|2]``.

One report per document; the exit code is the worst of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kernel.cli.scaffold import (
    EXIT_FAILED,
    EXIT_OK,
    Parser,
    Reader,
    Result,
    Stream,
    emit,
    exit_for,
    failure,
)
from kernel.diagnostics import Diagnostic, from_error
from kernel.errors import KernelError
from kernel.reviewer.lint.detect import detect_phase
from kernel.reviewer.lint.phase1 import lint_phase1
from kernel.reviewer.lint.phase2 import lint_phase2

__all__ = ["detect_phase", "main"]

EXIT_CODES = """\
  0  every document passes (warnings allowed)
  1  a document fails the lint, or the contract is invalid
  2  usage error or unreadable input (missing file, not UTF-8, over the size limit, FIFO)"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel lint",
        "Lint reviewers' Phase 1 or Phase 2 markdown against a contract.",
        exit_codes=EXIT_CODES,
        dialect=True,
    )
    parser.add_argument("docs", nargs="+", metavar="DOC", help="reviewer markdown, or -")
    parser.add_argument(
        "--contract", required=True, help="contract JSON path, - or shipped template name"
    )
    parser.add_argument("--phase1", metavar="P1", help="the reviewer's Phase 1 document")
    parser.add_argument(
        "--phase", type=int, choices=(1, 2), help="phase (detected from the headings if omitted)"
    )
    args = parser.parse_args(argv)
    if args.phase == 1 and args.phase1 is not None:
        parser.error("--phase1 is only meaningful for a Phase 2 document")
    if args.phase1 is not None and len(args.docs) > 1:
        parser.error("--phase1 goes with one Phase 2 document; lint one reviewer at a time")
    reader = Reader(args.max_bytes, dialect=args.dialect)
    try:
        contract = reader.contract(args.contract)
    except KernelError as exc:
        return failure(args.format, exc, args.contract)
    try:
        phase1 = reader.text(args.phase1) if args.phase1 is not None else None
    except KernelError as exc:
        return failure(args.format, exc, args.phase1)
    worst = EXIT_OK
    diagnostics: list[Diagnostic] = []
    files: list[dict[str, Any]] = []
    summary: list[tuple[Stream, str]] = []
    for doc in args.docs:
        try:
            text = reader.text(doc)
            phase = args.phase or (
                2 if phase1 is not None else detect_phase(text, max_bytes=args.max_bytes)
            )
            report = (
                lint_phase1(text, contract, max_bytes=args.max_bytes)
                if phase == 1
                else lint_phase2(text, contract, phase1, max_bytes=args.max_bytes)
            )
        except KernelError as exc:
            worst = max(worst, exit_for(exc))
            diagnostics.append(from_error(exc, doc))
            files.append({"file": doc, "ok": False, "error": exc.message})
            summary.append(("err", f"{doc}: not linted"))
            continue
        worst = max(worst, EXIT_OK if report.ok else EXIT_FAILED)
        diagnostics += report.diagnostics(doc)
        files.append({"file": doc, **report.to_dict()})
        summary.append(("err", f"{doc}: phase {phase} lint {'OK' if report.ok else 'FAILED'}"))
    return emit(args.format, Result(worst, diagnostics, {"files": files}, summary))
