"""``sprint-kernel templates [show NAME]``: the contract templates that ship in the package.

Without a subcommand (or with ``list``) it lists every template with its dialect, mode and
panel size; ``show NAME`` prints the template's JSON as it ships, to copy and edit.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from kernel.cli.scaffold import EXIT_OK, EXIT_USAGE, Parser, dump_json
from kernel.contract.dialects import detect
from kernel.contract.templates import TEMPLATE_NAMES, shipped_template, template_text
from kernel.errors import ContractError

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
        description="Print a shipped template's JSON, as it ships (in either format).",
        exit_codes=EXIT_CODES,
        formats=None,
        max_bytes=False,
    )
    show.add_argument(
        "--format", "--output-format", choices=("text", "json"), default=argparse.SUPPRESS
    )
    show.add_argument("name", metavar="NAME", help="a template name (sprint-kernel templates)")
    args = parser.parse_args(argv)
    if args.command == "show":
        try:
            text = template_text(args.name)
        except ContractError as exc:
            print(f"{show.prog}: error: {exc.message}", file=sys.stderr)
            return EXIT_USAGE
        sys.stdout.write(text)
        return EXIT_OK
    return _list(args)
