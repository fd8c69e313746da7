"""Time ``parse_response`` and ``change_ratio`` on typical and adversarial inputs.

Run: ``python benchmarks/consensus_parse.py`` from the repository root. Prints seconds per call.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from kernel.consensus import (
    EditBudgetError,
    change_ratio,
    evaluate_round,
    parse_response,
    round_from_mapping,
)

GOOD = '{"approve": false, "critical": false, "objections": ["x"], "edits": ["y"]}'

CASES: dict[str, str] = {
    "strict, 80 B": GOOD,
    "prose + fence, 2 KiB": "Sure.\n" * 300 + "```json\n" + GOOD + "\n```\n",
    "1 MiB of '{'": "{" * (1 << 20),
    "1 MiB of '{\"a\":' nesting": '{"a":' * ((1 << 20) // 5),
    "1 MiB of '{\"' pairs": '{"' * ((1 << 20) // 2),
    "1 MiB of short lines + json fence": "a\n" * ((1 << 20) // 2 - 8) + "```json\n",
    "2000 list lines + json fence": "- - - - - - - - a\n" * 1996 + "```json\n" + GOOD + "\n```\n",
}


def clock(call: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    for name, text in CASES.items():
        seconds = clock(lambda text=text: parse_response(text, "critique"), repeat=1)  # type: ignore[misc]
        print(f"parse_response  {name:<40} {seconds:8.3f} s")
    rng = random.Random(7)
    for size in (1_000, 10_000, 100_000):
        old = " ".join(str(rng.randrange(500)) for _ in range(size))
        new = " ".join(str(rng.randrange(500)) for _ in range(size))
        seconds = clock(lambda old=old, new=new: _outcome(old, new), repeat=1)  # type: ignore[misc]
        print(f"change_ratio    {size:>7} x {size:<7} tokens{'':<22} {seconds:8.3f} s")
    base = [str(rng.randrange(500)) for _ in range(300_000)]
    for share in (1000, 100, 10, 1):
        edited = list(base)
        for i in rng.sample(range(len(base)), len(base) // share):
            edited[i] = "edited"
        old, new = " ".join(base), " ".join(edited)
        seconds = clock(lambda old=old, new=new: _outcome(old, new), repeat=1)  # type: ignore[misc]
        label = f"300k tokens, 1/{share} replaced"
        print(f"change_ratio    {label:<40} {seconds:8.3f} s  {_outcome(old, new)}")
    for share in (100, 1):
        edited = list(base[:200_000])
        for i in rng.sample(range(len(edited)), len(edited) // share):
            edited[i] = "edited"
        document = {
            "participants": 3,
            "round": 2,
            "critiques": [{"approve": False, "critical": False, "edits": ["x"]}] * 3,
            "previous_candidate": " ".join(base[:200_000]),
            "candidate": " ".join(edited),
        }
        seconds = clock(lambda d=document: evaluate_round(round_from_mapping(d)), repeat=1)  # type: ignore[misc]
        decision = evaluate_round(round_from_mapping(document))
        label = f"round, 200k tokens, 1/{share} replaced"
        print(f"evaluate_round  {label:<40} {seconds:8.3f} s  {decision.checks[1].detail}")


def _outcome(old: str, new: str) -> str:
    try:
        return str(change_ratio(old, new))
    except EditBudgetError as exc:
        return f"refused ({str(exc)[:60]}...)"


if __name__ == "__main__":
    main()
