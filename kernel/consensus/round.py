"""One round's decision: quorum, consensus, then the stop rules, with reasons."""

from __future__ import annotations

import functools
import sys
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final, Literal, TypeAlias

import attrs

from kernel.consensus.ratios import to_ratio
from kernel.consensus.responses import (
    MAX_SCHEMA_ERRORS,
    CritiqueResponse,
    schema_errors,
)
from kernel.consensus.rules import (
    DEFAULT_APPROVAL_RATIO,
    DEFAULT_CHANGE_THRESHOLD,
    DEFAULT_MAX_ROUNDS,
    DEFAULT_QUORUM_RATIO,
    Disagreement,
    StopCheck,
    StopRule,
    as_critiques,
    ceil_share,
    check_participants,
    disagreement,
    measure_candidate_change,
    stop_checks,
)
from kernel.errors import KernelError, RoundError
from kernel.schema import schema_errors as _schema_errors
from kernel.schema import strict_validator
from kernel.strict import is_int, shown

__all__ = [
    "ROUND_SCHEMA",
    "Outcome",
    "RoundConfig",
    "RoundDecision",
    "RoundError",
    "RoundInput",
    "evaluate_round",
    "round_from_mapping",
]

Outcome: TypeAlias = Literal["consensus", "continue", "stop", "no_quorum"]


def _approval(value: object) -> Fraction:
    return to_ratio(value, "approval_ratio")


def _quorum(value: object) -> Fraction:
    return to_ratio(value, "quorum_ratio")


def _threshold(value: object) -> Fraction:
    return to_ratio(value, "change_threshold", allow_zero=True)


@attrs.frozen
class RoundConfig:
    """The run's configuration; ratios are exact (see ``ratios.to_fraction``)."""

    participants: int = attrs.field(converter=check_participants)
    max_rounds: int = attrs.field(default=DEFAULT_MAX_ROUNDS)
    approval_ratio: Fraction = attrs.field(default=DEFAULT_APPROVAL_RATIO, converter=_approval)
    quorum_ratio: Fraction = attrs.field(default=DEFAULT_QUORUM_RATIO, converter=_quorum)
    change_threshold: Fraction = attrs.field(default=DEFAULT_CHANGE_THRESHOLD, converter=_threshold)

    @max_rounds.validator
    def _check_max_rounds(self, _: object, value: object) -> None:
        if not is_int(value) or value < 1:
            raise KernelError(f"max_rounds must be an int >= 1, got {shown(value)}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "participants": self.participants,
            "max_rounds": self.max_rounds,
            "approval_ratio": str(self.approval_ratio),
            "quorum_ratio": str(self.quorum_ratio),
            "change_threshold": str(self.change_threshold),
        }


def _typed_critiques(critiques: object) -> tuple[CritiqueResponse, ...]:
    return as_critiques(critiques, sys.maxsize)  # the count is checked once config is known


@attrs.frozen
class RoundInput:
    """What the orchestrator observed in round ``round_index`` (1-based, counting round 1).

    ``critiques`` are the round's successful critique responses; ``candidate`` is the answer
    they judged and ``previous_candidate`` the one before it (``None``: no change check).
    """

    config: RoundConfig
    round_index: int
    critiques: tuple[CritiqueResponse, ...] = attrs.field(converter=_typed_critiques)
    candidate: str | None = None
    previous_candidate: str | None = None

    def __attrs_post_init__(self) -> None:
        index = self.round_index
        if not is_int(index) or index < 1:
            raise KernelError(f"round must be an int >= 1, got {shown(index)}")
        if index > self.config.max_rounds:
            raise KernelError(
                f"round {shown(index)} is past max_rounds {shown(self.config.max_rounds)}"
            )
        as_critiques(self.critiques, self.config.participants)


@attrs.frozen
class RoundDecision:
    """The verdict on one round; ``reasons`` say why, in the order the rules were applied.

    ``change`` is ``None`` when there is no previous candidate, or when the exact change is
    over the edit-distance work budget (its check then states a lower bound).
    """

    round_index: int
    config: RoundConfig
    responses: int
    quorum_required: int
    approvals: int
    approvals_required: int
    critical: int
    outcome: Outcome
    stop_reason: StopRule | None
    checks: tuple[StopCheck, ...]
    change: Fraction | None
    reasons: tuple[str, ...]
    disagreement: Disagreement | None

    @property
    def consensus(self) -> bool:
        return self.outcome == "consensus"

    @property
    def stop(self) -> bool:
        """Whether the run ends with this round (consensus, a stop rule, or no quorum)."""
        return self.outcome != "continue"

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round_index,
            "outcome": self.outcome,
            "consensus": self.consensus,
            "stop": self.stop,
            "stop_reason": self.stop_reason,
            "responses": self.responses,
            "quorum": {"required": self.quorum_required, "met": self.outcome != "no_quorum"},
            "approvals": self.approvals,
            "approvals_required": self.approvals_required,
            "critical": self.critical,
            "change": None
            if self.change is None
            else {"ratio": str(self.change), "value": float(self.change)},
            "checks": [c.to_dict() for c in self.checks],
            "reasons": list(self.reasons),
            "disagreement": None if self.disagreement is None else self.disagreement.to_dict(),
            "config": self.config.to_dict(),
        }


def evaluate_round(round_input: RoundInput) -> RoundDecision:
    """Quorum first, then consensus, then the stop rules in order (max rounds, change, edits)."""
    if not isinstance(round_input, RoundInput):
        raise KernelError(
            f"round_input must be a RoundInput (see round_from_mapping), got {shown(round_input)}"
        )
    config = round_input.config
    critiques = round_input.critiques
    responses = len(critiques)
    needed_quorum = ceil_share(config.quorum_ratio, config.participants)
    needed = ceil_share(config.approval_ratio, config.participants)
    approvals = sum(1 for c in critiques if c.approve)
    critical = sum(1 for c in critiques if c.critical)

    def decision(
        outcome: Outcome,
        reasons: tuple[str, ...],
        *,
        checks: tuple[StopCheck, ...] = (),
        change: Fraction | None = None,
        stop_reason: StopRule | None = None,
    ) -> RoundDecision:
        summary = None if outcome == "consensus" else disagreement(critiques, "; ".join(reasons))
        return RoundDecision(
            round_index=round_input.round_index,
            config=config,
            responses=responses,
            quorum_required=needed_quorum,
            approvals=approvals,
            approvals_required=needed,
            critical=critical,
            outcome=outcome,
            stop_reason=stop_reason,
            checks=checks,
            change=change,
            reasons=reasons,
            disagreement=summary,
        )

    if responses < needed_quorum:
        return decision(
            "no_quorum",
            (
                f"quorum not met: {responses} of {shown(config.participants)} responded, "
                f"{shown(needed_quorum)} required",
            ),
        )
    tally = f"{approvals} of {shown(config.participants)} approved, {shown(needed)} required"
    measured = measure_candidate_change(
        round_input.previous_candidate, round_input.candidate, config.change_threshold
    )
    change = None if measured is None else measured.ratio
    checks = stop_checks(
        round_input.round_index, config.max_rounds, critiques, measured, config.change_threshold
    )
    if approvals >= needed and critical == 0:
        reason = f"consensus: {tally}, no critique critical"
        return decision("consensus", (reason,), checks=checks, change=change)
    why = [tally] if approvals < needed else []
    if critical:
        why.append(f"{critical} critique(s) marked critical")
    failed = "no consensus: " + "; ".join(why)
    fired = next((c for c in checks if c.triggered), None)
    if fired is None:
        reasons = (failed, "continue: no stop rule fired")
        return decision("continue", reasons, checks=checks, change=change)
    reasons = (failed, f"stop ({fired.rule}): {fired.detail}")
    return decision("stop", reasons, checks=checks, change=change, stop_reason=fired.rule)


_RATIO: Final[dict[str, Any]] = {"type": ["number", "string"]}
_TEXT: Final[dict[str, Any]] = {"type": ["string", "null"]}

#: The ``round`` CLI's input document (Draft 2020-12); integers are also checked to be ints.
ROUND_SCHEMA: Final[Mapping[str, Any]] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "consensus round",
    "type": "object",
    "properties": {
        "participants": {"type": "integer"},
        "round": {"type": "integer"},
        "max_rounds": {"type": "integer"},
        "approval_ratio": _RATIO,
        "quorum_ratio": _RATIO,
        "change_threshold": _RATIO,
        "critiques": {"type": "array", "items": {"type": "object"}},
        "candidate": _TEXT,
        "previous_candidate": _TEXT,
    },
    "required": ["participants", "round", "critiques"],
    "additionalProperties": False,
}
@functools.cache
def _round_validator() -> Any:
    return strict_validator(ROUND_SCHEMA)


def round_from_mapping(document: object) -> RoundInput:
    """Build a ``RoundInput`` from a decoded round document; ``RoundError`` lists every problem.

    JSON numbers for ratios are read as their shortest decimal form (``0.67`` is 67/100); give
    a string (``"2/3"``) for a ratio no short decimal writes.
    """
    found = [
        str(e)
        for e in _schema_errors(_round_validator(), document, limit=MAX_SCHEMA_ERRORS, clip=200)
    ]
    if found:
        raise RoundError(found)
    assert isinstance(document, Mapping)
    errors: list[str] = []
    for index, item in enumerate(document["critiques"]):
        errors.extend(f"$.critiques[{index}]{e[1:]}" for e in schema_errors(item, "critique"))
    if errors:
        raise RoundError(errors)
    options = {
        name: document[name]
        for name in ("max_rounds", "approval_ratio", "quorum_ratio", "change_threshold")
        if name in document
    }
    try:
        config = RoundConfig(participants=document["participants"], **options)
        critiques = as_critiques(document["critiques"], config.participants)
        return RoundInput(
            config=config,
            round_index=document["round"],
            critiques=critiques,
            candidate=document.get("candidate"),
            previous_candidate=document.get("previous_candidate"),
        )
    except RoundError:
        raise
    except KernelError as exc:
        raise RoundError([exc.message]) from None
