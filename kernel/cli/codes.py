"""``sprint-kernel codes [CODE...] [--write FILE | --check FILE]``: the diagnostic registry.

Without options it lists the codes (``--format json`` for a machine-readable list);
``--write docs/codes.md`` regenerates the docs page and ``--check docs/codes.md`` fails when
the page is stale.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, Parser, dump_json
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
        Path(args.write).write_text(page, encoding="utf-8")
        return EXIT_OK
    if args.check is not None:
        path = Path(args.check)
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current != page:
            print(f"{path}: stale; run: sprint-kernel codes --write {path}")
            return EXIT_FAILED
        return EXIT_OK
    if args.format == "json":
        dump_json(
            [
                {"code": c.id, "severity": c.severity, "summary": c.summary, "rule": c.rule}
                for c in chosen
            ]
        )
    else:
        for c in chosen:
            print(f"{c.id}  {c.severity}  {c.summary} ({c.rule})")
    return EXIT_OK
