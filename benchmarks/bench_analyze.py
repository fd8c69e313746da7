"""Decision-space analysis: reviewer/full and generated 10-dimension, panel-7, 5-condition
contracts (3**70 matrices each).

    python benchmarks/bench_analyze.py [--quick]

Targets (issue 4): reviewer/full under 0.5 s; the 10-dimension contracts under 5 s.
Each row is the median wall time of a whole ``analyze`` (or ``probabilities``) call on an
already loaded contract.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

try:
    import kernel  # noqa: F401
except ImportError:  # run from a source tree
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kernel.analysis import analyze, parse_prior, probabilities
from kernel.contract.model import Contract, load_contract
from kernel.contract.templates import shipped_template

#: (expression, action) of the five generated conditions, most severe first.
CONDITIONS = (
    ("any mandatory dimension scores 'block'", "reject"),
    ("two or more mandatory dimensions score 'warn' or worse", "major_revision"),
    ("any high-priority dimension scores 'block' AND D8 scores 'warn'", "major_revision"),
    ("two or more normal-priority dimensions score 'warn' or worse", "minor_revision"),
    ("every mandatory dimension scores 'pass'", "accept"),
)
#: The same shape with every dimension named by id: no two dimensions are interchangeable, so
#: all 3**10 reviewer columns are enumerated (the worst case for 10 dimensions).
NAMED_CONDITIONS = (
    ("D1 scores 'block' AND D2 scores 'block'", "reject"),
    ("D2 scores 'warn' AND D3 scores 'warn'", "major_revision"),
    ("D4 scores 'block' AND D5 scores 'warn'", "major_revision"),
    ("D6 scores 'warn' AND D7 scores 'warn' AND D8 scores 'block'", "minor_revision"),
    ("D9 scores 'pass' AND D10 scores 'pass'", "accept"),
)
#: Quantifier mixes; "all" everywhere is the largest state space ((7 + 1) ** 5 count vectors).
MIXES = {
    "mixed": ("any", "majority", "any", "majority", "all"),
    "all": ("all",) * 5,
    "majority": ("majority",) * 5,
}


def ten_dimension_contract(quantifiers: Sequence[str], named: bool = False) -> Any:
    """10 dimensions (4 mandatory, 3 high, 3 normal), panel 7, 5 conditions."""
    data = dict(shipped_template("reviewer/full"))
    priorities = ["mandatory"] * 4 + ["high"] * 3 + ["normal"] * 3
    data["acceptance_dimensions"] = [
        {"id": f"D{i + 1}", "name": f"dimension_{i + 1}", "description": "d", "priority": p}
        for i, p in enumerate(priorities)
    ]
    data["panel_size"] = 7
    data["failure_conditions"] = [
        {
            "condition_id": f"F{i + 1}",
            "severity": 90 - 10 * i,
            "expression": expression,
            "cross_reviewer_quantifier": q,
            "action": f"editorial_decision={action}",
        }
        for i, ((expression, action), q) in enumerate(
            zip(NAMED_CONDITIONS if named else CONDITIONS, quantifiers, strict=True)
        )
    ]
    return data


def _median(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(quick: bool) -> list[dict[str, Any]]:
    repeat = 3 if quick else 9
    cases: list[tuple[str, Contract, float, bool]] = [
        ("analyze reviewer/full (5 dims, panel 5)", load_contract("reviewer/full"), 0.5, False)
    ]
    for name, mix in MIXES.items():
        cases.append(
            (
                f"analyze 10 dims, panel 7, 5 conditions ({name})",
                load_contract(ten_dimension_contract(mix)),
                5.0,
                False,
            )
        )
    cases.append(
        (
            "analyze 10 dims, panel 7, 5 conditions (all, every dimension named)",
            load_contract(ten_dimension_contract(MIXES["all"], named=True)),
            5.0,
            False,
        )
    )
    cases.append(
        (
            "probabilities 10 dims, panel 7, 5 conditions (mixed)",
            load_contract(ten_dimension_contract(MIXES["mixed"])),
            5.0,
            True,
        )
    )
    prior = parse_prior("pass=0.7,warn=0.2,block=0.1")
    rows = []
    for name, contract, target, weighted in cases:
        if weighted:
            seconds = _median(lambda c=contract: probabilities(c, prior), repeat)  # type: ignore[misc]
        else:
            seconds = _median(lambda c=contract: analyze(c), repeat)  # type: ignore[misc]
        a = analyze(contract)
        rows.append(
            {
                "name": name,
                "median_s": seconds,
                "target_s": target,
                "met": seconds < target,
                "space": f"3^{a.dimensions * a.panel_size}",
                "monotone": a.monotone,
            }
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    rows = run(args.quick)
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        mark = "ok" if r["met"] else "MISSED"
        print(
            f"{r['name']:<{width}}  {r['median_s'] * 1000:8.1f} ms  "
            f"(target < {r['target_s']:g} s: {mark})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
