"""Arena §5, §6 and §9 as a pure state machine: ``step(run, event) -> (run, effects)``.

Events are what the orchestrator observed, each with the driver's RFC 3339 timestamp;
effects are what it must do next, including every §11 audit record to persist (``Persist``).
An event the current state does not expect is refused with a ``KernelError`` and the run is
left as it was; a terminal run absorbs every event.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import attrs

from kernel.arena import audit
from kernel.arena.audit import AuditRecord, is_timestamp, make_record
from kernel.arena.config import (
    NotebookContext,
    ProtocolConfig,
    TaskContext,
    load_inputs,
    session_id_valid,
    validate_config,
    validate_run_inputs,
)
from kernel.arena.states import TERMINAL, TRANSITIONS, State
from kernel.arena.verdict import APPROVED, PARSER_WARNING_MULTIPLE_VERDICTS, parse_verdict
from kernel.errors import KernelError

__all__ = [
    "REASON_APPROVED",
    "REASON_INVALID_CONFIG",
    "REASON_INVALID_INPUT",
    "REASON_MAX_ROUNDS",
    "REASON_MISSING_VERDICT",
    "REASON_NOTEBOOK_UNAVAILABLE",
    "REASON_SESSION_RESUME_MISSING",
    "REASON_UNRECOVERABLE",
    "Awaiting",
    "Effect",
    "Event",
    "Failed",
    "FinalizerCompleted",
    "HookCompleted",
    "InvokeFinalizer",
    "InvokePlanner",
    "InvokeReviewer",
    "Persist",
    "PlannerCompleted",
    "ReviewerCompleted",
    "Run",
    "RunHook",
    "Start",
    "Terminate",
    "step",
]

# Terminal reasons start with one of these codes (conformance checks 6 and 11 read them).
REASON_APPROVED = "APPROVED"
REASON_MAX_ROUNDS = "MAX_ROUNDS_REACHED"
REASON_INVALID_CONFIG = "INVALID_CONFIG"
REASON_SESSION_RESUME_MISSING = "SESSION_RESUME_MISSING"
REASON_INVALID_INPUT = "INVALID_INPUT"
REASON_MISSING_VERDICT = "MISSING_VERDICT_AFTER_RETRY"
REASON_NOTEBOOK_UNAVAILABLE = "NOTEBOOK_UNAVAILABLE"
REASON_UNRECOVERABLE = "UNRECOVERABLE"

MAX_REVIEWER_ATTEMPTS = 2  # §9.1: one retry


class Awaiting(enum.Enum):
    """Which event the run expects next."""

    START = "start"
    BEFORE_HOOK = "before hook result"
    PLANNER = "planner output"
    DURING_HOOK = "during hook result"
    REVIEWER = "reviewer output"
    AFTER_HOOK = "after hook result"
    FINALIZER = "finalizer completion"
    NOTHING = "nothing (terminal)"


# ---- events ---------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Start:
    """The orchestrator starts a run with these (untrusted, JSON-shaped) inputs."""

    config: Any
    task: Any
    notebook: Any = None
    timestamp: str


@attrs.frozen(kw_only=True)
class HookCompleted:
    """A notebook hook ran (``succeeded``) or the notebook was unavailable."""

    phase: str
    query: str
    evidence_refs: tuple[str, ...] = ()
    succeeded: bool
    timestamp: str


@attrs.frozen(kw_only=True)
class PlannerCompleted:
    output_ref: str
    timestamp: str


@attrs.frozen(kw_only=True)
class ReviewerCompleted:
    """The reviewer's raw output (untrusted) and where it is stored."""

    output_ref: str
    text: str
    issues: tuple[str, ...] = ()
    timestamp: str


@attrs.frozen(kw_only=True)
class FinalizerCompleted:
    timestamp: str


@attrs.frozen(kw_only=True)
class Failed:
    """An unrecoverable error the orchestrator observed (any non-terminal state)."""

    reason: str
    timestamp: str


Event = Start | HookCompleted | PlannerCompleted | ReviewerCompleted | FinalizerCompleted | Failed

# ---- effects --------------------------------------------------------------------------


@attrs.frozen
class Persist:
    """Append ``record`` to the run's audit trail (one JSON line)."""

    record: AuditRecord


@attrs.frozen(kw_only=True)
class RunHook:
    phase: str
    purpose: str
    tools: tuple[str, ...]
    notebook_id: str
    round_index: int
    required: bool


@attrs.frozen(kw_only=True)
class InvokePlanner:
    round_index: int
    initial_prompt: str
    critique_refs: tuple[str, ...]
    issues: tuple[str, ...]
    evidence_refs: tuple[str, ...]


@attrs.frozen(kw_only=True)
class InvokeReviewer:
    round_index: int
    attempt: int
    planner_output_ref: str
    session_id: str
    evidence_refs: tuple[str, ...]
    mode: str = "read-only"
    resume_session: bool = True


@attrs.frozen(kw_only=True)
class InvokeFinalizer:
    """``best_effort``: the max-rounds case (§9.3.2, a SHOULD; its completion changes nothing)."""

    best_effort: bool
    unresolved_issues: tuple[str, ...]
    studio_create_available: bool
    evidence_refs: tuple[str, ...]


@attrs.frozen(kw_only=True)
class Terminate:
    state: State
    reason: str


Effect = Persist | RunHook | InvokePlanner | InvokeReviewer | InvokeFinalizer | Terminate

# ---- the run --------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Run:
    """The orchestrator's protocol state; start from ``Run()`` (state ``INIT``)."""

    state: State = State.INIT
    awaiting: Awaiting = Awaiting.START
    config: ProtocolConfig | None = None
    task: TaskContext | None = None
    notebook: NotebookContext | None = None
    round_index: int = 0
    reviewer_attempts: int = 0
    planner_output_ref: str | None = None
    seed_evidence: tuple[str, ...] = ()
    round_evidence: tuple[str, ...] = ()
    critique_refs: tuple[str, ...] = ()
    issues: tuple[str, ...] = ()
    reason: str | None = None

    @property
    def terminal(self) -> bool:
        return self.state in TERMINAL


_EXPECTS: dict[Awaiting, type] = {
    Awaiting.START: Start,
    Awaiting.BEFORE_HOOK: HookCompleted,
    Awaiting.PLANNER: PlannerCompleted,
    Awaiting.DURING_HOOK: HookCompleted,
    Awaiting.REVIEWER: ReviewerCompleted,
    Awaiting.AFTER_HOOK: HookCompleted,
    Awaiting.FINALIZER: FinalizerCompleted,
}
_HOOK_PHASE = {
    Awaiting.BEFORE_HOOK: "before",
    Awaiting.DURING_HOOK: "during",
    Awaiting.AFTER_HOOK: "after",
}


class _Out:
    """Effects collected by one step (local to the call)."""

    def __init__(self, run: Run, timestamp: str) -> None:
        self.run = run
        self.timestamp = timestamp
        self.effects: list[Effect] = []

    def record(self, event: str, **fields: Any) -> None:
        self.effects.append(Persist(make_record(event, self.timestamp, **fields)))

    def move(self, to: State, **changes: Any) -> None:
        frm = self.run.state
        if (frm, to) not in TRANSITIONS:  # pragma: no cover - the handlers never ask for one
            raise KernelError(f"undefined transition {frm} -> {to}")
        self.run = attrs.evolve(self.run, state=to, **changes)
        self.record(
            audit.STATE_TRANSITION,
            **{"from": frm.value, "to": to.value},
            round_index=self.run.round_index,
        )

    def terminate(self, to: State, reason: str) -> None:
        self.move(to, awaiting=Awaiting.NOTHING, reason=reason)
        self.record(audit.RUN_TERMINATED, state=to.value, reason=reason)
        self.effects.append(Terminate(state=to, reason=reason))

    def skipped_hook(self, phase: str) -> None:
        self.record(
            audit.HOOK_EXECUTED, phase=phase, query="", evidence_refs=[], status="SKIPPED_DISABLED"
        )


# ---- validation of events -------------------------------------------------------------


def _str(value: object, name: str, *, nonempty: bool = True) -> None:
    if not isinstance(value, str):
        raise KernelError(f"{name} must be a string, got {type(value).__name__}")
    if nonempty and value.strip() == "":
        raise KernelError(f"{name} must not be empty")


def _strs(value: object, name: str) -> None:
    if not isinstance(value, tuple | list) or not all(isinstance(v, str) for v in value):
        raise KernelError(f"{name} must be a sequence of strings")


def _validate(event: object) -> None:
    if not isinstance(
        event,
        Start | HookCompleted | PlannerCompleted | ReviewerCompleted | FinalizerCompleted | Failed,
    ):
        raise KernelError(f"unknown arena event {type(event).__name__}")
    name = type(event).__name__
    if not is_timestamp(event.timestamp):
        raise KernelError(f"{name}.timestamp must be an RFC 3339 date-time")
    if isinstance(event, HookCompleted):
        if event.phase not in audit.HOOK_PHASES:
            raise KernelError(f"HookCompleted.phase must be one of {', '.join(audit.HOOK_PHASES)}")
        _str(event.query, "HookCompleted.query")
        _strs(event.evidence_refs, "HookCompleted.evidence_refs")
        if not isinstance(event.succeeded, bool):
            raise KernelError("HookCompleted.succeeded must be a boolean")
    elif isinstance(event, PlannerCompleted):
        _str(event.output_ref, "PlannerCompleted.output_ref")
    elif isinstance(event, ReviewerCompleted):
        _str(event.output_ref, "ReviewerCompleted.output_ref")
        _str(event.text, "ReviewerCompleted.text", nonempty=False)
        _strs(event.issues, "ReviewerCompleted.issues")
    elif isinstance(event, Failed):
        _str(event.reason, "Failed.reason")


# ---- the step function ----------------------------------------------------------------


_STATE_OF: dict[Awaiting, frozenset[State]] = {
    Awaiting.START: frozenset({State.INIT}),
    Awaiting.BEFORE_HOOK: frozenset({State.SEEDING}),
    Awaiting.PLANNER: frozenset({State.DRAFTING}),
    Awaiting.DURING_HOOK: frozenset({State.REVIEWING}),
    Awaiting.REVIEWER: frozenset({State.REVIEWING}),
    Awaiting.AFTER_HOOK: frozenset({State.FINALIZING}),
    Awaiting.FINALIZER: frozenset({State.FINALIZING}),
    Awaiting.NOTHING: TERMINAL,
}


def _check_run(run: object) -> Run:
    """Refuse a ``Run`` that ``step`` could not have produced (built or evolved by hand)."""
    if not isinstance(run, Run):
        raise KernelError(f"run must be a Run, got {type(run).__name__}")
    if not isinstance(run.state, State) or not isinstance(run.awaiting, Awaiting):
        raise KernelError("inconsistent run: state and awaiting must be State and Awaiting")
    if run.state not in _STATE_OF[run.awaiting]:
        raise KernelError(f"inconsistent run: state {run.state} awaiting {run.awaiting.value}")
    if run.awaiting in (Awaiting.START, Awaiting.NOTHING):
        return run
    ok = (
        isinstance(run.config, ProtocolConfig)
        and isinstance(run.task, TaskContext)
        and (isinstance(run.notebook, NotebookContext) or not run.config.notebook_enabled)
        and isinstance(run.round_index, int)
        and isinstance(run.reviewer_attempts, int)
        and (
            isinstance(run.planner_output_ref, str)
            or run.awaiting not in (Awaiting.DURING_HOOK, Awaiting.REVIEWER)
        )
    )
    if not ok:
        raise KernelError(f"inconsistent run: missing inputs for state {run.state}")
    return run


def step(run: Run, event: Event) -> tuple[Run, tuple[Effect, ...]]:
    """Apply one observed event; return the new run and the effects to carry out, in order."""
    run = _check_run(run)
    _validate(event)
    if run.terminal:
        return run, ()
    out = _Out(run, event.timestamp)
    if isinstance(event, Failed):
        if run.state is State.INIT:
            out.record(audit.RUN_STARTED, config=None, task=None, notebook=None)
        out.terminate(State.TERMINATED_ERROR, f"{REASON_UNRECOVERABLE}: {event.reason}")
        return out.run, tuple(out.effects)
    expected = _EXPECTS.get(run.awaiting)
    if not isinstance(event, expected or ()) or (
        isinstance(event, HookCompleted) and event.phase != _HOOK_PHASE[run.awaiting]
    ):
        got = type(event).__name__
        if isinstance(event, HookCompleted):
            got += f"(phase={event.phase})"
        raise KernelError(
            f"undefined transition: {got} in state {run.state} "
            f"(expecting {run.awaiting.value}); refused"
        )
    if isinstance(event, Start):
        _start(out, event)
    elif isinstance(event, HookCompleted):
        _hook(out, event)
    elif isinstance(event, PlannerCompleted):
        _planner(out, event)
    elif isinstance(event, ReviewerCompleted):
        _reviewer(out, event)
    else:
        out.terminate(State.TERMINATED_APPROVED, REASON_APPROVED)
    return out.run, tuple(out.effects)


def _start(out: _Out, event: Start) -> None:
    config_errors = validate_config(event.config)
    errors = validate_run_inputs(event.config, event.task, event.notebook)
    if errors:
        out.record(audit.RUN_STARTED, config=event.config, task=event.task, notebook=event.notebook)
        task = event.task
        session = task.get("session_id") if isinstance(task, Mapping) else None
        if config_errors:
            out.terminate(State.TERMINATED_ERROR, f"{REASON_INVALID_CONFIG}: " + "; ".join(errors))
        elif not session_id_valid(session):
            out.terminate(
                State.TERMINATED_ERROR,
                f"{REASON_SESSION_RESUME_MISSING}: session_resume_required is true "
                "and TaskContext.session_id is missing or blank",
            )
        else:
            out.terminate(State.TERMINATED_ERROR, f"{REASON_INVALID_INPUT}: " + "; ".join(errors))
        return
    config, task, notebook = load_inputs(event.config, event.task, event.notebook)
    out.record(
        audit.RUN_STARTED,
        config=config.to_dict(),
        task=task.to_dict(),
        notebook=notebook.to_dict() if notebook else event.notebook,
    )
    out.run = attrs.evolve(out.run, config=config, task=task, notebook=notebook)
    if config.notebook_enabled:
        out.move(State.SEEDING, awaiting=Awaiting.BEFORE_HOOK)
        _run_hook(out, "before")
    else:
        out.skipped_hook("before")
        _draft(out)


def _run_hook(out: _Out, phase: str) -> None:
    run = out.run
    assert run.notebook is not None and run.task is not None
    purpose, tools = {
        "before": ("context seeding", ("notebook_describe", "notebook_query")),
        "during": ("evidence cross-check of material claims", ("notebook_query",)),
        "after": ("drift-check query before final output", ("notebook_query",)),
    }[phase]
    out.effects.append(
        RunHook(
            phase=phase,
            purpose=purpose,
            tools=tools,
            notebook_id=run.notebook.notebook_id,
            round_index=run.round_index,
            required=run.task.notebook_required,
        )
    )


def _draft(out: _Out) -> None:
    """Enter DRAFTING for a new round (§6.5) and invoke the planner (§6.6)."""
    out.move(State.DRAFTING, round_index=out.run.round_index + 1, awaiting=Awaiting.PLANNER)
    run = out.run
    assert run.task is not None
    out.effects.append(
        InvokePlanner(
            round_index=run.round_index,
            initial_prompt=run.task.initial_prompt,
            critique_refs=run.critique_refs,
            issues=run.issues,
            evidence_refs=run.seed_evidence,
        )
    )


def _invoke_reviewer(out: _Out) -> None:
    run = out.run
    assert run.task is not None and run.planner_output_ref is not None
    out.run = attrs.evolve(
        run, reviewer_attempts=run.reviewer_attempts + 1, awaiting=Awaiting.REVIEWER
    )
    out.effects.append(
        InvokeReviewer(
            round_index=run.round_index,
            attempt=out.run.reviewer_attempts,
            planner_output_ref=run.planner_output_ref,
            session_id=run.task.session_id,
            evidence_refs=run.round_evidence,
        )
    )


def _invoke_finalizer(out: _Out, *, best_effort: bool, evidence: tuple[str, ...] = ()) -> None:
    run = out.run
    tools = run.notebook.tools if run.notebook else ()
    if not best_effort:
        out.run = attrs.evolve(run, awaiting=Awaiting.FINALIZER)
    out.effects.append(
        InvokeFinalizer(
            best_effort=best_effort,
            unresolved_issues=run.issues if best_effort else (),
            studio_create_available=bool(run.config and run.config.notebook_enabled)
            and "studio_create" in tools,
            evidence_refs=evidence,
        )
    )


def _hook(out: _Out, event: HookCompleted) -> None:
    assert out.run.task is not None
    required = out.run.task.notebook_required
    status = "SUCCESS" if event.succeeded else "FAILED" if required else "SKIPPED_DEGRADED"
    refs = tuple(event.evidence_refs)
    out.record(
        audit.HOOK_EXECUTED,
        phase=event.phase,
        query=event.query,
        evidence_refs=list(refs),
        status=status,
    )
    if status == "FAILED":
        out.terminate(
            State.TERMINATED_ERROR,
            f"{REASON_NOTEBOOK_UNAVAILABLE}: {event.phase} hook failed and notebook_required "
            "is true",
        )
        return
    usable = refs if status == "SUCCESS" else ()
    if event.phase == "before":
        out.run = attrs.evolve(out.run, seed_evidence=usable)
        _draft(out)
    elif event.phase == "during":
        out.run = attrs.evolve(out.run, round_evidence=usable)
        _invoke_reviewer(out)
    else:
        _invoke_finalizer(out, best_effort=False, evidence=usable)


def _planner(out: _Out, event: PlannerCompleted) -> None:
    out.move(
        State.REVIEWING,
        planner_output_ref=event.output_ref,
        reviewer_attempts=0,
        round_evidence=(),
    )
    if _notebook_on(out.run):
        out.run = attrs.evolve(out.run, awaiting=Awaiting.DURING_HOOK)
        _run_hook(out, "during")
    else:
        out.skipped_hook("during")
        _invoke_reviewer(out)


def _notebook_on(run: Run) -> bool:
    return run.config is not None and run.config.notebook_enabled


def _reviewer(out: _Out, event: ReviewerCompleted) -> None:
    run = out.run
    result = parse_verdict(event.text)
    for code in result.codes:
        kind = (
            audit.PARSER_WARNING if code == PARSER_WARNING_MULTIPLE_VERDICTS else audit.PARSER_ERROR
        )
        out.record(kind, code=code, round_index=run.round_index)
    if result.verdict is None:
        if run.reviewer_attempts < MAX_REVIEWER_ATTEMPTS:
            _invoke_reviewer(out)
        else:
            out.terminate(
                State.TERMINATED_ERROR,
                f"{REASON_MISSING_VERDICT}: no verdict line in round {run.round_index} "
                "after one retry",
            )
        return
    assert run.config is not None and run.planner_output_ref is not None
    out.record(
        audit.ROUND_RECORDED,
        round_index=run.round_index,
        planner_output_ref=run.planner_output_ref,
        reviewer_output_ref=event.output_ref,
        verdict=result.verdict,
        issues=list(event.issues),
        reviewer_output=event.text,
        reviewer_attempt=run.reviewer_attempts,
    )
    if result.verdict == APPROVED:
        out.move(State.FINALIZING)
        if _notebook_on(out.run):
            out.run = attrs.evolve(out.run, awaiting=Awaiting.AFTER_HOOK)
            _run_hook(out, "after")
        else:
            out.skipped_hook("after")
            _invoke_finalizer(out, best_effort=False)
        return
    out.move(
        State.REVISING,
        critique_refs=(*run.critique_refs, event.output_ref),
        issues=tuple(event.issues),
    )
    if run.round_index < run.config.max_rounds:
        _draft(out)
    else:
        out.terminate(
            State.TERMINATED_MAX_ROUNDS,
            f"{REASON_MAX_ROUNDS}: verdict REVISE at round {run.round_index} of "
            f"max_rounds={run.config.max_rounds}",
        )
        _invoke_finalizer(out, best_effort=True)
