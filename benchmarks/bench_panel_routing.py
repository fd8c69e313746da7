"""Band shares of challenge routing on 200 generated findings over the code profile.

Usage: ``python benchmarks/bench_panel_routing.py [--json]``. Deterministic (seeded).
``run(quick)`` returns one row per generator (with the time to route the set) for the main
runner.

Generators (originator uniform over the five code specialists in each):

* ``uniform``: the domain is uniform over the distinct domains the code profile lists;
* ``own-domain``: the domain is one of the originator's own primary domains, the case where
  specialists stay in their lane.

Every finding goes to the four specialists other than its originator, so 200 findings make
800 (finding, specialist) pairs. The ``rest`` share is the part of the challenge round that
the hint moves to the back of each queue: the attention a pipeline saves when specialists
work through their primary and adjacent bands first (the seed claims 40-60 %).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kernel.panel import PROFILES, route

SEED = 20260302
N_FINDINGS = 200


def findings(generator: str, n: int = N_FINDINGS, seed: int = SEED) -> list[dict[str, str]]:
    rng = random.Random(seed)
    table = PROFILES["code"]
    codes = list(table)
    domains = sorted({d for s in table.values() for d in (*s.primary, *s.adjacent)})
    out = []
    for i in range(n):
        who = rng.choice(codes)
        domain = rng.choice(domains if generator == "uniform" else table[who].primary)
        out.append({"id": f"F{i + 1}", "originator": who, "domain": domain})
    return out


def shares(generator: str) -> dict[str, Any]:
    result = route(findings(generator), "code")
    pairs = result.pairs
    return {
        "generator": generator,
        "findings": N_FINDINGS,
        "pairs": pairs,
        "bands": dict(result.bands),
        "shares": {band: round(100 * n / pairs, 1) for band, n in result.bands.items()},
    }


def run(quick: bool = False) -> list[dict[str, Any]]:
    rows = []
    for generator in ("uniform", "own-domain"):
        data = findings(generator)
        times = []
        for _ in range(5 if quick else 20):
            start = time.perf_counter()
            route(data, "code")
            times.append(time.perf_counter() - start)
        s = shares(generator)
        rows.append(
            {
                "case": f"route {N_FINDINGS} findings, code profile ({generator} domains)",
                "median_s": statistics.median(times),
                **{f"{band}_pct": pct for band, pct in s["shares"].items()},
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    results = [shares(g) for g in ("uniform", "own-domain")]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"seed {SEED}, {N_FINDINGS} findings, code profile")
    for r in results:
        bands = ", ".join(
            f"{band} {r['bands'][band]} ({r['shares'][band]} %)" for band in r["bands"]
        )
        print(f"{r['generator']:>10}: {bands} of {r['pairs']} pairs")


if __name__ == "__main__":
    main()
