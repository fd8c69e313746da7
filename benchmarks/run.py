"""Run the benchmarks: every ``benchmarks/bench_<section>.py``, side by side in one process.

    python -m benchmarks.run [--quick] [--json] [--clock wall|cpu] [--only decide,cli] [--write]

Each section module exposes ``run(quick: bool) -> list[Row]``; this runner finds them by that
name (see :mod:`benchmarks`). ``--write`` also records the run in ``benchmarks/results.json``
and rewrites the results table of ``benchmarks/results.md`` and ``docs/benchmarks.md``, each
figure beside the one recorded before this work (``benchmarks/baseline.json``).

Exit status: 1 when a peer disagrees with the kernel or a section fails, else 0. Missed
speed targets are reported, never an error (timings depend on the machine).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import pkgutil
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import benchmarks
from benchmarks import timing
from benchmarks.bench_cli import SHARE
from benchmarks.timing import DISAGREES, ERROR, NOT_AVAILABLE, OK, Row, human, machine, row

PREFIX = "bench_"
#: Sections listed first, in this order; any other is listed after them, alphabetically.
FIRST = ("decide", "lint", "analyze", "cli")
ROOT = Path(__file__).resolve().parents[1]
RESULTS_JSON = ROOT / "benchmarks" / "results.json"
BASELINE_JSON = ROOT / "benchmarks" / "baseline.json"
#: Files whose results block ``--write`` rewrites.
PAGES = (ROOT / "benchmarks" / "results.md", ROOT / "docs" / "benchmarks.md")
BEGIN, END = "<!-- begin results -->", "<!-- end results -->"
ROW_KEYS = frozenset(timing.row("s", "c", "i"))


def sections() -> list[str]:
    """Every ``bench_<section>`` module of the package, :data:`FIRST` first."""
    found = [
        m.name.removeprefix(PREFIX)
        for m in pkgutil.iter_modules(benchmarks.__path__)
        if m.name.startswith(PREFIX)
    ]
    return [s for s in FIRST if s in found] + sorted(s for s in found if s not in FIRST)


def run_section(section: str, quick: bool) -> list[Row]:
    name = f"benchmarks.{PREFIX}{section}"
    try:
        module = importlib.import_module(name)
    except ImportError as e:
        return [row(section, "-", name, status=NOT_AVAILABLE, note=str(e))]
    try:
        result = module.run(quick)
    except Exception as e:
        traceback.print_exc(file=sys.stderr)
        return [row(section, "-", name, status=ERROR, note=f"{type(e).__name__}: {e}")]
    if not isinstance(result, list) or not all(
        isinstance(r, dict) and set(r) == ROW_KEYS and r["section"] == section for r in result
    ):
        return [row(section, "-", name, status=ERROR, note="run() did not return rows")]
    return result


# --- targets -----------------------------------------------------------------------------------

CONTRACT_CLIS = tuple(f"python -m kernel.{c} " for c in ("check", "decide", "lint", "analyze"))
COMPANION_CLIS = tuple(f"python -m kernel.{c} " for c in ("arena", "consensus", "panel"))
#: (section, case prefix, row impl prefix(es), bound on the row's ratio, wording). A row's ratio
#: is kernel/peer for peers, and command/``python -c pass`` for cold starts.
TARGETS: tuple[tuple[str, str, str | tuple[str, ...], float, str], ...] = (
    ("decide", "", "hand-written", 1.0, "decide ≤ 1.0x the hand-written function"),
    ("decide", "", "CEL-Rust (", 0.01, "decide ≥ 100x faster than CEL-Rust"),
    ("lint", "", "markdown-it-py block-only", 2.0, "lint ≤ 2x markdown-it-py's block-only parse"),
    (
        "round",
        "",
        "markdown-it-py parse",
        2.0,
        "a real-size round ≤ 2x markdown-it-py's full parse",
    ),
    (
        "cli",
        "",
        tuple(SHARE + c for c in CONTRACT_CLIS + COMPANION_CLIS),
        4.0,
        "every command's own share of its cold start (above the libraries it imports) "
        "≤ 4x python -c pass",
    ),
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
            worst = max(hits, key=lambda r: r["ratio"])
            where = f"{worst['case']} / {worst['impl']}"
            out.append(
                {"target": text, "worst_ratio": worst["ratio"], "met": worst["ratio"] <= bound}
                | {"worst": where}
            )
    return out


# --- tables ------------------------------------------------------------------------------------


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


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(rows: Sequence[Row]) -> str:
    lines: list[str] = []
    current = None
    for r in rows:
        if r["section"] != current:
            current = r["section"]
            lines += ["", f"## {current}", ""]
            lines.append("| case | implementation | median | kernel/peer | peer/kernel | note |")
            lines.append("|---|---|--:|--:|--:|---|")
        median = human(r["median_ns"]) if r["status"] == OK else r["status"]
        impl = f"**{r['impl']}**" if r["kernel"] else r["impl"]
        ratio, inverse = _ratio(r)
        if r["kernel"]:  # a kernel row's ratio is to its section's baseline
            inverse = "-"
        lines.append(
            f"| {_cell(r['case'])} | {_cell(impl)} | {median} | {ratio} | {inverse} "
            f"| {_cell(r['note'])} |"
        )
    return "\n".join(lines)


def comparison(rows: Sequence[Row], before: Sequence[dict[str, Any]]) -> str:
    """Per section, each row's median and ratio beside the recorded ones (``-`` when the row is
    new or its case was not measured before)."""
    old = {(b["section"], b["case"], b["impl"]): b for b in before}
    lines: list[str] = []
    current = None
    for r in rows:
        if r["section"] != current:
            current = r["section"]
            lines += ["", f"### {current}", ""]
            lines.append(
                "| case | implementation | before | now | now/before "
                "| kernel/peer before | kernel/peer now | note |"
            )
            lines.append("|---|---|--:|--:|--:|--:|--:|---|")
        b = old.get((r["section"], r["case"], r["impl"]), {})
        now = human(r["median_ns"]) if r["status"] == OK else r["status"]
        then = b.get("median", "-")
        change = (
            f"{r['median_ns'] / b['median_ns']:.2f}"
            if r["status"] == OK and r["median_ns"] and b.get("median_ns")
            else "-"
        )
        impl = f"**{r['impl']}**" if r["kernel"] else r["impl"]
        lines.append(
            f"| {_cell(r['case'])} | {_cell(impl)} | {then} | {now} | {change} "
            f"| {b.get('ratio') or '-'} | {_ratio(r)[0]} | {_cell(r['note'])} |"
        )
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


def results_block(doc: dict[str, Any], baseline: dict[str, Any]) -> str:
    """The generated part of the results pages: targets, machines, the comparison table."""
    reached = "\n".join(
        f"- {t['target']}: worst {t['worst_ratio']:.3g} ({t['worst']}) → "
        f"{'met' if t['met'] else 'NOT met'}"
        for t in doc["targets"]
    )
    return "\n".join(
        [
            BEGIN,
            "",
            f"Produced by `python -m benchmarks.run --write` ({doc['mode']} run, "
            f"{doc['seconds']:.0f} s).",
            "",
            "**Now:**  ",
            describe(doc["machine"]),
            "",
            "**Before** (the table recorded before this work):  ",
            baseline["machine"],
            "",
            "Targets, now:",
            "",
            reached,
            comparison(doc["rows"], baseline["rows"]),
            "",
            END,
        ]
    )


def write_pages(doc: dict[str, Any]) -> None:
    RESULTS_JSON.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", "utf-8")
    baseline = json.loads(BASELINE_JSON.read_text("utf-8"))
    block = results_block(doc, baseline)
    for page in PAGES:
        text = page.read_text("utf-8")
        head, begin, rest = text.partition(BEGIN)
        _, end, tail = rest.partition(END)
        if not (begin and end):
            raise SystemExit(f"{page}: no {BEGIN} … {END} block to rewrite")
        page.write_text(head + block + tail, "utf-8")
        print(f"wrote {page}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.run", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="few repetitions, for CI")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument(
        "--clock",
        choices=sorted(timing.CLOCKS),
        default="wall",
        help="wall (perf_counter) or CPU time (this thread's; a child's for cold starts)",
    )
    parser.add_argument(
        "--only", default="", help="comma-separated sections: " + ",".join(sections())
    )
    parser.add_argument(
        "--write", action="store_true", help="record the run and rewrite the results pages"
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
    quiet = args.json or args.write
    if not quiet:
        print(describe(m), flush=True)
    rows: list[Row] = []
    took: dict[str, float] = {}
    for section in wanted:
        begun = time.perf_counter()
        # Keep stray prints of section modules out of the JSON document.
        with contextlib.redirect_stdout(sys.stderr if quiet else sys.stdout):
            got = run_section(section, args.quick)
        took[section] = round(time.perf_counter() - begun, 2)
        rows.extend(got)
        if not quiet:
            print(table(got), flush=True)
            print(f"\n({section}: {took[section]:.1f} s)", flush=True)
        else:
            print(f"{section}: {took[section]:.1f} s", file=sys.stderr, flush=True)
    reached = targets(rows)
    failed = [r for r in rows if r["status"] in (DISAGREES, ERROR)]
    elapsed = time.perf_counter() - started
    doc = {
        "machine": m,
        "mode": "quick" if args.quick else "full",
        "rows": rows,
        "targets": reached,
        "failed": len(failed),
        "seconds": round(elapsed, 2),
        "section_seconds": took,
    }
    if args.write:
        write_pages(doc)
    if args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    elif not args.write:
        print("\n## targets\n")
        for t in reached:
            print(
                f"- {t['target']}: worst {t['worst_ratio']:.4g} ({t['worst']}) → "
                f"{'met' if t['met'] else 'NOT met'}"
            )
        print(f"\n{'quick' if args.quick else 'full'} run, {elapsed:.1f} s")
    for r in failed:
        print(f"FAILED: {r['section']} / {r['impl']}: {r['status']}: {r['note']}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
