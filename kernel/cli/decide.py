"""``sprint-kernel decide --contract C (--matrix M.json | P2.md --phase1 P1.md ...)``.

Decides from a scoring matrix, or lints each reviewer's Phase 2 document (with its Phase 1
document) and decides from the usable ones.

``--synthesis SYNTH.md`` also checks a written synthesis against the decision (R17) and exits 1
when it disagrees. ``--matrix FILE.jsonl`` (the ``.jsonl`` suffix selects it) decides one
matrix per line and writes one JSON decision per line, in input order; at the first line that
is not JSON (exit 2) or not a matrix this contract can decide (exit 1) it stops and names that
line on standard error, so standard output holds exactly the decisions of the lines before it.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from kernel._version import __version__
from kernel.cli.atomic import write_text
from kernel.cli.files import PHASE1, PHASE2, PHASE_FILES, expand
from kernel.cli.scaffold import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    Parser,
    Reader,
    Result,
    emit,
    error_diagnostics,
    failure,
    finding_dicts,
)
from kernel.cli.seating import Partners, add_verbose, partners
from kernel.contract.model import Contract
from kernel.decision.decision import Decision, decide
from kernel.decision.explain import explanation
from kernel.diagnostics import Diagnostic
from kernel.errors import InputError, KernelError, PanelShrunk

__all__ = ["format_decision", "main"]

EXIT_CODES = """\
  0  a decision was made (--matrix FILE.jsonl: every line decided)
  1  the round aborts (protocol violation, shrunk panel, bad matrix), the contract is invalid,
     or the --synthesis document disagrees with the decision
  2  usage error or unreadable input"""


def format_decision(contract: Contract, decision: Decision) -> str:
    """The decision and its table, as text (:meth:`Decision.explain`)."""
    return decision.explain(contract)


#: The decision keys of an aborted round (one JSON shape for both dialects).
_NO_DECISION: dict[str, Any] = {
    "action": None,
    "condition_id": None,
    "fallback": False,
    "fired": {},
    "counts": {},
    "thresholds": {},
}


#: The keys a round's JSON output has besides the decision's, in both dialects (``null`` where
#: the dialect or the input has none): Schema 13 documents give ``reviewers``, 13.2 reports
#: ``seats``, ``matrix`` and ``recomputed``; 13.2 decisions ``trace`` and ``verdicts``; read
#: documents ``ars``.
_ROUND_KEYS: dict[str, Any] = {
    "tags": [],
    "reviewers": None,
    "seats": None,
    "matrix": None,
    "recomputed": None,
    "synthesis": None,
    "trace": None,
    "verdicts": None,
    "ars": None,
}


def _same_keys(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with every top-level key of the decide output, whatever the dialect."""
    return {**_NO_DECISION, "dialect": None, **_ROUND_KEYS, **body}


def _decision_body(
    decision: dict[str, Any] | None, dialect: str, ars: str | None = None
) -> dict[str, Any]:
    """The decision's keys at the top level of the JSON output, in both dialects; ``ars``:
    the ARS reading, when documents were read."""
    body = {**(decision if decision is not None else _NO_DECISION), "dialect": dialect}
    return body if ars is None else {**body, "ars": ars}


def _aborted(
    args: argparse.Namespace,
    error: KernelError,
    where: str,
    extra: dict[str, Any],
    found: list[Diagnostic],
) -> int:
    tags = [*extra.get("tags", []), *([error.tag] if error.tag else [])]
    body = {**_NO_DECISION, "dialect": None, **extra, "tags": tags, "error": error.message}
    found = [*found, *error_diagnostics(error, where)]
    # a tag is printed once: on its own line unless a finding (check's) already says it
    text = [t for t in tags if not any(t in d.message for d in found)]
    return emit(args, Result(EXIT_FAILED, found, _same_keys(body), text))


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel decide",
        "Decide an editorial round from a contract.",
        exit_codes=EXIT_CODES,
        dialect=True,
        ars=True,
        walks=PHASE_FILES,
    )
    parser.add_contract_option("contract file, - or template name")
    parser.add_argument(
        "--matrix",
        help="JSON file: dimension id -> list of panel_size scores; a .jsonl file holds one "
        "matrix per line and gets one JSON decision per line",
    )
    parser.add_argument(
        "documents",
        nargs="*",
        help="Phase 2 documents, each followed by its --phase1; or directories and "
        "NAME.phase2.md / NAME.phase1.md files, paired by name (a NAME.phase1.md not given "
        "is read from beside its Phase 2)",
    )
    parser.add_argument(
        "--phase1", action="append", default=[], help="Phase 1 document of the preceding reviewer"
    )
    parser.add_argument(
        "--explain", action="store_true", help="show which single-score changes flip the action"
    )
    parser.add_argument(
        "--roles",
        metavar="R1,R2,...",
        help="dialect 13.2: the roles the Phase 2 documents were dispatched as, in order; a "
        "report declaring another contract_role aborts the round",
    )
    parser.add_argument(
        "--synthesis",
        metavar="SYNTH.md",
        help="check a written synthesis against the decision (R17); exit 1 when it disagrees",
    )
    add_verbose(parser)
    args = parser.parse_intermixed_args(argv)
    if (args.matrix is None) == (not args.documents):
        parser.error("give either --matrix M.json or Phase 2 documents with their --phase1")
    pairs: list[tuple[str, str]] = []
    paired = partners([])
    if args.documents and not args.phase1:
        try:
            files = expand(args.documents, PHASE_FILES, args.settings)
            named: dict[str, str] = {}  # one folder named two ways is one folder
            for f in files:
                if f != "-":
                    folder = os.path.dirname(f) or os.curdir
                    named.setdefault(os.path.realpath(folder), folder)
            folders = sorted(named.values())
            if len(folders) > 1:
                parser.error(
                    f"the documents lie in {len(folders)} folders ({', '.join(folders)}): a "
                    "round is one folder; decide one round at a time (lint checks them all)"
                )
            pairs, paired = _paired(files, args.settings)
        except KernelError as exc:
            parser.error(exc.message)
    elif args.documents and len(args.phase1) != len(args.documents):
        parser.error(
            f"{len(args.documents)} Phase 2 document(s) but {len(args.phase1)} --phase1 "
            "document(s): each Phase 2 file must be followed by its reviewer's --phase1 file"
        )
    if args.matrix is not None and args.phase1:
        parser.error("--phase1 goes with Phase 2 documents, not with --matrix")
    batch = args.matrix is not None and args.matrix.lower().endswith(".jsonl")
    if batch and (args.explain or args.synthesis):
        parser.error("--matrix FILE.jsonl decides many matrices: no --explain or --synthesis")
    reader = Reader(args.max_bytes, dialect=args.dialect)
    try:
        contract = reader.contract(args.contract)
    except InputError as exc:
        return failure(args, exc, args.contract)
    except KernelError as exc:  # an invalid contract aborts the round, with its tag (R8)
        return _aborted(args, exc, args.contract, {}, [])

    if args.roles is not None and not (args.documents and contract.dialect == "13.2"):
        parser.error("--roles goes with the Phase 2 documents of a dialect 13.2 round")
    if args.documents and contract.dialect == "13.2":
        return _decide_round_v2(args, reader, contract, pairs, paired)
    if batch:
        try:
            lines = reader.text(args.matrix)
        except KernelError as exc:
            return failure(args, exc, args.matrix)
        if args.settings.output_file is None:
            return _decide_lines(contract, args.matrix, lines, args.max_bytes, sys.stdout)
        decided = io.StringIO()  # written whole: a failed write leaves the old file
        code = _decide_lines(contract, args.matrix, lines, args.max_bytes, decided)
        try:
            write_text(args.settings.output_file, decided.getvalue())
            return code
        except OSError as exc:
            print(f"error: {args.output_file}: cannot be written ({exc.strerror})", file=sys.stderr)
            return EXIT_USAGE
    extra: dict[str, Any] = {"dialect": contract.dialect}
    found: list[Diagnostic] = []
    if args.matrix is not None:
        try:
            matrix = reader.json(args.matrix)
        except KernelError as exc:
            return failure(args, exc, args.matrix)
        try:
            decision = decide(contract, matrix)
        except KernelError as exc:
            return _aborted(args, exc, args.matrix, extra, found)
    else:
        from pathlib import Path  # only here: a matrix needs no path arithmetic

        from kernel.reviewer.review import PanelOutcome, decide_documents

        pairs = pairs or list(zip(args.documents, args.phase1, strict=True))
        texts: dict[str, str] = {}
        for path in [p for pair in pairs for p in pair]:
            try:
                texts[path] = reader.text(path)
            except KernelError as exc:
                return failure(args, exc, path)
        reviewers = [(Path(p2).stem, texts[p2], texts[p1]) for p2, p1 in pairs]
        try:
            outcome = decide_documents(
                contract, reviewers, max_bytes=args.max_bytes, ars=args.ars
            )
        except KernelError as exc:
            return _aborted(args, exc, args.contract, extra, found)
        assert isinstance(outcome, PanelOutcome)  # a Schema 13 round
        body = outcome.to_dict()
        for entry, detail, (p2, p1) in zip(body["reviewers"], outcome.details, pairs, strict=True):
            entry["phase2_file"], entry["phase1_file"] = p2, p1
            entry["phase1_from_disk"] = p2 in paired.from_disk
            for key, report, path in (("phase1", detail.phase1, p1), ("phase2", detail.phase2, p2)):
                if report is not None:
                    found += report.diagnostics(path)
                    entry[key]["findings"] = finding_dicts(args, report.diagnostics(path))
        extra = {
            "dialect": contract.dialect,
            "ars": args.ars,
            "reviewers": body["reviewers"],
            "tags": body["tags"],
        }
        if outcome.decision is None:
            usable = sum(d.state.usable for d in outcome.details)
            shrunk = PanelShrunk(
                usable,
                contract.panel_size,
                message="the round is aborted: not every reviewer is usable",
            )
            shrunk.tag = None  # the tag is already among the outcome's tags
            return _aborted(args, shrunk, args.contract, extra, found)
        decision = outcome.decision
    out: dict[str, Any] = {**_decision_body(decision.to_dict(), contract.dialect), **extra}
    out.setdefault("tags", [])
    text: list[str] = _told(args, pairs, paired)
    text += out["tags"]
    used = (matrix if args.matrix is not None else outcome.matrix) if args.explain else None
    explained = explanation(contract, decision, used)
    text.append(explained.text)
    if explained.changes is not None:
        out["explain"] = dict(explained.changes)
    code = EXIT_OK
    if args.synthesis is not None:
        from kernel.reviewer.synthesis import check_synthesis

        try:
            synthesis = check_synthesis(
                contract, decision, reader.text(args.synthesis), ars=args.ars
            )
        except KernelError as exc:
            return failure(args, exc, args.synthesis)
        found += [f.to_diagnostic(args.synthesis) for f in synthesis.findings]
        out["ars"] = args.ars
        out["synthesis"] = {"file": args.synthesis, **synthesis.to_dict()}
        verdict = "agrees with" if synthesis.ok else "DISAGREES with"
        text.append(f"synthesis: {args.synthesis} {verdict} the decision")
        code = EXIT_OK if synthesis.ok else EXIT_FAILED
    return emit(args, Result(code, found, _same_keys(out), text))


def _paired(files: list[str], settings: Any) -> tuple[list[tuple[str, str]], Partners]:
    """(Phase 2, Phase 1) for each reviewer among ``files``, paired by name; a Phase 1 not
    given is read from beside its Phase 2."""
    paired = partners(files, settings)
    matched = set(paired.of.values())
    for path in files:
        if not path.endswith(PHASE_FILES):
            raise InputError(
                f"{path}: not NAME{PHASE2} or NAME{PHASE1}; give each Phase 2 document "
                "followed by --phase1 P1 instead"
            )
        if path.endswith(PHASE2) and path not in paired.of:
            partner = path[: -len(PHASE2)] + PHASE1
            raise InputError(f"{path}: its Phase 1 document {partner} is neither given nor there")
        if path.endswith(PHASE1) and path not in matched:
            partner = path[: -len(PHASE1)] + PHASE2
            raise InputError(f"{path}: its Phase 2 document {partner} is not given with it")
    return [(p2, paired.of[p2]) for p2 in files if p2 in paired.of], paired


def _decide_lines(contract: Contract, path: str, text: str, max_bytes: int, out: TextIO) -> int:
    """``--matrix FILE.jsonl``: one JSON decision per input line, stopping at the first bad
    line (nothing after it is read)."""
    from kernel.io import loads_strict

    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        where = f"{path}:{number}"
        try:
            matrix = loads_strict(line, source=where, max_bytes=max_bytes)
        except InputError as exc:
            message = exc.message.replace(f"{where}:1:", f"{where}:", 1)
            print(f"error: {message} (nothing after line {number} was read)", file=sys.stderr)
            return EXIT_USAGE
        try:
            decision = decide(contract, matrix)
        except KernelError as exc:
            tag = f" {exc.tag}" if exc.tag else ""
            print(
                f"error: {where}: {exc.message}{tag} (nothing after line {number} was read)",
                file=sys.stderr,
            )
            return EXIT_FAILED
        body = {
            "version": __version__,
            "ok": True,
            "diagnostics": [],
            **_decision_body(decision.to_dict(), contract.dialect),
            "trace": None,
            "verdicts": None,
        }
        body.update(decision.to_dict())  # a 13.2 decision's trace and verdicts
        print(json.dumps(body, ensure_ascii=False, separators=(",", ":")), file=out)
    return EXIT_OK


def _told(args: Any, pairs: list[tuple[str, str]], paired: Partners) -> list[str]:
    """--verbose: the Phase 1 documents read from beside their Phase 2."""
    return [line for p2, _ in pairs for line in paired.told(p2)] if args.verbose else []


def _decide_round_v2(
    args: Any,
    reader: Reader,
    contract: Contract,
    pairs: list[tuple[str, str]],
    paired: Partners,
) -> int:
    """A 13.2 round: seats keyed by their reports' contract_role (13.2 §G6)."""
    from kernel.reviewer.round_v2 import decide_reports_v2

    pairs = pairs or list(zip(args.documents, args.phase1, strict=True))
    texts: dict[str, str] = {}
    for path in [p for pair in pairs for p in pair] + (
        [args.synthesis] if args.synthesis is not None else []
    ):
        try:
            texts[path] = reader.text(path)
        except KernelError as exc:
            return failure(args, exc, path)
    taken = _seats_taken_twice(args, contract, pairs, texts)
    if taken is not None:
        return taken
    try:
        outcome = decide_reports_v2(
            contract,
            [(p2, texts[p2], texts[p1]) for p2, p1 in pairs],
            roles=[r.strip() for r in args.roles.split(",")] if args.roles is not None else None,
            synthesis=texts[args.synthesis] if args.synthesis is not None else None,
            synthesis_source=args.synthesis or "synthesis",
            max_bytes=args.max_bytes,
            ars=args.ars,
        )
    except InputError as exc:  # --roles does not fit the reports, or the synthesis is unreadable
        synthesis = args.synthesis is not None and exc.message.startswith(f"{args.synthesis}:")
        where = "" if synthesis else "--roles: "
        print(f"sprint-kernel decide: error: {where}{exc.message}", file=sys.stderr)
        return EXIT_USAGE
    except KernelError as exc:
        return _aborted(
            args, exc, args.contract, {"dialect": contract.dialect, "ars": args.ars}, []
        )
    found: list[Diagnostic] = []
    body = outcome.to_dict()
    for seat, entry, (p2, p1) in zip(outcome.seats, body["seats"], pairs, strict=True):
        found += seat.report.diagnostics(seat.name)
        entry["findings"] = finding_dicts(args, seat.report.diagnostics(seat.name))
        entry["phase1_file"], entry["phase1_from_disk"] = p1, p2 in paired.from_disk
    body = {**_decision_body(body.pop("decision"), contract.dialect, args.ars), **body}
    text: list[str] = _told(args, pairs, paired)
    text += outcome.tags
    if outcome.decision is None:
        text.append("the round is aborted: no decision")
        return emit(args, Result(EXIT_FAILED, found, _same_keys(body), text))
    explained = explanation(contract, outcome.decision, outcome.matrix if args.explain else None)
    critical = ", ".join(outcome.recomputed.critical if outcome.recomputed else ()) or "none"
    text += [explained.text, f"DA CRITICAL issues: {critical}"]
    if explained.changes is not None:
        body["explain"] = dict(explained.changes)
    code = EXIT_OK
    if outcome.synthesis is not None:
        found += [f.to_diagnostic(args.synthesis) for f in outcome.synthesis.findings]
        verdict = "agrees with" if outcome.synthesis.ok else "DISAGREES with"
        text.append(f"synthesis: {args.synthesis} {verdict} the recomputation")
        code = EXIT_OK if outcome.synthesis.ok else EXIT_FAILED
    return emit(args, Result(code, found, _same_keys(body), text))


def _seats_taken_twice(
    args: Any, contract: Contract, pairs: list[tuple[str, str]], texts: dict[str, str]
) -> int | None:
    """A 13.2 round where two reports declare one seat is aborted naming that cause (as
    ``lint`` names it, P2-140 and P1-121), not a later finding it causes; ``None`` when every
    seat is taken once."""
    from kernel.cli.seating import Partners, seat_documents

    read: dict[str, tuple[int, str, str | None]] = {
        p2: (2, texts[p2], texts[p1]) for p2, p1 in pairs
    }
    read.update({p1: (1, texts[p1], None) for _, p1 in pairs})
    seats = seat_documents(
        contract, read, Partners(dict(pairs), frozenset()), args.max_bytes
    ).seating
    twice = {
        doc: found
        for doc, found in seats.findings.items()
        if any(f.code in ("P2-140", "P1-121") for f in found)
    }
    if not any(f.code == "P2-140" for found in twice.values() for f in found):
        return None
    diagnostics = [
        f.to_diagnostic(doc) for doc, found in twice.items() for f in found if f.code != "P1-120"
    ]
    roles = sorted({seats.roles[d] or "" for d in twice if seats.roles.get(d)})
    text = [f"the round is aborted: the seat {', '.join(roles)} is taken by two reports"]
    body = {**_NO_DECISION, "dialect": contract.dialect, "tags": [], "error": text[0]}
    return emit(args, Result(EXIT_FAILED, diagnostics, _same_keys(body), text))
