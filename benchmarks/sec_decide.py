"""decide on reviewer/full against the hand-written floor, a naive interpreter and rule engines.

The benchmark matrices are drawn from a seeded generator and balanced over the five outcomes
(F1, F2, F3, F0 and the R5 fallback) so that no implementation profits from an input mix
that lets it stop early. Every implementation must agree with ``kernel.decide`` (action,
deciding condition and, where it counts, the per-condition reviewer counts) on every matrix
before anything is timed.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any

import peers
from timing import DISAGREES, ERROR, NOT_INSTALLED, Row, compare, row, set_ratios

SECTION = "decide"
SEED = 20261122
SCORES = ("pass", "warn", "block")
#: Outcome keys: deciding condition id, or "fallback".
OUTCOMES = ("F1", "F2", "F3", "F0", "fallback")


def _profile_matrix(rng: random.Random) -> dict[str, list[str]]:
    """A matrix whose cells follow a randomly chosen per-dimension score distribution."""
    matrix = {}
    for d in peers.DIMENSIONS:
        p_block = rng.choice((0.0, 0.0, 0.02, 0.1, 0.3))
        p_warn = rng.choice((0.0, 0.05, 0.2, 0.4, 0.7))
        matrix[d] = rng.choices(SCORES, weights=(1 - p_block - p_warn, p_warn, p_block), k=5)
    return matrix


def matrices(count: int, decide: Callable[[Any], Any]) -> list[dict[str, list[str]]]:
    """``count`` matrices, ``count // 5`` per outcome as ``decide`` classifies them, in a
    shuffled order."""
    rng = random.Random(SEED)
    per = count // len(OUTCOMES)
    buckets: dict[str, list[dict[str, list[str]]]] = {k: [] for k in OUTCOMES}
    for _ in range(200_000):
        m = _profile_matrix(rng)
        d = decide(m)
        key = d.condition_id or "fallback"
        if len(buckets[key]) < per:
            buckets[key].append(m)
        if all(len(b) == per for b in buckets.values()):
            break
    else:
        raise RuntimeError(f"matrix generator did not cover every outcome: {buckets.keys()}")
    out = [m for b in buckets.values() for m in b]
    rng.shuffle(out)
    return out


def _agree(
    name: str, fn: peers.Decider, ms: Sequence[peers.Matrix], want: Sequence[peers.Result]
) -> str | None:
    """None when ``fn`` agrees with the kernel on every matrix, else what differs."""
    for i, (m, w) in enumerate(zip(ms, want, strict=True)):
        got = fn(m)
        if got[:2] != w[:2] or (got[2] is not None and got[2] != w[2]):
            return f"matrix #{i} {dict(m)}: {name} says {got}, kernel says {w}"
    return None


def run(quick: bool) -> list[Row]:
    import kernel

    contract = kernel.load_contract("reviewer/full")
    template = kernel.shipped_template("reviewer/full")
    ids = [c.condition_id for c in contract.conditions]

    # partial, not a def: the kernel gets no extra Python frame the peers do not have.
    kernel_decide = functools.partial(kernel.decide, contract)

    def kernel_result(m: peers.Matrix) -> peers.Result:
        d = kernel.decide(contract, m)
        return d.action, d.condition_id, tuple(d.counts[i] for i in ids)

    ms = matrices(100 if quick else 200, kernel_decide)
    want = [kernel_result(m) for m in ms]
    case = f"reviewer/full, {len(ms)} matrices"

    impls: list[tuple[str, Callable[[Any], object], str]] = [
        ("kernel.decide (compiled contract)", kernel_decide, "returns the full Decision"),
        ("hand-written Python (reviewer/full)", peers.hand_written, "stops at first match"),
        ("naive interpreter (regex per call)", peers.naive(template), "re-parses every call"),
    ]
    rows: list[Row] = []
    for name, build, note in peers.ENGINES:
        try:
            impls.append((name, build(), note))
        except ImportError as e:
            rows.append(row(SECTION, case, name, status=NOT_INSTALLED, note=str(e)))
        except Exception as e:  # a peer that cannot even compile the rules
            rows.append(row(SECTION, case, name, status=ERROR, note=f"{type(e).__name__}: {e}"))

    timed: list[tuple[str, Callable[[Any], object], Sequence[Any]]] = []
    notes: dict[str, str] = {}
    for name, fn, note in impls[1:]:
        try:
            problem = _agree(name, fn, ms, want)  # type: ignore[arg-type]
        except Exception as e:
            problem = f"{name} raised {type(e).__name__}: {e}"
        if problem is not None:
            rows.append(row(SECTION, case, name, status=DISAGREES, note=problem))
            continue
        timed.append((name, fn, ms))
        notes[name] = note
    timed.insert(0, (impls[0][0], impls[0][1], ms))
    notes[impls[0][0]] = impls[0][2]

    medians = compare(
        timed,
        batches=7 if quick else 31,
        target_ns=2e6 if quick else 2e7,
        budget_ns=1e9 if quick else 8e9,
    )
    measured = [
        row(SECTION, case, name, ns, note=notes[name], kernel=name.startswith("kernel"))
        for name, ns in medians.items()
    ]
    set_ratios(measured, medians[impls[0][0]])
    return measured + rows
