"""``sprint-kernel arena verdict FILE`` and ``sprint-kernel arena conformance RUN.jsonl``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from kernel.arena.diagnostics import conformance_diagnostics, verdict_diagnostics
from kernel.arena.verdict import parse_verdict
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
from kernel.errors import KernelError

__all__ = ["main"]

VERDICT_EXIT = """\
  0  a verdict was found
  1  PARSER_ERROR_MISSING_VERDICT: no verdict line
  2  usage error or unreadable input"""
CONFORMANCE_EXIT = """\
  0  Compliant or Conditionally Compliant
  1  Non-Compliant
  2  usage error or unreadable input (not JSON Lines, over the size limit)"""


def _verdict(args: argparse.Namespace, reader: Reader) -> int:
    text = reader.text(args.file)
    result = parse_verdict(text.removeprefix("\ufeff"), max_bytes=args.max_bytes)
    code = EXIT_OK if result.verdict is not None else EXIT_FAILED
    found = verdict_diagnostics(result, args.file)
    return emit(args, Result(code, found, {"file": args.file, **result.to_dict()}))


def _conformance(args: argparse.Namespace, reader: Reader) -> int:
    from kernel.arena.audit import parse_trail
    from kernel.arena.conformance import NON_COMPLIANT, check_conformance

    trail = parse_trail(reader.text(args.file), source=args.file, max_bytes=args.max_bytes)
    report = check_conformance(trail, source=args.file)
    passed = sum(c.passed for c in report.checks)
    summary = f"{args.file}: {report.level} ({passed}/{len(report.checks)} checks passed)"
    code = EXIT_FAILED if report.level == NON_COMPLIANT else EXIT_OK
    found = conformance_diagnostics(report, args.file)
    body = {"file": args.file, **report.to_dict()}
    return emit(args, Result(code, found, body, [summary]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel arena",
        "Arena Protocol v2: verdict parsing and conformance checking.",
        formats=None,
        max_bytes=False,
        exit_codes=GROUP_EXIT,
    )
    add = parser.commands()
    verdict = add(
        "verdict",
        description="Parse a reviewer output file per §7.3.",
        help="parse a verdict",
        exit_codes=VERDICT_EXIT,
    )
    verdict.add_argument("file", help="reviewer output (UTF-8 text), or -")
    conformance = add(
        "conformance",
        description="Run the 13 §12 checks over a JSON Lines audit trail.",
        help="check an audit trail",
        exit_codes=CONFORMANCE_EXIT,
    )
    conformance.add_argument("file", help="audit trail (JSON Lines), or -")
    args = parser.parse_args(argv)
    reader = Reader(args.max_bytes)
    run = _verdict if args.command == "verdict" else _conformance
    try:
        return run(args, reader)
    except KernelError as exc:
        return failure(args, exc, args.file)
