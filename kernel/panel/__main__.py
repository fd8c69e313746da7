"""``python -m kernel.panel resolve VOTES.json``, ``scan FILE``, ``route FINDINGS.json``,
``delta CHANGED FINDINGS.json`` and ``audit SESSION.jsonl``.

Exit codes (api.md): 0 success (``scan``: nothing found); 1 judged and failed (``resolve``:
the votes file breaks the schema or names unknown specialists; ``scan``: findings;
``route``/``delta``/``audit``: an input breaks its schema or the rules, ``audit``: an
illegal lifecycle transition); 2 usage or unreadable input.
"""

from __future__ import annotations

import json
import sys
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

import jsonschema

from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, Diagnostic, Parser, dump_json, run
from kernel.io import MAX_INPUT_BYTES, InputError, load_json_file, read_text
from kernel.panel.audit import IllegalTransition, from_jsonl, session_summary
from kernel.panel.delta_mode import delta_document
from kernel.panel.inputs import PanelInputError
from kernel.panel.routing import BANDS, PROFILES, route_document
from kernel.panel.verdicts import SEVERITIES, VERDICTS, escalate, resolve_verdict
from kernel.panel.voting import VOTES, agreement_level, resolve_finding
from kernel.text.injection import DEFAULT_DELIMITERS, scan_injection

VOTES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["specialists", "findings"],
    "additionalProperties": False,
    "properties": {
        "specialists": {
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {"type": "string", "minLength": 1},
        },
        "findings": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "originator", "votes"],
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "string", "minLength": 1},
                    "originator": {"type": "string", "minLength": 1},
                    "severity": {"enum": list(SEVERITIES)},
                    "votes": {"type": "object", "additionalProperties": {"enum": list(VOTES)}},
                    "withdrawn": {"type": "boolean"},
                },
            },
        },
        "verdicts": {"type": "object", "additionalProperties": {"enum": list(VERDICTS)}},
    },
}


def _problems(doc: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(VOTES_SCHEMA)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    out = [f"/{'/'.join(str(p) for p in e.absolute_path)}: {e.message}" for e in errors]
    if out:
        return out
    panel = set(doc["specialists"])
    seen: set[str] = set()
    for i, f in enumerate(doc["findings"]):
        if f["id"] in seen:
            out.append(f"/findings/{i}/id: duplicate finding id {f['id']!r}")
        seen.add(f["id"])
        for who in [f["originator"], *f["votes"]]:
            if who not in panel:
                out.append(f"/findings/{i}: {who!r} is not one of the specialists")
    for who in doc.get("verdicts", {}):
        if who not in panel:
            out.append(f"/verdicts: {who!r} is not one of the specialists")
    return out


def resolve_document(doc: Any) -> dict[str, Any]:
    """Resolve a votes document (already schema-checked) into the CLI's JSON result."""
    n = len(doc["specialists"])
    rows: list[dict[str, Any]] = []
    for f in doc["findings"]:
        r = resolve_finding(
            f["votes"], originator=f["originator"], n_global=n, withdrawn=f.get("withdrawn", False)
        )
        rows.append({"id": f["id"], "severity": f.get("severity"), **r.to_dict()})
    verdict: dict[str, Any] | None = None
    if doc.get("verdicts"):
        panel = resolve_verdict(list(doc["verdicts"].values()))
        esc = escalate(
            panel, [(r["severity"], r["outcome"]) for r in rows if r["severity"] is not None]
        )
        verdict = {"panel": panel, "final": esc.verdict, "reasons": list(esc.reasons)}
    return {
        "findings": rows,
        "agreement_level": agreement_level([r["outcome"] for r in rows]),
        "verdict": verdict,
    }


def _resolve(path: str, fmt: str) -> int:
    doc = load_json_file(path)
    problems = _problems(doc)
    if problems:
        if fmt == "json":
            dump_json({"ok": False, "errors": problems})
        for p in problems:
            print(Diagnostic(path, "PANEL-INPUT", p), file=sys.stderr)
        return EXIT_FAILED
    result = resolve_document(doc)
    if fmt == "json":
        dump_json({"ok": True, **result})
        return EXIT_OK
    for row in result["findings"]:
        dissent = f" (dissent: {', '.join(row['dissent'])})" if row["dissent"] else ""
        print(Diagnostic(path, "RESOLVED", f"{row['id']}: {row['label']}{dissent}"))
    print(Diagnostic(path, "AGREEMENT", result["agreement_level"]))
    v = result["verdict"]
    if v is not None:
        why = f" (panel {v['panel']}; {'; '.join(v['reasons'])})" if v["reasons"] else ""
        print(Diagnostic(path, "VERDICT", f"{v['final']}{why}"))
    return EXIT_OK


def _scan(path: str, fmt: str, delimiters: Sequence[str]) -> int:
    text = read_text(path)
    findings = scan_injection(text, delimiters=tuple(delimiters))
    newlines = [i for i, c in enumerate(text) if c == "\n"]
    rows: list[dict[str, Any]] = []
    for f in findings:
        line = bisect_right(newlines, f.span[0] - 1) + 1
        line_start = newlines[line - 2] + 1 if line > 1 else 0
        rows.append({**f.to_dict(), "line": line, "column": f.span[0] - line_start + 1})
    if fmt == "json":
        dump_json({"file": path, "ok": not rows, "findings": rows})
    else:
        for row in rows:
            code = "INJECTION-" + row["category"].upper().replace("_", "-")
            print(Diagnostic(path, code, json.dumps(row["matched"]), line=row["line"]))
        if not rows:
            print(f"{path}: OK no injection patterns found")
    return EXIT_FAILED if rows else EXIT_OK


def _read_arg(path: str) -> str:
    """A file's text, or standard input's for ``-``."""
    if path != "-":
        return read_text(path)
    data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"<stdin>: input is over the {MAX_INPUT_BYTES}-byte limit")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"<stdin>: not UTF-8 (byte offset {exc.start})") from None


def _failed(files: Sequence[str], exc: PanelInputError | IllegalTransition, fmt: str) -> int:
    """Report bad input; ``files`` are the inputs (a problem with a line number is in the
    first, one with a JSON path in the last)."""
    if isinstance(exc, IllegalTransition):
        rows = [Diagnostic(files[0], "PANEL-LIFECYCLE", exc.reason, exc.line)]
    else:
        rows = [
            Diagnostic(
                files[0] if p.line is not None else files[-1],
                "PANEL-INPUT",
                f"{p.where}: {p.message}" if p.where else p.message,
                p.line,
            )
            for p in exc.problems
        ]
    if fmt == "json":
        dump_json({"ok": False, "errors": [str(d) for d in rows]})
    for d in rows:
        print(d, file=sys.stderr)
    return EXIT_FAILED


def _route(path: str, profile: str, fmt: str) -> int:
    try:
        routing = route_document(load_json_file(path), profile)
    except PanelInputError as exc:
        return _failed([path], exc, fmt)
    if fmt == "json":
        dump_json({"file": path, "ok": True, **routing.to_dict()})
        return EXIT_OK
    for who, queue in routing.routes.items():
        bands = [
            f"{band}={','.join(r.id for r in queue if r.band == band) or '-'}" for band in BANDS
        ]
        print(Diagnostic(path, "ROUTE", f"{who} {' '.join(bands)}", severity="info"))
    pairs = routing.pairs
    shares = ", ".join(
        f"{band} {n}" + (f" ({100 * n / pairs:.1f} %)" if pairs else "")
        for band, n in routing.bands.items()
    )
    print(Diagnostic(path, "ROUTE-BANDS", f"{shares} of {pairs} pairs", severity="info"))
    for domain in routing.unlisted:
        message = f"{domain!r}: no {profile} specialist lists it, so it is routed to the rest"
        print(Diagnostic(path, "UNLISTED-DOMAIN", message, severity="warning"))
    return EXIT_OK


def _delta(changed: str, findings: str, fmt: str) -> int:
    source = "<stdin>" if changed == "-" else changed
    try:
        result = delta_document(_read_arg(changed), load_json_file(findings))
    except PanelInputError as exc:
        return _failed([source, findings], exc, fmt)
    if fmt == "json":
        dump_json({"changed": source, "file": findings, "ok": True, **result.to_dict()})
        return EXIT_OK
    for target in result.targets:
        print(Diagnostic(source, "DELTA-TARGET", target, severity="info"))
    for code, group in (("DELTA-KEPT", result.kept), ("DELTA-DROPPED", result.dropped)):
        for f in group:
            print(Diagnostic(findings, code, f"{f['id']} {f['path']}", severity="info"))
    message = (
        f"{len(result.targets)} target(s); {len(result.kept)} finding(s) kept, "
        f"{len(result.dropped)} dropped for re-review"
    )
    print(Diagnostic(findings, "DELTA", message, severity="info"))
    return EXIT_OK


def _audit(log: str, fmt: str) -> int:
    path = "<stdin>" if log == "-" else log
    try:
        record = from_jsonl(_read_arg(log), source=path)
    except (PanelInputError, IllegalTransition) as exc:
        return _failed([path], exc, fmt)
    summary = session_summary(record)
    if fmt == "json":
        dump_json({"file": path, "ok": True, **summary})
        return EXIT_OK
    flags = " ".join(summary["flags"]) or "none"
    print(
        Diagnostic(
            path,
            "SESSION",
            f"target {summary['target']}; specialists {', '.join(summary['specialists'])}; "
            f"budget {summary['budget']}; flags {flags}",
            severity="info",
        )
    )
    for ph in summary["phases"]:
        span = f"{ph['started']} .. {ph['ended'] or '(running)'}"
        tokens = summary["tokens"]["phases"][ph["phase"]]
        print(Diagnostic(path, "PHASE", f"{ph['phase']} {span}, {tokens} tokens", severity="info"))
    for fid, f in summary["findings"].items():
        open_ = "" if fid not in summary["open"] else " (open)"
        message = f"{fid} {f['state']}{open_}: {' -> '.join(f['lifecycle'])}"
        print(Diagnostic(path, "FINDING", message, severity="info"))
    if summary["agreement"] is not None:
        print(Diagnostic(path, "AGREEMENT", summary["agreement"], severity="info"))
    for s in record.scripts:
        print(Diagnostic(path, "SCRIPT", f"{s.script} exit {s.exit_code}", severity="info"))
    states = ", ".join(f"{n} {state}" for state, n in summary["states"].items() if n)
    message = (
        f"{len(summary['findings'])} finding(s) ({states or 'none'}), "
        f"{len(summary['open'])} open; {summary['tokens']['total']} of {summary['budget']} tokens"
    )
    print(Diagnostic(path, "AUDIT", message, severity="info"))
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser("python -m kernel.panel", "Review-panel rules.", with_format=False)
    sub = parser.add_subparsers(dest="command", required=True)
    p_resolve = sub.add_parser(
        "resolve", description="Resolve findings, agreement level and verdict from votes."
    )
    p_resolve.add_argument("votes", help="VOTES.json")
    p_scan = sub.add_parser("scan", description="Scan agent output for injection patterns.")
    p_scan.add_argument("file")
    p_scan.add_argument(
        "--delimiter",
        action="append",
        default=None,
        help="delimiter name whose tags count as forged; repeatable (default: "
        + ", ".join(DEFAULT_DELIMITERS)
        + ")",
    )
    p_route = sub.add_parser(
        "route", description="Order each specialist's challenge queue by domain affinity."
    )
    p_route.add_argument("findings", help="FINDINGS.json: findings with id, originator, domain")
    p_route.add_argument(
        "--profile", choices=tuple(PROFILES), default="code", help="specialist profile"
    )
    p_delta = sub.add_parser(
        "delta", description="Review only changed paths; keep findings on unchanged ones."
    )
    p_delta.add_argument(
        "changed", help="changed paths, one per line ('-': stdin, e.g. git diff --name-only)"
    )
    p_delta.add_argument("findings", help="FINDINGS.json: the previous run's findings (id, path)")
    p_audit = sub.add_parser(
        "audit", description="Validate a session log (JSON Lines) and summarise lifecycles."
    )
    p_audit.add_argument("log", help="SESSION.jsonl ('-': stdin)")
    args = parser.parse_args(argv)
    if args.command == "resolve":
        return _resolve(args.votes, args.format)
    if args.command == "route":
        return _route(args.findings, args.profile, args.format)
    if args.command == "delta":
        return _delta(args.changed, args.findings, args.format)
    if args.command == "audit":
        return _audit(args.log, args.format)
    return _scan(args.file, args.format, args.delimiter or DEFAULT_DELIMITERS)


if __name__ == "__main__":
    sys.exit(run(main))
