"""``python -m kernel.arena verdict FILE`` and ``python -m kernel.arena conformance RUN.jsonl``.

Exit codes: ``verdict`` 0 when a verdict was found, 1 on PARSER_ERROR_MISSING_VERDICT;
``conformance`` 0 when Compliant or Conditionally Compliant, 1 when Non-Compliant;
2 for usage errors and unreadable input.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from kernel.arena.conformance import NON_COMPLIANT, check_conformance
from kernel.arena.verdict import PARSER_WARNING_MULTIPLE_VERDICTS, parse_verdict
from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, Diagnostic, Parser, dump_json, run
from kernel.io import read_text


def _verdict(path: str, fmt: str) -> int:
    text = read_text(path)
    result = parse_verdict(text.removeprefix("\ufeff"))
    if fmt == "json":
        dump_json({"file": path, **result.to_dict()})
    else:
        if PARSER_WARNING_MULTIPLE_VERDICTS in result.codes:
            shown = ", ".join(map(str, result.lines))
            print(
                Diagnostic(
                    path,
                    PARSER_WARNING_MULTIPLE_VERDICTS,
                    f"{len(result.lines)} verdict lines ({shown}); the last one counts",
                    result.line,
                    "warning",
                )
            )
        if result.verdict is None:
            print(
                Diagnostic(
                    path, result.codes[0], "no line matches 'VERDICT: APPROVED|REVISE' (§7.3)"
                )
            )
        else:
            print(Diagnostic(path, "VERDICT", result.verdict, result.line, "info"))
    return EXIT_OK if result.verdict is not None else EXIT_FAILED


def _conformance(path: str, fmt: str) -> int:
    report = check_conformance(read_text(path), source=path)
    if fmt == "json":
        dump_json({"file": path, **report.to_dict()})
    else:
        for check in report.checks:
            for finding in check.findings:
                code = f"ARENA-C{check.number:02d}"
                message = f"[{finding.requirement}] {check.name}: {finding.message}"
                print(Diagnostic(path, code, message, finding.line))
        passed = sum(c.passed for c in report.checks)
        print(f"{path}: {report.level} ({passed}/{len(report.checks)} checks passed)")
    return EXIT_FAILED if report.level == NON_COMPLIANT else EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "python -m kernel.arena",
        "Arena Protocol v2: verdict parsing and conformance checking",
        with_format=False,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    verdict = commands.add_parser(
        "verdict", description="Parse a reviewer output file per §7.3", help="parse a verdict"
    )
    verdict.add_argument("file", help="reviewer output (UTF-8 text)")
    conformance = commands.add_parser(
        "conformance",
        description="Run the 13 §12 checks over a JSON Lines audit trail",
        help="check an audit trail",
    )
    conformance.add_argument("file", help="audit trail (JSON Lines)")
    args = parser.parse_args(argv)
    if args.command == "verdict":
        return _verdict(args.file, args.format)
    return _conformance(args.file, args.format)


if __name__ == "__main__":
    sys.exit(run(main))
