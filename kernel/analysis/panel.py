"""Count panels by their count vectors: dynamic programming over the reviewers.

A decision depends only on which conditions fire, that is on each condition's count capped at
its threshold, and capping commutes with adding a reviewer (``min(min(c, t) + 1, t) =
min(c + 1, t)``). So the states are capped count vectors, at most ``prod(threshold + 1)`` of
them, and each layer adds one reviewer of every signature, weighted by how many columns (or
how much probability) that signature has. Matrices are ordered (reviewer ``j`` is a column
of its own), which the layer-by-layer product counts exactly, with Python's big integers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from kernel.analysis.columns import Progress

__all__ = ["Layers", "State", "spread"]

State = tuple[int, ...]


@attrs.frozen
class Layers:
    """The reachable capped count vectors after each number of reviewers."""

    #: ``weights[j]``: state → total weight of the ordered panels of ``j`` reviewers reaching it.
    weights: tuple[Mapping[State, int], ...]
    #: ``best[j]``: state → (cost, parent state, signature index) of its simplest panel.
    best: tuple[Mapping[State, tuple[int, State, int]], ...]
    #: (state, signature index) → next state.
    step: Mapping[tuple[State, int], State]

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


def spread(
    signatures: Sequence[int],
    weights: Sequence[int],
    costs: Sequence[int],
    caps: Sequence[int],
    reviewers: int,
    progress: Progress | None = None,
) -> Layers:
    """Run the reviewers one by one; signatures of weight 0 are never used."""
    k = len(caps)
    used = [i for i, w in enumerate(weights) if w]
    increments = [tuple((signatures[i] >> c) & 1 for c in range(k)) for i in range(len(weights))]
    zero: State = (0,) * k
    layer: dict[State, int] = {zero: 1}
    best: dict[State, tuple[int, State, int]] = {zero: (0, zero, -1)}
    all_weights: list[Mapping[State, int]] = [layer]
    all_best: list[Mapping[State, tuple[int, State, int]]] = [best]
    step: dict[tuple[State, int], State] = {}
    for j in range(reviewers):
        if progress is not None:
            progress("panels", j / reviewers)
        new: dict[State, int] = {}
        new_best: dict[State, tuple[int, State, int]] = {}
        for state, weight in layer.items():
            base = best[state][0]
            for si in used:
                key = (state, si)
                nxt = step.get(key)
                if nxt is None:
                    inc = increments[si]
                    nxt = step[key] = tuple(
                        min(a + b, cap) for a, b, cap in zip(state, inc, caps, strict=True)
                    )
                new[nxt] = new.get(nxt, 0) + weight * weights[si]
                cost = base + costs[si]
                found = new_best.get(nxt)
                if found is None or cost < found[0]:
                    new_best[nxt] = (cost, state, si)
        layer, best = new, new_best
        all_weights.append(layer)
        all_best.append(best)
    return Layers(tuple(all_weights), tuple(all_best), step)
