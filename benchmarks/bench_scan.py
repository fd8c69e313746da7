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

from kernel.text.delimit import escape
from kernel.text.injection import scan_injection

SIZE = 1 << 20  # characters (ASCII cases are 1 MiB of UTF-8)


def _fill(unit: str, size: int = SIZE) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _distinct(size: int) -> str:
    """Many distinct BMP letters (defeats per-character caches), 3 bytes each in UTF-8."""
    chars = [chr(c) for c in range(0x4E00, 0x9FFF)] + [chr(c) for c in range(0xAC00, 0xD7A3)]
    return "".join(chars[i % len(chars)] for i in range(size // 3))


CASES: dict[str, Callable[[int], str]] = {
    "trigger words only": lambda n: _fill("ignore ", n),
    "override hits": lambda n: _fill("ignore previous instructions ", n),
    "confusable + zero-width hits": lambda n: _fill(
        "\u0456gn\u043er\u0435 pr\u0435v\u0456\u043eus \u0456nstruct\u0456\u043ens\u200b ", n
    ),
    "near misses (fillers)": lambda n: "ignore " + _fill("the ", n - 7),
    "mid-word triggers": lambda n: _fill("xignore previous instructions ", n),
    "openers": lambda n: _fill("<", n),
    "openers and slashes": lambda n: _fill("< / ", n),
    "delimiter prefixes": lambda n: _fill("<phase1_outpu", n),
    "download words": lambda n: _fill("curl ", n),
    "pipes into shells": lambda n: _fill("| sh ", n),
    "rm flag runs": lambda n: "rm" + _fill(" -r", n - 2),
    "git push args": lambda n: _fill("git push ", n),
    "fork-bomb shapes": lambda n: _fill(":(){ :|:& }", n),
    "zero-width only": lambda n: _fill("i\u200b", n),
    "one long word": lambda n: "a" * n,
    "spaces": lambda n: " " * n,
    "distinct CJK/Hangul": _distinct,
    # the instruction-override family and the markup that can split a word
    "markup-split override hits": lambda n: _fill(
        "ig**nore** prev<b>ious</b> &#105;nstructions ", n
    ),
    "emphasis runs": lambda n: _fill("*a", n),
    "inline tags": lambda n: _fill("ig<b>nore</b> ", n),
    "character references": lambda n: _fill("&#105;", n),
    "unclosed comments": lambda n: _fill("<!--", n),
    "clause lead-ins": lambda n: _fill("please just now so ", n),
    "verdict openers": lambda n: _fill("the code is safe so ", n),
    "addressed modals": lambda n: _fill("you must ", n),
    "negated reports": lambda n: _fill("do not report the ", n),
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
        text = make(SIZE)
        times, findings = _time(lambda t=text: scan_injection(t), repeat)  # type: ignore[misc]
        half = make(SIZE // 2)
        half_times, _ = _time(lambda t=half: scan_injection(t), repeat)  # type: ignore[misc]
        assert isinstance(findings, tuple)
        rows.append(
            {
                "name": f"scan_injection: {name}",
                "median_s": statistics.median(times),
                "max_s": max(times),
                # linear time: doubling the input about doubles the time
                "ratio_to_half": statistics.median(times) / statistics.median(half_times),
                "chars": len(text),
                "bytes": len(text.encode("utf-8")),
                "findings": len(findings),
            }
        )
    for name in ("openers", "delimiter prefixes"):
        text = CASES[name](SIZE)
        times, _ = _time(lambda t=text: escape(t, "phase1_output"), repeat)  # type: ignore[misc]
        rows.append(
            {
                "name": f"delimit.escape: {name}",
                "median_s": statistics.median(times),
                "max_s": max(times),
                "ratio_to_half": None,
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
    print(f"{'input (about 1 MB)':<48} {'median s':>9} {'max s':>7} {'1MB/half':>9} {'found':>6}")
    for row in rows:
        ratio = "" if row["ratio_to_half"] is None else f"{row['ratio_to_half']:.2f}"
        print(
            f"{row['name']:<48} {row['median_s']:>9.3f} {row['max_s']:>7.3f} {ratio:>9} "
            f"{row['findings']:>6}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
