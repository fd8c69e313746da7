"""Exact counts of (old action, new action) over every Schema 13 matrix, without enumerating
the matrices.

The old decision reads columns (one reviewer's scores, R3); the 13.2 decision reads rows (one
dimension's eligible seats). The count runs over the old panel's reviewers one at a time,
each reviewer's column grouped into classes that neither decision tells apart: the set of
old conditions the column satisfies, and for each dimension the seat is eligible on, which
atoms its (mapped) value satisfies. The state after some reviewers is: per old condition, how
many reviewers satisfied it (capped at its threshold); per dimension still open, how many of
its seats gave each class of value; per 13.2 atom, what its finished dimensions already say
(any, every, two or more). A dimension is folded into its atoms as soon as its last eligible
seat is counted, and the reviewers are taken in the order that keeps the fewest dimensions
open. The weight of a state is its number of matrices (or, under a prior, their probability
as an integer over a common denominator); each state also keeps its cheapest matrix, so that
every (old, new) pair gets its simplest example.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any, Final, cast

import attrs

from kernel.analysis.budget import Budget, int_steps
from kernel.analysis.columns import column_cost
from kernel.contract.model import Contract
from kernel.contract.quantifiers import threshold, winner

__all__ = ["Counted", "count_pairs"]

#: An action pair: (old action, new action); ``None`` is "no decision".
Pair = tuple[str | None, str | None]
_Weights = Sequence[tuple[int, int, int]]

#: What one (state x column class) step costs against the analyzer's budget: measured, it
#: takes about as long as twelve of the analyzer's steps.
STEP_COST: Final = 12
#: What evaluating one old condition on one reviewer column costs, in the same steps.
COLUMN_COST: Final = 10


@attrs.frozen
class Counted:
    """Per action pair, the weight of its matrices and its cheapest matrix (columns of ranks
    in old reviewer order; only when examples were asked for)."""

    weights: dict[Pair, int]
    examples: dict[Pair, tuple[tuple[int, ...], ...]]
    #: Per pair whose action changes, the weight of its matrices decided by the same
    #: condition (by id) under both contracts: the action changes only by its new name.
    renamed: dict[Pair, int] = attrs.field(factory=dict)


@attrs.frozen
class _Class:
    sigma: int
    cats: tuple[int, ...]
    weight: int
    cost: int
    column: tuple[int, ...]


@attrs.frozen
class _Atom:
    condition: int
    seats: frozenset[str]
    across: str
    quantifier: str
    scope: tuple[int, ...]


def _seat_value(priority: str, rank: int, fatal: bool) -> str:
    if rank < 2:
        return ("pass", "warn")[rank]
    if priority != "mandatory":
        return "block"
    return "block:fatal" if fatal else "block:repairable"


def seat_value(new: Contract, position: int, rank: int, fatal: frozenset[str]) -> str:
    """What a 13 score of ``rank`` on the dimension at ``position`` becomes under 13.2."""
    d = new.dimensions[position]
    return _seat_value(d.priority, rank, d.id in fatal)


def count_pairs(
    old: Contract,
    new: Contract,
    seats: Sequence[str | None],
    fatal: frozenset[str],
    budget: Budget,
    weights: _Weights | None = None,
    examples: bool = True,
) -> Counted:
    """Weights of the action pairs over every old matrix (see the module docstring).

    ``weights[p]`` are the (pass, warn, block) weights of dimension ``p`` (default 1 each:
    counts). The work is charged to ``budget`` before each step is done.
    """
    ndims, panel = len(old.dimensions), old.panel_size
    w = list(weights) if weights is not None else [(1, 1, 1)] * ndims
    old_conds = old.conditions
    caps = tuple(c.threshold for c in old_conds)
    old_reads = sorted(set().union(*(c.predicate.reads for c in old_conds)))
    eligible = [
        [j for j in range(panel) if seats[j] is not None and seats[j] in d.eligible_roles]
        for d in new.dimensions
    ]
    unassessed = any(not e for e in eligible)
    atoms = (
        []
        if unassessed
        else [
            _Atom(i, a.seats, a.across, c.quantifier, scope)
            for i, c in enumerate(new.conditions)
            for a, scope in zip(c.expression.atoms, c.predicate.scopes, strict=True)
        ]
    )
    per_dim = [[k for k, a in enumerate(atoms) if p in a.scope] for p in range(ndims)]
    # Per dimension and score rank: the class of the mapped value (which atoms it satisfies).
    cat_of: list[tuple[int, ...]] = []
    cat_bits: list[list[tuple[bool, ...]]] = []
    for p in range(ndims):
        sigs = [
            tuple(seat_value(new, p, r, fatal) in atoms[k].seats for k in per_dim[p])
            for r in range(3)
        ]
        distinct = list(dict.fromkeys(sigs))
        cat_of.append(tuple(distinct.index(s) for s in sigs))
        cat_bits.append(distinct)
    live = [p for p in range(ndims) if per_dim[p]]
    order = _order(panel, {p: set(eligible[p]) for p in live})
    last = {p: max(eligible[p], key=order.index) for p in live}
    need = {
        (p, k): threshold(atoms[k].quantifier, len(eligible[p])) for p in live for k in per_dim[p]
    }

    def fold(acc: list[int], k: int, held: bool) -> None:
        across = atoms[k].across
        if across == "any":
            acc[k] |= held
        elif across == "every":
            acc[k] &= held
        else:
            acc[k] = min(acc[k] + held, 2)

    results: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, bool], ...]] = {}

    def finished(p: int, comp: tuple[int, ...]) -> tuple[tuple[int, bool], ...]:
        """Whether each atom holds on dimension ``p`` whose seats gave ``comp`` (per class)."""
        found = results.get((p, comp))
        if found is None:
            found = results[p, comp] = tuple(
                (
                    k,
                    sum(x for x, bits in zip(comp, cat_bits[p], strict=True) if bits[slot])
                    >= need[p, k],
                )
                for slot, k in enumerate(per_dim[p])
            )
        return found

    start_acc = tuple(1 if a.across == "every" else 0 for a in atoms)
    # A state is one int: the interned old part (reviewer counts) in the high bits, the
    # interned new part (open dimensions' seat counts, atoms' partial results) in the low.
    olds = _Interned()
    news = _Interned()
    state0 = olds.id((0,) * len(caps)) << _SHIFT | news.id((start_acc, ()))
    current: dict[int, int] = {state0: 1}
    costs: dict[int, int] = {state0: 0}
    #: Per reviewer taken: state -> (previous state, column class) of its cheapest matrix.
    layers: list[dict[int, tuple[int, int]]] = []
    open_dims: list[int] = []
    classes_of: list[list[_Class]] = []
    step_old = _old_step(caps)
    #: Per list of column classes' old signatures: old part -> the next old parts.
    old_tables: dict[tuple[int, ...], dict[int, list[int]]] = {}
    class_tables: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[list[_Class], int]] = {}
    #: The weight of the dimensions no decision reads in a reviewer's column is the same for
    #: every column class: it multiplies the totals once, at the end (the states' weights
    #: stay small integers).
    free_weight = 1
    #: Bits of the states' weights so far: an addition of such integers costs int_steps.
    bits = 0
    for j in order:
        mine = [p for p in live if j in eligible[p]]
        relevant = sorted(set(old_reads) | set(mine))
        tabled = class_tables.get((tuple(relevant), tuple(mine)))
        if tabled is None:  # reviewers whose seats read the same dimensions share them
            budget.charge(
                3 ** len(relevant) * (COLUMN_COST * (len(old_conds) + len(mine) + 1)),
                f"{old.contract_id}: reviewer {j + 1}'s {3 ** len(relevant):,} columns",
            )
            tabled = _classes(old, ndims, relevant, mine, cat_of, w)
            class_tables[tuple(relevant), tuple(mine)] = tabled
        classes, free = tabled
        free_weight *= free
        class_bits = sum(sum(w[p]).bit_length() for p in relevant)
        bits += class_bits
        size = int_steps(bits) * int_steps(class_bits)
        classes_of.append(classes)
        mid = sorted(set(open_dims) | set(mine))
        done = [p for p in mine if last[p] == j]
        after = [p for p in mid if p not in done]
        # The new parts' next values are computed once per (new part, column class), at a
        # cost that grows with the open dimensions and the atoms they finish.
        new_parts = len({state & _MASK for state in current})
        new_cost = STEP_COST * (1 + len(mid) + sum(len(per_dim[p]) for p in done))
        budget.charge(
            len(current) * len(classes) * STEP_COST * size + new_parts * len(classes) * new_cost,
            f"{old.contract_id}: {len(current):,} states x {len(classes):,} column classes "
            f"at reviewer {j + 1}",
        )

        def step_new(
            state: tuple[tuple[int, ...], tuple[tuple[int, ...], ...]],
            cats: tuple[int, ...],
            open_before: Sequence[int] = tuple(open_dims),
            mine: Sequence[int] = mine,
            done: Sequence[int] = done,
            after: Sequence[int] = after,
        ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
            acc_in, comps_in = state
            comps = dict(zip(open_before, comps_in, strict=True))
            for p, c in zip(mine, cats, strict=True):
                comp = comps.get(p) or (0,) * len(cat_bits[p])
                comps[p] = (*comp[:c], comp[c] + 1, *comp[c + 1 :])
            acc = list(acc_in)
            for p in done:
                for k, held in finished(p, comps[p]):
                    fold(acc, k, held)
            return tuple(acc), tuple(comps[p] for p in after)

        sigmas = [c.sigma for c in classes]
        cats = [c.cats for c in classes]
        weights_c = [c.weight for c in classes]
        costs_c = [c.cost for c in classes]
        span = range(len(classes))
        nexts_old = old_tables.setdefault(tuple(sigmas), {})
        nexts_new: dict[int, list[int]] = {}
        following: dict[int, int] = {}
        cheapest: dict[int, int] = {}
        back: dict[int, tuple[int, int]] = {}
        for state, weight in current.items():
            oid, nid = state >> _SHIFT, state & _MASK
            ol = nexts_old.get(oid)
            if ol is None:
                counts = olds.values[oid]
                ol = nexts_old[oid] = [olds.id(step_old(counts, x)) << _SHIFT for x in sigmas]
            nl = nexts_new.get(nid)
            if nl is None:
                part = news.values[nid]
                nl = nexts_new[nid] = [news.id(step_new(part, x)) for x in cats]
            if examples:
                base = costs[state]
                for ci in span:
                    key = ol[ci] | nl[ci]
                    following[key] = following.get(key, 0) + weight * weights_c[ci]
                    cost = base + costs_c[ci]
                    found = cheapest.get(key)
                    if found is None or cost < found:
                        cheapest[key] = cost
                        back[key] = (state, ci)
            else:
                for ci in span:
                    key = ol[ci] | nl[ci]
                    following[key] = following.get(key, 0) + weight * weights_c[ci]
        layers.append(back)
        current, costs, open_dims = following, cheapest, after
    old_action = _old_action(old, caps)
    new_action = _new_action(new, atoms, unassessed)
    # Keyed by the pair and whether one condition (by id) decided both: then the action
    # changes only by the migration's new name for that condition's action.
    totals: dict[tuple[Pair, bool], int] = {}
    best: dict[tuple[Pair, bool], tuple[int, int]] = {}
    for state, weight in current.items():
        new_part = cast(tuple[object, object], news.values[state & _MASK])
        old_decided, old_by = old_action(olds.values[state >> _SHIFT])
        new_decided, new_by = new_action(new_part[0])
        split = (old_decided, new_decided), old_by is not None and old_by == new_by
        totals[split] = totals.get(split, 0) + weight
        if examples:
            total_cost = costs[state]
            kept = best.get(split)
            if kept is None or total_cost < kept[0]:
                best[split] = (total_cost, state)
    budget.charge(
        len(totals) * int_steps(free_weight.bit_length()),
        f"{old.contract_id}: {len(totals)} totals",
    )
    weights_out: dict[Pair, int] = {}
    renamed: dict[Pair, int] = {}
    for (pair, same), weight in totals.items():
        weights_out[pair] = weights_out.get(pair, 0) + weight * free_weight
        if same and pair[0] != pair[1]:
            renamed[pair] = weight * free_weight
    chosen: dict[Pair, int] = {}
    for (pair, _), (_, state) in sorted(best.items(), key=lambda kv: kv[0][1]):
        chosen.setdefault(pair, state)  # a matrix decided differently, when the pair has one
    found_examples = {}
    for pair, state in chosen.items():
        columns: list[tuple[int, ...]] = [(0,) * ndims] * panel
        for t in range(len(order) - 1, -1, -1):
            state, ci = layers[t][state]
            columns[order[t]] = classes_of[t][ci].column
        found_examples[pair] = tuple(columns)
    return Counted(weights_out, found_examples, renamed)


#: Bits of a state int that hold the interned new part.
_SHIFT: Final = 40
_MASK: Final = (1 << _SHIFT) - 1


class _Interned:
    """Values numbered in the order first seen (a state is two such numbers in one int)."""

    def __init__(self) -> None:
        self.ids: dict[object, int] = {}
        self.values: list[Any] = []

    def id(self, value: object) -> int:
        found = self.ids.get(value)
        if found is None:
            found = self.ids[value] = len(self.values)
            self.values.append(value)
        return found


def _order(panel: int, eligible: dict[int, set[int]]) -> list[int]:
    """Reviewers in the order that keeps the fewest dimensions open (started, not finished):
    first those with no seat on any dimension (they open none), then the seated ones, at
    most one per role, each time the one that leaves the fewest open."""
    seated = set().union(*eligible.values())
    order = [j for j in range(panel) if j not in seated]
    left = set(seated)
    remaining = {p: len(s) for p, s in eligible.items()}
    opened: set[int] = set()
    while left:

        def cost(j: int) -> tuple[int, int]:
            touched = {p for p, s in eligible.items() if j in s}
            closing = {p for p in touched if remaining[p] == 1}
            return len((opened | touched) - closing), j

        j = min(left, key=cost)
        left.discard(j)
        order.append(j)
        for p, s in eligible.items():
            if j in s:
                remaining[p] -= 1
                opened.add(p)
                if remaining[p] == 0:
                    opened.discard(p)
    return order


def _classes(
    old: Contract,
    ndims: int,
    relevant: Sequence[int],
    mine: Sequence[int],
    cat_of: Sequence[tuple[int, ...]],
    weights: _Weights,
) -> tuple[list[_Class], int]:
    """The reviewer's column classes, and the weight of the dimensions outside
    ``relevant`` (one factor of every class's weight, left out of it)."""
    free = math.prod(sum(weights[p]) for p in range(ndims) if p not in set(relevant))
    found: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    columns: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
    for ranks in itertools.product(range(3), repeat=len(relevant)):
        column = [0] * ndims
        for p, r in zip(relevant, ranks, strict=True):
            column[p] = r
        weight = math.prod(weights[p][r] for p, r in zip(relevant, ranks, strict=True))
        if not weight:
            continue
        sigma = sum(1 << i for i, c in enumerate(old.conditions) if c.predicate.holds(column))
        key = (sigma, tuple(cat_of[p][column[p]] for p in mine))
        cost = column_cost(column)
        entry = found.get(key)
        if entry is None:
            found[key] = [weight, cost]
            columns[key] = tuple(column)
        else:
            entry[0] += weight
            if cost < entry[1]:
                entry[1] = cost
                columns[key] = tuple(column)
    classes = [
        _Class(sigma, cats, weight, cost, columns[sigma, cats])
        for (sigma, cats), (weight, cost) in found.items()
    ]
    return classes, free


def _old_step(caps: tuple[int, ...]) -> Callable[[tuple[int, ...], int], tuple[int, ...]]:
    """The old conditions' reviewer counts after one more reviewer whose column satisfies the
    conditions of ``sigma`` (capped at each threshold); remembered across reviewers."""
    seen: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
    bits: dict[int, tuple[int, ...]] = {}

    def step(counts: tuple[int, ...], sigma: int) -> tuple[int, ...]:
        found = seen.get((counts, sigma))
        if found is None:
            add = bits.get(sigma)
            if add is None:
                add = bits[sigma] = tuple(sigma >> i & 1 for i in range(len(caps)))
            found = seen[counts, sigma] = tuple(map(min, map(operator.add, counts, add), caps))
        return found

    return step


#: An action and the id of the condition that decided it (``None``: the R5 fallback, or
#: no decision).
_Decided = tuple[str | None, str | None]


def _old_action(old: Contract, caps: tuple[int, ...]) -> Callable[[object], _Decided]:
    def action(counts: object) -> _Decided:
        fired = [n >= cap for n, cap in zip(counts, caps, strict=True)]  # type: ignore[call-overload]
        return _action(old, fired)

    return action


def _new_action(
    new: Contract, atoms: Sequence[_Atom], unassessed: bool
) -> Callable[[object], _Decided]:
    def action(acc: object) -> _Decided:
        if unassessed:
            return None, None
        fired = [True] * len(new.conditions)
        for k, a in enumerate(atoms):
            value = acc[k]  # type: ignore[index]
            held = value >= 2 if a.across == "two" else value == 1
            fired[a.condition] = fired[a.condition] and held
        return _action(new, fired)

    return action


def _action(contract: Contract, fired: Sequence[bool]) -> _Decided:
    position = winner(contract.precedence, fired)
    if position is not None:
        return contract.conditions[position].action, contract.conditions[position].condition_id
    if contract.fallback is None:
        return None, None
    return contract.conditions[contract.fallback].action, None
