"""Shared pieces of the benchmark runner: rows, timing, machine description.

Timing: a *batch* runs one implementation over all its inputs ``loops`` times with the garbage
collector off (as :mod:`timeit` does); the reported figure is the median over batches of the
time per call. Implementations compared in one section run interleaved, batch by batch, so a
slow drift of the machine affects them alike.
"""

from __future__ import annotations

import collections
import gc
import importlib.metadata
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeAlias

#: One result line: ``section``, ``case``, ``impl``, ``median_ns`` (per call, or None),
#: ``ratio`` (kernel / this row, or None), ``status`` and ``note``.
Row: TypeAlias = dict[str, Any]

OK = "ok"
NOT_INSTALLED = "not installed"
NOT_AVAILABLE = "not available"
ERROR = "error"
DISAGREES = "disagrees"

#: Distributions whose versions the machine description names.
PACKAGES = (
    "attrs",
    "lark",
    "jsonschema",
    "markdown-it-py",
    "common-expression-language",
    "cel-python",
    "rule-engine",
    "panzi-json-logic",
)


def row(
    section: str,
    case: str,
    impl: str,
    median_ns: float | None = None,
    *,
    status: str = OK,
    note: str = "",
    kernel: bool = False,
) -> Row:
    return {
        "section": section,
        "case": case,
        "impl": impl,
        "kernel": kernel,
        "median_ns": median_ns,
        "ratio": None,
        "status": status,
        "note": note,
    }


def set_ratios(rows: Sequence[Row], kernel_ns: float | None) -> None:
    """Fill ``ratio`` = kernel time / row time for every timed row of one case."""
    if kernel_ns is None:
        return
    for r in rows:
        ns = r["median_ns"]
        if ns and not r["kernel"]:
            r["ratio"] = kernel_ns / ns


#: The clock batches read: wall time by default; ``--clock cpu`` selects this thread's CPU
#: time, steadier on a shared machine (it leaves out time the thread spends descheduled).
CLOCKS: dict[str, Callable[[], int]] = {"wall": time.perf_counter_ns, "cpu": time.thread_time_ns}
clock: Callable[[], int] = time.perf_counter_ns


def _batch(fn: Callable[[Any], object], inputs: Sequence[Any], loops: int) -> float:
    consume = collections.deque[object](maxlen=0).extend
    enabled = gc.isenabled()
    gc.disable()
    try:
        now = clock
        start = now()
        for _ in range(loops):
            consume(map(fn, inputs))
        elapsed = now() - start
    finally:
        if enabled:
            gc.enable()
    return elapsed / (loops * len(inputs))


def compare(
    impls: Sequence[tuple[str, Callable[[Any], object], Sequence[Any]]],
    batches: int,
    target_ns: float,
    budget_ns: float = 10e9,
) -> dict[str, float]:
    """Median per-call nanoseconds of each ``(name, fn, inputs)``, batches interleaved.

    An implementation whose ``batches`` batches would exceed ``budget_ns`` gets fewer (at
    least three).
    """
    loops: dict[str, int] = {}
    rounds: dict[str, int] = {}
    for name, fn, inputs in impls:
        per_pass = _batch(fn, inputs, 1) * len(inputs)
        loops[name] = max(1, round(target_ns / max(per_pass, 1.0)))
        rounds[name] = max(3, min(batches, int(budget_ns / (per_pass * loops[name]))))
    samples: dict[str, list[float]] = {name: [] for name, _, _ in impls}
    for r in range(batches):
        for name, fn, inputs in impls:
            if r < rounds[name]:
                samples[name].append(_batch(fn, inputs, loops[name]))
    return {name: statistics.median(values) for name, values in samples.items()}


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, Any]:
    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    try:
        import kernel

        where = os.path.dirname(kernel.__file__)
        how = "installed package" if "site-packages" in where.split(os.sep) else "source tree"
        kernel_version = f"{kernel.__version__} ({how})"
    except ImportError:
        kernel_version = "not importable"
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "kernel": kernel_version,
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        "packages": versions,
    }


def human(ns: float | None) -> str:
    if ns is None:
        return "-"
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.2f} µs"
    if ns < 1e9:
        return f"{ns / 1e6:.2f} ms"
    seconds = ns / 1e9
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.2f} s"


def target_rows(
    section: str, cases: Sequence[tuple[str, Callable[[], object]]], quick: bool, target_s: float
) -> list[Row]:
    """One row per case: its median wall time (one run when ``quick``, else five), whether it
    finished or was refused (a ``KernelError``), and whether it met ``target_s``."""
    from kernel.errors import KernelError

    rows = []
    for name, fn in cases:
        times = []
        outcome = "finished"
        for _ in range(1 if quick else 5):
            start = time.perf_counter()
            try:
                fn()
            except KernelError:
                outcome = "refused"
            times.append(time.perf_counter() - start)
        seconds = statistics.median(times)
        met = "met" if seconds < target_s else "MISSED"
        note = f"{outcome}; target < {target_s:g} s: {met}"
        rows.append(row(section, name, "kernel", seconds * 1e9, note=note, kernel=True))
    return rows


def target_main(
    run: Callable[[bool], list[Row]], doc: str | None, argv: Sequence[str] | None
) -> int:
    """The command line of a module of target rows: ``--quick``, then one line per row."""
    import argparse

    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--quick", action="store_true", help="one run per row, not five")
    args = parser.parse_args(argv)
    rows = run(args.quick)
    width = max(len(r["case"]) for r in rows)
    for r in rows:
        print(f"{r['case']:<{width}}  {(r['median_ns'] or 0) / 1e6:8.1f} ms  {r['note']}")
    return 0


def medians_main(
    prog: str,
    measure: Callable[[bool], tuple[list[Row], dict[str, float]]],
    argv: Sequence[str] | None,
) -> tuple[bool, dict[str, float]]:
    """The command line of a module that measures medians: ``--quick``, ``--json`` and
    ``--clock``; runs ``measure`` and gives (whether JSON was asked for, the medians)."""
    import argparse

    parser = argparse.ArgumentParser(prog=prog)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="see benchmarks/run.py"
    )
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    return bool(args.json), measure(args.quick)[1]
