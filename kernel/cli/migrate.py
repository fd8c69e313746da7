"""``sprint-kernel migrate OLD.json [-o NEW.json] [--roles D1=methodology,eic …]``.

Migrates a Schema 13 contract to 13.2, lists every choice the migration made, and reports
exactly which decisions change over the old contract's whole matrix space
(docs/migrating.md). ``-o`` writes the migrated contract; the report goes to standard output
(text, JSON, or one HTML page).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from kernel.cli.atomic import same_file, write_text
from kernel.cli.prior import add_prior_options, read_prior
from kernel.cli.scaffold import (
    EXIT_OK,
    EXIT_USAGE,
    FORMATS,
    Diagnostic,
    Parser,
    Reader,
    Result,
    emit,
    failure,
    write_report,
)
from kernel.errors import AnalysisTooLarge, KernelError, PriorError

if TYPE_CHECKING:
    pass

__all__ = ["main"]

EXIT_CODES = """\
  0  the contract was migrated (the report says which decisions change)
  1  the migration is refused: the contract is invalid, a condition or field needs a choice
     (E-MIGRATE: --mode, --roles, --actions, --fatal or --expression), or the comparison is
     too large to compute (E-TOO-LARGE)
  2  usage error, unreadable input, or NEW.json cannot be written"""


def _pairs(values: list[list[str]] | None, option: str, parser: Parser) -> dict[str, str]:
    """``KEY=VALUE`` arguments of a repeatable option, as a mapping."""
    out: dict[str, str] = {}
    for value in (v for group in values or () for v in group):
        key, sep, rest = value.partition("=")
        if not sep or not key.strip() or not rest.strip():
            parser.error(f"{option}: expected KEY=VALUE, got {value!r}")
        if key.strip() in out:
            parser.error(f"{option}: {key.strip()} is given twice")
        out[key.strip()] = rest.strip()
    return out


def _parser() -> Parser:
    parser = Parser(
        "sprint-kernel migrate",
        "Migrate a Schema 13 contract to 13.2 and count exactly which decisions change.",
        exit_codes=EXIT_CODES,
        formats=(*FORMATS, "html"),
        # -o is the migrated contract here; the report keeps --output-file.
        conflict_handler="resolve",
    )
    add = parser.add_argument
    add("contract", help="the Schema 13 contract: a file, - or a template name (reviewer/full)")
    add("-o", "--output", metavar="NEW.json", help="write the migrated contract to this file")
    add(
        "--mode",
        help="the 13.2 mode (reviewer_full or reviewer_methodology_focus), for a 13 mode "
        "13.2 has no role set for",
    )
    add(
        "--roles",
        action="append",
        nargs="+",
        metavar="DIM=ROLE,ROLE",
        help="a dimension's eligible roles, the first its owner (D1=methodology,eic)",
    )
    add(
        "--actions",
        action="append",
        nargs="+",
        metavar="FROM=ACTION",
        help="reject_or_major_revision=reject|major_revision, or a condition id (F1=reject)",
    )
    add(
        "--fatal",
        action="append",
        nargs="+",
        metavar="DIM",
        help="mandatory dimensions whose 13 blocks become fatal blocks (D1 D2 or D1,D2)",
    )
    add(
        "--expression",
        action="append",
        nargs="+",
        metavar="F=EXPR",
        help="a condition's 13.2 expression, for one 13.2 cannot read as written",
    )
    add_prior_options(parser, "the probability that a decision changes")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    report_file = args.settings.output_file
    if args.output is not None and report_file is not None and same_file(args.output, report_file):
        parser.error(
            f"-o {args.output} and --output-file {report_file} name the same file: the report "
            "would overwrite the migrated contract"
        )
    if args.format == "html" and args.output is not None and args.settings.output_file is None:
        parser.error(
            f"-o/--output writes the migrated contract, not the page: -o {args.output} with "
            "--format html is ambiguous; give the page's file with --output-file (and the "
            "contract's with -o)"
        )
    if "strict" not in dict(args.settings.flags):
        # the configuration's strict governs the findings of the checks (lint, check): a
        # migration that succeeded exits 0 whatever its MG-2 warning says (--strict still fails)
        args.settings = attrs.evolve(
            args.settings, strict=False, flags=(*args.settings.flags, ("strict", False))
        )
    reader = Reader(args.max_bytes)
    roles = _pairs(args.roles, "--roles", parser)
    actions = _pairs(args.actions, "--actions", parser)
    expressions = _pairs(args.expression, "--expression", parser)
    fatal = [
        d.strip() for group in args.fatal or () for v in group for d in v.split(",") if d.strip()
    ]
    try:
        prior = read_prior(args, reader)
    except PriorError as exc:
        parser.error(exc.message)
    except KernelError as exc:
        return failure(args, exc, args.prior_file)
    from kernel.contract.templates import TEMPLATE_NAMES
    from kernel.migration.compare import migrate

    try:  # the document as written (its key order is kept in NEW.json)
        old = args.contract if args.contract in TEMPLATE_NAMES else reader.json(args.contract)
    except KernelError as exc:
        return failure(args, exc, args.contract)

    try:
        m = migrate(
            old,
            roles=roles or None,
            mode=args.mode,
            actions=actions or None,
            fatal=fatal or None,
            expressions=expressions or None,
            prior=prior,
        )
    except AnalysisTooLarge as exc:  # a prior too large to compute too (PriorTooLarge)
        return failure(args, exc, args.contract)
    except PriorError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return EXIT_USAGE
    except KernelError as exc:
        return failure(args, exc, args.contract)
    if args.output is not None:
        try:
            write_text(args.output, m.contract_json())
        except OSError as exc:
            print(f"error: {args.output}: cannot be written ({exc.strerror})", file=sys.stderr)
            return EXIT_USAGE
    if args.format == "html":
        from kernel.migration.html import html_migration

        return write_report(args, html_migration(m, args.contract), EXIT_OK)
    return _report(args, m)


def _report(args: argparse.Namespace, m: Any) -> int:
    from kernel.analysis.result import compact
    from kernel.cli.placed import placed
    from kernel.migration.report import format_migration

    found = [Diagnostic("MG-1", str(c), file=args.contract) for c in m.choices]
    if m.moved:
        found.append(
            Diagnostic(
                "MG-2",
                f"{compact(m.moved)} of {compact(m.space)} old matrices are decided "
                "differently by the migrated contract",
                file=args.contract,
            )
        )
    # What check says of the migrated contract: in NEW.json as check places it, once written.
    if args.output is not None:
        found += [d.at(args.output) for d in placed(list(m.checks()), m.contract_json())]
    else:
        found += [
            attrs.evolve(
                d,
                message=f"{d.json_path}: {d.message} (in the migrated contract)",
                file=args.contract,
            )
            for d in m.checks()
        ]
    text = format_migration(m, args.contract, choices=False)
    tail = (
        f"wrote {args.output}"
        if args.output is not None
        else "(the migrated contract is not written: -o NEW.json writes it)"
    )
    body = m.to_dict()
    body["output"] = args.output
    lines: list[tuple[Any, str]] = [("out", text), ("out", tail)]
    return emit(args, Result(EXIT_OK, found, body, lines))
