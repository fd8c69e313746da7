"""A 1 MiB contract built to be slow: loading it, its first and tenth decision, and the
``check`` and ``decide --matrix`` commands on it; and the dialect 13.2 contracts built to be
slow to decide (many atoms, many dimensions, 1 MiB) with the size of the printed trace.

The contract (:func:`benchmarks.contracts.one_mebibyte`) has 99 dimensions, a panel of 9 and
100 conditions, each one atom repeated up to the expression limit: identical atoms and
conjunctions are merged before code is generated, and an expression text is parsed once.
Each figure is one cold run (a fresh contract object; the commands in a fresh interpreter),
the median of a few samples. Target: each well under 5 s.

Usage: ``python -m benchmarks.bench_big_contract [--quick]``; ``run(quick)`` gives the rows to
``benchmarks/run.py`` (section ``big_contract``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import kernel
from benchmarks.contracts import one_mebibyte, v2_many_atoms, v2_one_mebibyte
from benchmarks.timing import Row, human, row

SECTION = "big_contract"
#: Every figure of the section must stay under this (seconds).
TARGET_S = 5.0


def _median_s(samples: int, once: Callable[[], object]) -> float:
    times = []
    for _ in range(samples):
        begun = time.perf_counter()
        once()
        times.append(time.perf_counter() - begun)
    return statistics.median(times)


def _command(argv: list[str]) -> Callable[[], None]:
    def once() -> None:
        done = subprocess.run(
            [sys.executable, "-m", "kernel", *argv], capture_output=True, check=False
        )
        if done.returncode != 0:
            raise AssertionError(
                f"kernel {argv[0]} exited {done.returncode}: {done.stderr[-300:]!r}"
            )

    return once


def measure(quick: bool) -> dict[str, float]:
    """Seconds per step, each the median of a few cold samples."""
    samples = 1 if quick else 3
    document = one_mebibyte()
    text = json.dumps(document)
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "one_mebibyte.json"
        path.write_text(text, "utf-8")
        contract = kernel.load_contract(path)
        matrix = {
            d: ["pass", "warn", "pass", "block", "pass", "pass", "warn", "pass", "pass"]
            for d in contract.dimension_ids
        }
        matrix_path = Path(tmp) / "matrix.json"
        matrix_path.write_text(json.dumps(matrix), "utf-8")
        want = kernel.decide(contract, matrix)

        figures["load_contract (1 MiB file)"] = _median_s(
            samples, lambda: kernel.load_contract(path)
        )

        def decisions(count: int) -> Callable[[], None]:
            def once() -> None:
                fresh = kernel.load_contract(path)
                for _ in range(count - 1):
                    kernel.decide(fresh, matrix)
                begun = time.perf_counter()
                got = kernel.decide(fresh, matrix)
                figures_step.append(time.perf_counter() - begun)
                if got != want:
                    raise AssertionError("the big contract's decisions disagree")

            return once

        for count, name in (
            (1, "first decision"),
            (2, "second decision (generates code)"),
            (10, "tenth decision"),
        ):
            figures_step: list[float] = []
            for _ in range(samples):
                decisions(count)()
            figures[name] = statistics.median(figures_step)
        figures["sprint-kernel check (fresh process)"] = _median_s(
            samples, _command(["check", str(path)])
        )
        figures["sprint-kernel decide --matrix (fresh process)"] = _median_s(
            samples, _command(["decide", "--contract", str(path), "--matrix", str(matrix_path)])
        )
    return figures


def measure_13_2(quick: bool) -> tuple[dict[str, float], dict[str, int]]:
    """The 13.2 contracts that were slow to decide (issue 30): seconds per step, and the
    size of the 1 MiB contract's trace as the command prints it."""
    samples = 1 if quick else 3
    figures: dict[str, float] = {}
    sizes: dict[str, int] = {}

    def all_of(contract: kernel.Contract, value: str) -> dict[str, dict[str, str]]:
        return {d.id: dict.fromkeys(d.eligible_roles, value) for d in contract.dimensions}

    ten = v2_many_atoms(10, 1)
    figures["13.2, 10 dims, one condition of 225 atoms (12 KB): decide_many of 2"] = _median_s(
        samples,
        lambda: kernel.decide_many(
            kernel.load_contract(ten), [all_of(kernel.load_contract(ten), "warn")] * 2
        ),
    )
    wide = v2_many_atoms(99, 4)
    steps: list[float] = []

    def second() -> None:
        fresh = kernel.load_contract(wide)
        matrix = all_of(fresh, "warn")
        kernel.decide(fresh, matrix)
        begun = time.perf_counter()
        kernel.decide(fresh, matrix)
        steps.append(time.perf_counter() - begun)

    for _ in range(samples):
        second()
    figures["13.2, 99 dims, 4 conditions of 225 atoms (60 KB): second decision"] = (
        statistics.median(steps)
    )
    with tempfile.TemporaryDirectory() as tmp:
        for repeated, kind in ((False, "distinct atoms"), (True, "wide atoms repeated")):
            path = Path(tmp) / f"v2_one_mebibyte_{repeated}.json"
            path.write_text(json.dumps(v2_one_mebibyte(wide=repeated)), "utf-8")
            contract = kernel.load_contract(path)
            matrix_path = Path(tmp) / "matrix.json"
            matrix_path.write_text(json.dumps(all_of(contract, "warn")), "utf-8")
            argv = ["decide", "--contract", str(path), "--matrix", str(matrix_path)]
            name = f"13.2 1 MiB contract, {kind}: decide --matrix (fresh process)"
            figures[name] = _median_s(samples, _command(argv))
            done = subprocess.run(
                [sys.executable, "-m", "kernel", *argv], capture_output=True, check=False
            )
            sizes[name] = done.stdout.count(b"\n")
    return figures, sizes


def run(quick: bool) -> list[Row]:
    figures = measure(quick)
    case = f"1 MiB contract: 99 dimensions, panel 9, 100 conditions (target < {TARGET_S:g} s each)"
    rows = [
        row(
            SECTION,
            case,
            name,
            seconds * 1e9,
            kernel=True,
            note="met" if seconds < TARGET_S else f"MISSED: over {TARGET_S:g} s",
        )
        for name, seconds in figures.items()
    ]
    found, sizes = measure_13_2(quick)
    case = f"13.2 contracts built to be slow (target < {TARGET_S:g} s each)"
    rows += [
        row(
            SECTION,
            case,
            name,
            seconds * 1e9,
            kernel=True,
            note=("met" if seconds < TARGET_S else f"MISSED: over {TARGET_S:g} s")
            + (f"; {sizes[name]:,} lines printed" if name in sizes else ""),
        )
        for name, seconds in found.items()
    ]
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_big_contract")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    found, sizes = measure_13_2(args.quick)
    for name, seconds in {**measure(args.quick), **found}.items():
        print(
            f"{name:<48} {human(seconds * 1e9):>10}  ({'met' if seconds < TARGET_S else 'MISSED'})"
        )
    for name, size in sizes.items():
        print(f"{name:<48} {size:>10,} lines printed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
