"""``python -m kernel.decide --contract C (--matrix M.json | P2.md --phase1 P1.md ...)``.

Decides from a scoring matrix, or lints each reviewer's Phase 2 document (with its Phase 1
document) and decides from the usable ones. Exit 0 with a decision, 1 when the round aborts
(violation, shrunk panel, bad matrix, invalid contract), 2 for usage or unreadable input.

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
from pathlib import Path
from typing import Any

from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, EXIT_USAGE, Parser, dump_json
from kernel.contract.model import Contract, ContractInputError, load_contract
from kernel.decision.decision import Decision, decide
from kernel.errors import KernelError
from kernel.io import InputError, load_json_file, loads_strict, read_text


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


def _aborted(error: KernelError, extra: dict[str, Any], fmt: str) -> int:
    tags = [*extra.get("tags", []), *([error.tag] if error.tag else [])]
    if fmt == "json":
        dump_json(
            {
                "action": None,
                "condition_id": None,
                "fallback": False,
                "fired": {},
                "counts": {},
                **extra,
                "tags": tags,
                "error": error.message,
            }
        )
    else:
        for tag in tags:
            print(tag)
        print(f"error: {error.message}", file=sys.stderr)
    return EXIT_FAILED


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser("python -m kernel.decide", "Decide an editorial round from a contract.")
    parser.add_argument("--contract", required=True, help="contract file or template name")
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
        help="check a written synthesis against the decision (R17); exit 1 if it disagrees",
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

    try:
        contract = load_contract(args.contract)
    except ContractInputError:
        raise
    except KernelError as exc:
        return _aborted(exc, {}, args.format)

    if batch:
        return _decide_lines(contract, args.matrix)
    extra: dict[str, Any] = {}
    if args.matrix is not None:
        matrix = load_json_file(args.matrix)
        try:
            decision = decide(contract, matrix)
        except KernelError as exc:
            return _aborted(exc, extra, args.format)
    else:
        from kernel.reviewer.review import decide_documents, finding_lines

        pairs = list(zip(args.documents, args.phase1, strict=True))
        reviewers = [(Path(p2).stem, read_text(p2), read_text(p1)) for p2, p1 in pairs]
        outcome = decide_documents(contract, reviewers)
        body = outcome.to_dict()
        for entry, (p2, p1) in zip(body["reviewers"], pairs, strict=True):
            entry["phase2_file"], entry["phase1_file"] = p2, p1
        extra = {"reviewers": body["reviewers"], "tags": body["tags"]}
        if args.format == "text":
            sources = {Path(p2).stem: (p2, p1) for p2, p1 in pairs}
            for line in finding_lines(outcome, sources):
                print(line)
        if outcome.decision is None:
            return _aborted(
                KernelError("the round is aborted: not every reviewer is usable"),
                extra,
                args.format,
            )
        decision = outcome.decision
    explanation = None
    if args.explain:
        from kernel.analysis import format_sensitivity, sensitivity

        used = matrix if args.matrix is not None else outcome.matrix
        assert used is not None  # a decision was made, so the matrix exists
        explanation = sensitivity(contract, used)
    synthesis = None
    if args.synthesis is not None:
        from kernel.reviewer.synthesis import check_synthesis

        synthesis = check_synthesis(contract, decision, read_text(args.synthesis))
    if args.format == "json":
        out: dict[str, Any] = {**decision.to_dict(), **extra}
        out.setdefault("tags", [])
        if explanation is not None:
            out["explain"] = explanation.to_dict()
        if synthesis is not None:
            out["synthesis"] = {"file": args.synthesis, **synthesis.to_dict()}
        dump_json(out)
    else:
        print(format_decision(contract, decision))
        if explanation is not None:
            print(format_sensitivity(explanation))
        if synthesis is not None:
            for f in synthesis.findings:
                where = args.synthesis if f.line is None else f"{args.synthesis}:{f.line}"
                print(f"{where}: {f.code} {f.message}")
            verdict = "agrees with" if synthesis.ok else "DISAGREES with"
            print(f"synthesis: {args.synthesis} {verdict} the decision")
    return EXIT_OK if synthesis is None or synthesis.ok else EXIT_FAILED


def _decide_lines(contract: Contract, path: str) -> int:
    """``--matrix FILE.jsonl``: one JSON decision per input line, stopping at the first bad
    line."""
    lines = read_text(path).split("\n")
    if lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        where = f"{path}:{number}"
        try:
            matrix = loads_strict(line, source=where)
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
