"""``sprint-kernel lint DOC|DIR... [--contract C] [--phase1 P1] [--phase 1|2]``.

One report per document; the exit code is the worst of them. A ``NAME.phase2.md`` is read
with its ``NAME.phase1.md`` (given, or beside it); under 13.2 each document is linted for
the seat the documents give it (:mod:`kernel.cli.seating`), unless ``--role`` names the seat
of the one document given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kernel.cli.files import PHASE_FILES, expand
from kernel.cli.scaffold import (
    EXIT_FAILED,
    EXIT_OK,
    Parser,
    Reader,
    Result,
    emit,
    error_diagnostics,
    exit_for,
    failure,
    finding_dicts,
)
from kernel.cli.seating import Partners, Seated, add_verbose, partners, seat_documents
from kernel.diagnostics import Diagnostic
from kernel.errors import EmptyDirectory, KernelError
from kernel.reviewer.lint.detect import detect_phase
from kernel.reviewer.lint.dialects import LINTS, dialect_of, lint_phase1, lint_phase2
from kernel.reviewer.lint.report import LintReport

__all__ = ["detect_phase", "main"]

EXIT_CODES = """\
  0  every document passes (warnings allowed)
  1  a document fails the lint, or the contract is invalid
  2  usage error or unreadable input (missing file, not UTF-8, over the size limit, FIFO)"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel lint",
        "Lint reviewers' Phase 1 or Phase 2 markdown against a contract. A directory is "
        "searched for *.phase1.md and *.phase2.md; NAME.phase2.md is checked against the "
        "NAME.phase1.md beside it, given or not.",
        exit_codes=EXIT_CODES,
        dialect=True,
        walks=PHASE_FILES,
    )
    parser.add_argument(
        "docs", nargs="+", metavar="DOC", help="reviewer markdown, a directory, or -"
    )
    parser.add_contract_option("contract JSON path, - or shipped template name")
    parser.add_argument("--phase1", metavar="P1", help="the reviewer's Phase 1 document")
    parser.add_argument(
        "--phase", type=int, choices=(1, 2), help="phase (detected from the headings if omitted)"
    )
    parser.add_argument(
        "--role",
        help="dialect 13.2, one document: the seat it was dispatched as (eic, methodology, "
        "...); without it each document's seat is read from its contract_role line (Phase 2) "
        "or its Phase 2 partner and NAME.phase1.md name (Phase 1)",
    )
    add_verbose(parser)
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
    try:
        docs = expand(args.docs, PHASE_FILES, args.settings)
    except EmptyDirectory as exc:
        return failure(args, exc, exc.path)
    if args.phase1 is not None and len(docs) > 1:
        parser.error("--phase1 goes with one Phase 2 document; lint one reviewer at a time")
    reader = Reader(args.max_bytes, dialect=args.dialect)
    try:
        contract = reader.contract(args.contract)
    except KernelError as exc:
        return failure(args, exc, args.contract)
    seated = LINTS[dialect_of(contract)].roles
    if seated:
        if args.role is not None and len(docs) > 1:
            parser.error(
                "--role names the seat of one document; several documents take their seats "
                "from their contract_role lines and NAME.phase1.md names"
            )
    elif args.role is not None or args.manuscript is not None:
        parser.error("--role, --manuscript and --metadata are for dialect 13.2 contracts")
    try:
        phase1 = reader.text(args.phase1) if args.phase1 is not None else None
    except KernelError as exc:
        return failure(args, exc, args.phase1)
    manuscript: str | None = None
    metadata: Any = None
    if args.manuscript is not None:
        try:
            manuscript = reader.text(args.manuscript)
        except KernelError as exc:
            return failure(args, exc, args.manuscript)
        try:
            metadata = reader.json(args.metadata)
        except KernelError as exc:
            return failure(args, exc, args.metadata)
    paired = partners(docs if args.phase1 is None and args.phase != 1 else [], args.settings)
    texts: dict[str, str | KernelError] = {}

    def text_of(path: str) -> str:  # each file read once; - each time it is named
        if path not in texts or path == "-":
            try:
                texts[path] = reader.text(path)
            except KernelError as exc:
                texts[path] = exc
        found = texts[path]
        if isinstance(found, KernelError):
            raise found
        return found

    read: dict[str, tuple[int, str, str | None] | KernelError] = {}
    #: A Phase 2 document whose Phase 1 partner cannot be read fails with the partner's error
    #: (exit 2), as with ``--phase1`` and in ``decide``: it is never linted as if alone.
    failed_at: dict[str, str] = {}
    for doc in docs:
        try:
            text = text_of(doc)
            before = phase1
            if doc in paired.of:
                failed_at[doc] = paired.of[doc]
                before = text_of(paired.of[doc])
                del failed_at[doc]
            phase = args.phase or (
                2 if before is not None else detect_phase(text, max_bytes=args.max_bytes)
            )
            read[doc] = (phase, text, before)
        except KernelError as exc:
            read[doc] = exc
    seats = (
        seat_documents(
            contract,
            {d: r for d, r in read.items() if not isinstance(r, KernelError)},
            paired,
            args.max_bytes,
            phase1_name=args.phase1,
            name_of=lambda d: (args.settings.stdin_filename or d) if d == "-" else d,
        )
        if seated and args.role is None
        else None
    )

    worst = EXIT_OK
    diagnostics: list[Diagnostic] = []
    files: list[dict[str, Any]] = []
    told: list[str] = []  # --verbose
    for doc in docs:
        try:
            got = read[doc]
            if isinstance(got, KernelError):
                raise got
            phase, text, before = got
            role = args.role if seats is None else seats.seating.roles.get(doc)
            report = _lint(
                args, contract, doc, phase, text, before, role, paired, seats, manuscript, metadata
            )
        except KernelError as exc:
            worst = max(worst, exit_for(exc))
            found = error_diagnostics(exc, failed_at.get(doc, doc))
            diagnostics += [d for d in found if d not in diagnostics]
            files.append(
                {
                    "file": doc,
                    "ok": False,
                    "error": exc.message,
                    "findings": finding_dicts(args, found),
                }
            )
            continue
        worst = max(worst, EXIT_OK if report.ok else EXIT_FAILED)
        found = report.diagnostics(doc)
        diagnostics += found
        entry = {
            "file": doc,
            **report.to_dict(),
            "findings": finding_dicts(args, found),
            **paired.entry(doc),
        }
        if seated:
            entry["role"] = role
        files.append(entry)
        if args.verbose:
            told += paired.told(doc) + (seats.told(doc) if seats else [])
    body = {"dialect": dialect_of(contract), "files": files}
    return emit(args, Result(worst, diagnostics, body, told))


def _lint(
    args: Any,
    contract: Any,
    doc: str,
    phase: int,
    text: str,
    before: str | None,
    role: str | None,
    paired: Partners,
    seats: Seated | None,
    manuscript: str | None,
    metadata: Any,
) -> LintReport:
    """One document's report: under 13.2 for the seat it takes (its Phase 2 lint was run
    while the seats were read), with the seating findings."""
    if seats is not None and doc in seats.reports:
        done = seats.reports[doc]
        if isinstance(done, KernelError):
            raise done
        return seats.seating.report(doc, done)
    if seats is not None and role is None:  # a Phase 1 no seat takes: nothing to lint it for
        return seats.seating.report(doc, LintReport(phase=1, findings=()))
    extra: dict[str, Any] = {"role": role, "source": doc} if role is not None else {}
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
            before,
            phase1_source=paired.of.get(doc, args.phase1) if role is not None else None,
            max_bytes=args.max_bytes,
            **extra,
        )
    )
    return seats.seating.report(doc, report) if seats is not None else report
