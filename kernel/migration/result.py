"""The migration's value classes: the migrated contract, its choices, the decision changes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs

from kernel.contract.model import Contract
from kernel.contract.quantifiers import ACTION_RANK
from kernel.decision.value import Decision
from kernel.diagnostics import Diagnostic
from kernel.migration.plan import Choice

__all__ = ["Migration", "MigrationExample", "Transition"]


@attrs.frozen
class MigrationExample:
    """One old matrix, the 13.2 matrix it becomes under the seat mapping, and what
    :func:`kernel.decide` says about each (``None``: it decides nothing; ``refusal`` says
    why)."""

    old_matrix: Mapping[str, tuple[str, ...]]
    new_matrix: Mapping[str, Mapping[str, str]]
    old_decision: Decision | None
    new_decision: Decision | None
    old_refusal: str | None = None
    new_refusal: str | None = None
    #: The old scores other than pass that 13.2 does not assess (``D4 r3 (domain): block``):
    #: the seat is not eligible for the dimension, or has no role.
    dropped: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "old_matrix": {d: list(row) for d, row in self.old_matrix.items()},
            "new_matrix": {d: dict(row) for d, row in self.new_matrix.items()},
            "old_decision": None if self.old_decision is None else self.old_decision.to_dict(),
            "new_decision": None if self.new_decision is None else self.new_decision.to_dict(),
            "old_refusal": self.old_refusal,
            "new_refusal": self.new_refusal,
            "dropped": list(self.dropped),
        }


@attrs.frozen
class Transition:
    """The matrices the old contract decides with ``old`` and the migrated one with ``new``
    (an action; ``None``: no decision)."""

    old: str | None
    new: str | None
    matrices: int
    #: The simplest such matrix (fewest non-pass scores), for a pair whose action changes.
    example: MigrationExample | None = None
    #: Under the prior, when one was given: the probability of the pair.
    probability: Fraction | None = None
    #: The change is only the action's new name for every one of its matrices: the same
    #: condition decides under both contracts, and the migration mapped its action ``old``
    #: to ``new`` (``reject_or_major_revision`` to ``major_revision``, by default).
    renamed: bool = False
    #: Of ``matrices``, those whose action changes only by its new name (the same condition
    #: decides under both contracts); by default all of them when ``renamed``, else none.
    renamed_matrices: int = attrs.field(
        default=attrs.Factory(lambda t: t.matrices if t.renamed else 0, takes_self=True)
    )
    #: Under the prior: the probability of those matrices.
    renamed_probability: Fraction | None = attrs.field(
        default=attrs.Factory(
            lambda t: t.probability if t.renamed or t.probability is None else Fraction(0),
            takes_self=True,
        )
    )

    @property
    def changed(self) -> bool:
        return self.old != self.new

    @property
    def moved(self) -> bool:
        """Decided differently: the action changes, and not only by its new name (for some
        of its matrices at least)."""
        return self.changed and self.moved_matrices > 0

    @property
    def moved_matrices(self) -> int:
        """Of ``matrices``, those decided differently (the action changes, not only by its
        name)."""
        return self.matrices - self.renamed_matrices if self.changed else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "old": self.old,
            "new": self.new,
            "changed": self.changed,
            "renamed": self.renamed,
            "moved": self.moved,
            "matrices": self.matrices,
            "renamed_matrices": self.renamed_matrices if self.changed else 0,
            "probability": None if self.probability is None else str(self.probability),
            "example": None if self.example is None else self.example.to_dict(),
        }


def pair_order(pair: tuple[str | None, str | None]) -> tuple[int, int]:
    """Old action, then new action, from lenient to severe; "no decision" last."""
    last = len(ACTION_RANK)
    return (
        last if pair[0] is None else ACTION_RANK.get(pair[0], last),
        last if pair[1] is None else ACTION_RANK.get(pair[1], last),
    )


@attrs.frozen(eq=False)
class Migration:
    """A Schema 13 contract migrated to 13.2: the new contract, every choice made, and the
    exact change in decisions over the old contract's whole matrix space."""

    old: Contract
    contract: Contract
    choices: tuple[Choice, ...]
    #: Old reviewer ``j`` → the role of its 13.2 seat (``None``: no seat).
    seats: tuple[str | None, ...]
    #: Dimension ids whose blocks become fatal.
    fatal: tuple[str, ...]
    #: ``3 ** (dimensions * old panel_size)``: the number of old matrices.
    space: int
    transitions: tuple[Transition, ...]
    #: The migrated document as JSON text, in the old document's key order.
    text: str = attrs.field(repr=False)
    #: The prior's text form (``pass=…``, per dimension), when one was given.
    prior: Mapping[str, Any] | None = None

    @property
    def changed(self) -> int:
        """Matrices whose action changes (including to or from no decision)."""
        return sum(t.matrices for t in self.transitions if t.changed)

    @property
    def renamed(self) -> int:
        """Matrices whose action changes only by its new name."""
        return sum(t.renamed_matrices for t in self.transitions if t.changed)

    @property
    def moved(self) -> int:
        """Matrices decided differently (the action changes, not only by its name)."""
        return sum(t.moved_matrices for t in self.transitions)

    def _probability(self, moved: bool) -> Fraction | None:
        if self.prior is None:
            return None
        return sum(
            (
                (t.probability or Fraction(0)) - (t.renamed_probability or Fraction(0))
                if moved
                else t.probability or Fraction(0)
                for t in self.transitions
                if t.changed
            ),
            Fraction(0),
        )

    @property
    def changed_probability(self) -> Fraction | None:
        """Under the prior: the probability that the action changes."""
        return self._probability(False)

    @property
    def moved_probability(self) -> Fraction | None:
        """Under the prior: the probability that the matrix is decided differently."""
        return self._probability(True)

    def document(self) -> dict[str, Any]:
        """A fresh copy of the migrated contract document (the old document's key order)."""
        return json.loads(self.text)  # type: ignore[no-any-return]

    def contract_json(self) -> str:
        """The migrated contract as a JSON file's text."""
        return self.text

    def checks(self) -> tuple[Diagnostic, ...]:
        """What ``check`` says of the migrated contract besides errors (it has none): its
        warnings and notes, among them the single-judge mandatory gates (SC-15) the seating
        made."""
        from kernel.contract.warnings import suspicious

        return tuple(suspicious(self.document()))

    def to_dict(self) -> dict[str, Any]:
        changed_p, moved_p = self.changed_probability, self.moved_probability
        return {
            "old_contract_id": self.old.contract_id,
            "contract_id": self.contract.contract_id,
            "dialect": self.contract.dialect,
            "mode": self.contract.mode,
            "seats": [{"reviewer": j + 1, "role": r} for j, r in enumerate(self.seats)],
            "fatal": list(self.fatal),
            "choices": [c.to_dict() for c in self.choices],
            "space": self.space,
            "changed": self.changed,
            "renamed": self.renamed,
            "moved": self.moved,
            "transitions": [t.to_dict() for t in self.transitions],
            "prior": None if self.prior is None else dict(self.prior),
            "changed_probability": None if changed_p is None else str(changed_p),
            "moved_probability": None if moved_p is None else str(moved_p),
            "checks": [d.to_dict() | {"json_path": d.json_path} for d in self.checks()],
            "contract": self.document(),
        }
