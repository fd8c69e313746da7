"""kernel.arena.step: the §5/§6/§9 state machine, by example and by property."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.arena_support import (
    TS,
    VALID_CONFIG,
    VALID_NOTEBOOK,
    VALID_TASK,
    Driven,
    configs,
    driven_runs,
    notebooks,
    prose,
    refs,
    reviewer_outputs,
    tasks,
    timestamps,
)

from kernel.arena import (
    TERMINAL,
    TRANSITIONS,
    Awaiting,
    Effect,
    Event,
    Failed,
    FinalizerCompleted,
    HookCompleted,
    InvokeFinalizer,
    InvokePlanner,
    InvokeReviewer,
    NotebookContext,
    Persist,
    PlannerCompleted,
    ProtocolConfig,
    ReviewerCompleted,
    Run,
    RunHook,
    Start,
    State,
    TaskContext,
    Terminate,
    check_conformance,
    step,
)
from kernel.errors import KernelError


def drive(events: list[Event], run: Run | None = None) -> tuple[Run, list[Effect]]:
    run = run or Run()
    effects: list[Effect] = []
    for event in events:
        run, effs = step(run, event)
        effects.extend(effs)
    return run, effects


def records(effects: list[Effect]) -> list[dict[str, Any]]:
    return [json.loads(e.record.line) for e in effects if isinstance(e, Persist)]


def transitions(effects: list[Effect]) -> list[tuple[str, str, int]]:
    return [
        (r["from"], r["to"], r["round_index"])
        for r in records(effects)
        if r["event"] == "STATE_TRANSITION"
    ]


def start(**changes: Any) -> Start:
    config = {**VALID_CONFIG, **changes.pop("config", {})}
    task = {**VALID_TASK, **changes.pop("task", {})}
    notebook = changes.pop("notebook", VALID_NOTEBOOK)
    return Start(config=config, task=task, notebook=notebook, timestamp=TS)


def hook(phase: str, ok: bool = True) -> HookCompleted:
    return HookCompleted(
        phase=phase, query=f"{phase} q", evidence_refs=(f"ev-{phase}",), succeeded=ok, timestamp=TS
    )


def planner(ref: str = "plan-1") -> PlannerCompleted:
    return PlannerCompleted(output_ref=ref, timestamp=TS)


def reviewer(text: str, ref: str = "rev-1", issues: tuple[str, ...] = ()) -> ReviewerCompleted:
    return ReviewerCompleted(output_ref=ref, text=text, issues=issues, timestamp=TS)


APPROVE = "Fine.\nVERDICT: APPROVED"
REVISE = "Fix X.\nVERDICT: REVISE"
NONE = "I think it is approved."


# ---- examples ---------------------------------------------------------------------------


def test_happy_path_with_notebook() -> None:
    run, effects = drive(
        [
            start(),
            hook("before"),
            planner(),
            hook("during"),
            reviewer(APPROVE),
            hook("after"),
            FinalizerCompleted(timestamp=TS),
        ]
    )
    assert run.state is State.TERMINATED_APPROVED
    assert transitions(effects) == [
        ("INIT", "SEEDING", 0),
        ("SEEDING", "DRAFTING", 1),
        ("DRAFTING", "REVIEWING", 1),
        ("REVIEWING", "FINALIZING", 1),
        ("FINALIZING", "TERMINATED_APPROVED", 1),
    ]
    hooks = [e for e in effects if isinstance(e, RunHook)]
    assert [(h.phase, h.tools) for h in hooks] == [
        ("before", ("notebook_describe", "notebook_query")),
        ("during", ("notebook_query",)),
        ("after", ("notebook_query",)),
    ]
    [planner_call] = [e for e in effects if isinstance(e, InvokePlanner)]
    assert planner_call.evidence_refs == ("ev-before",)
    [review] = [e for e in effects if isinstance(e, InvokeReviewer)]
    assert (review.mode, review.resume_session, review.session_id) == (
        "read-only",
        True,
        VALID_TASK["session_id"],
    )
    assert review.evidence_refs == ("ev-during",)
    [final] = [e for e in effects if isinstance(e, InvokeFinalizer)]
    assert final == InvokeFinalizer(
        best_effort=False,
        unresolved_issues=(),
        studio_create_available=True,
        evidence_refs=("ev-after",),
    )
    assert effects[-1] == Terminate(state=State.TERMINATED_APPROVED, reason="APPROVED")
    assert check_conformance([*records(effects)]).level == "Compliant"


def test_notebook_disabled_skips_hooks_explicitly() -> None:
    run, effects = drive(
        [
            start(config={"notebook_enabled": False}, notebook=None),
            planner(),
            reviewer(APPROVE),
            FinalizerCompleted(timestamp=TS),
        ]
    )
    assert run.state is State.TERMINATED_APPROVED
    assert not any(isinstance(e, RunHook) for e in effects)
    hooks = [(r["phase"], r["status"]) for r in records(effects) if r["event"] == "HOOK_EXECUTED"]
    assert hooks == [(p, "SKIPPED_DISABLED") for p in ("before", "during", "after")]
    assert transitions(effects)[0] == ("INIT", "DRAFTING", 1)
    assert check_conformance(records(effects)).level == "Compliant"


def test_missing_verdict_retries_once_then_errors() -> None:
    run, effects = drive([start(), hook("before"), planner(), hook("during"), reviewer(NONE)])
    assert run.state is State.REVIEWING
    assert [e.attempt for e in effects if isinstance(e, InvokeReviewer)] == [1, 2]
    run, more = drive([reviewer(NONE)], run)
    assert run.state is State.TERMINATED_ERROR
    assert run.reason is not None and run.reason.startswith("MISSING_VERDICT_AFTER_RETRY")
    assert not any(isinstance(e, InvokeReviewer) for e in more)
    codes = [r.get("code") for r in records(effects + more) if r["event"] == "PARSER_ERROR"]
    assert codes == ["PARSER_ERROR_MISSING_VERDICT"] * 2
    assert check_conformance(records(effects + more)).level == "Compliant"


def test_retry_that_finds_a_verdict_continues() -> None:
    run, effects = drive(
        [start(), hook("before"), planner(), hook("during"), reviewer(NONE), reviewer(REVISE)]
    )
    assert run.state is State.DRAFTING and run.round_index == 2
    [round_record] = [r for r in records(effects) if r["event"] == "ROUND_RECORDED"]
    assert round_record["reviewer_attempt"] == 2
    run, more = drive([planner("plan-2"), hook("during"), reviewer(NONE)], run)
    assert [e.attempt for e in more if isinstance(e, InvokeReviewer)] == [1, 2]


def test_multiple_verdicts_use_the_last_and_warn() -> None:
    run, effects = drive(
        [
            start(),
            hook("before"),
            planner(),
            hook("during"),
            reviewer("VERDICT: APPROVED\nOn reflection:\nVERDICT: REVISE"),
        ]
    )
    assert run.state is State.DRAFTING
    recs = records(effects)
    assert [r["code"] for r in recs if r["event"] == "PARSER_WARNING"] == [
        "PARSER_WARNING_MULTIPLE_VERDICTS"
    ]
    assert [r["verdict"] for r in recs if r["event"] == "ROUND_RECORDED"] == ["REVISE"]


@pytest.mark.parametrize("max_rounds", [1, 2, 5])
def test_max_rounds_cap(max_rounds: int) -> None:
    events: list[Event] = [start(config={"max_rounds": max_rounds}), hook("before")]
    for i in range(max_rounds):
        events += [planner(f"p{i}"), hook("during"), reviewer(REVISE, f"r{i}", (f"issue {i}",))]
    run, effects = drive(events)
    assert run.state is State.TERMINATED_MAX_ROUNDS
    assert run.round_index == max_rounds
    assert transitions(effects)[-2:] == [
        ("REVIEWING", "REVISING", max_rounds),
        ("REVISING", "TERMINATED_MAX_ROUNDS", max_rounds),
    ]
    final = [e for e in effects if isinstance(e, InvokeFinalizer)]
    assert final == [
        InvokeFinalizer(
            best_effort=True,
            unresolved_issues=(f"issue {max_rounds - 1}",),
            studio_create_available=True,
            evidence_refs=(),
        )
    ]
    # the best-effort finalizer's completion changes nothing
    assert step(run, FinalizerCompleted(timestamp=TS)) == (run, ())
    assert check_conformance(records(effects)).level == "Compliant"


@pytest.mark.parametrize("phase", ["before", "during", "after"])
def test_notebook_unavailable_degrades_when_not_required(phase: str) -> None:
    ok = {p: p != phase for p in ("before", "during", "after")}
    run, effects = drive(
        [
            start(),
            hook("before", ok["before"]),
            planner(),
            hook("during", ok["during"]),
            reviewer(APPROVE),
            hook("after", ok["after"]),
            FinalizerCompleted(timestamp=TS),
        ]
    )
    assert run.state is State.TERMINATED_APPROVED
    statuses = {r["phase"]: r["status"] for r in records(effects) if r["event"] == "HOOK_EXECUTED"}
    assert statuses[phase] == "SKIPPED_DEGRADED"
    assert check_conformance(records(effects)).level == "Compliant"


@pytest.mark.parametrize("phase", ["before", "during", "after"])
def test_notebook_unavailable_errors_when_required(phase: str) -> None:
    events: list[Event] = [start(task={"notebook_required": True})]
    happy: list[Event] = [hook("before"), planner(), hook("during"), reviewer(APPROVE)]
    for e in [*happy, hook("after")]:
        if isinstance(e, HookCompleted) and e.phase == phase:
            events.append(hook(phase, ok=False))
            break
        events.append(e)
    run, effects = drive(events)
    assert run.state is State.TERMINATED_ERROR
    assert run.reason is not None and run.reason.startswith("NOTEBOOK_UNAVAILABLE")
    assert records(effects)[-3]["status"] == "FAILED"
    assert check_conformance(records(effects)).level == "Compliant"


@pytest.mark.parametrize("session", [None, "", "   ", 42])
def test_session_resume_missing_is_a_hard_fail(session: object) -> None:
    task = dict(VALID_TASK)
    if session is None:
        del task["session_id"]
    else:
        task["session_id"] = session
    run, effects = step(
        Run(), Start(config=VALID_CONFIG, task=task, notebook=VALID_NOTEBOOK, timestamp=TS)
    )
    assert run.state is State.TERMINATED_ERROR
    assert run.reason is not None and run.reason.startswith("SESSION_RESUME_MISSING")
    assert transitions(list(effects)) == [("INIT", "TERMINATED_ERROR", 0)]
    assert check_conformance(records(list(effects))).level == "Compliant"


@pytest.mark.parametrize(
    "config",
    [{"max_rounds": 0}, {"reviewer_mode": "read-write"}, {"session_resume_required": False}],
)
def test_invalid_config_terminates_in_error(config: dict[str, Any]) -> None:
    run, effects = step(Run(), start(config=config))
    assert run.state is State.TERMINATED_ERROR
    assert run.reason is not None and run.reason.startswith("INVALID_CONFIG: ProtocolConfig.")
    assert check_conformance(records(list(effects))).level == "Compliant"


def test_missing_notebook_context_terminates_in_error() -> None:
    run, _ = step(Run(), start(notebook=None))
    assert run.state is State.TERMINATED_ERROR
    assert run.reason == (
        "INVALID_INPUT: NotebookContext.notebook_id: missing (required when notebook_enabled)"
    )


def test_unrecoverable_error_from_any_non_terminal_state() -> None:
    prefix: list[Event] = [
        start(),
        hook("before"),
        planner(),
        hook("during"),
        reviewer(APPROVE),
        hook("after"),
    ]
    for n in range(len(prefix) + 1):
        run, _ = drive(prefix[:n])
        before = run.state
        run, effects = step(run, Failed(reason="worker crashed", timestamp=TS))
        assert run.state is State.TERMINATED_ERROR
        assert transitions(list(effects)) == [(before.value, "TERMINATED_ERROR", run.round_index)]
        assert check_conformance(records(drive(prefix[:n])[1] + list(effects))).level == "Compliant"


@pytest.mark.parametrize(
    ("prefix", "event"),
    [
        ([], planner()),
        ([], hook("before")),
        ([start()], planner()),
        ([start()], hook("during")),
        ([start(), hook("before")], reviewer(APPROVE)),
        ([start(), hook("before"), planner()], reviewer(APPROVE)),
        ([start(), hook("before"), planner(), hook("during")], FinalizerCompleted(timestamp=TS)),
        ([start(), hook("before"), planner(), hook("during")], start()),
    ],
)
def test_undefined_transitions_are_refused_and_leave_the_run(
    prefix: list[Event], event: Event
) -> None:
    run, _ = drive(prefix)
    with pytest.raises(KernelError, match="undefined transition"):
        step(run, event)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (PlannerCompleted(output_ref="p", timestamp="yesterday"), "RFC 3339"),
        (PlannerCompleted(output_ref="", timestamp=TS), "output_ref must not be empty"),
        (PlannerCompleted(output_ref=3, timestamp=TS), "output_ref must be a string"),  # type: ignore[arg-type]
        (ReviewerCompleted(output_ref="r", text=None, timestamp=TS), "text must be a string"),  # type: ignore[arg-type]
        (ReviewerCompleted(output_ref="r", text="", issues=("a", 1), timestamp=TS), "issues"),  # type: ignore[arg-type]
        (HookCompleted(phase="later", query="q", succeeded=True, timestamp=TS), "phase"),
        (HookCompleted(phase="before", query="", succeeded=True, timestamp=TS), "query"),
        (HookCompleted(phase="before", query="q", succeeded="yes", timestamp=TS), "boolean"),  # type: ignore[arg-type]
        (Failed(reason=" ", timestamp=TS), "reason"),
        ("start", "unknown arena event str"),
        ({"event": "start"}, "unknown arena event dict"),
    ],
)
def test_malformed_events_are_kernel_errors(event: Any, message: str) -> None:
    with pytest.raises(KernelError, match=message):
        step(Run(), event)


def test_start_with_non_json_inputs_is_refused() -> None:
    with pytest.raises(KernelError, match="not JSON"):
        step(Run(), Start(config={"max_rounds": object()}, task=VALID_TASK, timestamp=TS))
    with pytest.raises(KernelError, match="must be a Run"):
        step("INIT", start())  # type: ignore[arg-type]


# ---- properties -------------------------------------------------------------------------

ALLOWED = {(a.value, b.value) for a, b in TRANSITIONS}


def _bound(max_rounds: int) -> int:
    # start, before hook, then per round planner + during hook + 2 reviews, after hook, finalizer
    return 2 + 4 * max_rounds + 2


@given(driven_runs())
def test_driven_runs_end_terminal_and_conformant(d: Driven) -> None:
    max_rounds = d.config.get("max_rounds", 5)
    assert d.final.terminal
    assert len(d.runs) <= _bound(max_rounds)
    assert all(r.state in set(State) for r in d.runs)
    assert all(r.round_index <= max_rounds for r in d.runs)
    per_round = Counter(call.round_index for call in d.reviewer_calls)
    assert all(n <= 2 for n in per_round.values())
    for effs in d.effects:
        for e in effs:
            if isinstance(e, InvokeReviewer):
                assert (e.mode, e.resume_session) == ("read-only", True)
    prev = "INIT"
    for r in d.records:
        if r["event"] == "STATE_TRANSITION":
            assert (r["from"], r["to"]) in ALLOWED and r["from"] == prev
            prev = r["to"]
    report = check_conformance(d.jsonl)
    expected = "Compliant" if d.verdict_last else "Conditionally Compliant"
    assert report.level == expected, [c.to_dict() for c in report.checks if c.findings]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
_tuples = st.lists(refs, max_size=2).map(tuple)
_maybe_ts = st.one_of(timestamps, st.sampled_from(["", "2026-13-01T00:00:00Z", "now"]))
random_events = st.one_of(
    st.builds(
        Start,
        config=st.one_of(configs(), json_values),
        task=st.one_of(tasks(), json_values),
        notebook=st.one_of(st.none(), notebooks(), json_values),
        timestamp=_maybe_ts,
    ),
    st.builds(
        HookCompleted,
        phase=st.sampled_from(["before", "during", "after", "never"]),
        query=st.sampled_from(["q", "", "drift?"]),
        evidence_refs=_tuples,
        succeeded=st.booleans(),
        timestamp=_maybe_ts,
    ),
    st.builds(PlannerCompleted, output_ref=refs, timestamp=_maybe_ts),
    st.builds(
        ReviewerCompleted,
        output_ref=refs,
        text=reviewer_outputs().map(lambda t: t[0]) | st.text(max_size=30),
        issues=st.lists(prose, max_size=2).map(tuple),
        timestamp=_maybe_ts,
    ),
    st.builds(FinalizerCompleted, timestamp=_maybe_ts),
    st.builds(Failed, reason=st.sampled_from(["boom", "", "lost"]), timestamp=_maybe_ts),
)


@given(st.lists(random_events, max_size=40))
def test_random_event_sequences_keep_every_invariant(events: list[Event]) -> None:
    run = Run()
    trail: list[dict[str, Any]] = []
    reviews: Counter[int] = Counter()
    for event in events:
        before = run
        try:
            run, effects = step(run, event)
        except KernelError as exc:
            # refused: the run is kept; only malformed events are refused by a terminal run
            assert before.state not in TERMINAL or "undefined transition" not in str(exc)
            with pytest.raises(KernelError, match=re.escape(str(exc))):
                step(before, event)
            continue
        if before.state in TERMINAL:
            assert (run, effects) == (before, ())
            continue
        assert run.state in set(State)
        prev = before.state.value
        for e in effects:
            if isinstance(e, Persist):
                rec = json.loads(e.record.line)
                trail.append(rec)
                if rec["event"] == "STATE_TRANSITION":
                    assert (rec["from"], rec["to"]) in ALLOWED and rec["from"] == prev
                    prev = rec["to"]
            if isinstance(e, InvokeReviewer):
                reviews[e.round_index] += 1
        assert prev == run.state.value
        if run.config is not None:
            assert run.round_index <= run.config.max_rounds
    assert all(n <= 2 for n in reviews.values())
    if run.terminal:
        report = check_conformance(trail)
        assert report.level != "Non-Compliant", [c.to_dict() for c in report.checks if c.findings]


@given(driven_runs(), st.lists(random_events, max_size=10))
def test_terminal_states_absorb(d: Driven, events: list[Event]) -> None:
    run = d.final
    for event in events:
        try:
            assert step(run, event) == (run, ())
        except KernelError as exc:  # only malformed events are refused
            assert "undefined transition" not in str(exc)


def test_run_is_frozen() -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        Run().state = State.DRAFTING  # type: ignore[misc]


runs_by_hand = st.builds(
    Run,
    state=st.sampled_from(State),
    awaiting=st.sampled_from(Awaiting),
    config=st.none()
    | st.builds(ProtocolConfig, max_rounds=st.integers(1, 5), notebook_enabled=st.booleans()),
    task=st.none() | st.just(TaskContext(task_id="t", initial_prompt="p", session_id="s")),
    notebook=st.none()
    | st.just(NotebookContext(notebook_id="n", profile="auto", tools=("notebook_query",))),
    round_index=st.integers(0, 6),
    reviewer_attempts=st.integers(0, 3),
    planner_output_ref=st.none() | refs,
)


@given(runs_by_hand, random_events)
def test_runs_built_by_hand_never_crash_step(run: Run, event: Event) -> None:
    try:
        new, effects = step(run, event)
    except KernelError:
        return
    assert new.state in set(State)
    for e in effects:
        if isinstance(e, Persist):
            rec = json.loads(e.record.line)
            if rec["event"] == "STATE_TRANSITION":
                assert (rec["from"], rec["to"]) in ALLOWED
