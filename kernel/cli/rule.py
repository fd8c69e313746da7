"""``sprint-kernel rule CODE...``: each code's page, as ``ruff rule`` prints a rule's: what it
checks, why, a failing and a passing example, and how to fix it (``codes CODE --explain``
prints the same).
"""

from __future__ import annotations

from collections.abc import Sequence

from kernel.cli.codes import _chosen, explain
from kernel.cli.scaffold import Parser

__all__ = ["main"]

EXIT_CODES = """\
  0  printed
  2  usage error (an unknown code)"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel rule",
        "A diagnostic code's page: what it checks, why, a failing and a passing example, "
        "and how to fix it.",
        exit_codes=EXIT_CODES,
        formats=("text", "json"),
        max_bytes=False,
    )
    parser.add_argument(
        "codes",
        nargs="+",
        metavar="CODE",
        help="the codes (SC-11, p2-040, …) or upstream tags (TRIGGER-DRIFT: the codes that "
        "carry it)",
    )
    args = parser.parse_args(argv)
    return explain(args.format, _chosen(parser, args.codes))
