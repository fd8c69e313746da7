"""Shared Hypothesis strategies and a driver for the kernel.arena tests."""

from __future__ import annotations

import datetime
import json
from typing import Any

import attrs
from hypothesis import strategies as st

from kernel.arena.machine import (
    Awaiting,
    Effect,
    Event,
    Failed,
    FinalizerCompleted,
    HookCompleted,
    InvokeReviewer,
    Persist,
    PlannerCompleted,
    ReviewerCompleted,
    Run,
    Start,
    step,
)

TS = "2026-02-23T10:00:00Z"

VALID_CONFIG: dict[str, Any] = {
    "max_rounds": 3,
    "session_resume_required": True,
    "reviewer_mode": "read-only",
    "notebook_enabled": True,
}
VALID_TASK: dict[str, Any] = {
    "task_id": "T-42",
    "initial_prompt": "Draft the migration plan",
    "session_id": "3f2c9a1e-5b7d-4e21-9c0a-7d1e2f3a4b5c",
    "round_history_refs": [],
    "notebook_required": False,
}
VALID_NOTEBOOK: dict[str, Any] = {
    "notebook_id": "nb-7",
    "profile": "auto",
    "tools": ["notebook_describe", "notebook_query", "studio_create"],
}

timestamps = st.datetimes(
    min_value=datetime.datetime(2020, 1, 1), max_value=datetime.datetime(2030, 1, 1)
).map(lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ"))

_ref_text = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789/-_.", min_size=1, max_size=12)
refs = _ref_text.map(lambda s: "ref-" + s)
prose = st.text(alphabet="abcdefgh ijkl\tmnop ABC.,;!?()#*-", max_size=30)


@st.composite
def configs(draw: st.DrawFn) -> dict[str, Any]:
    cfg: dict[str, Any] = {
        "session_resume_required": True,
        "reviewer_mode": "read-only",
        "notebook_enabled": draw(st.booleans()),
    }
    if draw(st.booleans()):
        cfg["max_rounds"] = draw(st.integers(1, 5))
    return cfg


@st.composite
def tasks(draw: st.DrawFn) -> dict[str, Any]:
    task: dict[str, Any] = {
        "task_id": "T-" + draw(_ref_text),
        "initial_prompt": draw(prose.filter(lambda s: s.strip() != "")),
        "session_id": "sess-" + draw(_ref_text),
        "round_history_refs": draw(st.lists(refs, max_size=3)),
    }
    if draw(st.booleans()):
        task["notebook_required"] = draw(st.booleans())
    return task


@st.composite
def notebooks(draw: st.DrawFn) -> dict[str, Any]:
    extra = draw(st.lists(st.sampled_from(["notebook_describe", "studio_create"]), unique=True))
    return {
        "notebook_id": "nb-" + draw(_ref_text),
        "profile": draw(st.sampled_from(["enterprise", "personal", "auto"])),
        "tools": ["notebook_query", *extra],
    }


#: (text, verdict or None, verdict is the last non-empty line)
@st.composite
def reviewer_outputs(draw: st.DrawFn) -> tuple[str, str | None, bool]:
    body = draw(st.lists(prose, max_size=4))
    kind = draw(st.sampled_from(["APPROVED", "REVISE", "missing", "multiple"]))
    if kind == "missing":
        return (
            "\n".join([*body, draw(st.sampled_from(["VERDICT: APPROVED.", "Verdict approve"]))]),
            None,
            False,
        )
    verdicts = (
        [kind]
        if kind != "multiple"
        else draw(st.lists(st.sampled_from(["APPROVED", "REVISE"]), min_size=2, max_size=3))
    )
    lines = list(body)
    for v in verdicts:
        spelled = draw(st.sampled_from([v, v.lower(), v.title()]))
        lines.append(
            draw(st.sampled_from(["", " ", "\t"]))
            + "VERDICT:"
            + draw(st.sampled_from([" ", "", "  "]))
            + spelled
        )
    trailing = draw(st.sampled_from(["", "", "Thanks.", "\n  \n"]))
    text = "\n".join(lines) + ("\n" + trailing if trailing else "")
    return text, verdicts[-1], trailing.strip() == ""


@attrs.frozen
class Driven:
    """One run driven to the end by a well-behaved orchestrator."""

    config: dict[str, Any]
    events: tuple[Event, ...]
    runs: tuple[Run, ...]  # runs[i] is the run after events[i]
    effects: tuple[tuple[Effect, ...], ...]
    verdict_last: bool  # every recorded reviewer output ends with its verdict

    @property
    def final(self) -> Run:
        return self.runs[-1]

    @property
    def records(self) -> list[dict[str, Any]]:
        return [
            json.loads(e.record.line)
            for effs in self.effects
            for e in effs
            if isinstance(e, Persist)
        ]

    @property
    def jsonl(self) -> str:
        return "".join(
            e.record.line + "\n" for effs in self.effects for e in effs if isinstance(e, Persist)
        )

    @property
    def reviewer_calls(self) -> list[InvokeReviewer]:
        return [e for effs in self.effects for e in effs if isinstance(e, InvokeReviewer)]


@st.composite
def driven_runs(draw: st.DrawFn, *, allow_failures: bool = True) -> Driven:
    config = draw(configs())
    task = draw(tasks())
    notebook = draw(notebooks()) if config["notebook_enabled"] or draw(st.booleans()) else None
    run = Run()
    events: list[Event] = [Start(config=config, task=task, notebook=notebook, timestamp=TS)]
    runs: list[Run] = []
    effects: list[tuple[Effect, ...]] = []
    verdict_last = True
    for _ in range(100):
        run, effs = step(run, events[-1])
        runs.append(run)
        effects.append(effs)
        if run.terminal:
            break
        ts = draw(timestamps)
        if allow_failures and draw(st.integers(0, 40)) == 0:
            events.append(Failed(reason="driver lost the worker", timestamp=ts))
            continue
        phase = {
            Awaiting.BEFORE_HOOK: "before",
            Awaiting.DURING_HOOK: "during",
            Awaiting.AFTER_HOOK: "after",
        }.get(run.awaiting)
        if phase is not None:
            ok = not allow_failures or draw(st.integers(0, 5)) > 0
            events.append(
                HookCompleted(
                    phase=phase,
                    query=f"{phase} query",
                    evidence_refs=tuple(draw(st.lists(refs, max_size=2))),
                    succeeded=ok,
                    timestamp=ts,
                )
            )
        elif run.awaiting is Awaiting.PLANNER:
            events.append(PlannerCompleted(output_ref=draw(refs), timestamp=ts))
        elif run.awaiting is Awaiting.REVIEWER:
            text, verdict, last = draw(reviewer_outputs())
            if verdict is not None and not last:
                verdict_last = False
            issues = tuple(draw(st.lists(prose, max_size=2)))
            events.append(
                ReviewerCompleted(output_ref=draw(refs), text=text, issues=issues, timestamp=ts)
            )
        else:
            assert run.awaiting is Awaiting.FINALIZER
            events.append(FinalizerCompleted(timestamp=ts))
    return Driven(config, tuple(events), tuple(runs), tuple(effects), verdict_last)


def drive_records(events: list[Event]) -> list[dict[str, Any]]:
    """The audit records a run persists for ``events`` (all must be accepted)."""
    run = Run()
    out: list[dict[str, Any]] = []
    for event in events:
        run, effs = step(run, event)
        out.extend(json.loads(e.record.line) for e in effs if isinstance(e, Persist))
    return out


def two_round_events(*, enabled: bool = True, max_rounds: int = 3) -> list[Event]:
    """REVISE (after one retry), then APPROVED with two verdict lines."""

    def hook(phase: str) -> list[Event]:
        if not enabled:
            return []
        return [
            HookCompleted(
                phase=phase,
                query=f"{phase} query",
                evidence_refs=(f"ev-{phase}",),
                succeeded=True,
                timestamp=TS,
            )
        ]

    config = {**VALID_CONFIG, "notebook_enabled": enabled, "max_rounds": max_rounds}
    return [
        Start(config=config, task=VALID_TASK, notebook=VALID_NOTEBOOK, timestamp=TS),
        *hook("before"),
        PlannerCompleted(output_ref="plan-1", timestamp=TS),
        *hook("during"),
        ReviewerCompleted(output_ref="rev-1a", text="Looks fine overall.", timestamp=TS),
        ReviewerCompleted(
            output_ref="rev-1b",
            text="Claim 3 lacks evidence.\nVERDICT: REVISE",
            issues=("claim 3 unsupported",),
            timestamp=TS,
        ),
        PlannerCompleted(output_ref="plan-2", timestamp=TS),
        *hook("during"),
        ReviewerCompleted(
            output_ref="rev-2",
            text="VERDICT: REVISE\nFixed now.\nVERDICT: APPROVED\n",
            timestamp=TS,
        ),
        *hook("after"),
        FinalizerCompleted(timestamp=TS),
    ]
