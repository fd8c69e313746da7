"""``python -m kernel.analyze CONTRACT [--prior pass=0.7,warn=0.2,block=0.1 | --prior-file F]``
and ``python -m kernel.analyze OLD --diff NEW``; ``--format text|json|html``.

Reports what the contract can decide over every possible matrix. Exit 0 when every condition
can decide, the contract is monotone and every matrix gets a decision; 1 when it finds an
error (AN-2, AN-3, AN-4), the contract is invalid or the analysis is refused as too large;
2 for usage or unreadable input. A diff is a report, not a test: it exits 0 whenever the
report was produced.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from kernel.analysis import (
    Prior,
    PriorError,
    analyze,
    analyze_diff,
    format_analysis,
    format_diff,
    format_probabilities,
    parse_prior,
    prior_from_json,
    probabilities,
)
from kernel.analysis.columns import Progress
from kernel.analysis.html import html_analysis, html_diff
from kernel.analysis.result import AnalysisTooLarge
from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, EXIT_USAGE, Parser, dump_json
from kernel.contract.model import Contract, ContractInputError, load_contract
from kernel.errors import KernelError
from kernel.io import load_json_file

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


def _prior(args: Any) -> Prior | None:
    if args.prior is not None:
        return parse_prior(args.prior)
    if args.prior_file is not None:
        return prior_from_json(load_json_file(args.prior_file), args.prior_file)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "python -m kernel.analyze",
        "What can a contract decide? Exact counts over every possible scoring matrix.",
        with_format=False,
    )
    parser.epilog = (
        "Exit status: 0 no error finding; 1 an error finding (AN-2, AN-3, AN-4), an invalid "
        "contract, or an analysis refused as too large; 2 usage errors and unreadable input. "
        "With --diff: 0 whenever the report was produced."
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "html"),
        default="text",
        help="output format (html: one self-contained page with charts)",
    )
    parser.add_argument("contract", help="contract file or template name (reviewer/full, ...)")
    parser.add_argument(
        "--diff",
        metavar="NEW",
        help="compare with the amended contract NEW: the matrices it decides differently",
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--prior",
        metavar="pass=P,warn=P,block=P",
        help="score probabilities for every dimension: exact outcome probabilities",
    )
    group.add_argument(
        "--prior-file",
        metavar="FILE",
        help='JSON: {"pass": .., "warn": .., "block": ..} or per dimension id ("*": the rest)',
    )
    args = parser.parse_args(argv)
    if args.diff is not None:
        if args.prior is not None or args.prior_file is not None:
            parser.error("--prior and --prior-file do not apply to --diff")
        return _diff(args.contract, args.diff, args.format)
    try:
        prior = _prior(args)
    except PriorError as exc:
        parser.error(exc.message)
    try:
        contract = load_contract(args.contract)
    except ContractInputError:
        raise
    except KernelError as exc:
        print(f"{args.contract}: error: {exc.message}", file=sys.stderr)
        return EXIT_FAILED
    meter = _meter()
    progress: Progress | None = meter
    try:
        analysis = analyze(contract, progress)
        chances = None if prior is None else probabilities(contract, prior, progress)
    except PriorError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return EXIT_USAGE
    except AnalysisTooLarge as exc:
        print(f"{args.contract}: error: {exc.message}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        if meter is not None:
            meter.close()
    if args.format == "html":
        print(html_analysis(analysis, args.contract, chances))
    elif args.format == "json":
        body = analysis.to_dict()
        if chances is not None:
            body["probabilities"] = chances.to_dict()
        dump_json(body)
    else:
        print(format_analysis(analysis, args.contract))
        if chances is not None:
            print(format_probabilities(chances))
    return EXIT_OK if analysis.ok else EXIT_FAILED


def _load(source: str) -> Contract | None:
    """The contract, or ``None`` after saying why it is invalid (unreadable input raises)."""
    try:
        return load_contract(source)
    except ContractInputError:
        raise
    except KernelError as exc:
        print(f"{source}: error: {exc.message}", file=sys.stderr)
        return None


def _diff(old_source: str, new_source: str, fmt: str) -> int:
    old, new = _load(old_source), _load(new_source)
    if old is None or new is None:
        return EXIT_FAILED
    meter = _meter()
    try:
        diff = analyze_diff(old, new, meter)
    except KernelError as exc:
        print(f"{old_source} -> {new_source}: error: {exc.message}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        if meter is not None:
            meter.close()
    if fmt == "json":
        dump_json(diff.to_dict())
    elif fmt == "html":
        print(html_diff(diff, old_source, new_source))
    else:
        print(format_diff(diff, old_source, new_source))
    return EXIT_OK
