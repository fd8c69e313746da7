"""``sprint-kernel panel resolve VOTES.json``, ``scan FILE``, ``route FINDINGS.json``,
``delta CHANGED FINDINGS.json`` and ``audit SESSION.jsonl``.

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
from kernel.errors import IllegalTransition, KernelError, PanelInputError
from kernel.panel.votes import resolve_document, votes_problems
from kernel.strict import shown
from kernel.text import DEFAULT_DELIMITERS

__all__ = ["main"]

RESOLVE_EXIT = """\
  0  resolved
  1  the votes document breaks the schema or names unknown specialists
  2  usage error or unreadable input"""
SCAN_EXIT = """\
  0  no injection pattern found
  1  injection patterns found
  2  usage error or unreadable input"""
INPUT_EXIT = """\
  0  done
  1  an input breaks its schema or the panel's rules
  2  usage error or unreadable input"""
AUDIT_EXIT = """\
  0  the session log is valid
  1  it breaks its schema or the panel's rules, or a lifecycle transition is illegal
  2  usage error or unreadable input"""


def _bad_input(
    where: argparse.Namespace, files: Sequence[str], exc: PanelInputError | IllegalTransition
) -> int:
    """Every problem as a diagnostic: one with a line number is in the first input, one with a
    JSON path in the last."""
    if isinstance(exc, IllegalTransition):
        found = [Diagnostic("PANEL-LIFECYCLE", exc.reason, file=files[0], line=exc.line)]
    else:
        found = [
            Diagnostic(
                "PANEL-INPUT",
                f"{p.where}: {p.message}" if p.where else p.message,
                file=files[0] if p.line is not None else files[-1],
                line=p.line,
            )
            for p in exc.problems
        ]
    body = {"errors": [str(d) for d in found]}
    return emit(where, Result(EXIT_FAILED, found, body))


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _resolve(args: argparse.Namespace, reader: Reader) -> int:
    path: str = args.votes
    doc = reader.json(path)
    problems = votes_problems(doc)
    if problems:
        found = [Diagnostic("PANEL-INPUT", p, file=path) for p in problems]
        return emit(args, Result(EXIT_FAILED, found, {"file": path, "errors": problems}))
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
    return emit(args, Result(EXIT_OK, found, {"file": path, **result}))


def _setup_resolve(p: Parser) -> None:
    p.add_argument("votes", metavar="VOTES.json", help="the votes document, or -")


def _scan(args: argparse.Namespace, reader: Reader) -> int:
    from kernel.panel.scan import scan_diagnostics, scan_rows
    from kernel.text.injection import scan_injection

    path: str = args.file
    text = reader.text(path)
    findings = scan_injection(text, delimiters=tuple(args.delimiter or DEFAULT_DELIMITERS))
    rows = scan_rows(text, findings)
    code = EXIT_FAILED if rows else EXIT_OK
    found = scan_diagnostics(text, findings, path)
    return emit(args, Result(code, found, {"file": path, "findings": rows}))


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


def _route(args: argparse.Namespace, reader: Reader) -> int:
    from kernel.panel.routing import BANDS, route_document

    path: str = _name(args.findings)
    try:
        routing = route_document(reader.json(args.findings), args.profile)
    except PanelInputError as exc:
        return _bad_input(args, [path], exc)
    found = []
    for who, queue in routing.routes.items():
        bands = [
            f"{band}={','.join(r.id for r in queue if r.band == band) or '-'}" for band in BANDS
        ]
        found.append(Diagnostic("PANEL-ROUTE", f"{who} {' '.join(bands)}", file=path))
    pairs = routing.pairs
    shares = ", ".join(
        f"{band} {n}" + (f" ({100 * n / pairs:.1f} %)" if pairs else "")
        for band, n in routing.bands.items()
    )
    found.append(Diagnostic("PANEL-ROUTE-BANDS", f"{shares} of {pairs} pairs", file=path))
    for domain in routing.unlisted:
        message = (
            f"{shown(domain)}: no {args.profile} specialist lists it, so it is routed to the rest"
        )
        found.append(Diagnostic("PANEL-UNLISTED-DOMAIN", message, file=path))
    return emit(args, Result(EXIT_OK, found, {"file": path, **routing.to_dict()}))


def _setup_route(p: Parser) -> None:
    from kernel.panel.routing import PROFILES

    p.add_argument("findings", help="FINDINGS.json: findings with id, originator, domain (or -)")
    p.add_argument("--profile", choices=tuple(PROFILES), default="code", help="specialist profile")


def _delta(args: argparse.Namespace, reader: Reader) -> int:
    from kernel.panel.delta_mode import delta_document

    changed, findings = _name(args.changed), _name(args.findings)
    try:
        paths = reader.text(args.changed)
    except KernelError as exc:
        return failure(args, exc, changed)
    try:
        result = delta_document(paths, reader.json(args.findings))
    except PanelInputError as exc:
        return _bad_input(args, [changed, findings], exc)
    found = [Diagnostic("PANEL-DELTA-TARGET", target, file=changed) for target in result.targets]
    for code, group in (("PANEL-DELTA-KEPT", result.kept), ("PANEL-DELTA-DROPPED", result.dropped)):
        found += [Diagnostic(code, f"{f['id']} {f['path']}", file=findings) for f in group]
    message = (
        f"{len(result.targets)} target(s); {len(result.kept)} finding(s) kept, "
        f"{len(result.dropped)} dropped for re-review"
    )
    found.append(Diagnostic("PANEL-DELTA", message, file=findings))
    body = {"changed": changed, "file": findings, **result.to_dict()}
    return emit(args, Result(EXIT_OK, found, body))


def _setup_delta(p: Parser) -> None:
    p.add_argument(
        "changed", help="changed paths, one per line ('-': stdin, e.g. git diff --name-only)"
    )
    p.add_argument("findings", help="FINDINGS.json: the previous run's findings (id, path)")


def _audit(args: argparse.Namespace, reader: Reader) -> int:
    from kernel.panel.audit import from_jsonl, session_summary

    path = _name(args.log)
    try:
        record = from_jsonl(reader.text(args.log), source=path)
    except (PanelInputError, IllegalTransition) as exc:
        return _bad_input(args, [path], exc)
    summary = session_summary(record)
    flags = " ".join(summary["flags"]) or "none"
    found = [
        Diagnostic(
            "PANEL-SESSION",
            f"target {summary['target']}; specialists {', '.join(summary['specialists'])}; "
            f"budget {summary['budget']}; flags {flags}",
            file=path,
        )
    ]
    for ph in summary["phases"]:
        span = f"{ph['started']} .. {ph['ended'] or '(running)'}"
        tokens = summary["tokens"]["phases"][ph["phase"]]
        found.append(Diagnostic("PANEL-PHASE", f"{ph['phase']} {span}, {tokens} tokens", file=path))
    for fid, f in summary["findings"].items():
        still = "" if fid not in summary["open"] else " (open)"
        message = f"{fid} {f['state']}{still}: {' -> '.join(f['lifecycle'])}"
        found.append(Diagnostic("PANEL-FINDING", message, file=path))
    if summary["agreement"] is not None:
        found.append(Diagnostic("PANEL-AGREEMENT", summary["agreement"], file=path))
    for s in record.scripts:
        found.append(Diagnostic("PANEL-SCRIPT", f"{s.script} exit {s.exit_code}", file=path))
    states = ", ".join(f"{n} {state}" for state, n in summary["states"].items() if n)
    message = (
        f"{len(summary['findings'])} finding(s) ({states or 'none'}), "
        f"{len(summary['open'])} open; {summary['tokens']['total']} of {summary['budget']} tokens"
    )
    found.append(Diagnostic("PANEL-AUDIT", message, file=path))
    return emit(args, Result(EXIT_OK, found, {"file": path, **summary}))


def _setup_audit(p: Parser) -> None:
    p.add_argument("log", help="SESSION.jsonl ('-': stdin)")


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
    "route": (
        _route,
        _setup_route,
        "order each specialist's challenge queue by domain affinity",
        INPUT_EXIT,
    ),
    "delta": (
        _delta,
        _setup_delta,
        "review only changed paths; keep findings on unchanged ones",
        INPUT_EXIT,
    ),
    "audit": (
        _audit,
        _setup_audit,
        "validate a session log (JSON Lines) and summarise lifecycles",
        AUDIT_EXIT,
    ),
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
        files = [getattr(args, a, None) for a in ("votes", "file", "findings", "log", "changed")]
        return failure(args, exc, next((f for f in files if f is not None), None))
