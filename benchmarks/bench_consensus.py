"""``parse_response`` and ``change_ratio`` on typical and adversarial inputs (best of a few
calls each)."""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.timing import Row, row

GOOD = '{"approve": false, "critical": false, "objections": ["x"], "edits": ["y"]}'
_FENCED = "json\n" + GOOD + "\n"

CASES: dict[str, str] = {
    "strict, 80 B": GOOD,
    "prose + fence, 2 KiB": "Sure.\n" * 300 + "```json\n" + GOOD + "\n```\n",
    "1 MiB of '{'": "{" * (1 << 20),
    "1 MiB of '{\"a\":' nesting": '{"a":' * ((1 << 20) // 5),
    "1 MiB of '{\"' pairs": '{"' * ((1 << 20) // 2),
    "1 MiB of short lines + json fence": "a\n" * ((1 << 20) // 2 - 8) + "```json\n",
    # one run of fence characters (each start inside the run once re-read the rest of it)
    "1 MiB of '`'": "`" * (1 << 20),
    "1 MiB of '~'": "~" * (1 << 20),
    "1 MiB run of '`' opening a json fence": "`" * ((1 << 20) - len(_FENCED)) + _FENCED,
}
#: Inputs given to ``python -m kernel.consensus parse`` as a file (the process, start-up included).
CLI_CASES = ("1 MiB of '`'", "1 MiB run of '`' opening a json fence")


def clock(call: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def run(quick: bool) -> list[Row]:
    from kernel.consensus import change_ratio, parse_response
    from kernel.errors import EditBudgetError

    repeat = 1 if quick else 3
    rows = []
    for name, text in CASES.items():
        seconds = clock(lambda text=text: parse_response(text, "critique"), repeat)  # type: ignore[misc]
        rows.append(
            row("consensus", f"parse_response: {name}", "kernel", seconds * 1e9, kernel=True)
        )
    with tempfile.TemporaryDirectory() as tmp:
        for name in CLI_CASES:
            path = Path(tmp) / "reply.txt"
            path.write_text(CASES[name], encoding="utf-8")
            argv = (sys.executable, "-m", "kernel.consensus", "parse", "--kind", "critique")
            code = [0]

            def cli(argv: tuple[str, ...] = (*argv, str(path)), code: list[int] = code) -> None:
                code[0] = subprocess.run(argv, capture_output=True, check=False).returncode

            seconds = clock(cli, repeat)
            case = f"consensus parse CLI: {name}"
            note = f"exit {code[0]}"
            rows.append(row("consensus", case, "kernel", seconds * 1e9, note=note, kernel=True))
    rng = random.Random(7)
    for size in (1_000, 10_000, 100_000):
        old = " ".join(str(rng.randrange(500)) for _ in range(size))
        new = " ".join(str(rng.randrange(500)) for _ in range(size))
        outcome = ["exact"]

        def ratio(old: str = old, new: str = new, outcome: list[str] = outcome) -> None:
            try:
                change_ratio(old, new)
            except EditBudgetError:
                outcome[0] = "refused: over the edit budget"

        seconds = clock(ratio, repeat)
        case = f"change_ratio: {size} x {size} tokens"
        rows.append(row("consensus", case, "kernel", seconds * 1e9, note=outcome[0], kernel=True))
    return rows
