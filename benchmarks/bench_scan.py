"""Time ``scan_injection`` (and the delimiter escaper) on 1 MB adversarial inputs.

Usage: ``python benchmarks/bench_scan.py [--quick] [--json]``. ``run(quick)`` returns the
rows (``name``, ``median_s``, ``max_s``, ``chars``, ``findings``) for the main runner.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kernel.delimit import escape
from kernel.injection import scan_injection

SIZE = 1 << 20  # characters (ASCII cases are 1 MiB of UTF-8)


def _fill(unit: str, size: int = SIZE) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _distinct(size: int) -> str:
    """Many distinct BMP letters (defeats per-character caches), 3 bytes each in UTF-8."""
    chars = [chr(c) for c in range(0x4E00, 0x9FFF)] + [chr(c) for c in range(0xAC00, 0xD7A3)]
    return "".join(chars[i % len(chars)] for i in range(size // 3))


CASES: dict[str, Callable[[], str]] = {
    "trigger words only": lambda: _fill("ignore "),
    "override hits": lambda: _fill("ignore previous instructions "),
    "confusable + zero-width hits": lambda: _fill(
        "\u0456gn\u043er\u0435 pr\u0435v\u0456\u043eus \u0456nstruct\u0456\u043ens\u200b "
    ),
    "near misses (fillers)": lambda: "ignore " + _fill("the "),
    "mid-word triggers": lambda: _fill("xignore previous instructions "),
    "openers": lambda: _fill("<"),
    "openers and slashes": lambda: _fill("< / "),
    "delimiter prefixes": lambda: _fill("<phase1_outpu"),
    "download words": lambda: _fill("curl "),
    "pipes into shells": lambda: _fill("| sh "),
    "rm flag runs": lambda: "rm" + _fill(" -r"),
    "git push args": lambda: _fill("git push "),
    "fork-bomb shapes": lambda: _fill(":(){ :|:& }"),
    "zero-width only": lambda: _fill("i\u200b"),
    "one long word": lambda: "a" * SIZE,
    "spaces": lambda: " " * SIZE,
    "distinct CJK/Hangul": lambda: _distinct(SIZE),
}


def _time(fn: Callable[[], object], repeat: int) -> tuple[list[float], object]:
    times: list[float] = []
    result: object = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def run(quick: bool = False) -> list[dict[str, Any]]:
    """One row per adversarial input: median and max seconds over several runs."""
    repeat = 3 if quick else 7
    rows: list[dict[str, Any]] = []
    for name, make in CASES.items():
        text = make()
        times, findings = _time(lambda t=text: scan_injection(t), repeat)  # type: ignore[misc]
        assert isinstance(findings, tuple)
        rows.append(
            {
                "name": f"scan_injection: {name}",
                "median_s": statistics.median(times),
                "max_s": max(times),
                "chars": len(text),
                "bytes": len(text.encode("utf-8")),
                "findings": len(findings),
            }
        )
    for name in ("openers", "delimiter prefixes"):
        text = CASES[name]()
        times, _ = _time(lambda t=text: escape(t, "phase1_output"), repeat)  # type: ignore[misc]
        rows.append(
            {
                "name": f"delimit.escape: {name}",
                "median_s": statistics.median(times),
                "max_s": max(times),
                "chars": len(text),
                "bytes": len(text.encode("utf-8")),
                "findings": 0,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    rows = run(args.quick)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'input (about 1 MB)':<52} {'median s':>9} {'max s':>8} {'findings':>9}")
    for row in rows:
        print(
            f"{row['name']:<52} {row['median_s']:>9.3f} {row['max_s']:>8.3f} {row['findings']:>9}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
