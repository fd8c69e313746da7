"""``sprint-kernel consensus parse FILE --kind K [--strict-json]`` and ``… round ROUND.json``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from kernel.cli.scaffold import (
    EXIT_FAILED,
    EXIT_OK,
    GROUP_EXIT,
    Parser,
    Reader,
    Result,
    emit,
    failure,
)
from kernel.consensus.diagnostics import (
    parse_diagnostics,
    round_diagnostics,
    round_error_diagnostics,
)
from kernel.consensus.parsing import parse_response
from kernel.consensus.responses import KINDS
from kernel.errors import KernelError

__all__ = ["main"]

PARSE_EXIT = """\
  0  a valid response was parsed
  1  no parse stage produced a valid response
  2  usage error or unreadable input"""
ROUND_EXIT = """\
  0  consensus, or continue with another round
  1  the run stops without consensus, no quorum, or an invalid round document
  2  usage error or unreadable input"""


def _parse(args: argparse.Namespace, reader: Reader) -> int:
    path: str = args.file
    result = parse_response(
        reader.text(path), args.kind, strict_json=args.strict_json, max_bytes=args.max_bytes
    )
    code = EXIT_OK if result.ok else EXIT_FAILED
    body = {"file": path, **result.to_dict()}
    return emit(args, Result(code, parse_diagnostics(result, path), body))


def _round(args: argparse.Namespace, reader: Reader) -> int:
    from kernel.consensus.round import RoundError, evaluate_round, round_from_mapping

    path: str = args.file
    document = reader.json(path)
    try:
        round_input = round_from_mapping(document)
    except RoundError as exc:
        found = round_error_diagnostics(exc.errors, path)
        return emit(args, Result(EXIT_FAILED, found, {"file": path, "errors": exc.errors}))
    decision = evaluate_round(round_input)
    code = EXIT_OK if decision.outcome in ("consensus", "continue") else EXIT_FAILED
    body = {"file": path, **decision.to_dict()}
    return emit(args, Result(code, round_diagnostics(decision, path), body, ok=True))


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel consensus",
        "Consensus protocol rules: model responses and rounds.",
        formats=None,
        max_bytes=False,
        exit_codes=GROUP_EXIT,
    )
    add = parser.commands()
    parse = add("parse", help="parse one model response", exit_codes=PARSE_EXIT)
    parse.add_argument("file", metavar="FILE", help="the response text (UTF-8), or -")
    parse.add_argument("--kind", required=True, choices=KINDS, help="the response kind")
    parse.add_argument("--strict-json", action="store_true", help="no recovery: strict only")
    decide = add(
        "round", help="decide one round: consensus or stop, and why", exit_codes=ROUND_EXIT
    )
    decide.add_argument("file", metavar="ROUND.json", help="the round document, or -")
    args = parser.parse_args(argv)
    reader = Reader(args.max_bytes)
    try:
        return (_parse if args.command == "parse" else _round)(args, reader)
    except KernelError as exc:
        return failure(args, exc, args.file)
