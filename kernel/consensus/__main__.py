"""``python -m kernel.consensus parse FILE --kind K [--strict-json]`` and ``... round ROUND.json``.

Exit codes: 0 parsed / consensus or continue; 1 parse failed, the run stops without consensus,
no quorum, or an invalid round document; 2 usage or unreadable input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, Final

from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, Diagnostic, Parser, dump_json, run
from kernel.consensus.parsing import ParseResult, parse_response
from kernel.consensus.responses import KINDS
from kernel.consensus.round import RoundDecision, RoundError, evaluate_round, round_from_mapping
from kernel.io import load_json_file, read_text

_ATTEMPT_CODES: Final = {
    "absent": "CN-ABSENT",
    "malformed": "CN-MALFORMED",
    "not_object": "CN-NOT-OBJECT",
    "schema": "CN-SCHEMA",
}
_STOP_CODES: Final = {
    "max_rounds": "CN-STOP-MAX-ROUNDS",
    "change_below_threshold": "CN-STOP-SMALL-CHANGE",
    "no_edits": "CN-STOP-NO-EDITS",
}


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _parse_diagnostics(path: str, result: ParseResult) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for attempt in result.attempts:
        if attempt.outcome == "ok":
            message = f"valid {result.kind} response (method: {attempt.method})"
            out.append(Diagnostic(path, "CN-OK", message, attempt.line, "info"))
        else:
            code = _ATTEMPT_CODES[attempt.outcome]
            severity = "warning" if result.ok else "error"
            message = f"{attempt.method}: {_one_line(attempt.message)}"
            out.append(Diagnostic(path, code, message, attempt.line, severity))
    out.extend(Diagnostic(path, "CN-UNKNOWN-FIELD", n, None, "info") for n in result.notes)
    if not result.ok:
        message = f"no stage produced a valid {result.kind} response"
        out.append(Diagnostic(path, "CN-PARSE-FAILED", message))
    return out


def _round_diagnostics(path: str, decision: RoundDecision) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    first = decision.reasons[0]
    if decision.outcome == "no_quorum":
        out.append(Diagnostic(path, "CN-NO-QUORUM", first))
    elif decision.outcome == "consensus":
        out.append(Diagnostic(path, "CN-CONSENSUS", first, None, "info"))
    else:
        out.append(Diagnostic(path, "CN-NO-CONSENSUS", first, None, "warning"))
        if decision.stop_reason is None:
            out.append(Diagnostic(path, "CN-CONTINUE", decision.reasons[1], None, "info"))
        else:
            out.append(Diagnostic(path, _STOP_CODES[decision.stop_reason], decision.reasons[1]))
    if decision.disagreement is not None:
        for text, count in decision.disagreement.objections:
            message = f"({count} critique(s)) {_one_line(text)}"
            out.append(Diagnostic(path, "CN-OBJECTION", message, None, "info"))
        for item in decision.disagreement.missing:
            out.append(Diagnostic(path, "CN-MISSING", _one_line(item), None, "info"))
    return out


def _parse_command(args: argparse.Namespace) -> int:
    path: str = args.file
    result = parse_response(read_text(path), args.kind, strict_json=args.strict_json)
    if args.format == "json":
        dump_json({"file": path, **result.to_dict()})
    else:
        for diagnostic in _parse_diagnostics(path, result):
            print(diagnostic)
    return EXIT_OK if result.ok else EXIT_FAILED


def _round_command(args: argparse.Namespace) -> int:
    path: str = args.round
    document = load_json_file(path)
    as_json = args.format == "json"
    try:
        round_input = round_from_mapping(document)
    except RoundError as exc:
        if as_json:
            dump_json({"file": path, "ok": False, "errors": exc.errors})
        else:
            for error in exc.errors:
                print(Diagnostic(path, "CN-ROUND-INVALID", _one_line(error)))
        return EXIT_FAILED
    decision = evaluate_round(round_input)
    if as_json:
        dump_json({"file": path, "ok": True, **decision.to_dict()})
    else:
        for diagnostic in _round_diagnostics(path, decision):
            print(diagnostic)
    return EXIT_OK if decision.outcome in ("consensus", "continue") else EXIT_FAILED


class _Command(Parser):
    """A subcommand's parser: ``--format`` and exit code 2 on usage errors, like the top level."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(kwargs["prog"], kwargs.get("description") or "")


def _parser() -> Parser:
    parser = Parser(
        "python -m kernel.consensus", "Consensus protocol rules (seed 003).", with_format=False
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Command)
    parse = commands.add_parser("parse", help="parse one model response")
    parse.add_argument("file", metavar="FILE", help="the response text (UTF-8)")
    parse.add_argument("--kind", required=True, choices=KINDS, help="the response kind")
    parse.add_argument("--strict-json", action="store_true", help="no recovery: strict only")
    decide = commands.add_parser("round", help="decide one round: consensus or stop, and why")
    decide.add_argument("round", metavar="ROUND.json", help="the round document")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "parse":
        return _parse_command(args)
    return _round_command(args)


if __name__ == "__main__":
    sys.exit(run(main))
