"""Benchmarks of the kernel against its peers, side by side in one process.

    python benchmarks/run.py [--quick] [--json] [--only decide,lint,analyze,cli,scan]

Sections: ``decide`` (vs hand-written Python, a naive interpreter, CEL-Rust, cel-python,
rule-engine, JsonLogic), ``lint`` (vs markdown-it-py's bare parse), ``analyze``, ``cli``
(cold start and import time). Any ``benchmarks/bench_<section>.py`` with ``run(quick) ->
list[dict]`` is folded into section ``<section>``. A section whose kernel module is missing
is reported as not available; a missing peer package as not installed.

Exit status: 1 when a peer disagrees with the kernel or a section fails, else 0. Missed
speed targets are reported, never an error (timings depend on the machine).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
try:
    import kernel  # noqa: F401  (installed, or else the source tree next to benchmarks/)
except ImportError:
    sys.path.insert(1, str(HERE.parent))

import timing  # noqa: E402
from timing import (  # noqa: E402
    DISAGREES,
    ERROR,
    NOT_AVAILABLE,
    OK,
    Row,
    human,
    machine,
    row,
)

#: Built-in sections: name → module in benchmarks/ with ``run(quick) -> list[Row]``.
SECTIONS: dict[str, str] = {
    "decide": "sec_decide",
    "lint": "sec_lint",
    "analyze": "sec_analyze",
    "cli": "sec_cli",
}
#: A bench module the runner cannot fold in (no ``run``); listed under the table.
SKIPPED = "skipped"
#: Sections that only other modules (bench_<name>.py) provide.
EXTRA_SECTIONS = ("scan",)


def _external(section: str) -> str | None:
    name = f"bench_{section}"
    return name if (HERE / f"{name}.py").is_file() else None


def sections() -> list[str]:
    found = list(SECTIONS)
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
        if name not in found:
            found.append(name)
    return found + [s for s in EXTRA_SECTIONS if s not in found]


def _normalise(section: str, source: str, raw: object) -> Row:
    """A row from another bench module in this runner's shape (unknown keys go to note)."""
    if not isinstance(raw, dict):
        return row(section, source, "?", status=ERROR, note=f"not a dict: {raw!r}")
    r = dict(raw)
    ns: float | None = None
    for key, scale in (("median_ns", 1.0), ("median_us", 1e3), ("median_ms", 1e6)):
        if isinstance(r.get(key), int | float):
            ns = float(r.pop(key)) * scale
            break
    else:
        for key in ("median_s", "median", "seconds"):
            if isinstance(r.get(key), int | float):
                ns = float(r.pop(key)) * 1e9
                break
    case = str(r.pop("case", r.pop("name", source)))
    impl = str(r.pop("impl", r.pop("implementation", "kernel")))
    out = row(section, case, impl, ns, status=str(r.pop("status", OK)), kernel=impl == "kernel")
    ratio = r.pop("ratio", None)
    out["ratio"] = ratio if isinstance(ratio, int | float) else None
    note = r.pop("note", "")
    rest = ", ".join(f"{k}={_value(k, v)}" for k, v in r.items() if k != "section")
    out["note"] = "; ".join(str(x) for x in (note, rest) if x)
    return out


def _value(key: str, value: object) -> str:
    if isinstance(value, float):
        return human(value * 1e9) if key.endswith("_s") else f"{value:.3g}"
    return str(value)


def _call(section: str, label: str, run: Callable[[bool], Any], quick: bool) -> list[Row]:
    try:
        result = run(quick)
    except Exception as e:
        traceback.print_exc(file=sys.stderr)
        return [row(section, label, "kernel", status=ERROR, note=f"{type(e).__name__}: {e}")]
    if not isinstance(result, list):
        return [row(section, label, "kernel", status=ERROR, note="run() did not return a list")]
    return [r if label.startswith("sec_") else _normalise(section, label, r) for r in result]


def run_section(section: str, quick: bool) -> list[Row]:
    modules = [m for m in (SECTIONS.get(section), _external(section)) if m is not None]
    if not modules:
        return [row(section, "-", f"bench_{section}.py", status=NOT_AVAILABLE, note="no module")]
    rows: list[Row] = []
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ImportError as e:
            rows.append(row(section, name, "kernel", status=NOT_AVAILABLE, note=str(e)))
            continue
        run = getattr(module, "run", None)
        if not callable(run):
            note = f"benchmarks/{name}.py has no run(quick); run it on its own"
            rows.append(row(section, name, name, status=SKIPPED, note=note))
            continue
        rows.extend(_call(section, name, run, quick))
    return rows


# --- output ----------------------------------------------------------------------------------

#: (section, case prefix, peer impl prefix, bound on kernel/peer, wording)
TARGETS: tuple[tuple[str, str, str, float, str], ...] = (
    ("decide", "", "hand-written", 1.5, "decide ≤ 1.5x the hand-written function"),
    ("decide", "", "CEL-Rust (", 0.01, "decide ≥ 100x faster than CEL-Rust"),
    ("lint", "", "markdown-it-py parse", 2.0, "lint ≤ 2x markdown-it-py's bare parse"),
    ("lint", "", "markdown-it-py block-only", 2.0, "lint ≤ 2x markdown-it-py's block-only parse"),
)


def targets(rows: Sequence[Row]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for section, case, impl, bound, text in TARGETS:
        hits = [
            r
            for r in rows
            if r["section"] == section
            and r["case"].startswith(case)
            and r["impl"].startswith(impl)
            and r["ratio"] is not None
        ]
        if hits:
            worst = max(r["ratio"] for r in hits)
            out.append({"target": text, "worst_ratio": worst, "met": worst <= bound})
    for r in rows:
        if r["section"] == "cli" and r["case"].startswith("lint CLI") and r["median_ns"]:
            ms = r["median_ns"] / 1e6
            out.append({"target": "lint CLI cold start ≤ 250 ms", "value_ms": ms, "met": ms <= 250})
    return out


def _ratio(r: Row) -> tuple[str, str]:
    """kernel/peer, and its inverse: how many times slower the peer is."""
    x = r["ratio"]
    if x is None or x <= 0:
        return "-", "-"
    inverse = 1 / x
    if inverse >= 1e6:
        return f"{x:.3g}", f"{inverse:.2g}x"
    if inverse >= 100:
        return f"{x:.3g}", f"{inverse:,.0f}x"
    return f"{x:.3g}", f"{inverse:.3g}x" if inverse >= 10 else f"{inverse:.2f}x"


def table(rows: Sequence[Row]) -> str:
    lines: list[str] = []
    current = None
    skipped = [r for r in rows if r["status"] == SKIPPED]
    for r in (r for r in rows if r["status"] != SKIPPED):
        if r["section"] != current:
            current = r["section"]
            lines += ["", f"## {current}", ""]
            lines.append("| case | implementation | median | kernel/peer | peer/kernel | note |")
            lines.append("|---|---|--:|--:|--:|---|")
        median = human(r["median_ns"]) if r["status"] == OK else r["status"]
        impl = f"**{r['impl']}**" if r["kernel"] else r["impl"]
        note = str(r["note"]).replace("|", "\\|").replace("\n", " ")
        ratio, inverse = _ratio(r)
        if r["kernel"]:  # a kernel row's ratio is to its section's baseline
            inverse = "-"
        lines.append(f"| {r['case']} | {impl} | {median} | {ratio} | {inverse} | {note} |")
    if skipped:
        lines += ["", *(f"Skipped: {r['note']}." for r in skipped)]
    return "\n".join(lines)


def describe(m: dict[str, Any]) -> str:
    pkgs = ", ".join(f"{k} {v}" for k, v in m["packages"].items() if v)
    missing = ", ".join(k for k, v in m["packages"].items() if not v)
    text = (
        f"Date: {m['date']}  \nMachine: {m['cpu']} ({m['cpus']} CPUs), {m['platform']}  \n"
        f"Python: {m['python']}  \nKernel: {m['kernel']}  \nPackages: {pkgs}  \n"
        f"Clock: {m['clock']} (medians over interleaved batches)"
    )
    return text + (f"  \nNot installed: {missing}" if missing else "")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/run.py", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="few repetitions, for CI")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument(
        "--clock",
        choices=sorted(timing.CLOCKS),
        default="wall",
        help="in-process timings: wall (perf_counter) or this thread's cpu time",
    )
    parser.add_argument(
        "--only", default="", help="comma-separated sections: " + ",".join(sections())
    )
    args = parser.parse_args(argv)
    wanted = [s for s in args.only.split(",") if s] or sections()
    unknown = [s for s in wanted if s not in sections()]
    if unknown:
        parser.error(f"unknown section(s): {', '.join(unknown)}")

    timing.clock = timing.CLOCKS[args.clock]
    started = time.perf_counter()
    m = machine()
    m["clock"] = args.clock
    if not args.json:
        print(describe(m), flush=True)
    rows: list[Row] = []
    took: dict[str, float] = {}
    for section in wanted:
        # Keep stray prints of section modules out of the JSON document.
        begun = time.perf_counter()
        with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):
            got = run_section(section, args.quick)
        took[section] = round(time.perf_counter() - begun, 2)
        rows.extend(got)
        if not args.json:
            print(table(got), flush=True)
            print(f"\n({section}: {took[section]:.1f} s)", flush=True)
    reached = targets(rows)
    failed = [r for r in rows if r["status"] in (DISAGREES, ERROR)]
    elapsed = time.perf_counter() - started
    if args.json:
        doc = {
            "machine": m,
            "mode": "quick" if args.quick else "full",
            "rows": rows,
            "targets": reached,
            "failed": len(failed),
            "seconds": round(elapsed, 2),
            "section_seconds": took,
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print("\n## targets\n")
        for t in reached:
            value = t.get("worst_ratio", t.get("value_ms"))
            print(f"- {t['target']}: {value:.4g} → {'met' if t['met'] else 'NOT met'}")
        print(f"\n{'quick' if args.quick else 'full'} run, {elapsed:.1f} s")
        for r in failed:
            print(
                f"FAILED: {r['section']} / {r['impl']}: {r['status']}: {r['note']}", file=sys.stderr
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
