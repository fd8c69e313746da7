"""decide() on a compiled reviewer/full contract vs a hand-written function for that contract.

    python benchmarks/bench_decide.py [--quick]

Both are checked to agree on every benchmark matrix before anything is timed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import timeit
from collections.abc import Callable, Mapping, Sequence

from kernel import decide, load_contract
from kernel.ast import SCORES

Matrix = Mapping[str, Sequence[str]]
IDS = ("D1", "D2", "D3", "D4", "D5")


def hand_written(m: Matrix) -> str:
    """reviewer/full written out by hand: the practical floor."""
    d1, d2, d3, d4 = m["D1"], m["D2"], m["D3"], m["D4"]
    f1 = f2 = f3 = f0 = 0
    for j in range(5):
        a, b, c = d1[j], d2[j], d3[j]
        if a == "block" or b == "block" or c == "block":
            f1 += 1
        if (a != "pass") + (b != "pass") + (c != "pass") >= 2:
            f2 += 1
        if d4[j] == "block":
            f3 += 1
        if a == "pass" and b == "pass" and c == "pass":
            f0 += 1
    if f1 >= 1:
        return "editorial_decision=reject_or_major_revision"
    if f2 >= 3 or f3 >= 1:
        return "editorial_decision=major_revision"
    return "editorial_decision=accept"  # F0 fired, or the R5 fallback


def benchmark_matrices(count: int, seed: int = 20261122) -> list[dict[str, list[str]]]:
    rng = random.Random(seed)
    weights = [(0.8, 0.15, 0.05), (0.5, 0.3, 0.2), (0.34, 0.33, 0.33)]
    scores: list[str] = list(SCORES)
    out = []
    for i in range(count):
        w = weights[i % len(weights)]
        out.append({d: rng.choices(scores, weights=w, k=5) for d in IDS})
    return out


def median_per_call(
    fn: Callable[[Matrix], object], matrices: list[dict[str, list[str]]], repeat: int
) -> float:
    def loop() -> None:
        for m in matrices:
            fn(m)

    runs = timeit.repeat(loop, number=1, repeat=repeat)
    return statistics.median(runs) / len(matrices)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    contract = load_contract("reviewer/full")
    matrices = benchmark_matrices(200 if args.quick else 2000)
    for m in matrices:
        if decide(contract, m).action != hand_written(m):
            print(f"DISAGREE on {m}")
            return 1
    outcomes = {decide(contract, m).condition_id for m in matrices}
    repeat = 5 if args.quick else 31
    kernel_s = median_per_call(lambda m: decide(contract, m), matrices, repeat)
    hand_s = median_per_call(hand_written, matrices, repeat)
    print(f"{len(matrices)} matrices, outcomes covered: {sorted(map(str, outcomes))}")
    print(f"decide (compiled reviewer/full)  {kernel_s * 1e6:7.2f} us/decision")
    print(f"hand-written function            {hand_s * 1e6:7.2f} us/decision")
    print(f"ratio kernel / hand-written      {kernel_s / hand_s:7.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
