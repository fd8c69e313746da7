"""``python -m kernel.re_review``: a drop-in for upstream's re-review checker, for ARS
orchestrators. It takes upstream's flags and answers as upstream does: exit 0 and ``re-review
synthesis ok: …``; exit 1, the abort tag and a ``MISMATCH:`` line per error; exit 2, the abort
tag and one ``FAIL:`` line. Notes go to standard error (not on exit 2). ``sprint-kernel
re-review`` is the kernel's own command (its exit codes, formats and configuration).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m kernel.re_review",
        description="Check a re-review synthesis (upstream's flags and graded exit codes: "
        "0 ok, 1 synthesis mismatch, 2 a layer failed).",
    )
    for flag in ("--manifest", "--precommitment", "--verdict-record", "--traceability"):
        parser.add_argument(flag, required=True)
    parser.add_argument("--roadmap", required=True)
    parser.add_argument("--letter", default=None)
    parser.add_argument("--apply-report", action="append", default=[], dest="apply_reports")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from kernel.errors import KernelError
    from kernel.re_review.check import check_re_review
    from kernel.re_review.load import load_re_review
    from kernel.re_review.model import abort_tag

    args = _parser().parse_args(argv)
    try:
        bundle = load_re_review(
            manifest=args.manifest,
            precommitment=args.precommitment,
            verdict_record=args.verdict_record,
            traceability=args.traceability,
            roadmap=args.roadmap,
            letter=args.letter,
            apply_reports=list(args.apply_reports),
        )
        report = check_re_review(bundle)
    except KernelError as exc:
        print(abort_tag("manifest_incomplete"))
        print(f"FAIL: {exc.message}")
        return 2
    errors = [d for d in report.diagnostics if d.severity == "error"]
    notes = [d for d in report.diagnostics if d.severity != "error"]
    if report.grade == 2:
        print(report.tag)
        first = errors[0] if errors else None
        print(f"FAIL: {first.message if first is not None else report.abort_reason}")
        return 2
    for note in notes:
        print(note.message, file=sys.stderr)
    if report.grade == 1:
        print(report.tag)
        for d in errors:
            print(f"MISMATCH: {d.message}")
        return 1
    state = report.decision_state
    print(
        f"re-review synthesis ok: round {report.round_id!r}, revision {report.revision}, "
        f"decision_state {state!r}, apply_chain_witness {report.witness!r}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
