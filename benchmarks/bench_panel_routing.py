"""Band shares of challenge routing on 200 generated findings over the code profile.

Deterministic (seeded). One row per generator: the time to route the set, with the band
shares in the note (``python -m benchmarks.run --only panel_routing``).

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

import random
import statistics
import time
from typing import Any

from benchmarks.timing import Row, row
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


def run(quick: bool) -> list[Row]:
    rows = []
    for generator in ("uniform", "own-domain"):
        data = findings(generator)
        times = []
        for _ in range(5 if quick else 20):
            start = time.perf_counter_ns()
            route(data, "code")
            times.append(time.perf_counter_ns() - start)
        s = shares(generator)
        bands = ", ".join(
            f"{band} {s['bands'][band]} ({pct} %)" for band, pct in s["shares"].items()
        )
        case = f"route {N_FINDINGS} findings, code profile ({generator} domains)"
        note = f"{bands} of {s['pairs']} pairs (seed {SEED})"
        rows.append(
            row("panel_routing", case, "kernel", statistics.median(times), note=note, kernel=True)
        )
    return rows
