"""Cold start: each command runs in a fresh interpreter, timed from spawn to exit.

The kernel's rows are compared with ``python -c pass`` (the interpreter's own start-up); the
import time of ``kernel`` is also read from ``python -X importtime``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import documents
from timing import ERROR, NOT_AVAILABLE, Row, row

SECTION = "cli"
BASELINE = "interpreter start-up"
LINT = "lint CLI cold start (2 KB Phase 1)"
MATRIX = {
    "D1": ["pass", "warn", "pass", "pass", "pass"],
    "D2": ["pass", "pass", "warn", "pass", "pass"],
    "D3": ["warn", "warn", "warn", "pass", "pass"],
    "D4": ["pass", "pass", "pass", "pass", "block"],
    "D5": ["warn", "pass", "pass", "pass", "pass"],
}


def _runnable(module: str) -> bool:
    """Whether ``python -m module`` has something to run (a module or a package __main__)."""
    try:
        spec = importlib.util.find_spec(module)
        if spec is not None and spec.submodule_search_locations is not None:
            spec = importlib.util.find_spec(module + ".__main__")
    except ImportError:
        return False
    return spec is not None


def _env() -> dict[str, str]:
    """The environment for children: they import the same ``kernel`` as this process."""
    import kernel

    root = str(Path(kernel.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    env.pop("PYTHONSTARTUP", None)
    return env


def _time(argv: Sequence[str], runs: int, env: dict[str, str], cwd: str) -> tuple[float, int]:
    """Median wall-clock nanoseconds of ``runs`` runs (after one warm-up) and the exit code."""
    code = 0
    samples: list[float] = []
    for i in range(runs + 1):
        start = time.perf_counter_ns()
        done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, check=False)
        elapsed = time.perf_counter_ns() - start
        code = done.returncode
        if code not in (0, 1):
            raise RuntimeError(f"{' '.join(argv)} exited {code}: {done.stderr.decode()[-300:]}")
        if i:
            samples.append(elapsed)
    return statistics.median(samples), code


def import_time_us(env: dict[str, str], cwd: str, module: str, runs: int) -> float:
    """Median cumulative import time of ``module`` from ``-X importtime``, in microseconds."""
    values = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        )
        for line in done.stderr.splitlines():
            parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
            if len(parts) == 3 and parts[2] == module:
                values.append(float(parts[1]))
    return statistics.median(values)


def run(quick: bool) -> list[Row]:
    runs = 2 if quick else 21
    env = _env()
    py = sys.executable
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        doc = Path(tmp, "reviewer_1.md")
        doc.write_text(documents.phase1(2_000), encoding="utf-8")
        matrix = Path(tmp, "matrix.json")
        matrix.write_text(json.dumps(MATRIX), encoding="utf-8")
        commands: list[tuple[str, list[str], bool]] = [
            (BASELINE, [py, "-c", "pass"], False),
            ("import kernel, cold", [py, "-c", "import kernel"], True),
        ]
        for label, module, args in (
            (LINT, "kernel.lint", [doc.name, "--contract", "reviewer/full"]),
            ("check CLI cold start", "kernel.check", ["reviewer/full"]),
            (
                "decide CLI cold start",
                "kernel.decide",
                ["--contract", "reviewer/full", "--matrix", matrix.name],
            ),
        ):
            if _runnable(module):
                commands.append((label, [py, "-m", module, *args], True))
            else:
                rows.append(row(SECTION, label, label, status=NOT_AVAILABLE, kernel=True))
        measured: list[Row] = []
        for label, argv, is_kernel in commands:
            try:
                ns, code = _time(argv, runs, env, tmp)
            except (OSError, RuntimeError) as e:
                rows.append(row(SECTION, label, label, status=ERROR, note=str(e), kernel=True))
                continue
            note = f"exit {code}" if is_kernel else "interpreter start-up"
            command = " ".join(["python", *argv[1:]])
            measured.append(row(SECTION, label, command, ns, note=note, kernel=is_kernel))
        base = next((r for r in measured if r["case"] == BASELINE), None)
        for r in measured:
            if base is not None and r is not base:
                r["ratio"] = r["median_ns"] / base["median_ns"]
                r["note"] += f"; +{(r['median_ns'] - base['median_ns']) / 1e6:.1f} ms over pass"
        for module in ("kernel", "kernel.decision.decision"):
            case = f"import {module}, in-process"
            impl = f"python -X importtime -c 'import {module}'"
            try:
                import_ns = import_time_us(env, tmp, module, runs) * 1e3
            except (subprocess.CalledProcessError, statistics.StatisticsError) as e:
                rows.append(row(SECTION, case, impl, status=ERROR, note=str(e), kernel=True))
                continue
            note = "cumulative import time"
            measured.append(row(SECTION, case, impl, import_ns, note=note, kernel=True))
    return measured + rows
