"""``sprint-kernel decide --contract C (--matrix M.json | P2.md --phase1 P1.md ...)``.

Decides from a scoring matrix, or lints each reviewer's Phase 2 document (with its Phase 1
document) and decides from the usable ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, Parser, Reader, Result, Stream, emit, failure
from kernel.contract.model import Contract
from kernel.decision.decision import Decision, decide
from kernel.diagnostics import Diagnostic, from_error
from kernel.errors import InputError, KernelError, PanelShrunk

__all__ = ["format_decision", "main"]

EXIT_CODES = """\
  0  a decision was made
  1  the round aborts (protocol violation, shrunk panel, bad matrix) or the contract is invalid
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
    )
    parser.add_argument("--contract", required=True, help="contract file, - or template name")
    parser.add_argument("--matrix", help="JSON file: dimension id -> list of panel_size scores")
    parser.add_argument("documents", nargs="*", help="Phase 2 documents (markdown)")
    parser.add_argument(
        "--phase1", action="append", default=[], help="Phase 1 document of the preceding reviewer"
    )
    parser.add_argument(
        "--explain", action="store_true", help="show which single-score changes flip the action"
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
    reader = Reader(args.max_bytes)
    try:
        contract = reader.contract(args.contract)
    except InputError as exc:
        return failure(args.format, exc, args.contract)
    except KernelError as exc:  # an invalid contract aborts the round, with its tag (R8)
        return _aborted(args.format, exc, args.contract, {}, [])

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
    if args.explain:
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
    return emit(args.format, Result(EXIT_OK, found, out, text))
