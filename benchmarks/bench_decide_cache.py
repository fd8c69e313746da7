"""Repeated and batch decisions: ``decide`` on a mapping and on a template name against
``decide`` on a compiled contract, and ``decide_many`` against a loop of ``decide``.

Usage: ``python benchmarks/bench_decide_cache.py [--quick] [--json]``; ``run(quick)`` gives the
rows to ``benchmarks/run.py`` (section ``decide_cache``).

Targets: decide on a mapping ≤ 30x decide on the compiled contract; on a template name ≤ 5x.
Every variant must return the same decisions as the compiled contract before anything is timed.
The mapping is the ``reviewer/full`` template as a dict (one object, decided on again and
again, as an orchestrator that keeps its contract dict would); its cache key,
``marshal.dumps(dict, 2)``, is measured separately as "key cost".
"""

from __future__ import annotations

import functools
import json
import marshal
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

import kernel
from benchmarks import timing
from benchmarks.timing import Row, compare, human, row

SECTION = "decide_cache"
SEED = 20260501
SCORES = ("pass", "warn", "block")
#: Section targets: (numerator impl, denominator impl, bound, wording).
TARGETS = (
    ("decide(dict)", "decide(Contract)", 30.0, "decide on a mapping ≤ 30x decide on a Contract"),
    ("decide(name)", "decide(Contract)", 5.0, "decide on a template name ≤ 5x on a Contract"),
)


def _matrices(count: int) -> list[dict[str, list[str]]]:
    rng = random.Random(SEED)
    out = []
    for _ in range(count):
        p_warn = rng.choice((0.0, 0.1, 0.3, 0.6))
        p_block = rng.choice((0.0, 0.0, 0.05, 0.2))
        weights = (1 - p_warn - p_block, p_warn, p_block)
        out.append({d: rng.choices(SCORES, weights, k=5) for d in ("D1", "D2", "D3", "D4", "D5")})
    return out


def measure(quick: bool) -> tuple[list[Row], dict[str, float]]:
    contract = kernel.load_contract("reviewer/full")
    document = kernel.shipped_template("reviewer/full")
    ms = _matrices(200 if quick else 1000)
    want = [kernel.decide(contract, m) for m in ms]
    decide, decide_many = kernel.decide, kernel.decide_many

    per_matrix: list[tuple[str, Callable[[Any], object], Sequence[Any]]] = [
        ("decide(Contract)", functools.partial(decide, contract), ms),
        ("decide(dict)", functools.partial(decide, document), ms),
        ("decide(name)", functools.partial(decide, "reviewer/full"), ms),
        ("key cost: marshal.dumps(dict, 2)", lambda m: marshal.dumps(document, 2), ms),
    ]
    for name, fn, _ in per_matrix[:3]:
        got = [fn(m) for m in ms]
        if got != want:
            raise AssertionError(f"{name} disagrees with decide on the compiled contract")
    if decide_many(contract, ms) != want:
        raise AssertionError("decide_many disagrees with a loop of decide")

    batches = 7 if quick else 21
    target = 2e6 if quick else 2e7
    single = compare(per_matrix, batches=batches, target_ns=target)
    whole = compare(
        [
            ("loop of decide(Contract, m)", lambda xs: [decide(contract, m) for m in xs], [ms]),
            ("decide_many(Contract, ms)", lambda xs: decide_many(contract, xs), [ms]),
        ],
        batches=batches,
        target_ns=target,
    )
    medians = dict(single)
    medians.update({k: v / len(ms) for k, v in whole.items()})
    base = medians["decide(Contract)"]
    case = f"reviewer/full, {len(ms)} matrices"
    rows = [
        row(
            SECTION,
            case,
            name,
            ns,
            note=f"{ns / base:.2f}x decide(Contract)",
            kernel=name.startswith(("decide", "loop")),
        )
        for name, ns in medians.items()
    ]
    return rows, medians


def run(quick: bool) -> list[Row]:
    return measure(quick)[0]


def main(argv: Sequence[str] | None = None) -> int:
    as_json, medians = timing.medians_main("benchmarks/bench_decide_cache.py", measure, argv)
    loop, many = medians["loop of decide(Contract, m)"], medians["decide_many(Contract, ms)"]
    results = [
        {
            "target": text,
            "ratio": medians[num] / medians[den],
            "met": medians[num] / medians[den] <= bound,
        }
        for num, den, bound, text in TARGETS
    ]
    throughput = {
        "loop of decide, matrices/s": 1e9 / loop,
        "decide_many, matrices/s": 1e9 / many,
        "decide_many speed-up": loop / many,
    }
    if as_json:
        print(json.dumps({"medians_ns": medians, "targets": results, **throughput}, indent=2))
        return 0
    for name, ns in medians.items():
        print(f"{name:<30} {human(ns):>10} per decision")
    for r in results:
        print(f"{r['target']}: {r['ratio']:.2f}x ({'met' if r['met'] else 'MISSED'})")
    print(
        f"decide_many: {throughput['decide_many, matrices/s']:,.0f} matrices/s, a loop of "
        f"decide: {throughput['loop of decide, matrices/s']:,.0f} matrices/s "
        f"({throughput['decide_many speed-up']:.2f}x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
