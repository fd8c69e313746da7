"""Quorum, consensus, stop rules and the disagreement summary (companions §B), exactly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, Literal, TypeAlias

import attrs

from kernel.consensus.ratios import to_ratio
from kernel.consensus.responses import CritiqueResponse, from_mapping
from kernel.consensus.tokens import Change, change_ratio, measure_change
from kernel.errors import EditBudgetError, KernelError, QuorumError
from kernel.strict import is_int, shown

__all__ = [
    "DEFAULT_APPROVAL_RATIO",
    "DEFAULT_CHANGE_THRESHOLD",
    "DEFAULT_MAX_ROUNDS",
    "DEFAULT_QUORUM_RATIO",
    "TOP_OBJECTIONS",
    "Disagreement",
    "QuorumError",
    "StopCheck",
    "StopRule",
    "as_critiques",
    "ceil_share",
    "check_participants",
    "check_quorum",
    "consensus_reached",
    "disagreement",
    "measure_candidate_change",
    "proposes_change",
    "quorum",
    "required_approvals",
    "stop_checks",
]

DEFAULT_APPROVAL_RATIO: Final = Fraction(2, 3)
DEFAULT_QUORUM_RATIO: Final = Fraction(2, 3)
DEFAULT_CHANGE_THRESHOLD: Final = Fraction(1, 10)
DEFAULT_MAX_ROUNDS: Final = 3
#: The disagreement summary lists at most this many objections.
TOP_OBJECTIONS: Final = 3

StopRule: TypeAlias = Literal["max_rounds", "change_below_threshold", "no_edits"]


def check_participants(participants: object) -> int:
    """The configured participant count: an int ≥ 2 (booleans are not counts)."""
    if not is_int(participants):
        raise KernelError(f"participants must be an int, got {type(participants).__name__}")
    if participants < 2:
        raise KernelError(f"participants must be at least 2, got {shown(participants)}")
    return participants


def ceil_share(ratio: Fraction, count: int) -> int:
    """``⌈ratio * count⌉`` in integers."""
    return -((-ratio.numerator * count) // ratio.denominator)


def quorum(participants: int, ratio: object = DEFAULT_QUORUM_RATIO) -> int:
    """Successful responses needed: ``⌈ratio * participants⌉`` (ratio exact, in (0, 1])."""
    return ceil_share(to_ratio(ratio, "quorum ratio"), check_participants(participants))


def check_quorum(responses: int, participants: int, ratio: object = DEFAULT_QUORUM_RATIO) -> None:
    """Raise ``QuorumError`` when ``responses`` is below the quorum of ``participants``."""
    required = quorum(participants, ratio)
    if not is_int(responses) or responses < 0:
        raise KernelError(f"responses must be a non-negative int, got {shown(responses)}")
    if responses > participants:
        raise KernelError(
            f"{shown(responses)} responses from only {shown(participants)} participants"
        )
    if responses < required:
        raise QuorumError(responses, required, participants)


def required_approvals(participants: int, approval_ratio: object = DEFAULT_APPROVAL_RATIO) -> int:
    """Approvals needed for consensus: ``⌈approval_ratio * participants⌉``."""
    ratio = to_ratio(approval_ratio, "approval ratio")
    return ceil_share(ratio, check_participants(participants))


def as_critiques(critiques: object, participants: int) -> tuple[CritiqueResponse, ...]:
    """Critiques as typed values: each a ``CritiqueResponse`` or a parsed ``critique`` mapping."""
    if isinstance(critiques, str | bytes | Mapping) or not isinstance(critiques, Sequence):
        raise KernelError(f"critiques must be a list, got {type(critiques).__name__}")
    out: list[CritiqueResponse] = []
    for index, item in enumerate(critiques):
        if isinstance(item, CritiqueResponse):
            out.append(item)
            continue
        try:
            critique = from_mapping(item, "critique")
        except KernelError as exc:
            raise KernelError(f"critiques[{index}]: {exc}") from None
        assert isinstance(critique, CritiqueResponse)
        out.append(critique)
    if len(out) > participants:
        raise KernelError(f"{len(out)} critiques from only {participants} participants")
    return tuple(out)


def consensus_reached(
    critiques: Sequence[CritiqueResponse | Mapping[str, Any]],
    participants: int,
    approval_ratio: object = DEFAULT_APPROVAL_RATIO,
) -> bool:
    """``approvals ≥ ⌈approval_ratio * participants⌉`` and no critique is critical.

    Approvals are counted against the configured ``participants``, not the responses received.
    """
    needed = required_approvals(participants, approval_ratio)
    typed = as_critiques(critiques, participants)
    approvals = sum(1 for c in typed if c.approve)
    return approvals >= needed and not any(c.critical for c in typed)


@attrs.frozen
class StopCheck:
    """One stop rule, evaluated: whether it fires, and why (or why not)."""

    rule: StopRule
    triggered: bool
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


def stop_checks(
    round_index: int,
    max_rounds: int,
    critiques: Sequence[CritiqueResponse],
    change: Fraction | Change | None,
    change_threshold: Fraction,
) -> tuple[StopCheck, ...]:
    """The three stop rules in their order: max rounds, small change, no change proposed
    (the last keeps its tag ``no_edits``; see ``proposes_change``).

    ``change`` is ``None`` when there is no previous candidate to compare with; a ``Change``
    whose exact ratio is unknown still settles the rule when its lower bound reaches the
    threshold, else ``EditBudgetError``.
    """
    last = round_index >= max_rounds
    checks = [
        StopCheck(
            "max_rounds",
            last,
            f"round {shown(round_index)} of {shown(max_rounds)}" + (" is the last" if last else ""),
        )
    ]
    if isinstance(change, Change) and change.ratio is not None:
        change = change.ratio
    if change is None:
        checks.append(
            StopCheck("change_below_threshold", False, "no previous candidate to compare")
        )
    elif isinstance(change, Change):  # only a lower bound is known
        if change.below(change_threshold) is None:
            raise EditBudgetError(
                f"cannot tell whether the candidate changed by less than {change_threshold}: "
                f"the edit distance over {change.longest} tokens needs more than the work budget"
            )
        checks.append(
            StopCheck(
                "change_below_threshold",
                False,
                f"candidate changed by at least {change.floor} >= threshold {change_threshold} "
                "(the exact change is over the edit-distance work budget)",
            )
        )
    else:
        small = change < change_threshold
        relation = "<" if small else ">="
        checks.append(
            StopCheck(
                "change_below_threshold",
                small,
                f"candidate changed by {change} {relation} threshold {change_threshold}",
            )
        )
    proposers = sum(1 for c in critiques if proposes_change(c))
    checks.append(
        StopCheck(
            "no_edits",
            proposers == 0,
            "no critique proposed a change (no objections, missing items or edits)"
            if proposers == 0
            else f"{proposers} critique(s) proposed a change (objections, missing items or edits)",
        )
    )
    return tuple(checks)


def proposes_change(critique: CritiqueResponse) -> bool:
    """A critique proposes a change when any of its objections, missing or edits is non-empty
    (an objection without an edit still asks for one)."""
    return bool(critique.objections or critique.missing or critique.edits)


def candidate_change(previous: str | None, current: str | None) -> Fraction | None:
    """``change_ratio`` of the two candidates, or ``None`` when either is missing."""
    if previous is None or current is None:
        return None
    return change_ratio(previous, current)


def measure_candidate_change(
    previous: str | None, current: str | None, threshold: Fraction
) -> Change | None:
    """The two candidates' ``measure_change`` (settling ``< threshold`` even when the exact
    change is over the work budget), or ``None`` when either is missing."""
    if previous is None or current is None:
        return None
    return measure_change(previous, current, threshold=threshold)


@attrs.frozen
class Disagreement:
    """Why consensus failed: top objections with their counts, missing items, the reason."""

    objections: tuple[tuple[str, int], ...]
    missing: tuple[str, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "objections": [{"text": text, "count": count} for text, count in self.objections],
            "missing": list(self.missing),
            "reason": self.reason,
        }


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()


def disagreement(critiques: Sequence[CritiqueResponse], reason: str) -> Disagreement:
    """The top ``TOP_OBJECTIONS`` objections (most critiques first, ties by first appearance)
    and every distinct missing item, in first-appearance order.

    Items are compared after collapsing whitespace and case-folding; each is shown as first
    written, and a critique repeating an item counts once. Blank items are skipped.
    """
    if not isinstance(critiques, Sequence) or not all(
        isinstance(c, CritiqueResponse) for c in critiques
    ):
        raise KernelError("critiques must be a sequence of CritiqueResponse values")
    counts: dict[str, int] = {}
    shown: dict[str, str] = {}
    missing: dict[str, str] = {}
    for critique in critiques:
        for key in dict.fromkeys(_normal(o) for o in critique.objections):
            if key:
                counts[key] = counts.get(key, 0) + 1
        for objection in critique.objections:
            shown.setdefault(_normal(objection), objection.strip())
        for item in critique.missing:
            key = _normal(item)
            if key:
                missing.setdefault(key, item.strip())
    order = {key: i for i, key in enumerate(counts)}
    top = sorted(counts, key=lambda k: (-counts[k], order[k]))[:TOP_OBJECTIONS]
    return Disagreement(tuple((shown[k], counts[k]) for k in top), tuple(missing.values()), reason)
