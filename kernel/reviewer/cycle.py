"""The reviewer cycle (seed §5.1 steps 3-6, 000 §4-§6) as a pure state machine.

A :class:`ReviewerState` says which call the orchestrator makes next (``next_call``) and,
once the reviewer is done, whether it is usable and which audit tag it earned. Feed it the
lint report of each call with :func:`step`; :func:`exhaust` ends a reviewer for which the
requested call cannot be made (an offline replay has no second attempt). Rules:

* Phase 1 lint failure → one retry with a hint naming the gap; a second failure →
  unusable, ``[PROTOCOL-VIOLATION: …, phase1_lint_failed=true]``.
* Phase 2 multi-dissent (and no other Phase 2 failure) → restart from Phase 1 once (the
  restarted Phase 1 keeps its own one retry); multi-dissent again → unusable,
  ``multi_dissent=true``.
* Any other Phase 2 failure → unusable at once, ``phase2_lint_failed=<check>`` naming the
  first failing check; a document that fails another check *and* multi-dissents is in this
  case (no retry after the paper was seen).

Bounds: at most 4 Phase 1 calls and 2 Phase 2 calls per reviewer (6 in all).
:func:`panel_tags` applies the cardinality invariant (R9).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

import attrs

from kernel.errors import KernelError, panel_shrunk_tag
from kernel.reviewer.lint.report import LintReport
from kernel.strict import shown

__all__ = [
    "MAX_CALLS",
    "MAX_PANEL_SIZE",
    "ReviewerState",
    "duplicate",
    "exhaust",
    "panel_tags",
    "protocol_violation_tag",
    "retry_hint",
    "start",
    "step",
]

Stage = Literal["phase1", "phase2", "usable", "unusable"]
MAX_CALLS: Final = 6
#: The largest panel a tag can name: the largest integer every JSON reader holds exactly.
MAX_PANEL_SIZE: Final = 2**53 - 1
#: Multi-dissent under 13 and under 13.2.
_MULTI_DISSENT: Final = frozenset({"P2-031", "P2-116"})
_FORBIDDEN: Final = frozenset("[],=")


@attrs.frozen
class ReviewerState:
    role: str
    contract_id: str
    stage: Stage = "phase1"
    #: 1, or 2 after the multi-dissent restart.
    round: int = 1
    #: Phase 1 attempt within the round: 1, or 2 for the retry.
    attempt: int = 1
    calls: int = 0
    #: Hint for the next Phase 1 system prompt (after a lint failure or a multi-dissent).
    hint: str | None = None
    #: The ``[PROTOCOL-VIOLATION: …]`` tag of an unusable reviewer.
    tag: str | None = None

    @property
    def next_call(self) -> Literal["phase1", "phase2"] | None:
        if self.stage == "phase1" or self.stage == "phase2":
            return self.stage
        return None

    @property
    def done(self) -> bool:
        return self.next_call is None

    @property
    def usable(self) -> bool:
        return self.stage == "usable"


def _check_id(value: str, what: str) -> str:
    if (
        not isinstance(value, str)
        or not value
        or value != value.strip(" ")
        or not value.isprintable()
        or any(c in _FORBIDDEN for c in value)
    ):
        raise KernelError(
            f"{what} {shown(value)} cannot go into an audit tag: it must be non-empty printable "
            "text without '[', ']', ',', '=' or outer spaces"
        )
    return value


def protocol_violation_tag(role: str, contract_id: str, detail: str) -> str:
    """``[PROTOCOL-VIOLATION: reviewer=<role>, contract=<id>, <detail>]`` (R8)."""
    return (
        f"[PROTOCOL-VIOLATION: reviewer={_check_id(role, 'reviewer role')}, "
        f"contract={_check_id(contract_id, 'contract id')}, {detail}]"
    )


def start(role: str, contract_id: str) -> ReviewerState:
    """A reviewer about to make its first Phase 1 call."""
    protocol_violation_tag(role, contract_id, "")
    return ReviewerState(role, contract_id)


def _report(report: object) -> LintReport:
    if not isinstance(report, LintReport):
        raise KernelError(f"expected a LintReport, got {type(report).__name__}")
    return report


def _state(state: object) -> ReviewerState:
    if not isinstance(state, ReviewerState):
        raise KernelError(f"expected a ReviewerState, got {type(state).__name__}")
    return state


def retry_hint(report: LintReport, *, limit: int = 10) -> str:
    """The amended-prompt hint naming the lint gap (seed §5.3)."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise KernelError(f"limit must be an int >= 1, got {shown(limit)}")
    errors = _report(report).errors
    lines = [
        f"- {f.code}" + (f" (line {f.line})" if f.line is not None else "") + f": {f.message}"
        for f in errors[:limit]
    ]
    if len(errors) > limit:
        lines.append(f"- … and {len(errors) - limit} more")
    return (
        "Your previous Phase 1 output failed the structural lint. Answer again in the required "
        "format and fix:\n" + "\n".join(lines)
    )


def _unusable(state: ReviewerState, detail: str) -> ReviewerState:
    tag = protocol_violation_tag(state.role, state.contract_id, detail)
    return attrs.evolve(state, stage="unusable", hint=None, tag=tag)


def step(state: ReviewerState, report: LintReport) -> ReviewerState:
    """The state after the call ``state.next_call`` returned a document with this ``report``."""
    state, report = _state(state), _report(report)
    if state.next_call is None:
        raise KernelError(f"reviewer {state.role} is done; no further call was requested")
    if report.phase != (1 if state.next_call == "phase1" else 2):
        raise KernelError(
            f"reviewer {state.role} expects a {state.next_call} report, got phase {report.phase}"
        )
    state = attrs.evolve(state, calls=state.calls + 1)
    if state.stage == "phase1":
        if report.ok:
            return attrs.evolve(state, stage="phase2", hint=None)
        if state.attempt == 1:
            return attrs.evolve(state, attempt=2, hint=retry_hint(report))
        return _unusable(state, "phase1_lint_failed=true")
    if report.ok:
        return attrs.evolve(state, stage="usable", hint=None)
    other = [f for f in report.errors if f.code not in _MULTI_DISSENT]
    if other or not report.multi_dissent:
        check = other[0].check if other else "dissent"
        return _unusable(state, f"phase2_lint_failed={check}")
    if state.round == 1:
        return attrs.evolve(
            state,
            stage="phase1",
            round=2,
            attempt=1,
            hint=(
                "Your Phase 2 output dissented on two or more dimensions, so your Phase 1 "
                "scoring plan is being redone from scratch. Write a scoring plan you can keep."
            ),
        )
    return _unusable(state, "multi_dissent=true")


def exhaust(state: ReviewerState) -> ReviewerState:
    """End a reviewer whose requested call cannot be made; it is unusable with the tag that
    call's failure would carry."""
    if _state(state).done:
        return state
    if state.stage == "phase2":
        return _unusable(state, "phase2_lint_failed=sections")
    if state.round == 2 and state.attempt == 1:
        return _unusable(state, "multi_dissent=true")
    return _unusable(state, "phase1_lint_failed=true")


def duplicate(state: ReviewerState) -> ReviewerState:
    """R16: a usable reviewer whose Phase 2 report repeats an earlier reviewer's becomes
    unusable, ``phase2_lint_failed=duplicate_report``."""
    if not state.usable:
        raise KernelError(f"reviewer {state.role} is not usable, so it cannot be a duplicate")
    return _unusable(state, "phase2_lint_failed=duplicate_report")


def panel_tags(states: Sequence[ReviewerState], panel_size: int) -> tuple[str, ...]:
    """The audit tags of a finished panel: each unusable reviewer's violation (in order), then
    ``[PANEL-SHRUNK: …]`` when fewer than ``panel_size`` are usable (no decision then, R9)."""
    if isinstance(panel_size, bool) or not isinstance(panel_size, int):
        raise KernelError(f"panel_size must be an int, got {type(panel_size).__name__}")
    if not 1 <= panel_size <= MAX_PANEL_SIZE:
        raise KernelError("panel_size must be between 1 and 2**53 - 1 (R9)")
    if isinstance(states, str | bytes) or not isinstance(states, Sequence):
        raise KernelError(f"states must be a sequence, got {type(states).__name__}")
    states = [_state(s) for s in states]
    if len(states) > panel_size:
        raise KernelError(f"{len(states)} reviewers for panel_size={panel_size} (R9)")
    pending = [s.role for s in states if not s.done]
    if pending:
        raise KernelError(f"reviewer(s) {', '.join(pending)} have not finished their cycle")
    roles = [s.role for s in states]
    if len(set(roles)) != len(roles):
        raise KernelError("reviewer roles must be distinct")
    tags = [s.tag for s in states if s.tag is not None]
    usable = sum(1 for s in states if s.usable)
    if usable < panel_size:
        tags.append(panel_shrunk_tag(usable, panel_size))
    return tuple(tags)
