"""Count panels by their count vectors: dynamic programming over the reviewers.

A decision depends only on which conditions fire, that is on each condition's count capped at
its threshold, and capping commutes with adding a reviewer (``min(min(c, t) + 1, t) =
min(c + 1, t)``). So the states are capped count vectors, at most ``prod(threshold + 1)`` of
them, and each layer adds one reviewer of every signature, weighted by how many columns (or
how much probability) that signature has. Matrices are ordered (reviewer ``j`` is a column
of its own), which the layer-by-layer product counts exactly, with Python's big integers.

A state is one integer with a bit field per condition holding how many more reviewers it needs
to fire (``threshold - capped count``), the field's top bit kept free. Adding a reviewer
decrements, with saturation at 0, the fields of the conditions its signature satisfies:
``state - (nonzero(state) & signature_bits)``, where ``nonzero`` is a carry trick on the top
bits. No per-condition loop runs in the inner loop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import attrs

from kernel.analysis.columns import Progress
from kernel.analysis.result import AnalysisTooLarge

__all__ = ["MAX_STATES", "Layers", "State", "spread"]

#: At most this many distinct count vectors per number of reviewers.
MAX_STATES: Final = 1_000_000

State = int


@attrs.frozen
class Layers:
    """The reachable capped count vectors after each number of reviewers."""

    caps: tuple[int, ...]
    width: int
    #: Per signature index: a 1 in the lowest bit of each field its conditions use.
    bits: tuple[int, ...]
    #: ``weights[j]``: state → total weight of the ordered panels of ``j`` reviewers reaching it.
    weights: tuple[Mapping[State, int], ...]
    #: ``best[j]``: state → (cost, parent state, signature index) of its simplest panel.
    best: tuple[Mapping[State, tuple[int, State, int]], ...]

    def counts(self, state: State) -> tuple[int, ...]:
        """The capped count per condition, in contract order."""
        mask = (1 << self.width) - 1
        return tuple(cap - (state >> (i * self.width) & mask) for i, cap in enumerate(self.caps))

    def nonzero(self, state: State) -> int:
        """A 1 in the lowest bit of every field of ``state`` that is not 0."""
        return _nonzero(state, len(self.caps), self.width)

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


def _fields(k: int, width: int, value: int) -> int:
    return sum(value << (i * width) for i in range(k))


def _nonzero(state: int, k: int, width: int) -> int:
    top = 1 << (width - 1)
    high = (state + _fields(k, width, top - 1)) & _fields(k, width, top)
    return high >> (width - 1)


def spread(
    signatures: Sequence[int],
    weights: Sequence[int],
    costs: Sequence[int],
    caps: Sequence[int],
    reviewers: int,
    progress: Progress | None = None,
    max_states: int = MAX_STATES,
) -> Layers:
    """Run the reviewers one by one; signatures of weight 0 are never used."""
    k = len(caps)
    width = max(caps, default=1).bit_length() + 1
    top = 1 << (width - 1)
    carry, high = _fields(k, width, top - 1), _fields(k, width, top)
    shift = width - 1
    bits = tuple(sum(1 << (i * width) for i in range(k) if sig >> i & 1) for sig in signatures)
    used = [(bits[i], weights[i], costs[i], i) for i, w in enumerate(weights) if w]
    start: State = sum(cap << (i * width) for i, cap in enumerate(caps))
    layer: dict[State, int] = {start: 1}
    best: dict[State, tuple[int, State, int]] = {start: (0, start, -1)}
    all_weights: list[Mapping[State, int]] = [layer]
    all_best: list[Mapping[State, tuple[int, State, int]]] = [best]
    for j in range(reviewers):
        if progress is not None:
            progress("panels", j / reviewers)
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
        all_weights.append(layer)
        all_best.append(best)
    return Layers(tuple(caps), width, bits, tuple(all_weights), tuple(all_best))
