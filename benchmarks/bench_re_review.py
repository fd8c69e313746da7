"""Re-review bundles of 10, 100 and 1,000 roadmap items: ``check_re_review`` (every layer,
the hash chain and the decision, from documents already read), ``decide_re_review`` and
``decide_records`` (Steps 1-3 on the raw records alone).

Usage: ``python benchmarks/bench_re_review.py [--quick] [--json]``; ``run(quick)`` gives the
rows to ``benchmarks/run.py`` (section ``re_review``). Target: a 1,000-item bundle checked in
under 0.5 s. The bundles are sealed by ``kernel.re_review.seal`` from the test suite's
builder (tests/support/re_review_bundles.py); each must check clean before it is timed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from benchmarks import timing
from benchmarks.timing import Row, compare, human, row

SECTION = "re_review"
SIZES = (10, 100, 1000)
TARGET_NS = 0.5e9


def _bundles(sizes: Sequence[int]) -> dict[int, Any]:
    from benchmarks.re_review_bundles import build, sized

    return {n: build(sized(n)) for n in sizes}


def measure(quick: bool) -> tuple[list[Row], dict[str, float]]:
    import json as _json

    from kernel.re_review.check import check_re_review
    from kernel.re_review.decide import decide_re_review
    from kernel.re_review.load import load_re_review

    medians: dict[str, float] = {}
    rows: list[Row] = []
    for n, sealed in _bundles(SIZES[:2] if quick else SIZES).items():
        inputs = sealed.inputs
        bundle = load_re_review(
            manifest=sealed.manifest,
            precommitment=sealed.precommitment,
            verdict_record=sealed.verdict_record,
            traceability=sealed.traceability,
            roadmap=inputs["roadmap.json"],
            letter=inputs.get("decision_letter.md"),
            apply_reports=[inputs[k] for k in sorted(inputs) if k.startswith("apply_report_")],
        )
        report = check_re_review(bundle)
        if report.grade != 0:
            raise AssertionError(f"{n}-item bundle does not check: {report.diagnostics[:3]}")
        items = _json.loads(inputs["roadmap.json"])["items"]
        vr, tr = sealed.verdict_record, sealed.traceability
        witness = tr["decision_inputs"]["apply_chain_witness"]
        found = compare(
            [
                (f"check_re_review ({n} items)", check_re_review, [bundle]),
                (f"decide_re_review ({n} items)", decide_re_review, [bundle]),
                (f"decide_records ({n} items)", _records, [(items, vr, tr, witness)]),
            ],
            batches=5 if quick else 11,
            target_ns=2e7 if quick else 1e8,
        )
        medians.update(found)
        check = found[f"check_re_review ({n} items)"]
        for name, ns in found.items():
            note = f"{ns / check:.2f}x check"
            if name.startswith("check") and n == 1000:
                note += f"; target < 0.5 s: {'met' if ns < TARGET_NS else 'missed'}"
            rows.append(row(SECTION, f"{n} items", name, ns, note=note, kernel=True))
    return rows, medians


def _records(args: tuple[Any, Any, Any, str]) -> object:
    from kernel.re_review.decision import decide_records

    return decide_records(*args)


def run(quick: bool) -> list[Row]:
    return measure(quick)[0]


def main(argv: Sequence[str] | None = None) -> int:
    as_json, medians = timing.medians_main("benchmarks/bench_re_review.py", measure, argv)
    if as_json:
        print(json.dumps({"medians_ns": medians}, indent=2))
        return 0
    for name, ns in medians.items():
        print(f"{name:<34} {human(ns)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
