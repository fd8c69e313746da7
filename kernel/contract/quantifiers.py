"""Cross-reviewer quantifiers (R1) and severity/ordinal precedence with the fallback (R5, R6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, TypeAlias

from kernel.errors import KernelError
from kernel.majority import strict_majority
from kernel.strict import is_int, shown

__all__ = [
    "ACCEPT",
    "ACTIONS",
    "ACTION_RANK",
    "QUANTIFIERS",
    "Quantifier",
    "fallback_index",
    "precedence_order",
    "threshold",
    "winner",
]

Quantifier: TypeAlias = Literal["any", "majority", "all"]
QUANTIFIERS: Final[tuple[Quantifier, ...]] = ("any", "majority", "all")

ACCEPT: Final = "editorial_decision=accept"
#: Actions from most lenient to most severe (used for monotonicity analysis).
ACTIONS: Final[tuple[str, ...]] = (
    ACCEPT,
    "editorial_decision=minor_revision",
    "editorial_decision=major_revision",
    "editorial_decision=reject_or_major_revision",
    "editorial_decision=reject",
)
ACTION_RANK: Final[dict[str, int]] = {a: i for i, a in enumerate(ACTIONS)}


def threshold(quantifier: str, panel_size: int) -> int:
    """How many of ``panel_size`` reviewers must satisfy a predicate for it to fire (R1).

    ``any`` → 1, ``majority`` → ⌊N/2⌋ + 1, ``all`` → N.
    """
    if not is_int(panel_size) or panel_size < 1:
        raise KernelError(f"panel_size must be an integer >= 1, got {shown(panel_size)}")
    if quantifier == "any":
        return 1
    if quantifier == "majority":
        return strict_majority(panel_size)
    if quantifier == "all":
        return panel_size
    raise KernelError(
        f"unknown cross_reviewer_quantifier {shown(quantifier)}; expected any|majority|all"
    )


def precedence_order(severities: Sequence[int]) -> tuple[int, ...]:
    """Condition positions in decision order: highest severity first, ties by array order (R6)."""
    return tuple(sorted(range(len(severities)), key=lambda i: (-severities[i], i)))


def winner(order: Sequence[int], fired: Sequence[bool]) -> int | None:
    """The deciding condition's position, or ``None`` when nothing fired."""
    for i in order:
        if fired[i]:
            return i
    return None


def fallback_index(actions: Sequence[str], accept: str = ACCEPT) -> int | None:
    """R5: the first condition whose action is ``accept`` (``editorial_decision=accept``,
    or a 13.2 writer's or evaluator's own accept)."""
    for i, action in enumerate(actions):
        if action == accept:
            return i
    return None
