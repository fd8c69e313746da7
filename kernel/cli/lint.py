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
from kernel.reviewer.lint.dialects import LINTS, dialect_of, lint_phase1, lint_phase2

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
    parser.add_argument(
        "--role",
        help="dialect 13.2: the seat's role (eic, methodology, ...); the contract's dialect "
        "decides whether documents have one",
    )
    parser.add_argument(
        "--manuscript",
        metavar="TEXT",
        help="dialect 13.2 Phase 1: the manuscript, for the leak check",
    )
    parser.add_argument(
        "--metadata",
        metavar="JSON",
        help="dialect 13.2 Phase 1: the manuscript's title/field/word_count envelope",
    )
    args = parser.parse_args(argv)
    if (args.manuscript is None) != (args.metadata is None):
        parser.error("--manuscript and --metadata go together (the leak check needs both)")
    if args.phase == 1 and args.phase1 is not None:
        parser.error("--phase1 is only meaningful for a Phase 2 document")
    if args.phase1 is not None and len(args.docs) > 1:
        parser.error("--phase1 goes with one Phase 2 document; lint one reviewer at a time")
    reader = Reader(args.max_bytes, dialect=args.dialect)
    try:
        contract = reader.contract(args.contract)
    except KernelError as exc:
        return failure(args.format, exc, args.contract)
    if LINTS[dialect_of(contract)].roles:
        if args.role is None:
            parser.error(f"a dialect {dialect_of(contract)} contract: give the seat's --role")
    elif args.role is not None or args.manuscript is not None:
        parser.error("--role, --manuscript and --metadata are for dialect 13.2 contracts")
    try:
        phase1 = reader.text(args.phase1) if args.phase1 is not None else None
    except KernelError as exc:
        return failure(args.format, exc, args.phase1)
    manuscript: str | None = None
    metadata: Any = None
    if args.manuscript is not None:
        try:
            manuscript = reader.text(args.manuscript)
        except KernelError as exc:
            return failure(args.format, exc, args.manuscript)
        try:
            metadata = reader.json(args.metadata)
        except KernelError as exc:
            return failure(args.format, exc, args.metadata)
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
            extra: dict[str, Any] = (
                {"role": args.role, "source": doc} if args.role is not None else {}
            )
            report = (
                lint_phase1(
                    text,
                    contract,
                    manuscript=manuscript,
                    metadata=metadata,
                    max_bytes=args.max_bytes,
                    **extra,
                )
                if phase == 1
                else lint_phase2(
                    text,
                    contract,
                    phase1,
                    phase1_source=args.phase1 if args.role is not None else None,
                    max_bytes=args.max_bytes,
                    **extra,
                )
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
    body = {"dialect": dialect_of(contract), "files": files}
    return emit(args.format, Result(worst, diagnostics, body, summary))
