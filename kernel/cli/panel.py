"""``sprint-kernel panel resolve VOTES.json`` and ``sprint-kernel panel scan FILE``.

Each subcommand is a function ``(args, reader) -> exit code`` registered in ``COMMANDS`` with
its parser setup: adding one is a function and one entry.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

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
from kernel.diagnostics import Diagnostic
from kernel.errors import KernelError
from kernel.panel.scan import scan_diagnostics, scan_rows
from kernel.panel.votes import resolve_document, votes_problems
from kernel.text.injection import DEFAULT_DELIMITERS, scan_injection

__all__ = ["main"]

RESOLVE_EXIT = """\
  0  resolved
  1  the votes document breaks the schema or names unknown specialists
  2  usage error or unreadable input"""
SCAN_EXIT = """\
  0  no injection pattern found
  1  injection patterns found
  2  usage error or unreadable input"""


def _resolve(args: argparse.Namespace, reader: Reader) -> int:
    path: str = args.votes
    doc = reader.json(path)
    problems = votes_problems(doc)
    if problems:
        found = [Diagnostic("PANEL-INPUT", p, file=path) for p in problems]
        return emit(
            args.format,
            Result(EXIT_FAILED, found, {"file": path, "errors": problems}, diagnostics_to="err"),
        )
    result = resolve_document(doc)
    found = []
    for row in result["findings"]:
        dissent = f" (dissent: {', '.join(row['dissent'])})" if row["dissent"] else ""
        found.append(
            Diagnostic("PANEL-RESOLVED", f"{row['id']}: {row['label']}{dissent}", file=path)
        )
    found.append(Diagnostic("PANEL-AGREEMENT", result["agreement_level"], file=path))
    v = result["verdict"]
    if v is not None:
        why = f" (panel {v['panel']}; {'; '.join(v['reasons'])})" if v["reasons"] else ""
        found.append(Diagnostic("PANEL-VERDICT", f"{v['final']}{why}", file=path))
    return emit(args.format, Result(EXIT_OK, found, {"file": path, **result}))


def _setup_resolve(p: Parser) -> None:
    p.add_argument("votes", metavar="VOTES.json", help="the votes document, or -")


def _scan(args: argparse.Namespace, reader: Reader) -> int:
    path: str = args.file
    text = reader.text(path)
    findings = scan_injection(text, delimiters=tuple(args.delimiter or DEFAULT_DELIMITERS))
    rows = scan_rows(text, findings)
    summary = [] if rows else [("out", f"{path}: OK no injection patterns found")]
    code = EXIT_FAILED if rows else EXIT_OK
    found = scan_diagnostics(text, findings, path)
    return emit(args.format, Result(code, found, {"file": path, "findings": rows}, summary))  # type: ignore[arg-type]


def _setup_scan(p: Parser) -> None:
    p.add_argument("file", help="agent output (UTF-8 text), or -")
    p.add_argument(
        "--delimiter",
        action="append",
        default=None,
        help="delimiter name whose tags count as forged; repeatable (default: "
        + ", ".join(DEFAULT_DELIMITERS)
        + ")",
    )


Command = Callable[[argparse.Namespace, Reader], int]

#: name → (run, parser setup, help, exit codes).
COMMANDS: dict[str, tuple[Command, Callable[[Parser], None], str, str]] = {
    "resolve": (
        _resolve,
        _setup_resolve,
        "resolve findings, agreement level and verdict from votes",
        RESOLVE_EXIT,
    ),
    "scan": (_scan, _setup_scan, "scan agent output for injection patterns", SCAN_EXIT),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel panel",
        "Review-panel rules.",
        formats=None,
        max_bytes=False,
        exit_codes=GROUP_EXIT,
    )
    add = parser.commands()
    for name, (_, setup, text, exits) in COMMANDS.items():
        setup(add(name, help=text, description=text[0].upper() + text[1:] + ".", exit_codes=exits))
    args = parser.parse_args(argv)
    run, *_ = COMMANDS[args.command]
    try:
        return run(args, Reader(args.max_bytes))
    except KernelError as exc:
        return failure(
            args.format, exc, getattr(args, "votes", None) or getattr(args, "file", None)
        )
