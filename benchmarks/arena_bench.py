"""Throughput of kernel.arena: verdict parsing, driving ``step``, and ``check_conformance``.

Run from the repository root: ``python benchmarks/arena_bench.py``.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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


def bench(name: str, fn: Callable[[], object], repeat: int) -> None:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    per = (time.perf_counter() - start) / repeat
    print(f"{name:<42} {per * 1e6:10.1f} µs")


def main() -> None:
    review = "\n".join(f"line {i} of prose" for i in range(200)) + "\nVERDICT: APPROVED\n"
    bench("parse_verdict (200-line review)", lambda: parse_verdict(review), 2000)
    bench("drive a 5-round run through step", drive, 200)
    trail = "\n".join(drive()) + "\n"
    bench("check_conformance (5-round trail)", lambda: check_conformance(trail), 200)
    records = [json.loads(line) for line in trail.splitlines()]
    big = records[:4] + records[4:-3] * 150 + records[-3:]
    text = "".join(json.dumps(r) + "\n" for r in big)
    label = f"check_conformance ({len(big)} records, {len(text) >> 10} KiB)"
    bench(label, lambda: check_conformance(text), 3)


if __name__ == "__main__":
    main()
