"""Cold start: each command runs in a fresh interpreter, timed from spawn to exit.

Every command line of the kernel runs once per sample on a shipped template (reviewer/full)
or a shipped example, next to ``python -c pass`` (the interpreter's own start-up), run after
run in the same loop. With ``--clock cpu`` a sample is the child's CPU time (user + system,
from ``wait4``) instead of the wall clock: steadier on a busy machine. The import time of
``kernel`` and of the decision module is also read from ``python -X importtime``. Children
keep compiled bytecode, as an installed package has it: a warm-up round writes it.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks import documents, timing
from benchmarks.timing import ERROR, NOT_AVAILABLE, Row, row

SECTION = "cli"
BASELINE = "interpreter start-up"
#: What a command cannot start without: the libraries it imports, timed on their own.
FLOORS = {
    "floor: attrs, argparse, json (every command)": "import attrs, argparse, json",
    "floor: + markdown-it-py (lint; consensus parse of a fenced reply)": (
        "import attrs, argparse, json, markdown_it"
    ),
}
#: The floor each command stands on: the markdown-it-py floor for the commands that read
#: CommonMark at start (the lint; consensus parse of a fenced reply), else the first.
MARKDOWN_COMMANDS = ("lint ", "consensus ")
#: Prefix of the rows that give a command's own share of its cold start.
SHARE = "kernel's share above its floor: "

#: The repository's examples (CI copies them next to the benchmarks).
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MATRIX = {
    "D1": ["pass", "warn", "pass", "pass", "pass"],
    "D2": ["pass", "pass", "warn", "pass", "pass"],
    "D3": ["warn", "warn", "warn", "pass", "pass"],
    "D4": ["pass", "pass", "pass", "pass", "block"],
    "D5": ["warn", "pass", "pass", "pass", "pass"],
}


def _env(tmp: str) -> dict[str, str]:
    """The environment for children: they import the same ``kernel`` as this process, and
    keep compiled bytecode (in a cache under ``tmp``, written by the warm-up round) as an
    installed package does, whatever ``PYTHONDONTWRITEBYTECODE`` says here."""
    import kernel

    root = str(Path(kernel.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    env.pop("PYTHONSTARTUP", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
    return env


def _sample(argv: Sequence[str], env: dict[str, str], cwd: str) -> tuple[float, int]:
    """Nanoseconds of one run (wall, or the child's CPU time under ``--clock cpu``), and its
    exit code."""
    start = time.perf_counter_ns()
    child = subprocess.Popen(
        argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter_ns() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    child.stderr.close()
    if child.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)} exited {child.returncode}: {err.decode()[-300:]}")
    cpu = (usage.ru_utime + usage.ru_stime) * 1e9
    return (cpu if timing.clock is timing.CLOCKS["cpu"] else wall), child.returncode


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


def commands(tmp: Path) -> list[tuple[str, list[str]]]:
    """(label, arguments after ``python``) for the baseline and every command line."""
    doc = tmp / "reviewer_1.md"
    doc.write_text(documents.phase1(2_000), encoding="utf-8")
    matrix = tmp / "matrix.json"
    matrix.write_text(json.dumps(MATRIX), encoding="utf-8")
    out: list[tuple[str, list[str]]] = [
        (BASELINE, ["-c", "pass"]),
        *((label, ["-c", code]) for label, code in FLOORS.items()),
        ("import kernel, cold", ["-c", "import kernel"]),
        ("check CLI cold start", ["-m", "kernel.check", "reviewer/full"]),
        (
            "decide CLI cold start",
            ["-m", "kernel.decide", "--contract", "reviewer/full", "--matrix", str(matrix)],
        ),
        (
            "lint CLI cold start (2 KB Phase 1)",
            ["-m", "kernel.lint", str(doc), "--contract", "reviewer/full"],
        ),
        ("analyze CLI cold start", ["-m", "kernel.analyze", "reviewer/full"]),
    ]
    for label, args, example in (
        ("arena CLI cold start (verdict)", ["verdict"], "arena/review.md"),
        (
            "consensus CLI cold start (parse)",
            ["parse", "--kind", "critique"],
            "consensus/critique.txt",
        ),
        ("panel CLI cold start (resolve)", ["resolve"], "panel/votes.json"),
    ):
        module = "kernel." + label.split()[0]
        out.append((label, ["-m", module, *args, str(EXAMPLES / example)]))
    return out


def shares(measured: Sequence[Row], base: Row | None) -> list[Row]:
    """For each command line, what the kernel itself adds to its cold start: the command's
    time less the time of importing the libraries it stands on, in ``python -c pass``
    units. That is the figure the cold-start target bounds; the libraries' own import time
    is theirs, and no change to the kernel can lower it."""
    floors = {r["case"]: r for r in measured if r["case"] in FLOORS}
    plain, markdown = (floors.get(label) for label in FLOORS)
    out: list[Row] = []
    for r in measured:
        if base is None or not r["kernel"] or "CLI cold start" not in r["case"]:
            continue
        floor = markdown if r["case"].startswith(MARKDOWN_COMMANDS) else plain
        if floor is None or r["median_ns"] is None or floor["median_ns"] is None:
            continue
        own = r["median_ns"] - floor["median_ns"]
        share = row(
            SECTION,
            r["case"],
            SHARE + r["impl"],
            own,
            note=f"above '{floor['case'].removeprefix('floor: ')}'",
            kernel=True,
        )
        share["ratio"] = own / base["median_ns"]
        out.append(share)
    return out


def run(quick: bool) -> list[Row]:
    runs = 3 if quick else 21
    py = sys.executable
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(tmp)
        todo = []
        for label, args in commands(Path(tmp)):
            missing = [a for a in args if a.startswith(str(EXAMPLES)) and not Path(a).is_file()]
            if missing:
                rows.append(row(SECTION, label, label, status=NOT_AVAILABLE, note=missing[0]))
            else:
                todo.append((label, [py, *args]))
        samples: dict[str, list[float]] = {label: [] for label, _ in todo}
        codes: dict[str, int] = {}
        failed: dict[str, str] = {}
        # Interleaved, after one warm-up round: a drift of the machine affects every command.
        for i in range(runs + 1):
            for label, argv in todo:
                if label in failed:
                    continue
                try:
                    ns, codes[label] = _sample(argv, env, tmp)
                except (OSError, RuntimeError) as e:
                    failed[label] = str(e)
                    continue
                if i:
                    samples[label].append(ns)
        measured: list[Row] = []
        for label, argv in todo:
            if label in failed:
                rows.append(
                    row(SECTION, label, label, status=ERROR, note=failed[label], kernel=True)
                )
                continue
            is_kernel = label != BASELINE and label not in FLOORS
            note = (
                f"exit {codes[label]}"
                if is_kernel
                else "libraries only"
                if label in FLOORS
                else "interpreter start-up"
            )
            command = " ".join(
                ["python", *(Path(a).name if os.path.isabs(a) else a for a in argv[1:])]
            )
            ns = statistics.median(samples[label])
            measured.append(row(SECTION, label, command, ns, note=note, kernel=is_kernel))
        base = next((r for r in measured if r["case"] == BASELINE), None)
        for r in measured:
            if base is not None and r is not base:
                r["ratio"] = r["median_ns"] / base["median_ns"]
                r["note"] += f"; +{(r['median_ns'] - base['median_ns']) / 1e6:.1f} ms over pass"
        measured += shares(measured, base)
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
