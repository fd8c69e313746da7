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

import json
import sys
from collections.abc import Sequence
from typing import Any

from kernel.cli.scaffold import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    Parser,
    Reader,
    Result,
    Stream,
    emit,
    failure,
)
from kernel.contract.model import Contract
from kernel.decision.decision import Decision, decide
from kernel.diagnostics import Diagnostic, from_error
from kernel.errors import InputError, KernelError, PanelShrunk

__all__ = ["format_decision", "main"]

EXIT_CODES = """\
  0  a decision was made (--matrix FILE.jsonl: every line decided)
  1  the round aborts (protocol violation, shrunk panel, bad matrix), the contract is invalid,
     or the --synthesis document disagrees with the decision
  2  usage error or unreadable input"""


def format_decision(contract: Contract, decision: Decision) -> str:
    """The decision and the fired table, as text."""
    if decision.fallback:
        assert contract.fallback is not None
        source = contract.conditions[contract.fallback].condition_id
        head = f"decision: {decision.action} (no condition fired; R5 fallback to {source}'s action)"
    else:
        winner = next(c for c in contract.conditions if c.condition_id == decision.condition_id)
        head = f"decision: {decision.action} ({winner.condition_id}, severity {winner.severity})"
    if decision.trace is not None:
        return "\n".join([head, *_dimensionwise_table(contract, decision)])
    n = contract.panel_size
    lines = [head, "condition  severity  quantifier  held  needed  fired"]
    for c in contract.conditions:
        mark = "  <- decides" if c.condition_id == decision.condition_id else ""
        lines.append(
            f"{c.condition_id:<9}  {c.severity:>8}  {c.quantifier:<10}  "
            f"{decision.counts[c.condition_id]}/{n:<3}  {c.threshold:>6}  "
            f"{'yes' if decision.fired[c.condition_id] else 'no':<5}{mark}".rstrip()
        )
    return "\n".join(lines)


def _dimensionwise_table(contract: Contract, decision: Decision) -> list[str]:
    """13.2: per condition its atoms, and per atom each dimension's assessed seats ``n``,
    how many satisfied it, the threshold and whether it held; then the dimension verdicts."""
    assert decision.trace is not None and decision.verdicts is not None
    lines = ["condition  severity  quantifier  fired  atom / dimension: held/n (needed)"]
    for c in contract.conditions:
        mark = "  <- decides" if c.condition_id == decision.condition_id else ""
        fired = "yes" if decision.fired[c.condition_id] else "no"
        lines.append(
            f"{c.condition_id:<9}  {c.severity:>8}  {c.quantifier:<10}  {fired:<5}{mark}".rstrip()
        )
        for atom in decision.trace[c.condition_id]:
            held = "holds" if atom.held else "does not hold"
            lines.append(f"  {atom.atom} ({atom.across}): {held}")
            for d in atom.dimensions:
                lines.append(
                    f"    {d.dimension}: {d.count}/{d.n} (needs {d.threshold})"
                    f"{'  yes' if d.held else ''}"
                )
    verdicts = ", ".join(f"{d}={v}" for d, v in decision.verdicts.items())
    lines.append(f"dimension verdicts: {verdicts}")
    return lines


def _aborted(
    fmt: str, error: KernelError, where: str, extra: dict[str, Any], found: list[Diagnostic]
) -> int:
    tags = [*extra.get("tags", []), *([error.tag] if error.tag else [])]
    body = {
        "action": None,
        "condition_id": None,
        "fallback": False,
        "fired": {},
        "counts": {},
        **extra,
        "tags": tags,
        "error": error.message,
    }
    text: list[tuple[Stream, str]] = [("out", tag) for tag in tags]
    return emit(fmt, Result(EXIT_FAILED, [*found, from_error(error, where)], body, text))


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel decide",
        "Decide an editorial round from a contract.",
        exit_codes=EXIT_CODES,
        dialect=True,
    )
    parser.add_argument("--contract", required=True, help="contract file, - or template name")
    parser.add_argument(
        "--matrix",
        help="JSON file: dimension id -> list of panel_size scores; a .jsonl file holds one "
        "matrix per line and gets one JSON decision per line",
    )
    parser.add_argument("documents", nargs="*", help="Phase 2 documents (markdown)")
    parser.add_argument(
        "--phase1", action="append", default=[], help="Phase 1 document of the preceding reviewer"
    )
    parser.add_argument(
        "--explain", action="store_true", help="show which single-score changes flip the action"
    )
    parser.add_argument(
        "--synthesis",
        metavar="SYNTH.md",
        help="check a written synthesis against the decision (R17); exit 1 when it disagrees",
    )
    args = parser.parse_intermixed_args(argv)
    if (args.matrix is None) == (not args.documents):
        parser.error("give either --matrix M.json or Phase 2 documents with their --phase1")
    if args.documents and len(args.phase1) != len(args.documents):
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
        return failure(args.format, exc, args.contract)
    except KernelError as exc:  # an invalid contract aborts the round, with its tag (R8)
        return _aborted(args.format, exc, args.contract, {}, [])

    if batch:
        try:
            lines = reader.text(args.matrix)
        except KernelError as exc:
            return failure(args.format, exc, args.matrix)
        return _decide_lines(contract, args.matrix, lines, args.max_bytes)
    extra: dict[str, Any] = {}
    found: list[Diagnostic] = []
    if args.matrix is not None:
        try:
            matrix = reader.json(args.matrix)
        except KernelError as exc:
            return failure(args.format, exc, args.matrix)
        try:
            decision = decide(contract, matrix)
        except KernelError as exc:
            return _aborted(args.format, exc, args.matrix, extra, found)
    else:
        from pathlib import Path  # only here: a matrix needs no path arithmetic

        from kernel.reviewer.review import decide_documents

        pairs = list(zip(args.documents, args.phase1, strict=True))
        texts: dict[str, str] = {}
        for path in [p for pair in pairs for p in pair]:
            try:
                texts[path] = reader.text(path)
            except KernelError as exc:
                return failure(args.format, exc, path)
        reviewers = [(Path(p2).stem, texts[p2], texts[p1]) for p2, p1 in pairs]
        try:
            outcome = decide_documents(contract, reviewers, max_bytes=args.max_bytes)
        except KernelError as exc:
            return _aborted(args.format, exc, args.contract, extra, found)
        body = outcome.to_dict()
        for entry, detail, (p2, p1) in zip(body["reviewers"], outcome.details, pairs, strict=True):
            entry["phase2_file"], entry["phase1_file"] = p2, p1
            if detail.phase1 is not None:
                found += detail.phase1.diagnostics(p1)
            if detail.phase2 is not None:
                found += detail.phase2.diagnostics(p2)
        extra = {"reviewers": body["reviewers"], "tags": body["tags"]}
        if outcome.decision is None:
            usable = sum(d.state.usable for d in outcome.details)
            shrunk = PanelShrunk(
                usable,
                contract.panel_size,
                message="the round is aborted: not every reviewer is usable",
            )
            shrunk.tag = None  # the tag is already among the outcome's tags
            return _aborted(args.format, shrunk, args.contract, extra, found)
        decision = outcome.decision
    explanation = None
    if args.explain and decision.trace is None:
        from kernel.analysis import format_sensitivity, sensitivity

        used = matrix if args.matrix is not None else outcome.matrix
        assert used is not None  # a decision was made, so the matrix exists
        explanation = sensitivity(contract, used)
    out: dict[str, Any] = {**decision.to_dict(), **extra}
    out.setdefault("tags", [])
    text: list[tuple[Stream, str]] = [("out", tag) for tag in out["tags"]]
    text.append(("out", format_decision(contract, decision)))
    if explanation is not None:
        out["explain"] = explanation.to_dict()
        text.append(("out", format_sensitivity(explanation)))
    if args.explain and decision.trace is not None:
        from kernel.decision.dimensionwise import seat_flips

        used = matrix if args.matrix is not None else outcome.matrix
        flips = seat_flips(contract, used)
        out["explain"] = {"flips": [f.to_dict() for f in flips]}
        text.append(("out", f"{len(flips)} single-seat change(s) change the action:"))
        text += [("out", f"  {f}") for f in flips]
    code = EXIT_OK
    if args.synthesis is not None:
        from kernel.reviewer.synthesis import check_synthesis

        try:
            synthesis = check_synthesis(contract, decision, reader.text(args.synthesis))
        except KernelError as exc:
            return failure(args.format, exc, args.synthesis)
        found += [f.to_diagnostic(args.synthesis) for f in synthesis.findings]
        out["synthesis"] = {"file": args.synthesis, **synthesis.to_dict()}
        verdict = "agrees with" if synthesis.ok else "DISAGREES with"
        text.append(("out", f"synthesis: {args.synthesis} {verdict} the decision"))
        code = EXIT_OK if synthesis.ok else EXIT_FAILED
    return emit(args.format, Result(code, found, out, text))


def _decide_lines(contract: Contract, path: str, text: str, max_bytes: int) -> int:
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
        print(json.dumps(decision.to_dict(), ensure_ascii=False, separators=(",", ":")))
    return EXIT_OK
