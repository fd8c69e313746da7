"""Monotonicity: can worsening one score make the action more lenient?

Worsening one score by one step changes one reviewer's signature ``s`` into ``s'`` (a
:class:`~kernel.analysis.columns.Worsening`) and leaves the other ``N - 1`` reviewers alone.
So the contract is non-monotone exactly when, for some reachable state ``R`` of ``N - 1``
reviewers, ``R + s'`` gets a more lenient action than ``R + s``. One-step changes suffice: a
two-step change (pass → block) that lowers the action passes through warn, and one of its
two steps lowers it too.
"""

from __future__ import annotations

from collections.abc import Mapping

from kernel.analysis.columns import ColumnTable, Progress
from kernel.analysis.panel import Layers, State

__all__ = ["find_violation"]


def find_violation(
    table: ColumnTable,
    layers: Layers,
    ranks: Mapping[State, int | None],
    reviewers: int,
    progress: Progress | None = None,
) -> tuple[State, int] | None:
    """The simplest (others' state, worsening index) that lowers the action rank, if any.

    ``ranks`` maps each full-panel state to its action rank (``None``: no decision).
    """
    best: tuple[int, State, int] | None = None
    bits = layers.bits
    others = layers.best[reviewers - 1]
    for done, state in enumerate(others):
        if progress is not None and done % 4096 == 0:
            progress("monotonicity", done / len(others))
        base = layers.cost(reviewers - 1, state)
        live = layers.nonzero(state)
        for which, change in enumerate(table.worsenings):
            before = ranks[state - (live & bits[change.before])]
            after = ranks[state - (live & bits[change.after])]
            if before is None or after is None or after >= before:
                continue
            cost = base + change.cost
            if best is None or cost < best[0]:
                best = (cost, state, which)
    return None if best is None else (best[1], best[2])
