"""Count panels by their count vectors: dynamic programming over the reviewers.

A decision depends only on which conditions fire. Condition ``i`` fires when at least
``threshold`` of the ``N`` reviewers satisfy its predicate, which a *field* of the state
tracks in one of two directions, whichever needs fewer values:

- *up*: how many more satisfying reviewers it needs (``cap - min(count, cap)``), or
- *down*: how many more non-satisfying reviewers it tolerates before it cannot fire
  (``cap - min(N - count, cap)`` with ``cap = N - threshold + 1``).

``any`` (threshold 1) and ``all`` (threshold ``N``) so cost two values each whatever ``N``;
only ``majority`` grows with the panel (``N // 2 + 1`` values). Conditions whose predicates
hold on exactly the same reviewer columns share one field. Capping commutes with adding a
reviewer (``min(min(c, t) + 1, t) = min(c + 1, t)``), so each layer adds one reviewer of
every signature to every state, weighted by how many columns (or how much probability) that
signature has: the panel costs ``N x states x signatures`` steps, polynomial in ``N``.
Matrices are ordered (reviewer ``j`` is a column of its own), which the layer-by-layer
product counts exactly, with Python's big integers.

A state is one integer with a bit field per field, the field's top bit kept free. Adding a
reviewer decrements, with saturation at 0, the fields its signature moves:
``state - (nonzero(state) & signature_bits)``, where ``nonzero`` is a carry trick on the top
bits. No per-field loop runs in the inner loop.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Final

import attrs

from kernel.analysis.budget import Budget, int_steps
from kernel.analysis.columns import Progress
from kernel.analysis.result import AnalysisTooLarge

__all__ = ["MAX_STATES", "PANEL_STEPS", "Field", "Layers", "State", "plan_fields", "spread"]

#: At most this many distinct count vectors per number of reviewers.
MAX_STATES: Final = 1_000_000

#: Budget steps per count vector extended by one signature (dictionary updates, big integers).
PANEL_STEPS: Final = 3

State = int


@attrs.frozen
class Field:
    """One counter of the state, read by the conditions in ``tests``."""

    #: A condition whose predicate this field counts (all sharing it hold on the same columns).
    condition: int
    #: ``True``: counts satisfying reviewers (up); ``False``: non-satisfying ones (down).
    up: bool
    cap: int
    #: (condition, least or most remaining value for which it fires).
    tests: tuple[tuple[int, int], ...]


def _fields_of(members: Sequence[int], thresholds: Sequence[int], n: int) -> list[Field]:
    """The cheapest fields for conditions whose predicates hold on the same columns."""
    ts = sorted({thresholds[i] for i in members})
    up_cap, down_cap = ts[-1], n - ts[0] + 1
    single = [min(t + 1, n - t + 2) for t in ts]
    if math.prod(single) < min(up_cap + 1, down_cap + 1):
        out: list[Field] = []
        for t in ts:
            out += _fields_of([i for i in members if thresholds[i] == t], thresholds, n)
        return out
    rep = members[0]
    if up_cap <= down_cap:
        return [Field(rep, True, up_cap, tuple((i, up_cap - thresholds[i]) for i in members))]
    return [Field(rep, False, down_cap, tuple((i, thresholds[i] - ts[0] + 1) for i in members))]


def plan_fields(
    signatures: Sequence[int], thresholds: Sequence[int], reviewers: int
) -> tuple[Field, ...]:
    """Fields for the conditions, given the signatures that occur."""
    groups: dict[tuple[bool, ...], list[int]] = {}
    for i in range(len(thresholds)):
        groups.setdefault(tuple(bool(s >> i & 1) for s in signatures), []).append(i)
    fields: list[Field] = []
    for members in groups.values():
        fields += _fields_of(members, thresholds, reviewers)
    return tuple(fields)


@attrs.frozen
class Layers:
    """The reachable capped count vectors after each number of reviewers."""

    fields: tuple[Field, ...]
    conditions: int
    width: int
    #: Per signature index: a 1 in the lowest bit of each field it moves.
    bits: tuple[int, ...]
    #: State → total weight of the ordered panels of all the reviewers reaching it.
    final: Mapping[State, int]
    #: ``best[j]``: state → (cost, parent state, signature index) of its simplest panel of
    #: ``j`` reviewers.
    best: tuple[Mapping[State, tuple[int, State, int]], ...]

    def fired(self, state: State) -> tuple[bool, ...]:
        """Which conditions fire, in contract order."""
        mask = (1 << self.width) - 1
        out = [False] * self.conditions
        for f, field in enumerate(self.fields):
            left = state >> (f * self.width) & mask
            for i, bound in field.tests:
                out[i] = left <= bound if field.up else left >= bound
        return tuple(out)

    def nonzero(self, state: State) -> int:
        """A 1 in the lowest bit of every field of ``state`` that is not 0."""
        return _nonzero(state, len(self.fields), self.width)

    def witness(self, reviewers: int, state: State) -> list[int]:
        """Signature indices of the simplest panel of ``reviewers`` reaching ``state``."""
        sigs: list[int] = []
        for j in range(reviewers, 0, -1):
            _, state, si = self.best[j][state]
            sigs.append(si)
        sigs.reverse()
        return sigs

    def cost(self, reviewers: int, state: State) -> int:
        return self.best[reviewers][state][0]


def _ones(k: int, width: int, value: int) -> int:
    return sum(value << (i * width) for i in range(k))


def _nonzero(state: int, k: int, width: int) -> int:
    top = 1 << (width - 1)
    high = (state + _ones(k, width, top - 1)) & _ones(k, width, top)
    return high >> (width - 1)


def _state_bounds(fields: Sequence[Field], patterns: int, reviewers: int) -> list[int]:
    """Per number of reviewers ``j < reviewers``: at most how many count vectors there are
    (every combination of field values, or every multiset of ``j`` signature patterns)."""
    full = math.prod(f.cap + 1 for f in fields)
    out: list[int] = []
    for j in range(reviewers):
        n = full if out and out[-1] == full else min(full, math.comb(patterns + j - 1, j))
        out.append(n)
    return out


def spread(
    signatures: Sequence[int],
    weights: Sequence[int],
    costs: Sequence[int],
    thresholds: Sequence[int],
    reviewers: int,
    progress: Progress | None = None,
    max_states: int = MAX_STATES,
    budget: Budget | None = None,
) -> Layers:
    """Run the reviewers one by one; signatures of weight 0 are never used."""
    budget = Budget() if budget is None else budget
    live_sigs = [s for s, w in zip(signatures, weights, strict=True) if w]
    fields = plan_fields(live_sigs, thresholds, reviewers)
    k = len(fields)
    width = max((f.cap for f in fields), default=1).bit_length() + 1
    top = 1 << (width - 1)
    carry, high = _ones(k, width, top - 1), _ones(k, width, top)
    shift = width - 1
    bits = tuple(
        sum(
            1 << (f * width)
            for f, fl in enumerate(fields)
            if bool(sig >> fl.condition & 1) == fl.up
        )
        for sig in signatures
    )
    used = [(bits[i], weights[i], costs[i], i) for i, w in enumerate(weights) if w]
    # One reviewer multiplies a weight by at most ``total``: the bits the integers grow by.
    growth = max(sum(weights).bit_length(), 1)

    def layer_cost(states: int, j: int) -> int:
        return states * int_steps(j * growth) * len(used) * PANEL_STEPS

    what = f"a panel of {reviewers} reviewers over {len(used)} reviewer signatures"
    budget.check(layer_cost(1, 0) * reviewers, f"{what}: at least one count vector each, so")
    bounds = _state_bounds(fields, len({b for b, *_ in used}), reviewers)
    upper = sum(layer_cost(x, j) for j, x in enumerate(bounds))
    start: State = sum(f.cap << (i * width) for i, f in enumerate(fields))
    layer: dict[State, int] = {start: 1}
    best: dict[State, tuple[int, State, int]] = {start: (0, start, -1)}
    all_best: list[Mapping[State, tuple[int, State, int]]] = [best]
    for j in range(reviewers):
        if progress is not None:
            progress("panels", j / reviewers)
        if upper > budget.remaining:
            # Assume the layers to come are no smaller than this one (within their bounds).
            ahead = sum(
                layer_cost(min(len(layer), bounds[i]), i) for i in range(j + 1, reviewers)
            )
            budget.check(
                layer_cost(len(layer), j) + ahead,
                f"{what}: {len(layer)} count vectors after {j} reviewers, so about",
            )
        budget.charge(
            layer_cost(len(layer), j),
            f"reviewer {j + 1} of {reviewers}: {len(layer)} count vectors x {len(used)} signatures",
        )
        new: dict[State, int] = {}
        new_best: dict[State, tuple[int, State, int]] = {}
        get, get_best = new.get, new_best.get
        for state, weight in layer.items():
            base = best[state][0]
            live = ((state + carry) & high) >> shift
            for b, w, c, si in used:
                nxt = state - (live & b)
                new[nxt] = get(nxt, 0) + weight * w
                cost = base + c
                found = get_best(nxt)
                if found is None or cost < found[0]:
                    new_best[nxt] = (cost, state, si)
        if len(new) > max_states:
            raise AnalysisTooLarge(
                f"{len(new)} distinct count vectors after {j + 1} reviewers; the analyzer "
                f"handles at most {max_states}"
            )
        layer, best = new, new_best
        all_best.append(best)
    return Layers(fields, len(thresholds), width, bits, layer, tuple(all_best))
