"""Throughput of kernel.arena: verdict parsing, driving ``step``, and ``check_conformance``."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

from benchmarks.timing import Row, row
from kernel.arena import (
    Event,
    FinalizerCompleted,
    PlannerCompleted,
    ReviewerCompleted,
    Run,
    Start,
    check_conformance,
    parse_verdict,
    step,
)
from kernel.arena.machine import Persist

TS = "2026-02-23T10:00:00Z"
CONFIG = {
    "max_rounds": 5,
    "session_resume_required": True,
    "reviewer_mode": "read-only",
    "notebook_enabled": False,
}
TASK = {"task_id": "T", "initial_prompt": "p", "session_id": "s", "round_history_refs": []}


def events() -> list[Event]:
    out: list[Event] = [Start(config=CONFIG, task=TASK, timestamp=TS)]
    for i in range(5):
        verdict = "APPROVED" if i == 4 else "REVISE"
        out += [
            PlannerCompleted(output_ref=f"p{i}", timestamp=TS),
            ReviewerCompleted(output_ref=f"r{i}", text=f"notes\nVERDICT: {verdict}", timestamp=TS),
        ]
    return [*out, FinalizerCompleted(timestamp=TS)]


def drive() -> list[str]:
    run, lines = Run(), []
    for event in events():
        run, effects = step(run, event)
        lines += [e.record.line for e in effects if isinstance(e, Persist)]
    return lines


def _bench(name: str, fn: Callable[[], object], repeat: int, batches: int) -> Row:
    per_call = []
    for _ in range(batches):
        start = time.perf_counter_ns()
        for _ in range(repeat):
            fn()
        per_call.append((time.perf_counter_ns() - start) / repeat)
    note = f"median of {batches} batches of {repeat} calls"
    return row("arena", name, "kernel", statistics.median(per_call), note=note, kernel=True)


def run(quick: bool) -> list[Row]:
    batches = 3 if quick else 9
    review = "\n".join(f"line {i} of prose" for i in range(200)) + "\nVERDICT: APPROVED\n"
    rows = [
        _bench("parse_verdict (200-line review)", lambda: parse_verdict(review), 200, batches),
        _bench("drive a 5-round run through step", drive, 20, batches),
    ]
    trail = "\n".join(drive()) + "\n"
    rows.append(
        _bench("check_conformance (5-round trail)", lambda: check_conformance(trail), 20, batches)
    )
    records = [json.loads(line) for line in trail.splitlines()]
    big = records[:4] + records[4:-3] * 150 + records[-3:]
    text = "".join(json.dumps(r) + "\n" for r in big)
    label = f"check_conformance ({len(big)} records, {len(text) >> 10} KiB)"
    rows.append(_bench(label, lambda: check_conformance(text), 1, batches))
    return rows
