"""The audit log (companions §C2): finding lifecycles and the JSON Lines session record."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone
from importlib import resources
from typing import Any

import jsonschema
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.errors import KernelError
from kernel.io import InputError
from kernel.panel import IllegalTransition, PanelInputError, SessionRecord, lifecycle
from kernel.panel.audit import (
    NEXT_STATES,
    STATES,
    Agreement,
    FindingEvent,
    Parameters,
    Phase,
    ScriptResult,
    from_jsonl,
    session_schema,
    session_summary,
    to_jsonl,
)
from kernel.panel.voting import LEVELS, OUTCOMES, agreement_level

# The lifecycle written as the rule states it, independent of the transition table.
LIFECYCLE_RE = re.compile(r"created( challenged defended)*( (dismissed|validated))?")
IDS = ["F1", "F2", "F3"]


@st.composite
def one_lifecycle(draw: st.DrawFn) -> list[str]:
    states = ["created"]
    for _ in range(draw(st.integers(0, 3))):
        states += ["challenged", "defended"]
    if draw(st.booleans()) and draw(st.booleans()):
        states.append("challenged")  # left open, awaiting a defence
    elif draw(st.booleans()):
        states.append(draw(st.sampled_from(["dismissed", "validated"])))
    return states


@st.composite
def legal_events(draw: st.DrawFn, ids: list[str] = IDS) -> list[tuple[str, str]]:
    """Legal lifecycles of some findings, interleaved at random."""
    chosen = draw(st.lists(st.sampled_from(ids), unique=True, max_size=len(ids)))
    queues = {fid: draw(one_lifecycle()) for fid in chosen}
    events: list[tuple[str, str]] = []
    while any(queues.values()):
        fid = draw(st.sampled_from(sorted(f for f, q in queues.items() if q)))
        events.append((fid, queues[fid].pop(0)))
    return events


def _accepted_by_rule(events: list[tuple[str, str]]) -> bool:
    per: dict[str, list[str]] = {}
    for fid, state in events:
        per.setdefault(fid, []).append(state)
    return all(LIFECYCLE_RE.fullmatch(" ".join(s)) for s in per.values())


@given(legal_events())
@example([("F1", "created"), ("F1", "validated")])
@example([("F1", "created"), ("F1", "dismissed")])
@example([("F1", "created"), ("F2", "created"), ("F1", "challenged"), ("F2", "validated")])
def test_legal_sequences_are_accepted(events: list[tuple[str, str]]) -> None:
    finals = lifecycle(events)
    last: dict[str, str] = {}
    for fid, state in events:
        last[fid] = state
    assert finals == last
    assert list(finals) == list(last)  # first-seen order


@st.composite
def illegal_events(draw: st.DrawFn) -> tuple[list[tuple[str, str]], int, str, str | None, str]:
    """A legal sequence with one out-of-order event inserted; returns where and what."""
    events = draw(legal_events())
    at = draw(st.integers(0, len(events)))
    fid = draw(st.sampled_from(IDS))
    before: str | None = None
    for f, s in events[:at]:
        if f == fid:
            before = s
    after = draw(st.sampled_from([s for s in STATES if s not in NEXT_STATES[before]]))
    return [*events[:at], (fid, after), *events[at:]], at, fid, before, after


@given(illegal_events())
@example(([("F1", "challenged")], 0, "F1", None, "challenged"))
@example(([("F1", "created"), ("F1", "created")], 1, "F1", "created", "created"))
@example(([("F1", "created"), ("F1", "defended")], 1, "F1", "created", "defended"))
@example(
    (
        [("F1", "created"), ("F1", "challenged"), ("F1", "validated")],
        2,
        "F1",
        "challenged",
        "validated",
    )
)
@example(
    (
        [("F1", "created"), ("F1", "dismissed"), ("F1", "challenged")],
        2,
        "F1",
        "dismissed",
        "challenged",
    )
)
@example(
    (
        [("F1", "created"), ("F1", "validated"), ("F1", "dismissed")],
        2,
        "F1",
        "validated",
        "dismissed",
    )
)
def test_illegal_sequences_are_rejected(
    case: tuple[list[tuple[str, str]], int, str, str | None, str],
) -> None:
    events, _at, fid, before, after = case
    with pytest.raises(IllegalTransition) as exc:
        lifecycle(events)
    err = exc.value
    assert isinstance(err, KernelError)
    assert (err.finding, err.before, err.after) == (fid, before, after)
    assert repr(fid) in str(err)
    assert f"{before or 'none'} -> {after}" in str(err)


@given(st.lists(st.tuples(st.sampled_from(["F1", "F2"]), st.sampled_from(STATES)), max_size=8))
def test_accepted_exactly_when_the_rule_says_so(events: list[tuple[str, str]]) -> None:
    if _accepted_by_rule(events):
        assert set(lifecycle(events)) == {f for f, _ in events}
    else:
        with pytest.raises(IllegalTransition):
            lifecycle(events)


@pytest.mark.parametrize(
    "events",
    [
        "F1 created",
        [("F1",)],
        [("F1", "created", "x")],
        [("", "created")],
        [(1, "created")],
        [("F1", "Created")],
        [("F1", "resolved")],
        [{"F1": "created"}],
    ],
)
def test_malformed_events(events: Any) -> None:
    with pytest.raises(KernelError):
        lifecycle(events)


# --- the session record -------------------------------------------------------------------

AGENTS = ["SEC", "PERF", "QUAL", "CORR", "ARCH"]
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=8)


BASE = datetime(2026, 1, 1, tzinfo=UTC)
IST = timezone(timedelta(hours=5, minutes=30))
SECONDS = st.integers(0, 10**6)
# Spellings of one instant: Z, +00:00 or +05:30.
ZONES = st.sampled_from(["Z", "+00:00", "+05:30"])
MAYBE_AGENT_INDEX = st.none() | st.integers(0, len(AGENTS) - 1)
TOKENS = st.dictionaries(st.sampled_from([*AGENTS, "orchestrator"]), st.integers(0, 10**6))
SCRIPTS = st.lists(
    st.tuples(
        st.sampled_from(["detect-convergence.sh", "track-budget.sh"]),
        st.integers(-1, 255),
        st.none() | st.text(max_size=20),
    ),
    max_size=3,
)


def _spell(moment: datetime, zone: str) -> str:
    if zone == "+05:30":
        return moment.astimezone(IST).isoformat()
    text = moment.astimezone(UTC).isoformat()
    return text.replace("+00:00", "Z") if zone == "Z" else text


@st.composite
def records(draw: st.DrawFn) -> SessionRecord:
    specialists = draw(st.lists(st.sampled_from(AGENTS), min_size=1, unique=True))
    parameters = Parameters(
        target=draw(TEXT),
        specialists=specialists,
        budget=draw(st.integers(1, 10**7)),
        flags=draw(st.lists(st.sampled_from(["--delta", "--thorough", "--strict-scope"]))),
    )
    phases = []
    for name in draw(st.lists(st.sampled_from(["review", "challenge", "resolve"]), unique=True)):
        start = BASE + timedelta(seconds=draw(SECONDS))
        end = start + timedelta(seconds=draw(SECONDS))
        ended = _spell(end, draw(ZONES)) if draw(st.booleans()) else None
        phases.append(Phase(name, _spell(start, draw(ZONES)), ended, draw(TOKENS)))
    events = []
    for fid, state in draw(legal_events()):
        who = draw(MAYBE_AGENT_INDEX)
        agent = None if who is None else specialists[who % len(specialists)]
        when = _spell(BASE + timedelta(seconds=draw(SECONDS)), draw(ZONES))
        events.append(FindingEvent(fid, state, agent, when if draw(st.booleans()) else None))
    agreement = None
    if draw(st.booleans()):
        created = sorted({e.finding for e in events})
        outcomes = draw(
            st.dictionaries(st.sampled_from(created), st.sampled_from(OUTCOMES))
            if created
            else st.just({})
        )
        level = agreement_level(outcomes.values()) if outcomes else draw(st.sampled_from(LEVELS))
        agreement = Agreement(level, outcomes)
    scripts = [ScriptResult(name, code, output) for name, code, output in draw(SCRIPTS)]
    return SessionRecord(parameters, phases, events, agreement, scripts)


def _shipped_schema() -> Any:
    text = resources.files("kernel").joinpath("data/panel_session.schema.json").read_text("utf-8")
    return json.loads(text)


@given(records())
def test_jsonl_round_trip_and_schema(record: SessionRecord) -> None:
    text = to_jsonl(record)
    assert from_jsonl(text) == record
    assert SessionRecord.from_jsonl(record.to_jsonl()) == record
    assert text.endswith("\n") and "\n\n" not in text
    schema = _shipped_schema()
    check = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    lines = [json.loads(line) for line in text.splitlines()]
    for line in lines:
        check.validate(line)
    assert lines[0]["event"] == "session"
    assert [(e["finding"], e["state"]) for e in lines if e["event"] == "finding"] == [
        (e.finding, e.state) for e in record.events
    ]
    assert record.final_states == lifecycle((e.finding, e.state) for e in record.events)


def test_schema_enums_match_the_kernel() -> None:
    schema = session_schema()
    assert schema == _shipped_schema()
    defs = schema["$defs"]
    assert defs["finding"]["properties"]["state"]["enum"] == list(STATES)
    assert defs["agreement"]["properties"]["level"]["enum"] == list(LEVELS)
    assert defs["agreement"]["properties"]["outcomes"]["additionalProperties"]["enum"] == list(
        OUTCOMES
    )
    jsonschema.Draft202012Validator.check_schema(schema)
    schema["title"] = "changed"
    assert session_schema()["title"] != "changed"  # a fresh copy each time


SESSION = (
    '{"event": "session", "version": 1, "target": "src/", "specialists": ["SEC", "PERF"],'
    ' "budget": 1000}\n'
)


def _log(*lines: str) -> str:
    return SESSION + "".join(line + "\n" for line in lines)


def test_example_record() -> None:
    text = _log(
        '{"event": "phase", "phase": "review", "started": "2026-03-02T09:00:00Z",'
        ' "ended": "2026-03-02T10:04:00+01:00", "tokens": {"SEC": 10, "PERF": 5}}',
        '{"event": "finding", "finding": "F1", "state": "created", "agent": "SEC"}',
        '{"event": "finding", "finding": "F1", "state": "challenged", "agent": "PERF"}',
        '{"event": "script", "script": "detect-convergence.sh", "exit_code": 3}',
    )
    record = from_jsonl(text)
    assert record.parameters == Parameters("src/", ("SEC", "PERF"), 1000)
    assert record.lifecycles == {"F1": ("created", "challenged")}
    summary = session_summary(record)
    assert summary["open"] == ["F1"]
    assert summary["tokens"] == {"total": 15, "phases": {"review": 15}}
    assert summary["scripts_failed"] == [{"script": "detect-convergence.sh", "exit_code": 3}]
    assert summary["agreement"] is None


def _j(**fields: Any) -> str:
    return json.dumps(fields)


T0, T1 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"
CREATED_F1 = _j(event="finding", finding="F1", state="created")
FULL = "Full Consensus"


@pytest.mark.parametrize(
    ("text", "line", "match"),
    [
        ("", None, "empty session log"),
        (_j(event="script", script="x", exit_code=0), 1, "first line must be"),
        (_log(SESSION.strip()), 2, "a second session line"),
        (_log(_j(event="finding", finding="F1", state="made")), 2, "'made' is not one of"),
        (_log(_j(event="finding", finding="F1", state="created", x=1)), 2, "Additional"),
        (
            _log(_j(event="finding", finding="F1", state="created", agent="QUAL")),
            2,
            "not one of the session's specialists",
        ),
        (_log(_j(event="phase", phase="p", started="yesterday")), 2, "is not a 'date-time'"),
        (
            _log(_j(event="phase", phase="p", started=T0, tokens={"SEC": 1.0})),
            2,
            "not of type 'integer'",
        ),
        (_log(_j(event="phase", phase="p", started=T1, ended=T0)), 2, "ends before it starts"),
        (
            _log(
                _j(event="phase", phase="p", started=T0), _j(event="phase", phase="p", started=T0)
            ),
            3,
            "recorded twice",
        ),
        (
            _log(_j(event="agreement", level=FULL), _j(event="agreement", level=FULL)),
            3,
            "a second agreement line",
        ),
        (
            _log(_j(event="agreement", level=FULL, outcomes={"F9": "Consensus"})),
            2,
            "never created",
        ),
        (
            _log(CREATED_F1, _j(event="agreement", level=FULL, outcomes={"F1": "Escalated"})),
            3,
            "does not follow from the outcomes",
        ),
        (_log(_j(event="note")), 2, "'note' is not one of"),
        (
            _j(event="session", version=2, target="t", specialists=["A"], budget=1),
            1,
            "1 was expected",
        ),
    ],
)
def test_bad_logs_name_the_line(text: str, line: int | None, match: str) -> None:
    with pytest.raises(PanelInputError, match=match) as exc:
        from_jsonl(text)
    assert exc.value.problems[0].line == line


def test_illegal_transition_in_a_log_names_the_line() -> None:
    text = _log(
        '{"event": "finding", "finding": "F1", "state": "created"}',
        '{"event": "finding", "finding": "F1", "state": "validated"}',
        '{"event": "finding", "finding": "F1", "state": "challenged"}',
    )
    with pytest.raises(IllegalTransition) as exc:
        from_jsonl(text)
    assert (exc.value.finding, exc.value.before, exc.value.after, exc.value.line) == (
        "F1",
        "validated",
        "challenged",
        4,
    )
    assert str(exc.value).startswith("line 4: finding 'F1': illegal transition validated")


@pytest.mark.parametrize("text", ["{not json\n", SESSION + "[1,\n", '{"a": 1, "a": 2}\n'])
def test_not_json_lines_are_input_errors(text: str) -> None:
    with pytest.raises(InputError):
        from_jsonl(text, source="s.jsonl")


def test_to_jsonl_refuses_what_cannot_be_read_back() -> None:
    params = Parameters("t", ["SEC"], 10)
    with pytest.raises(IllegalTransition):
        to_jsonl(SessionRecord(params, events=[FindingEvent("F1", "defended")]))
    with pytest.raises(PanelInputError):
        to_jsonl(SessionRecord(params, phases=[Phase("p", "not a time")]))
    with pytest.raises(PanelInputError):
        to_jsonl(SessionRecord(Parameters("t", ["SEC"], True)))  # a bool is not a budget
    with pytest.raises(KernelError):
        to_jsonl(SessionRecord(params, phases=["review"]))  # type: ignore[list-item]
    with pytest.raises(KernelError):
        to_jsonl({"parameters": {}})  # type: ignore[arg-type]
    with pytest.raises(KernelError):
        from_jsonl(b"{}")  # type: ignore[arg-type]
