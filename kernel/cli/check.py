"""``python -m kernel.check CONTRACT [--ars-version vX.Y.Z]``: validate a contract.

Exit codes follow the seed's validator (§4.4): 0 valid (warnings allowed), 1 schema,
structural or expression failure, or a file that cannot be read or parsed, 2 bad usage.
Errors and warnings go to stderr, ``OK: …`` to stdout.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any

from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, Diagnostic, Parser, dump_json
from kernel.contract.templates import TEMPLATE_NAMES, shipped_template
from kernel.contract.validator import check_structural_invariants, validate, warn_suspicious
from kernel.io import InputError, load_json_file

_CODE = re.compile(r"(SC-\d+) ")


def _read(source: str) -> Any:
    return shipped_template(source) if source in TEMPLATE_NAMES else load_json_file(source)


def _split_code(message: str, default: str) -> tuple[str, str]:
    match = _CODE.search(message)
    if match is None:
        return default, message
    return match.group(1), message[: match.start()] + message[match.end() :]


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser("python -m kernel.check", "Validate a sprint contract (Schema 13).")
    parser.add_argument("contract", help="contract JSON file or shipped template name")
    parser.add_argument("--ars-version", help="current ARS version vX.Y.Z (enables SC-1)")
    args = parser.parse_args(argv)
    if args.ars_version is not None and not re.fullmatch(r"v\d+\.\d+\.\d+", args.ars_version):
        parser.error(f"--ars-version must look like vX.Y.Z, got {args.ars_version!r}")
    source: str = args.contract
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    try:
        data = _read(source)
    except InputError as exc:
        errors.append(Diagnostic(source, "E-INPUT", exc.message.removeprefix(f"{source}: ")))
    else:
        for message in validate(data):
            errors.append(Diagnostic(source, "E-SCHEMA", message))
        if not errors:
            for message in check_structural_invariants(data):
                errors.append(Diagnostic(source, *_split_code(message, "E-STRUCT")))
        if not errors:
            for message in warn_suspicious(data, args.ars_version):
                code, text = message.split(": ", 1)
                warnings.append(Diagnostic(source, code, text, severity="warning"))
    ok = not errors
    if args.format == "json":
        dump_json(
            {
                "file": source,
                "ok": ok,
                "errors": [d.to_dict() for d in errors],
                "warnings": [d.to_dict() for d in warnings],
            }
        )
    else:
        for diagnostic in [*errors, *warnings]:
            print(diagnostic, file=sys.stderr)
        if ok:
            print(f"OK: {source}" + (f" ({len(warnings)} warning(s))" if warnings else ""))
    return EXIT_OK if ok else EXIT_FAILED
