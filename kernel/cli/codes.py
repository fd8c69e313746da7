"""``sprint-kernel codes [CODE...] [--write FILE | --check FILE]``: the diagnostic registry.

Without options it lists the codes (``--format json`` for a machine-readable list);
``--write docs/codes.md`` regenerates the docs page and ``--check docs/codes.md`` fails when
the page is stale.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, EXIT_USAGE, Parser, dump_json
from kernel.diagnostics import REGISTRY, codes_markdown
from kernel.strict import shown

__all__ = ["main"]

EXIT_CODES = """\
  0  listed, written, or the page is up to date
  1  --check: the page is stale or missing
  2  usage error (an unknown code)"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel codes",
        "Every diagnostic code: severity, meaning and the rule it enforces.",
        exit_codes=EXIT_CODES,
        formats=("text", "json"),
        max_bytes=False,
    )
    parser.add_argument("codes", nargs="*", metavar="CODE", help="only these codes")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", metavar="FILE", help="write the Markdown page (docs/codes.md)")
    group.add_argument("--check", metavar="FILE", help="exit 1 when FILE is not up to date")
    args = parser.parse_args(argv)
    unknown = [c for c in args.codes if c not in REGISTRY]
    if unknown:
        parser.error(f"unknown code(s): {', '.join(shown(c) for c in unknown)}")
    chosen = [REGISTRY[c] for c in args.codes] if args.codes else list(REGISTRY.values())
    page = codes_markdown(chosen)
    if args.write is not None:
        try:
            Path(args.write).write_text(page, encoding="utf-8")
        except OSError as exc:
            message = f"error: {shown(args.write)}: cannot be written ({exc.strerror})"
            print(message, file=sys.stderr)
            return EXIT_USAGE
        return EXIT_OK
    if args.check is not None:
        path = Path(args.check)
        expected = page.encode("utf-8")
        try:  # compared as bytes: a file that is not UTF-8 is simply not up to date
            same = path.is_file() and path.stat().st_size == len(expected)
            same = same and path.read_bytes() == expected
        except OSError as exc:
            print(f"error: {shown(str(path))}: cannot be read ({exc.strerror})", file=sys.stderr)
            return EXIT_USAGE
        if not same:
            print(f"{path}: stale; run: sprint-kernel codes --write {path}")
            return EXIT_FAILED
        return EXIT_OK
    if args.format == "json":
        dump_json(
            [
                {
                    "code": c.id,
                    "severity": c.severity,
                    "summary": c.summary,
                    "rule": c.rule,
                    "url": c.url,
                }
                for c in chosen
            ]
        )
    else:
        for c in chosen:
            print(f"{c.id}  {c.severity}  {c.summary} ({c.rule})")
    return EXIT_OK
