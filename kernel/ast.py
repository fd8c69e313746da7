"""The expression AST (R4): immutable values whose ``str()`` is the canonical text."""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

import attrs

__all__ = [
    "PRIORITIES",
    "SCORES",
    "SCORE_RANK",
    "AnyScores",
    "Atom",
    "DimensionScores",
    "EveryScores",
    "Expression",
    "Priority",
    "Score",
    "TwoOrMore",
]

Score: TypeAlias = Literal["pass", "warn", "block"]
Priority: TypeAlias = Literal["mandatory", "high", "normal"]

#: Scores in rank order: ``pass < warn < block``.
SCORES: Final[tuple[Score, ...]] = ("pass", "warn", "block")
SCORE_RANK: Final[dict[str, int]] = {s: i for i, s in enumerate(SCORES)}
PRIORITIES: Final[tuple[Priority, ...]] = ("mandatory", "high", "normal")


def _check_score(_: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in SCORE_RANK:
        raise ValueError(f"{attribute.name} must be one of {SCORES}, got {value!r}")


def _check_priority(_: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in PRIORITIES:
        raise ValueError(f"{attribute.name} must be one of {PRIORITIES}, got {value!r}")


def _phrase(priority: str) -> str:
    """Canonical priority phrase: ``mandatory`` bare, the others suffixed."""
    return priority if priority == "mandatory" else f"{priority}-priority"


@attrs.frozen
class AnyScores:
    """Form 1: some dimension of ``priority`` has score exactly ``score``."""

    priority: Priority = attrs.field(validator=_check_priority)
    score: Score = attrs.field(validator=_check_score)

    def __str__(self) -> str:
        return f"any {_phrase(self.priority)} dimension scores '{self.score}'"


@attrs.frozen
class TwoOrMore:
    """Form 2: at least two dimensions of ``priority`` score ``score`` or worse."""

    priority: Priority = attrs.field(validator=_check_priority)
    score: Score = attrs.field(validator=_check_score)

    def __str__(self) -> str:
        return f"two or more {_phrase(self.priority)} dimensions score '{self.score}' or worse"


@attrs.frozen
class EveryScores:
    """Form 3: every dimension of ``priority`` has score exactly ``score`` (vacuous if none)."""

    priority: Priority = attrs.field(validator=_check_priority)
    score: Score = attrs.field(validator=_check_score)

    def __str__(self) -> str:
        return f"every {_phrase(self.priority)} dimension scores '{self.score}'"


def _check_dimension(_: object, attribute: attrs.Attribute[str], value: str) -> None:
    digits = value[1:]
    if not (
        value[:1] == "D"
        and digits.isascii()
        and digits.isdigit()
        and 1 <= len(digits) <= 2
        and digits[0] != "0"
    ):
        raise ValueError(f"{attribute.name} must be D1…D99, got {value!r}")


@attrs.frozen
class DimensionScores:
    """Form 4: dimension ``dimension`` has score exactly ``score``."""

    dimension: str = attrs.field(validator=_check_dimension)
    score: Score = attrs.field(validator=_check_score)

    def __str__(self) -> str:
        return f"{self.dimension} scores '{self.score}'"


Atom: TypeAlias = AnyScores | TwoOrMore | EveryScores | DimensionScores


def _check_atoms(_: object, attribute: attrs.Attribute[tuple[Atom, ...]], value: object) -> None:
    if not isinstance(value, tuple) or not value:
        raise ValueError(f"{attribute.name} must be a non-empty tuple of atoms")
    for atom in value:
        if not isinstance(atom, AnyScores | TwoOrMore | EveryScores | DimensionScores):
            raise ValueError(f"{attribute.name} holds a non-atom: {atom!r}")


@attrs.frozen
class Expression:
    """Form 5: a conjunction of one or more atoms, all for the same reviewer (R3)."""

    atoms: tuple[Atom, ...] = attrs.field(validator=_check_atoms)

    def __str__(self) -> str:
        return " AND ".join(str(atom) for atom in self.atoms)
