"""One reviewer's columns grouped by signature (R3): the set of conditions whose predicate holds.

Only the dimensions some predicate reads are enumerated (``3**len(read)`` columns); every other
dimension multiplies each signature's column count by 3 and is ``pass`` in examples.
Columns are indexed in :func:`itertools.product` order over the read dimensions, so raising
read dimension ``j`` by one step adds ``3 ** (len(read) - 1 - j)`` to the index.
"""

from __future__ import annotations

import collections
import itertools
from collections.abc import Callable, Sequence
from typing import Final

import attrs

from kernel.analysis.result import AnalysisTooLarge
from kernel.model import Contract

__all__ = ["ColumnTable", "Progress", "Worsening", "column_cost", "column_table"]

#: At most this many dimensions read by some condition (``3**13`` = 1.6 million columns).
MAX_READ_DIMENSIONS: Final = 13

#: ``progress(phase, fraction_done)``; the core never prints, the CLI decides what to show.
Progress = Callable[[str, float], None]

_RANKS = (0, 1, 2)
#: What one score adds to :func:`column_cost` (pass, warn, block).
_STEP_COST = (0, 1001, 1002)


def column_cost(column: Sequence[int]) -> int:
    """How bad a column looks: non-pass scores first, then the sum of ranks (smaller is simpler)."""
    return sum(1 for r in column if r) * 1000 + sum(column)


@attrs.frozen
class Worsening:
    """Raising one score by one step (pass → warn or warn → block) moves a reviewer from
    signature ``before`` to signature ``after`` (indices into ``ColumnTable.signatures``)."""

    before: int
    after: int
    #: The simplest column (ranks, contract order) with signature ``before`` that does it.
    column: tuple[int, ...]
    #: Position of the dimension whose score is raised.
    position: int
    #: :func:`column_cost` of ``column``.
    cost: int


@attrs.frozen
class ColumnTable:
    """Every reviewer column of a contract, grouped by signature."""

    #: Positions of the dimensions some predicate reads.
    read: tuple[int, ...]
    #: Distinct signatures (bit ``i`` set: condition ``i`` holds), ascending.
    signatures: tuple[int, ...]
    #: Number of full columns (every dimension) per signature.
    counts: tuple[int, ...]
    #: The simplest full column (ranks) per signature, and its :func:`column_cost`.
    examples: tuple[tuple[int, ...], ...]
    costs: tuple[int, ...]
    #: Signature index of every column over the read dimensions, in product order.
    by_index: tuple[int, ...] = attrs.field(repr=False)
    #: One simplest witness per (before, after) signature pair a single worsening connects.
    worsenings: tuple[Worsening, ...]


def column_table(contract: Contract, progress: Progress | None = None) -> ColumnTable:
    ndims = len(contract.dimensions)
    predicates = [c.predicate for c in contract.conditions]
    read = tuple(sorted(set().union(*(p.reads for p in predicates))))
    if len(read) > MAX_READ_DIMENSIONS:
        raise AnalysisTooLarge(
            f"{contract.contract_id}: the conditions read {len(read)} dimensions "
            f"(3^{len(read)} reviewer columns); the analyzer handles at most "
            f"{MAX_READ_DIMENSIONS}"
        )
    free = ndims - len(read)
    # Arrays over the read columns, built one dimension at a time (index = old * 3 + rank).
    cost = [0]
    for _ in read:
        cost = [x + c for x in cost for c in _STEP_COST]
    sig = [0] * len(cost)
    for i, predicate in enumerate(predicates):
        if progress is not None:
            progress("columns", i / len(predicates))
        truth = _truth_table(predicate.reads, ndims, predicate.holds)
        project = [0]
        for p in read:
            if p in predicate.reads:
                project = [x * 3 + r for x in project for r in _RANKS]
            else:
                project = [x for x in project for _ in _RANKS]
        bit = 1 << i
        sig = [s | bit if truth[x] else s for s, x in zip(sig, project, strict=True)]
    best: dict[int, int] = {}
    for index, s in enumerate(sig):
        found = best.get(s)
        if found is None or cost[index] < cost[found]:
            best[s] = index
    tally = collections.Counter(sig)
    signatures = tuple(sorted(best))
    number = {s: k for k, s in enumerate(signatures)}
    by_index = [number[s] for s in sig]
    return ColumnTable(
        read=read,
        signatures=signatures,
        counts=tuple(tally[s] * 3**free for s in signatures),
        examples=tuple(_full(read, ndims, best[s]) for s in signatures),
        costs=tuple(cost[best[s]] for s in signatures),
        by_index=tuple(by_index),
        worsenings=_worsenings(read, ndims, by_index, cost),
    )


def _truth_table(
    reads: frozenset[int], ndims: int, holds: Callable[[Sequence[int]], bool]
) -> list[bool]:
    """``holds`` over every column of the dimensions in ``reads`` (others ``pass``)."""
    positions = sorted(reads)
    full = [0] * ndims
    out = []
    for digits in itertools.product(_RANKS, repeat=len(positions)):
        for p, r in zip(positions, digits, strict=True):
            full[p] = r
        out.append(holds(full))
    return out


def _full(read: tuple[int, ...], ndims: int, index: int) -> tuple[int, ...]:
    full = [0] * ndims
    for p, r in zip(read, _digits(index, len(read)), strict=True):
        full[p] = r
    return tuple(full)


def _worsenings(
    read: tuple[int, ...], ndims: int, by_index: list[int], cost: list[int]
) -> tuple[Worsening, ...]:
    total = len(by_index)
    best: dict[tuple[int, int], tuple[int, int, int]] = {}
    for j in range(len(read)):
        step = 3 ** (len(read) - 1 - j)
        for base in range(0, total, 3 * step):
            for low in (base, base + step):
                before = by_index[low : low + step]
                after = by_index[low + step : low + 2 * step]
                if before == after:
                    continue
                for offset, (a, b) in enumerate(zip(before, after, strict=True)):
                    if a != b:
                        c = cost[low + offset]
                        found = best.get((a, b))
                        if found is None or c < found[0]:
                            best[a, b] = (c, low + offset, j)
    return tuple(
        Worsening(before, after, _full(read, ndims, index), read[j], c)
        for (before, after), (c, index, j) in sorted(best.items())
    )


def _digits(index: int, width: int) -> list[int]:
    out = [0] * width
    for j in range(width - 1, -1, -1):
        index, out[j] = divmod(index, 3)
    return out
