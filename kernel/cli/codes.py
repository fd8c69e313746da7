"""``sprint-kernel codes [CODE...] [--write FILE | --check FILE]``: the diagnostic registry.

Without options it lists the codes (``--format json`` for a machine-readable list);
``--write docs/codes.md`` regenerates the docs page and ``--check docs/codes.md`` fails when
the page is stale.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from kernel.cli.atomic import write_text
from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, EXIT_USAGE, Parser, dump_json
from kernel.diagnostics import (
    REGISTRY,
    Code,
    codes_markdown,
    docs_url,
    explanation,
    rule_page,
)
from kernel.strict import shown
from kernel.suggest import did_you_mean

__all__ = ["explain", "main"]

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
    group.add_argument(
        "--explain",
        action="store_true",
        help="print each code's page: why, a failing and a passing example, how to fix it",
    )
    args = parser.parse_args(argv)
    chosen = _chosen(parser, args.codes)
    if args.explain:
        return explain(args.format, chosen)
    page = codes_markdown(chosen)
    if args.write is not None:
        try:
            write_text(args.write, page)
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
    docs = _docs_url()
    if args.format == "json":
        dump_json(
            [
                {
                    "code": c.id,
                    "severity": c.severity,
                    "summary": c.summary,
                    "rule": c.rule,
                    "url": c.link(docs),
                }
                for c in chosen
            ]
        )
    else:
        for c in chosen:
            print(f"{c.id}  {c.severity}  {c.summary} ({c.rule})")
    return EXIT_OK


def _chosen(parser: Parser, codes: Sequence[str]) -> list[Code]:
    """The codes named (every code when none is), or a usage error naming the unknown ones
    with the closest known spelling."""
    found = {c: _resolved(c) for c in codes}
    unknown = [c for c, got in found.items() if not got]
    if unknown:
        named = ", ".join(shown(c) + did_you_mean(c.upper(), REGISTRY) for c in unknown)
        parser.error(f"unknown code(s): {named}")
    chosen = [code for c in codes for code in found[c]]
    return list(dict.fromkeys(chosen)) if codes else list(REGISTRY.values())


def _resolved(name: str) -> list[Code]:
    """The codes ``name`` names: a code in any case (``p2-114``), or an upstream tag
    (``TRIGGER-DRIFT``, ``[TRIGGER-DRIFT]``) → every code whose summary carries it."""
    key = name.strip().upper()
    if key in REGISTRY:
        return [REGISTRY[key]]
    tag = f"[{key.strip('[]')}]"
    return [c for c in REGISTRY.values() if c.summary.startswith(tag)]


def _docs_url() -> str | None:
    """The docs URL of the configuration nearest the working directory, else the
    package's (links are left out without one)."""
    from kernel.cli.config import load_config
    from kernel.errors import ConfigError

    try:
        configured = load_config(None, isolated=False).docs_url
    except ConfigError:
        configured = None
    return docs_url(configured)


def explain(fmt: str, chosen: Sequence[Code]) -> int:
    """Print each code's page (``rule CODE``, ``codes CODE --explain``)."""
    docs = _docs_url()
    if fmt == "json":
        pages = []
        for c in chosen:
            page = explanation(c.id)
            pages.append(
                {
                    "code": c.id,
                    "severity": c.severity,
                    "summary": c.summary,
                    "rule": c.rule,
                    "why": page and page.why,
                    "failing": page and page.failing,
                    "passing": page and page.passing,
                    "fix": page and page.fix,
                    "example_base": page and page.base,
                    "url": c.link(docs),
                }
            )
        dump_json(pages)
        return EXIT_OK
    print("\n".join(rule_page(c.id, docs) for c in chosen), end="")
    return EXIT_OK
