"""``sprint-kernel templates [show NAME [--document D --role R]]``: the contract templates
that ship in the package.

Without a subcommand (or with ``list``) it lists every template with its dialect, mode and
panel size; ``show NAME`` prints the template's JSON as it ships, to copy and edit;
``--document phase1|phase2|synthesis`` prints a starter document of it instead.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from kernel.cli.scaffold import EXIT_OK, EXIT_USAGE, Parser, add_ars_option, dump_json
from kernel.contract.dialects import detect
from kernel.contract.templates import TEMPLATE_NAMES, shipped_template, template_text
from kernel.errors import KernelError
from kernel.reviewer.starters import DOCUMENTS

__all__ = ["main", "rows"]

EXIT_CODES = """\
  0  listed or shown
  2  usage error (a template name that does not ship; the closest ones are named)"""


def rows() -> list[dict[str, Any]]:
    """One row per shipped template: ``name``, ``dialect``, ``mode``, ``panel_size``
    (``None`` for a writer or evaluator contract)."""
    out = []
    for name in TEMPLATE_NAMES:
        data = shipped_template(name)
        out.append(
            {
                "name": name,
                "dialect": detect(data),
                "mode": data["mode"],
                "panel_size": data.get("panel_size"),
            }
        )
    return out


def _list(args: argparse.Namespace) -> int:
    found = rows()
    if args.format == "json":
        dump_json(found)
        return EXIT_OK
    width = max(len(r["name"]) for r in found)
    modes = max(len(r["mode"]) for r in found)
    print(f"{'template':<{width}}  dialect  {'mode':<{modes}}  panel")
    for r in found:
        panel = "-" if r["panel_size"] is None else str(r["panel_size"])
        print(f"{r['name']:<{width}}  {r['dialect']:<7}  {r['mode']:<{modes}}  {panel}")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel templates",
        "The contract templates that ship in the package: list them, or show one's JSON. "
        "Any command that takes a contract takes a template's name.",
        exit_codes=EXIT_CODES,
        formats=("text", "json"),
        max_bytes=False,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    parser.set_defaults(command="list")
    listing = sub.add_parser(
        "list",
        help="list every template with its dialect, mode and panel size (the default)",
        exit_codes=EXIT_CODES,
        formats=None,
        max_bytes=False,
    )
    # --format before or after "list"; here it does not reset the one given before
    listing.add_argument(
        "--format", "--output-format", choices=("text", "json"), default=argparse.SUPPRESS
    )
    show = sub.add_parser(
        "show",
        help="print a template's JSON",
        description="Print a shipped template's JSON, as it ships (in either format); with "
        "--document, a starter document of it instead.",
        exit_codes=EXIT_CODES,
        formats=None,
        max_bytes=False,
    )
    show.add_argument(
        "--format", "--output-format", choices=("text", "json"), default=argparse.SUPPRESS
    )
    show.add_argument("name", metavar="NAME", help="a template name (sprint-kernel templates)")
    show.add_argument(
        "--document",
        choices=DOCUMENTS,
        help="print a starter document of the template instead: a seat's Phase 1 or Phase 2 "
        "(13.2: with --role), or the editor's synthesis, each as the lints expect it",
    )
    show.add_argument("--role", help="the seat's role, for a 13.2 phase1 or phase2 document")
    add_ars_option(show.add_argument)
    args = parser.parse_args(argv)
    if args.command == "show":
        if args.role is not None and args.document is None:
            show.error("--role goes with --document")
        try:
            if args.document is not None:
                return _document(args)
            text = template_text(args.name)
        except KernelError as exc:
            print(f"{show.prog}: error: {exc.message}", file=sys.stderr)
            return EXIT_USAGE
        sys.stdout.write(text)
        return EXIT_OK
    return _list(args)


def _document(args: argparse.Namespace) -> int:
    from kernel.reviewer.lint.ars import DEFAULT_ARS
    from kernel.reviewer.starters import starter

    template_text(args.name)  # an unknown name is refused with the closest ones
    ars = args.ars or DEFAULT_ARS
    text = starter(args.name, args.document, args.role, ars=ars)
    if args.format == "json":
        dump_json(
            {
                "name": args.name,
                "document": args.document,
                "role": args.role,
                "ars": ars,
                "text": text,
            }
        )
    else:
        sys.stdout.write(text)
    return EXIT_OK
