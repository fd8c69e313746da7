"""``sprint-kernel analyze CONTRACT [--prior pass=0.7,warn=0.2,block=0.1 | --prior-file F]``
and ``sprint-kernel analyze OLD --diff NEW``.

Reports what the contract can decide over every possible matrix, or which matrices an
amendment decides differently. ``--format html`` writes one self-contained page.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

import attrs

from kernel.analysis.report import format_analysis
from kernel.analysis.space import analyze
from kernel.cli.prior import add_prior_options, read_prior
from kernel.cli.scaffold import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    FORMATS,
    Parser,
    Reader,
    Result,
    emit,
    exit_for,
    failure,
    write_report,
)
from kernel.diagnostics import from_error
from kernel.errors import AnalysisTooLarge, KernelError, PriorError

if TYPE_CHECKING:  # priors, diffs and HTML load their modules when asked for
    from kernel.analysis.columns import Progress

EXIT_CODES = """\
  0  every condition can decide, the contract is monotone and every matrix gets a decision
  1  an error finding (AN-2, AN-3, AN-4), an analysis too large, or an invalid contract
  2  usage error or unreadable input (a bad prior, a missing file)
with --diff (a report, not a test): 0 whenever the report was produced, 1 an invalid contract,
a pair over different matrices or a diff too large, 2 usage error or unreadable input"""

__all__ = ["main"]

#: Show progress once an analysis has run this long (seconds).
PROGRESS_AFTER = 1.0


class _Meter:
    """Progress on a terminal's stderr, once the run has taken ``PROGRESS_AFTER`` seconds."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, phase: str, fraction: float) -> None:
        if time.monotonic() - self.start < PROGRESS_AFTER:
            return
        self.stream.write(f"\ranalyze: {phase} {fraction:4.0%}   ")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 40 + "\r")
            self.stream.flush()


def _meter() -> _Meter | None:
    stream = sys.stderr
    isatty = getattr(stream, "isatty", None)
    return _Meter(stream) if isatty is not None and isatty() else None


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel analyze",
        "What can a contract decide? Exact counts over every possible scoring matrix.",
        exit_codes=EXIT_CODES,
        formats=(*FORMATS, "html"),
        dialect=True,
    )
    parser.add_contract_option(
        "contract file, - or template name (reviewer/full, ...)", positional=True
    )
    parser.add_argument(
        "--diff",
        metavar="NEW",
        help="compare with the amended contract NEW: the matrices it decides differently",
    )
    add_prior_options(parser, "exact outcome probabilities")
    args = parser.parse_args(argv)
    reader = Reader(args.max_bytes, dialect=args.dialect)
    if args.diff is not None:
        if args.prior is not None or args.prior_file is not None:
            parser.error("--prior and --prior-file do not apply to --diff")
        return _diff(args.contract, args.diff, args, reader)
    try:
        contract = reader.contract(args.contract)
    except KernelError as exc:
        return _failure(args, exc, args.contract)
    try:
        prior = read_prior(args, reader, contract.dialect)
    except PriorError as exc:
        parser.error(exc.message)
    except KernelError as exc:
        return _failure(args, exc, args.prior_file)
    meter = _meter()
    progress: Progress | None = meter
    try:
        analysis = analyze(contract, progress)
        chances = None
        if prior is not None:
            from kernel.analysis.probability import probabilities

            chances = probabilities(contract, prior, progress)
    except AnalysisTooLarge as exc:  # a prior too large to compute too (PriorTooLarge)
        return _failure(args, exc, args.contract)
    except PriorError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        if meter is not None:
            meter.close()
    code = EXIT_OK if analysis.ok else EXIT_FAILED
    if args.format == "html":
        from kernel.analysis.html import html_analysis

        return write_report(args, html_analysis(analysis, args.contract, chances), code)
    body = analysis.to_dict()
    at = _condition_positions(reader, args.contract)
    text = [format_analysis(analysis, args.contract, at)]
    if chances is not None:
        from kernel.analysis.report import format_probabilities

        body["probabilities"] = chances.to_dict()
        text.append(format_probabilities(chances))
    diagnostics = [
        attrs.evolve(d, line=at[f.condition_id][0], column=at[f.condition_id][1])
        if f.condition_id in at
        else d
        for f in analysis.findings
        for d in [f.to_diagnostic(args.contract)]
    ]
    # Each counterexample at its finding's place: the condition it names, else the document.
    for entry, d in zip(body["counterexamples"], diagnostics, strict=True):
        entry["line"], entry["column"] = d.line or 1, d.column or 1
    return emit(args, Result(code, diagnostics, body, text, text_diagnostics=False))


def _condition_positions(reader: Reader, source: str) -> dict[str, tuple[int, int]]:
    """Condition id → the (line, column) of its ``condition_id`` value in the contract file
    (none for a template or standard input, which cannot be read again)."""
    from kernel.contract.templates import TEMPLATE_NAMES
    from kernel.io import json_positions, loads_strict

    if source == "-" or source in TEMPLATE_NAMES:
        return {}
    try:
        text = reader.text(source)
        data = loads_strict(text, source=source, max_bytes=reader.max_bytes)
    except KernelError:
        return {}
    conditions = data.get("failure_conditions") if isinstance(data, dict) else None
    positions = json_positions(text)
    found: dict[str, tuple[int, int]] = {}
    for i, c in enumerate(conditions if isinstance(conditions, list) else []):
        where = positions.get(f"$.failure_conditions[{i}].condition_id")
        if isinstance(c, dict) and isinstance(c.get("condition_id"), str) and where:
            found.setdefault(c["condition_id"], where)
    return found


def _failure(args: argparse.Namespace, error: KernelError, file: str | None) -> int:
    """An error that stopped the command. An HTML report is never written then (a previous
    report is kept): the error goes to standard error as a text diagnostic."""
    if args.format != "html":
        return failure(args, error, file)
    print(from_error(error, file), file=sys.stderr)
    return exit_for(error)


def _diff(old_source: str, new_source: str, args: argparse.Namespace, reader: Reader) -> int:
    from kernel.analysis.diff import analyze_diff
    from kernel.analysis.report import format_diff

    contracts = []
    for source in (old_source, new_source):
        try:
            contracts.append(reader.contract(source))
        except KernelError as exc:
            return _failure(args, exc, source)
    meter = _meter()
    try:
        diff = analyze_diff(contracts[0], contracts[1], meter)
    except KernelError as exc:
        return _failure(args, exc, new_source)
    finally:
        if meter is not None:
            meter.close()
    if args.format == "html":
        from kernel.analysis.html import html_diff

        return write_report(args, html_diff(diff, old_source, new_source), EXIT_OK)
    text = [format_diff(diff, old_source, new_source)]
    return emit(args, Result(EXIT_OK, (), diff.to_dict(), text, text_diagnostics=False))
