"""``sprint-kernel lint DOC|DIR... [--contract C] [--phase1 P1] [--phase 1|2]``.

One report per document; the exit code is the worst of them. A ``NAME.phase2.md`` is read
with its ``NAME.phase1.md`` (given, or beside it); under 13.2 each document is linted for
the seat the documents give it (:mod:`kernel.cli.seating`), unless ``--role`` names the seat
of the one document given.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from kernel.cli.files import PHASE1, PHASE2, PHASE_FILES, expand, is_excluded, untracked, warn
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
from kernel.io import MAX_INPUT_BYTES
from kernel.reviewer.lint.ars import DEFAULT_ARS
from kernel.reviewer.lint.detect import detect_phase
from kernel.reviewer.lint.dialects import LINTS, dialect_of, lint_phase1, lint_phase2
from kernel.reviewer.lint.partners import untracked_partner
from kernel.reviewer.lint.report import LintReport

__all__ = ["detect_phase", "main"]

#: A written synthesis: ``lint reviews/*.md`` leaves it out (``decide --synthesis`` reads it).
SYNTHESIS = "synthesis.md"

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
        ars=True,
        walks=PHASE_FILES,
    )
    parser.add_argument(
        "docs",
        nargs="*",
        default=["."],
        metavar="DOC",
        help="reviewer markdown, a directory, or - (default: . , as ruff)",
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
    notes: list[str] = []
    try:
        docs = expand(args.docs, PHASE_FILES, args.settings, warn=warn)
    except EmptyDirectory as exc:
        return failure(args, exc, exc.path)
    docs, syntheses = _without_syntheses(docs)
    if syntheses and not docs:
        parser.error(
            f"{', '.join(syntheses)}: a synthesis, not a reviewer document "
            "(decide --synthesis checks it)"
        )
    notes += [f"{s}: a synthesis, not linted (decide --synthesis checks it)" for s in syntheses]
    if args.phase1 is not None and len(docs) > 1:
        parser.error("--phase1 goes with one Phase 2 document; lint one reviewer at a time")
    if args.role is not None and len(docs) > 1:
        parser.error(
            "--role names the seat of one document; several documents take their seats "
            "from their contract_role lines and NAME.phase1.md names"
        )
    pairing = args.phase1 is None and args.phase != 1
    pulled: list[str] = []
    if pairing and args.role is None:
        docs, pulled = _with_phase2_partners(docs, args.settings)
    worst = EXIT_OK
    diagnostics: list[Diagnostic] = []
    files: list[dict[str, Any]] = []
    told: list[str] = []
    dialects: list[str] = []
    readings: list[str] = []
    contracts: dict[tuple[str, str, int], Any] = {}
    for project, group in _rounds(docs, args.settings):
        own = args.settings if project is None else args.settings.for_file(group[0])
        name = own.setting("contract")
        if name is None:
            parser.error(
                f"{group[0]}: no contract (give --contract, or set contract in "
                f"{own.source or 'its configuration'})"
            )
        dialect = own.setting("dialect") or "auto"
        max_bytes = own.setting("max-bytes", MAX_INPUT_BYTES)
        reader = Reader(max_bytes, dialect=dialect)
        key = (name, dialect, max_bytes)
        try:
            if key not in contracts:
                contracts[key] = reader.contract(name)
            contract = contracts[key]
        except KernelError as exc:
            return failure(args, exc, name)
        if not LINTS[dialect_of(contract)].roles and (
            args.role is not None or args.manuscript is not None
        ):
            parser.error("--role, --manuscript and --metadata are for dialect 13.2 contracts")
        ars = own.setting("ars", DEFAULT_ARS)
        outcome = _lint_round(args, reader, contract, group, pairing, pulled, ars)
        if isinstance(outcome, int):
            return outcome
        code, found, entries, said = outcome
        worst = max(worst, code)
        diagnostics += found
        files += entries
        told += said
        dialects.append(dialect_of(contract))
        readings.append(ars)
    order = {doc: n for n, doc in enumerate(docs)}
    files.sort(key=lambda entry: order.get(entry["file"], len(order)))
    body = {
        "dialect": dialects[0] if dialects else "13",
        "ars": readings[0] if readings else args.ars,
        "files": files,
    }
    return emit(args, Result(worst, diagnostics, body, notes + told))


def _is_synthesis(path: str) -> bool:
    name = os.path.basename(path)
    return name == SYNTHESIS or name.endswith("." + SYNTHESIS)


def _without_syntheses(docs: list[str]) -> tuple[list[str], list[str]]:
    """The documents to lint, and the syntheses among those given (``reviews/*.md``)."""
    return [d for d in docs if not _is_synthesis(d)], [d for d in docs if _is_synthesis(d)]


def _with_phase2_partners(docs: list[str], settings: Any) -> tuple[list[str], list[str]]:
    """``docs`` with the ``NAME.phase2.md`` beside each ``NAME.phase1.md`` given alone (so
    that a commit of a Phase 1 edit is checked against the report that binds it), and those
    pulled in. A partner ``exclude`` covers, or one git does not track, is left out."""
    given = set(docs)
    wanted = [
        partner
        for doc in docs
        if doc.endswith(PHASE1)
        and (partner := doc[: -len(PHASE1)] + PHASE2) not in given
        and os.path.isfile(partner)
        and not is_excluded(partner, settings)
    ]
    left = untracked(wanted) if wanted else set()
    pulled = [p for p in wanted if p not in left]
    stdin = [d for d in docs if d == "-"]  # each - is kept: named twice, the reader says so
    return stdin + sorted({d for d in docs if d != "-"} | set(pulled)), pulled


def _rounds(docs: list[str], settings: Any) -> list[tuple[str | None, list[str]]]:
    """The documents grouped into rounds: by project (the configuration nearest each file,
    which gives its contract and every other setting), then by folder (a round is one
    folder: its seats are unique within it, never across folders)."""
    groups: dict[tuple[str | None, str], list[str]] = {}
    for doc in docs:
        if doc == "-":
            groups.setdefault((None, ""), []).append(doc)
            continue
        project = settings.project(doc)
        folder = os.path.dirname(os.path.abspath(doc))
        groups.setdefault((project, folder), []).append(doc)
    return [(project, group) for (project, _), group in groups.items()]


def _lint_round(
    args: Any,
    reader: Reader,
    contract: Any,
    docs: list[str],
    pairing: bool,
    pulled: Sequence[str] = (),
    ars: str = DEFAULT_ARS,
) -> int | tuple[int, list[Diagnostic], list[dict[str, Any]], list[str]]:
    """One round's documents linted against its contract: the exit code, the findings, the
    JSON entries and the verbose lines; or the exit code of an error that stops the run."""
    seated = LINTS[dialect_of(contract)].roles
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
    paired = partners(docs if pairing else [], args.settings)
    hidden = untracked(paired.of[p] for p in paired.from_disk)
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
                2 if before is not None else detect_phase(text, max_bytes=reader.max_bytes)
            )
            read[doc] = (phase, text, before)
        except KernelError as exc:
            read[doc] = exc
    seats = (
        seat_documents(
            contract,
            {d: r for d, r in read.items() if not isinstance(r, KernelError)},
            paired,
            reader.max_bytes,
            phase1_name=args.phase1,
            name_of=lambda d: (args.settings.stdin_filename or d) if d == "-" else d,
            ars=ars,
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
                args,
                reader.max_bytes,
                contract,
                doc,
                phase,
                text,
                before,
                role,
                paired,
                seats,
                manuscript,
                metadata,
                ars,
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
        if doc in paired.of and paired.of[doc] in hidden:
            report = untracked_partner(report, paired.of[doc])
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
            if doc in pulled:
                told.append(f"{doc}: brought in by {paired.of[doc]}, found beside it")
            told += paired.told(doc) + (seats.told(doc) if seats else [])
    return worst, diagnostics, files, told


def _lint(
    args: Any,
    max_bytes: int,
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
    ars: str,
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
            max_bytes=max_bytes,
            ars=ars,
            **extra,
        )
        if phase == 1
        else lint_phase2(
            text,
            contract,
            before,
            phase1_source=paired.of.get(doc, args.phase1) if role is not None else None,
            max_bytes=max_bytes,
            ars=ars,
            **extra,
        )
    )
    return seats.seating.report(doc, report) if seats is not None else report
