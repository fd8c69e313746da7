"""decide against the hand-written floor, a naive interpreter and rule engines.

Two contracts: reviewer/full (every peer) and the generated 10-dimension, panel-7 contract of
:func:`benchmarks.contracts.ten_dimensions` (its own hand-written function and the naive
interpreter). A third case decides reviewer/full given as a mapping (loaded on every call).

The benchmark matrices are drawn from a seeded generator and balanced over every outcome (each
condition deciding, and the R5 fallback) so that no implementation profits from an input mix
that lets it stop early. Every implementation must agree with ``kernel.decide`` (action,
deciding condition and, where it counts, the per-condition reviewer counts) on every matrix
before anything is timed.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks import peers
from benchmarks.contracts import ten_dimensions
from benchmarks.timing import DISAGREES, ERROR, NOT_INSTALLED, Row, compare, row, set_ratios

SEED = 20261122
SCORES = ("pass", "warn", "block")
KERNEL = "kernel.decide (compiled contract)"
HAND = "hand-written Python"


def _profile_matrix(
    rng: random.Random, dimensions: Sequence[str], panel: int
) -> dict[str, list[str]]:
    """A matrix whose cells follow randomly chosen per-dimension score distributions; beyond
    reviewer/full's size, under a matrix-wide scale, so that all-pass panels occur too."""
    scale = 1.0 if len(dimensions) * panel <= 25 else rng.choice((0.0, 0.25, 0.5, 1.0, 1.0))
    matrix = {}
    for d in dimensions:
        p_block = scale * rng.choice((0.0, 0.0, 0.02, 0.1, 0.3))
        p_warn = scale * rng.choice((0.0, 0.05, 0.2, 0.4, 0.7))
        matrix[d] = rng.choices(SCORES, weights=(1 - p_block - p_warn, p_warn, p_block), k=panel)
    return matrix


def matrices(
    count: int,
    decide: Callable[[Any], Any],
    outcomes: Sequence[str] = ("F1", "F2", "F3", "F0", "fallback"),
    dimensions: Sequence[str] = peers.DIMENSIONS,
    panel: int = peers.PANEL,
) -> list[dict[str, list[str]]]:
    """``count // len(outcomes)`` matrices per outcome (deciding condition id, or
    ``"fallback"``) as ``decide`` classifies them, in a shuffled order."""
    rng = random.Random(SEED)
    return _balanced(rng, lambda: _profile_matrix(rng, dimensions, panel), decide, outcomes, count)


def _balanced(
    rng: random.Random,
    draw: Callable[[], Any],
    decide: Callable[[Any], Any],
    outcomes: Sequence[str],
    count: int,
) -> list[Any]:
    """``count // len(outcomes)`` drawn matrices per outcome as ``decide`` classifies them
    (the deciding condition id, or ``"fallback"``), shuffled."""
    per = count // len(outcomes)
    buckets: dict[str, list[Any]] = {k: [] for k in outcomes}
    for _ in range(200_000):
        m = draw()
        key = decide(m).condition_id or "fallback"
        if len(buckets[key]) < per:
            buckets[key].append(m)
        if all(len(b) == per for b in buckets.values()):
            break
    else:
        short = {k: len(b) for k, b in buckets.items()}
        raise RuntimeError(f"matrix generator did not cover every outcome: {short}")
    out = [m for b in buckets.values() for m in b]
    rng.shuffle(out)
    return out


def matrices_13_2(count: int, decide: Callable[[Any], Any], contract: Any) -> list[Any]:
    """``count // 7`` valid 13.2 matrices per outcome of ``contract`` (each condition
    deciding, and the fallback), in a shuffled order; seats abstain now and then."""
    rng = random.Random(SEED)
    outcomes = [*(c.condition_id for c in contract.conditions), "fallback"]

    def draw() -> dict[str, dict[str, str]]:
        p_bad = rng.choice((0.0, 0.05, 0.15, 0.4))
        m: dict[str, dict[str, str]] = {}
        for d in contract.dimensions:
            values = (
                ("warn", "block:repairable", "block:fatal")
                if d.priority == "mandatory"
                else ("warn", "block")
            )
            weights = [1.0, 0.6, 0.05] if d.priority == "mandatory" else [1.0, 0.6]
            row = {}
            for role in d.eligible_roles:
                row[role] = rng.choices(values, weights)[0] if rng.random() < p_bad else "pass"
            if len(row) > 1 and rng.random() < 0.1:
                row[rng.choice(list(row))] = "not_assessed"
            m[d.id] = row
        return m

    return _balanced(rng, draw, decide, outcomes, count)


def _agree(
    name: str, fn: peers.Decider, ms: Sequence[peers.Matrix], want: Sequence[peers.Result]
) -> str | None:
    """None when ``fn`` agrees with the kernel on every matrix, else what differs."""
    for i, (m, w) in enumerate(zip(ms, want, strict=True)):
        got = fn(m)
        if got[:2] != w[:2] or (got[2] is not None and got[2] != w[2]):
            return f"matrix #{i} {dict(m)}: {name} says {got}, kernel says {w}"
    return None


def _case(
    case: str,
    impls: Sequence[tuple[str, Callable[[Any], object], str]],
    ms: Sequence[Any],
    want: Sequence[peers.Result],
    quick: bool,
) -> list[Row]:
    """Check every peer (all but the first entry, the kernel) against ``want``, then time the
    agreeing ones interleaved with the kernel."""
    rows: list[Row] = []
    timed: list[tuple[str, Callable[[Any], object], Sequence[Any]]] = [
        (impls[0][0], impls[0][1], ms)
    ]
    notes = {impls[0][0]: impls[0][2]}
    for name, fn, note in impls[1:]:
        try:
            problem = _agree(name, fn, ms, want)  # type: ignore[arg-type]
        except Exception as e:
            problem = f"{name} raised {type(e).__name__}: {e}"
        if problem is not None:
            rows.append(row("decide", case, name, status=DISAGREES, note=problem))
            continue
        timed.append((name, fn, ms))
        notes[name] = note
    medians = compare(
        timed,
        batches=7 if quick else 31,
        target_ns=2e6 if quick else 2e7,
        budget_ns=1e9 if quick else 8e9,
    )
    measured = [
        row("decide", case, name, ns, note=notes[name], kernel=name.startswith("kernel"))
        for name, ns in medians.items()
    ]
    set_ratios(measured, medians[impls[0][0]])
    return measured + rows


def _kernel(contract: Any) -> tuple[Callable[[Any], Any], Callable[[peers.Matrix], peers.Result]]:
    import kernel

    ids = [c.condition_id for c in contract.conditions]

    def result(m: peers.Matrix) -> peers.Result:
        d = kernel.decide(contract, m)
        return d.action, d.condition_id, tuple(d.counts[i] for i in ids)

    # partial, not a def: the kernel gets no extra Python frame the peers do not have.
    return functools.partial(kernel.decide, contract), result


def run(quick: bool) -> list[Row]:
    import kernel

    count = 100 if quick else 200
    rows: list[Row] = []

    # reviewer/full, against every peer
    contract = kernel.load_contract("reviewer/full")
    template = kernel.shipped_template("reviewer/full")
    decide, result = _kernel(contract)
    ms = matrices(count, decide)
    case = f"reviewer/full, {len(ms)} matrices"
    impls: list[tuple[str, Callable[[Any], object], str]] = [
        (KERNEL, decide, "returns the full Decision"),
        (f"{HAND} (reviewer/full)", peers.hand_written, "stops at first match"),
        ("naive interpreter (regex per call)", peers.naive(template), "re-parses every call"),
    ]
    for name, build, note in peers.ENGINES:
        try:
            impls.append((name, build(), note))
        except ImportError as e:
            rows.append(row("decide", case, name, status=NOT_INSTALLED, note=str(e)))
        except Exception as e:  # a peer that cannot even compile the rules
            rows.append(row("decide", case, name, status=ERROR, note=f"{type(e).__name__}: {e}"))
    rows = _case(case, impls, ms, [result(m) for m in ms], quick) + rows

    # the generated 10-dimension, panel-7 contract
    raw = ten_dimensions()
    ten = kernel.load_contract(raw)
    decide, result = _kernel(ten)
    outcomes = [*(c.condition_id for c in ten.conditions), "fallback"]
    ms = matrices(count, decide, outcomes, peers.TEN_DIMENSIONS, peers.TEN_PANEL)
    case = f"10 dimensions, panel 7, {len(ms)} matrices"
    impls = [
        (KERNEL, decide, "returns the full Decision"),
        (f"{HAND} (this contract)", peers.hand_written_ten, "stops at first match"),
        ("naive interpreter (regex per call)", peers.naive(raw), "re-parses every call"),
    ]
    rows += _case(case, impls, ms, [result(m) for m in ms], quick)

    # dialect 13.2: its reviewer/full template, against its hand-written floor
    v2 = kernel.load_contract("13.2/reviewer/full")
    decide, _ = _kernel(v2)
    ms = matrices_13_2(count, decide, v2)
    case = f"13.2/reviewer/full, {len(ms)} matrices"
    impls = [
        (KERNEL, decide, "returns the full Decision, with its per-dimension trace"),
        (f"{HAND} (13.2/reviewer/full)", peers.hand_written_13_2, "stops at first match"),
    ]
    want: list[peers.Result] = []
    for m in ms:
        d = kernel.decide(v2, m)
        want.append((d.action, d.condition_id, None))
    rows += _case(case, impls, ms, want, quick)

    # reviewer/full given as a mapping: loaded (validated, compiled) on every call
    def on_mapping(m: peers.Matrix) -> object:
        return kernel.decide(template, m)

    ms = matrices(count // 5, _kernel(contract)[0])
    medians = compare(
        [("kernel.decide (mapping)", on_mapping, ms)],
        batches=3 if quick else 11,
        target_ns=2e6 if quick else 2e7,
    )
    note = "the template as a dict: validated and compiled per call"
    rows.append(
        row(
            "decide",
            f"reviewer/full as a mapping, {len(ms)} matrices",
            "kernel.decide (mapping)",
            medians["kernel.decide (mapping)"],
            note=note,
            kernel=True,
        )
    )
    return rows
