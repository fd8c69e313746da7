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
import math
from collections.abc import Callable, Hashable, Sequence
from typing import Final

import attrs

from kernel.analysis.budget import Budget
from kernel.analysis.result import AnalysisTooLarge
from kernel.contract.model import Condition, Contract
from kernel.errors import ContractError
from kernel.expression.ast import (
    SCORE_RANK,
    AnyAtom,
    AnyScores,
    Atom,
    DimensionScores,
    EveryScores,
    TwoOrMore,
)

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


def _axes(
    contract: Contract,
    conditions: Sequence[Condition],
    group: Sequence[Hashable] | None,
    also: Contract | None,
) -> list[Axis]:
    named: set[int] = set()
    read: set[int] = set()
    for c in conditions:
        read |= c.predicate.reads
        for atom in c.expression.atoms:
            if isinstance(atom, DimensionScores):
                named.add(contract.dimension(atom.dimension).position)
    groups: dict[Hashable, list[int]] = {}
    for p in sorted(read - named):
        key = (
            contract.dimensions[p].priority,
            None if group is None else group[p],
            None if also is None else also.dimensions[p].priority,
        )
        groups.setdefault(key, []).append(p)
    axes = [_axis([p]) for p in sorted(named)] + [_axis(ps) for ps in groups.values()]
    return sorted(axes, key=lambda a: a.positions)


def _sources(contract: Contract, also: Contract | None) -> list[tuple[Condition, Contract]]:
    own = [(c, contract) for c in contract.conditions]
    return own if also is None else own + [(c, also) for c in also.conditions]


def column_table(
    contract: Contract,
    progress: Progress | None = None,
    group: Sequence[Hashable] | None = None,
    budget: Budget | None = None,
    also: Contract | None = None,
) -> ColumnTable:
    """Enumerate the column classes. ``group[p]``: dimensions of one priority are
    interchangeable only when their ``group`` values are equal (e.g. their score
    distributions).

    ``also``: a second contract over the same dimensions in the same order (a diff); its
    conditions get the signature bits after the contract's own (the joint signatures).
    """
    ndims = len(contract.dimensions)
    sources = _sources(contract, also)
    axes = _axes(contract, [c for c, _ in sources], group, also)
    total = math.prod(len(a.states) for a in axes)
    if total > MAX_CLASSES:
        raise AnalysisTooLarge(
            f"{contract.contract_id}: {total} classes of reviewer columns to enumerate "
            f"(dimensions named by id count 3 each); the analyzer handles at most {MAX_CLASSES}"
        )
    tables = [
        _atom_positions(_schema13(atom), owner)
        for c, owner in sources
        for atom in c.expression.atoms
    ]
    (Budget() if budget is None else budget).charge(
        total * (len(sources) + 3 * len(axes) + 8) + sum(_size(axes, ps) for ps in tables) * 2,
        f"{contract.contract_id}: {total} classes of reviewer columns x {len(sources)} conditions",
    )
    cost = [0]
    mult = [1]
    for a in axes:
        costs = [column_cost(s) for s in a.states]
        cost = [x + c for x in cost for c in costs]
        mult = [x * m for x in mult for m in a.multiplicity]
    sig = [0] * total
    everything = list(range(len(axes)))
    for i, (condition, owner) in enumerate(sources):
        if progress is not None:
            progress("columns", i / len(sources))
        truth = _predicate_table(condition, owner, axes)
        bit = 1 << i
        sig = [
            s | bit if t else s
            for s, t in zip(sig, _broadcast(truth, axes, everything), strict=True)
        ]
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


#: A function of some axes' states: (axis indices, ascending; values in mixed radix over them).
_Table = tuple[list[int], list[int]]


def columns_of(contract: Contract, what: str) -> Contract:
    """``contract`` when its conditions read reviewers' columns (Schema 13); a dialect 13.2
    contract, decided per dimension, is a :class:`ContractError` naming ``what``."""
    if contract.dialect != "13":
        raise ContractError(
            f"{contract.contract_id}: {what} reads reviewers' columns, which a Schema "
            f"{contract.dialect} contract does not have (it is decided per dimension)"
        )
    return contract


def _schema13(atom: AnyAtom) -> Atom:
    if not isinstance(atom, AnyScores | TwoOrMore | EveryScores | DimensionScores):
        raise ContractError(f"{atom}: the column analysis reads Schema 13 atoms only")
    return atom


def _atom_positions(atom: Atom, owner: Contract) -> frozenset[int]:
    if isinstance(atom, DimensionScores):
        return frozenset({owner.dimension(atom.dimension).position})
    return frozenset(d.position for d in owner.dimensions if d.priority == atom.priority)


def _touched(axes: Sequence[Axis], positions: frozenset[int]) -> list[int]:
    return [k for k, a in enumerate(axes) if not positions.isdisjoint(a.positions)]


def _size(axes: Sequence[Axis], positions: frozenset[int]) -> int:
    return math.prod(len(axes[k].states) for k in _touched(axes, positions))


def _atom_table(atom: Atom, positions: frozenset[int], axes: Sequence[Axis]) -> _Table:
    """An atom's truth (R3 forms 1 to 4) over the axes holding its dimensions, built axis by
    axis: ``any`` ORs, ``every`` ANDs, ``two or more`` adds counts capped at 2."""
    rank = SCORE_RANK[atom.score]
    touched = _touched(axes, positions)
    every = isinstance(atom, EveryScores)
    two = isinstance(atom, TwoOrMore)
    values = [1 if every else 0]
    for k in touched:
        a = axes[k]
        mine = [j for j, p in enumerate(a.positions) if p in positions]
        if two:
            part = [min(sum(1 for j in mine if st[j] >= rank), 2) for st in a.states]
            values = [min(x + y, 2) for x in values for y in part]
        elif every:
            part = [int(all(st[j] == rank for j in mine)) for st in a.states]
            values = [x & y for x in values for y in part]
        else:
            part = [int(any(st[j] == rank for j in mine)) for st in a.states]
            values = [x | y for x in values for y in part]
    if two:
        values = [int(x >= 2) for x in values]
    return touched, values


def _broadcast(table: _Table, axes: Sequence[Axis], onto: Sequence[int]) -> list[int]:
    """``table``'s values over the axes ``onto`` (a superset of its own, ascending)."""
    own, values = table
    mine = set(own)
    project = [0]
    for k in onto:
        radix = range(len(axes[k].states))
        if k in mine:
            project = [x * len(radix) + r for x in project for r in radix]
        else:
            project = [x for x in project for _ in radix]
    return [values[x] for x in project]


def _predicate_table(condition: Condition, owner: Contract, axes: Sequence[Axis]) -> _Table:
    """The conjunction of the condition's atoms over the axes any of them touches."""
    atoms = [
        _atom_table(a, _atom_positions(a, owner), axes)
        for a in map(_schema13, condition.expression.atoms)
    ]
    onto = sorted({k for own, _ in atoms for k in own})
    values = [1] * math.prod(len(axes[k].states) for k in onto)
    for t in atoms:
        values = [x & y for x, y in zip(values, _broadcast(t, axes, onto), strict=True)]
    return onto, values


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
