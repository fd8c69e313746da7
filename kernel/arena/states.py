"""Arena §4.4 states and the §5.1 transition table."""

from __future__ import annotations

import enum

__all__ = ["NON_TERMINAL", "TERMINAL", "TRANSITIONS", "State"]


class State(enum.StrEnum):
    INIT = "INIT"
    SEEDING = "SEEDING"
    DRAFTING = "DRAFTING"
    REVIEWING = "REVIEWING"
    REVISING = "REVISING"
    FINALIZING = "FINALIZING"
    TERMINATED_APPROVED = "TERMINATED_APPROVED"
    TERMINATED_MAX_ROUNDS = "TERMINATED_MAX_ROUNDS"
    TERMINATED_ERROR = "TERMINATED_ERROR"


TERMINAL = frozenset(
    {State.TERMINATED_APPROVED, State.TERMINATED_MAX_ROUNDS, State.TERMINATED_ERROR}
)
NON_TERMINAL = frozenset(State) - TERMINAL

#: §5.1: every allowed ``(from, to)`` pair; anything else is refused.
TRANSITIONS = frozenset(
    {
        (State.INIT, State.SEEDING),
        (State.INIT, State.DRAFTING),
        (State.SEEDING, State.DRAFTING),
        (State.DRAFTING, State.REVIEWING),
        (State.REVIEWING, State.FINALIZING),
        (State.REVIEWING, State.REVISING),
        (State.REVISING, State.DRAFTING),
        (State.REVISING, State.TERMINATED_MAX_ROUNDS),
        (State.FINALIZING, State.TERMINATED_APPROVED),
    }
    | {(state, State.TERMINATED_ERROR) for state in NON_TERMINAL}
)
