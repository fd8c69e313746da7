"""One reviewer's columns grouped by signature (R3): the set of conditions whose predicate holds.

Columns are enumerated up to symmetry. A dimension named by id in some expression is an axis of
its own (3 states). The other dimensions some predicate reads are read only through their
priority, so permuting the scores among dimensions of one priority changes no predicate: they
form one axis per priority (and per score distribution, for probabilities) whose states are the
compositions ``(pass, warn, block)`` counts, each standing for ``multinomial`` columns and shown
as the column with the passes first, then the warns, then the blocks. Dimensions no predicate
reads multiply every count by 3 and are ``pass`` in examples.

Classes are indexed in mixed radix over the axes, first axis most significant.
"""

from __future__ import annotations

import collections
import itertools
import math
from collections.abc import Callable, Hashable, Sequence
from typing import Final

import attrs

from kernel.analysis.result import AnalysisTooLarge
from kernel.contract.model import Contract
from kernel.expression.ast import DimensionScores

__all__ = ["Axis", "ColumnTable", "Progress", "Worsening", "column_cost", "column_table"]

#: At most this many column classes (``3**13``, about 1.6 million).
MAX_CLASSES: Final = 3**13

#: ``progress(phase, fraction_done)``; the core never prints, the CLI decides what to show.
Progress = Callable[[str, float], None]

#: What one score adds to :func:`column_cost` (pass, warn, block).
_STEP_COST = (0, 1001, 1002)


def column_cost(column: Sequence[int]) -> int:
    """How bad a column looks: non-pass scores first, then the sum of ranks (smaller is simpler)."""
    return sum(_STEP_COST[r] for r in column)


@attrs.frozen
class Axis:
    """Dimensions enumerated together: one named dimension, or a priority's interchangeable
    dimensions."""

    positions: tuple[int, ...]
    #: Per state: the ranks of ``positions`` (the simplest arrangement of the state).
    states: tuple[tuple[int, ...], ...]
    #: Per state: how many columns it stands for.
    multiplicity: tuple[int, ...]
    #: Per state: how many dimensions score pass, warn, block.
    composition: tuple[tuple[int, int, int], ...]


def _axis(positions: Sequence[int]) -> Axis:
    m = len(positions)
    comps = [(a, b, m - a - b) for a in range(m, -1, -1) for b in range(m - a, -1, -1)]
    return Axis(
        tuple(positions),
        tuple((0,) * a + (1,) * b + (2,) * c for a, b, c in comps),
        tuple(
            math.factorial(m) // (math.factorial(a) * math.factorial(b) * math.factorial(c))
            for a, b, c in comps
        ),
        tuple(comps),
    )


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

    axes: tuple[Axis, ...]
    #: Distinct signatures (bit ``i`` set: condition ``i`` holds), ascending.
    signatures: tuple[int, ...]
    #: Number of full columns (every dimension) per signature.
    counts: tuple[int, ...]
    #: The simplest full column (ranks) per signature, and its :func:`column_cost`.
    examples: tuple[tuple[int, ...], ...]
    costs: tuple[int, ...]
    #: Signature index of every column class, in mixed-radix order over ``axes``.
    by_index: tuple[int, ...] = attrs.field(repr=False)
    #: One simplest witness per (before, after) signature pair a single worsening connects.
    worsenings: tuple[Worsening, ...]

    def column(self, index: int, ndims: int) -> tuple[int, ...]:
        """The simplest full column of class ``index``."""
        full = [0] * ndims
        for axis, state in zip(self.axes, self.states(index), strict=True):
            for p, r in zip(axis.positions, axis.states[state], strict=True):
                full[p] = r
        return tuple(full)

    def states(self, index: int) -> list[int]:
        """The state of every axis for class ``index``."""
        out = [0] * len(self.axes)
        for j in range(len(self.axes) - 1, -1, -1):
            index, out[j] = divmod(index, len(self.axes[j].states))
        return out


def _axes(contract: Contract, group: Sequence[Hashable] | None) -> list[Axis]:
    named: set[int] = set()
    read: set[int] = set()
    for c in contract.conditions:
        read |= c.predicate.reads
        for atom in c.expression.atoms:
            if isinstance(atom, DimensionScores):
                named.add(contract.dimension(atom.dimension).position)
    groups: dict[Hashable, list[int]] = {}
    for p in sorted(read - named):
        key = (contract.dimensions[p].priority, None if group is None else group[p])
        groups.setdefault(key, []).append(p)
    axes = [_axis([p]) for p in sorted(named)] + [_axis(ps) for ps in groups.values()]
    return sorted(axes, key=lambda a: a.positions)


def column_table(
    contract: Contract,
    progress: Progress | None = None,
    group: Sequence[Hashable] | None = None,
) -> ColumnTable:
    """Enumerate the column classes. ``group[p]``: dimensions of one priority are
    interchangeable only when their ``group`` values are equal (e.g. their score
    distributions)."""
    ndims = len(contract.dimensions)
    predicates = [c.predicate for c in contract.conditions]
    axes = _axes(contract, group)
    total = math.prod(len(a.states) for a in axes)
    if total > MAX_CLASSES:
        raise AnalysisTooLarge(
            f"{contract.contract_id}: {total} classes of reviewer columns to enumerate "
            f"(dimensions named by id count 3 each); the analyzer handles at most {MAX_CLASSES}"
        )
    cost = [0]
    mult = [1]
    for a in axes:
        costs = [column_cost(s) for s in a.states]
        cost = [x + c for x in cost for c in costs]
        mult = [x * m for x in mult for m in a.multiplicity]
    sig = [0] * total
    for i, predicate in enumerate(predicates):
        if progress is not None:
            progress("columns", i / len(predicates))
        touched = [a for a in axes if not predicate.reads.isdisjoint(a.positions)]
        truth = _truth_table(touched, ndims, predicate.holds)
        project = [0]
        for a in axes:
            radix = range(len(a.states))
            if a in touched:
                project = [x * len(radix) + r for x in project for r in radix]
            else:
                project = [x for x in project for _ in radix]
        bit = 1 << i
        sig = [s | bit if truth[x] else s for s, x in zip(sig, project, strict=True)]
    best: dict[int, int] = {}
    tally: collections.Counter[int] = collections.Counter()
    for index, s in enumerate(sig):
        found = best.get(s)
        if found is None or cost[index] < cost[found]:
            best[s] = index
        tally[s] += mult[index]
    signatures = tuple(sorted(best))
    number = {s: k for k, s in enumerate(signatures)}
    by_index = [number[s] for s in sig]
    free = ndims - sum(len(a.positions) for a in axes)
    table = ColumnTable(
        axes=tuple(axes),
        signatures=signatures,
        counts=tuple(tally[s] * 3**free for s in signatures),
        examples=(),
        costs=tuple(cost[best[s]] for s in signatures),
        by_index=tuple(by_index),
        worsenings=(),
    )
    return attrs.evolve(
        table,
        examples=tuple(table.column(best[s], ndims) for s in signatures),
        worsenings=_worsenings(table, ndims, cost),
    )


def _truth_table(
    axes: Sequence[Axis], ndims: int, holds: Callable[[Sequence[int]], bool]
) -> list[bool]:
    """``holds`` over every combination of the states of ``axes`` (other dimensions pass)."""
    full = [0] * ndims
    out = []
    for states in itertools.product(*(a.states for a in axes)):
        for a, ranks in zip(axes, states, strict=True):
            for p, r in zip(a.positions, ranks, strict=True):
                full[p] = r
        out.append(holds(full))
    return out


def _raises(a: Axis) -> list[tuple[int, int, int]]:
    """(state, state after, position raised) for every one-step worsening within an axis."""
    index = {c: i for i, c in enumerate(a.composition)}
    out = []
    for i, (p, w, b) in enumerate(a.composition):
        if p:  # the last pass becomes warn
            out.append((i, index[p - 1, w + 1, b], a.positions[p - 1]))
        if w:  # the last warn becomes block
            out.append((i, index[p, w - 1, b + 1], a.positions[p + w - 1]))
    return out


def _worsenings(table: ColumnTable, ndims: int, cost: list[int]) -> tuple[Worsening, ...]:
    by_index = table.by_index
    total = len(by_index)
    best: dict[tuple[int, int], tuple[int, int, int]] = {}
    stride = total
    for a in table.axes:
        radix = len(a.states)
        stride //= radix
        for base in range(0, total, radix * stride):
            for state, after_state, position in _raises(a):
                low, high = base + state * stride, base + after_state * stride
                before = by_index[low : low + stride]
                after = by_index[high : high + stride]
                if before == after:
                    continue
                for offset, (x, y) in enumerate(zip(before, after, strict=True)):
                    if x != y:
                        c = cost[low + offset]
                        found = best.get((x, y))
                        if found is None or c < found[0]:
                            best[x, y] = (c, low + offset, position)
    return tuple(
        Worsening(x, y, table.column(index, ndims), position, c)
        for (x, y), (c, index, position) in sorted(best.items())
    )
