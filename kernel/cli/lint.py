"""``python -m kernel.lint DOC --contract C [--phase1 P1] [--phase 1|2] [--format json]``.

Exit codes: 0 the document passes (warnings allowed), 1 it fails the lint (or the contract is
invalid), 2 usage error or unreadable input (missing file, not UTF-8, over the size limit).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, Diagnostic, Parser, dump_json, run
from kernel.contract.model import load_contract
from kernel.io import MAX_INPUT_BYTES, read_text
from kernel.reviewer.lint.phase1 import PHASE2_ONLY_SECTIONS, lint_phase1
from kernel.reviewer.lint.phase2 import DISSENT, lint_phase2
from kernel.text.markdown import parse_document

__all__ = ["detect_phase", "main"]


def detect_phase(text: str) -> int:
    """2 when a structural ``##`` heading names a Phase 2 section, else 1."""
    names = {*PHASE2_ONLY_SECTIONS, DISSENT}
    doc = parse_document(text)
    return 2 if any(b.structural and b.level == 2 and b.title in names for b in doc.blocks) else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser("python -m kernel.lint", "Lint a reviewer's Phase 1 or Phase 2 markdown.")
    parser.add_argument("doc", metavar="DOC", help="the reviewer's markdown document")
    parser.add_argument(
        "--contract", required=True, help="contract JSON path or shipped template name"
    )
    parser.add_argument("--phase1", metavar="P1", help="the reviewer's Phase 1 document")
    parser.add_argument(
        "--phase", type=int, choices=(1, 2), help="phase (detected from the headings if omitted)"
    )
    parser.add_argument(
        "--max-bytes", type=int, default=MAX_INPUT_BYTES, help="input size limit (default 1 MiB)"
    )
    args = parser.parse_args(argv)
    if args.phase == 1 and args.phase1 is not None:
        parser.error("--phase1 is only meaningful for a Phase 2 document")
    if args.max_bytes < 1:
        parser.error("--max-bytes must be positive")
    contract = load_contract(args.contract)
    text = read_text(args.doc, max_bytes=args.max_bytes)
    phase1 = read_text(args.phase1, max_bytes=args.max_bytes) if args.phase1 else None
    phase = args.phase or (2 if args.phase1 is not None else detect_phase(text))
    report = lint_phase1(text, contract) if phase == 1 else lint_phase2(text, contract, phase1)
    if args.format == "json":
        dump_json({"file": args.doc, **report.to_dict()})
    else:
        for f in report.findings:
            message = f.message if f.severity == "error" else f"{f.severity}: {f.message}"
            print(Diagnostic(args.doc, f.code, message, f.line, f.severity))
        verdict = "OK" if report.ok else "FAILED"
        print(f"{args.doc}: phase {phase} lint {verdict}", file=sys.stderr)
    return EXIT_OK if report.ok else EXIT_FAILED


if __name__ == "__main__":
    sys.exit(run(main))
