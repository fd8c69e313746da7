"""What :func:`~kernel.analysis.diff.analyze_diff` returns, for either dialect: the
transitions between two contracts' outcomes and a counterexample for each. Apart from
:mod:`kernel.analysis.result` so that an analysis that diffs nothing does not build them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from kernel.analysis.result import Example, Matrix

__all__ = ["Counterexample", "Diff", "Transition"]


def _decision(e: Example) -> dict[str, Any]:
    out = e.to_dict()
    del out["matrix"]
    return out


@attrs.frozen
class Counterexample:
    """A matrix with the fewest non-``pass`` scores that makes its transition, decided by
    :func:`kernel.decision.decide` under both contracts."""

    matrix: Matrix
    old: Example
    new: Example

    def to_dict(self) -> dict[str, Any]:
        return {
            "matrix": {
                d: dict(row) if isinstance(row, Mapping) else list(row)
                for d, row in self.matrix.items()
            },
            "old": _decision(self.old),
            "new": _decision(self.new),
        }


@attrs.frozen
class Transition:
    """The matrices decided by ``old`` under the old contract and by ``new`` under the new one
    (outcome = deciding condition id, or ``none``)."""

    old: str
    new: str
    #: The actions taken (for ``none``: the fallback's, or ``None`` where decide refuses).
    old_action: str | None
    new_action: str | None
    matrices: int
    counterexample: Counterexample

    def to_dict(self) -> dict[str, Any]:
        return {
            "old": self.old,
            "new": self.new,
            "old_action": self.old_action,
            "new_action": self.new_action,
            "matrices": self.matrices,
            "counterexample": self.counterexample.to_dict(),
        }


@attrs.frozen
class Diff:
    old_id: str
    new_id: str
    dimensions: int
    panel_size: int
    space: int
    #: Matrices whose outcome differs (``F3`` → ``F2`` counts even when both actions agree).
    changed: int
    #: Matrices whose action differs (a subset of ``changed``).
    action_changed: int
    #: Outcome keys: each contract's condition ids in contract order, then ``none``.
    old_outcomes: tuple[str, ...]
    new_outcomes: tuple[str, ...]
    #: Every transition with at least one matrix, in old then new outcome order.
    rows: tuple[Transition, ...]
    #: ``"13"``, or ``"13.2"``: then :attr:`space` counts every value of every eligible seat.
    dialect: str = "13"

    @property
    def transitions(self) -> Mapping[tuple[str, str], int]:
        """(old outcome, new outcome) → number of matrices; pairs with none are left out."""
        return {(t.old, t.new): t.matrices for t in self.rows}

    @property
    def counterexamples(self) -> Mapping[tuple[str, str], Counterexample]:
        return {(t.old, t.new): t.counterexample for t in self.rows}

    def to_dict(self) -> dict[str, Any]:
        extra = {} if self.dialect == "13" else {"dialect": self.dialect}
        return {
            **extra,
            "old": self.old_id,
            "new": self.new_id,
            "dimensions": self.dimensions,
            "panel_size": self.panel_size,
            "space": self.space,
            "changed": self.changed,
            "action_changed": self.action_changed,
            "old_outcomes": list(self.old_outcomes),
            "new_outcomes": list(self.new_outcomes),
            "transitions": [t.to_dict() for t in self.rows],
        }
