"""``python -m kernel.panel resolve VOTES.json`` and ``python -m kernel.panel scan FILE``.

Exit codes (api.md): 0 success (``scan``: nothing found); 1 judged and failed (``resolve``:
the votes file breaks the schema or names unknown specialists; ``scan``: findings);
2 usage or unreadable input.
"""

from __future__ import annotations

import json
import sys
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

import jsonschema

from kernel._cli import EXIT_FAILED, EXIT_OK, Diagnostic, Parser, dump_json, run
from kernel._io import load_json_file, read_text
from kernel.injection import DEFAULT_DELIMITERS, scan_injection
from kernel.panel.verdicts import SEVERITIES, VERDICTS, escalate, resolve_verdict
from kernel.panel.voting import VOTES, agreement_level, resolve_finding

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
    try:
        errors = sorted(
            validator.iter_errors(doc),
            key=lambda e: [(isinstance(p, str), p) for p in e.absolute_path],
        )
    except RecursionError:  # messages quote the offending value
        return ["/: nested too deeply to check"]
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
    args = parser.parse_args(argv)
    if args.command == "resolve":
        return _resolve(args.votes, args.format)
    return _scan(args.file, args.format, args.delimiter or DEFAULT_DELIMITERS)


if __name__ == "__main__":
    sys.exit(run(main))
