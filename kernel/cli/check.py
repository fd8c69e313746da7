"""``sprint-kernel check CONTRACT... [--ars-version vX.Y.Z]``: validate contracts.

Exit codes follow the seed's validator (§4.4): 0 valid (warnings allowed), 1 schema,
structural or expression failure, or a file that cannot be read or parsed, 2 bad usage (and a
directory, FIFO or other non-regular file). In a directory, only contracts are checked: the
files the pre-commit hook's pattern names, and JSON objects with ``contract_id``,
``failure_conditions`` or ``acceptance_dimensions``; the others are counted as skipped.
The findings and the summary go to stdout, as for every command.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

import attrs

from kernel.cli.files import JSON_FILES, expand, warn
from kernel.cli.placed import contract_findings
from kernel.cli.scaffold import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    NOT_A_FILE,
    Parser,
    Reader,
    Result,
    emit,
    reported,
)
from kernel.contract.templates import TEMPLATE_NAMES, shipped_template, template_hint
from kernel.contract.validator import parse_version
from kernel.diagnostics import Diagnostic, from_error
from kernel.errors import EmptyDirectory, InputError, KernelError
from kernel.io import loads_strict

__all__ = ["main"]

EXIT_CODES = """\
  0  every contract is valid (warnings allowed)
  1  a schema, structural or expression error, or a file missing or not parseable (seed §4.4)
  2  usage error, or a directory, FIFO or other non-regular file"""


def _check(
    reader: Reader, source: str, ars: str | None
) -> tuple[int, str | None, list[Diagnostic]]:
    """The exit code, the dialect the contract was checked as (``None`` when it could not be
    read) and what was found."""
    text = None
    try:
        if source in TEMPLATE_NAMES:
            data: Any = shipped_template(source)
        else:
            text = reader.text(source)
            data = loads_strict(text, source=source, max_bytes=reader.max_bytes)
    except InputError as exc:
        code = EXIT_USAGE if exc.code == NOT_A_FILE else EXIT_FAILED
        error = from_error(exc, source)
        hint = template_hint(source) if exc.code == "E-READ" else ""
        return code, None, [attrs.evolve(error, message=error.message + hint)]
    dialect, found = contract_findings(data, source, text, ars, reader.dialect)
    code = EXIT_FAILED if any(d.severity == "error" for d in found) else EXIT_OK
    return code, dialect, found


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel check",
        "Validate sprint contracts (Schema 13 or 13.2, structural invariants, SC warnings).",
        exit_codes=EXIT_CODES,
        dialect=True,
        walks=JSON_FILES,
        keep=lambda path: _is_contract(path, Reader()),
    )
    parser.add_argument(
        "contracts",
        nargs="*",
        metavar="CONTRACT",
        help="contract JSON file, a directory (the contracts among its *.json files), - or "
        "template name "
        "(default: the contract of the configuration)",
    )
    parser.add_argument("--ars-version", help="current ARS version vX.Y.Z (enables SC-1)")
    args = parser.parse_args(argv)
    if args.ars_version is not None:
        try:
            parse_version(args.ars_version, "--ars-version")
        except KernelError as exc:
            parser.error(exc.message)
    if not args.contracts:
        if args.settings.contract is None:
            parser.error("give a CONTRACT (or set contract in the configuration)")
        args.contracts = [args.settings.contract]
    try:
        sources = expand(args.contracts, JSON_FILES, args.settings, warn=warn)
        searched = set(sources) - set(expand(_not_dirs(args.contracts), JSON_FILES, args.settings))
    except EmptyDirectory as exc:
        return emit(
            args,
            Result(
                EXIT_USAGE,
                [from_error(exc, exc.path)],
                {"files": []},
            ),
        )
    readers: dict[tuple[int, str], Reader] = {}

    def reader_for(source: str) -> Reader:
        """Each contract read under its own project's max-bytes and dialect."""
        own = args.settings if source == "-" else args.settings.for_file(source)
        key = (own.setting("max-bytes", args.max_bytes), own.setting("dialect", args.dialect))
        if key not in readers:
            readers[key] = Reader(key[0], dialect=key[1])
        return readers[key]

    worst = EXIT_OK
    diagnostics: list[Diagnostic] = []
    files: list[dict[str, Any]] = []
    skipped = []
    for source in sources:
        reader = reader_for(source)
        if source in searched and not _is_contract(source, reader):
            skipped.append(source)
            continue
        code, dialect, found = _check(reader, source, args.ars_version)
        worst = max(worst, code)
        diagnostics += found
        errors = sum(d.severity == "error" for d in found)
        warnings = sum(d.severity == "warning" for d in reported(args, found))
        files.append(
            {
                "file": source,
                "ok": code == EXIT_OK,
                "errors": errors,
                "warnings": warnings,
                "dialect": dialect,
            }
        )
    if skipped and not files:
        where = ", ".join(a for a in args.contracts if os.path.isdir(a))
        error = InputError(
            f"{where}: is a directory with no contracts to read "
            f"({len(skipped)} JSON file(s) that are not contracts skipped)",
            code=NOT_A_FILE,
        )
        return emit(
            args,
            Result(
                EXIT_USAGE,
                [from_error(error, where)],
                {"files": [], "skipped": skipped},
            ),
        )
    text = [f"Skipped {len(skipped)} JSON file(s) that are not contracts."] if skipped else []
    body: dict[str, Any] = {"files": files, "skipped": skipped}
    return emit(args, Result(worst, diagnostics, body, text))


#: The files the pre-commit hook checks (.pre-commit-hooks.yaml): under a ``contract/`` or
#: ``contracts/`` directory, or named ``*.contract.json``.
HOOK_FILES = re.compile(r"(^|/)(contracts?/.*|.*\.contract)\.json$")
#: Members only a contract has (both dialects): a JSON object with any of them is taken for
#: one, so that a contract missing some required members is still checked, and fails.
CONTRACT_KEYS = ("contract_id", "failure_conditions", "acceptance_dimensions")


def _not_dirs(arguments: Sequence[str]) -> list[str]:
    return [a for a in arguments if a == "-" or not os.path.isdir(a)]


def _is_contract(path: str, reader: Reader) -> bool:
    """Whether a JSON file found in a directory is taken for a contract: its path matches
    the hook's pattern (then it is checked even when broken), or it is a JSON object with a
    member only a contract has."""
    if HOOK_FILES.search(path.replace(os.sep, "/")):
        return True
    try:
        data = reader.json(path)
    except InputError:
        return False
    return isinstance(data, dict) and any(key in data for key in CONTRACT_KEYS)
