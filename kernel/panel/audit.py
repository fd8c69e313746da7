"""The review panel's audit log (companions.md §C2): finding lifecycles and the session record.

A finding's lifecycle is ``created → (challenged → defended)* → dismissed | validated``:
it may be validated or dismissed without a challenge, a challenge must be answered by a
defence before anything else happens to the finding, and nothing follows dismissed or
validated. ``lifecycle(events)`` enforces that order.

A ``SessionRecord`` holds what the seed's audit log lists: the review parameters (target,
flags, specialists, budget), each phase's timestamps and token counts (given by the caller;
the kernel reads no clock), every finding's lifecycle, the agreement classification and
the scripts' results. It serialises to JSON Lines, one event per line, each line valid
against the shipped schema ``kernel/data/panel_session.schema.json``, and reads back to an
equal record.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import datetime
from functools import cache
from types import MappingProxyType
from typing import Any

import attrs

from kernel.errors import IllegalTransition, KernelError, PanelInputError
from kernel.io import label, loads_jsonl, loads_strict, package_data
from kernel.panel._args import as_list
from kernel.panel.inputs import Problem, schema_problems, validator
from kernel.panel.voting import agreement_level
from kernel.strict import shown

__all__ = [
    "NEXT_STATES",
    "SCHEMA_VERSION",
    "STATES",
    "TERMINAL_STATES",
    "Agreement",
    "FindingEvent",
    "IllegalTransition",
    "Parameters",
    "Phase",
    "ScriptResult",
    "SessionRecord",
    "from_jsonl",
    "lifecycle",
    "session_schema",
    "session_summary",
    "to_jsonl",
]

CREATED, CHALLENGED, DEFENDED, DISMISSED, VALIDATED = (
    "created",
    "challenged",
    "defended",
    "dismissed",
    "validated",
)
STATES: tuple[str, ...] = (CREATED, CHALLENGED, DEFENDED, DISMISSED, VALIDATED)
TERMINAL_STATES: frozenset[str] = frozenset({DISMISSED, VALIDATED})
#: The legal next states after each state; ``None`` is "no event yet".
NEXT_STATES: Mapping[str | None, tuple[str, ...]] = MappingProxyType(
    {
        None: (CREATED,),
        CREATED: (CHALLENGED, DISMISSED, VALIDATED),
        CHALLENGED: (DEFENDED,),
        DEFENDED: (CHALLENGED, DISMISSED, VALIDATED),
        DISMISSED: (),
        VALIDATED: (),
    }
)
SCHEMA_VERSION = 1
_SCHEMA_FILE = "panel_session.schema.json"


def illegal_transition(
    finding: str, before: str | None, after: str, *, line: int | None = None
) -> IllegalTransition:
    """The error for ``finding`` going from ``before`` to ``after``, saying what may follow."""
    allowed = NEXT_STATES[before]
    if before is None:
        why = "a finding's first event must be created"
    elif not allowed:
        why = f"nothing follows {before}"
    else:
        why = f"after {before} comes {_or(allowed)}"
    return IllegalTransition(finding, before, after, why=why, line=line)


def _or(items: Iterable[str]) -> str:
    names = list(items)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _fold(events: Iterable[tuple[str, str, int | None]]) -> dict[str, str]:
    state: dict[str, str] = {}
    for fid, after, line in events:
        before = state.get(fid)
        if after not in NEXT_STATES[before]:
            raise illegal_transition(fid, before, after, line=line)
        state[fid] = after
    return state


def lifecycle(events: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each finding's final state after ``events``, ``(finding_id, state)`` pairs in order
    (findings in first-seen order). Raises ``IllegalTransition`` (a ``KernelError``) naming
    the finding and both states at the first event out of order, and ``KernelError`` for a
    malformed event or an unknown state."""
    checked: list[tuple[str, str, int | None]] = []
    for i, event in enumerate(as_list(events, "events")):
        if not isinstance(event, tuple | list) or len(event) != 2:
            raise KernelError(f"event {i} must be a (finding_id, state) pair, got {shown(event)}")
        fid, after = event
        if not isinstance(fid, str) or not fid:
            raise KernelError(f"event {i}: finding id must be a non-empty string, got {shown(fid)}")
        if after not in STATES:
            raise KernelError(
                f"event {i}: state must be one of {', '.join(STATES)}, got {shown(after)}"
            )
        checked.append((fid, after, None))
    return _fold(checked)


def _frozen_map(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(value))


def _names(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


@attrs.frozen
class Parameters:
    """The review parameters."""

    target: str
    specialists: tuple[str, ...] = attrs.field(converter=_names)
    budget: int
    flags: tuple[str, ...] = attrs.field(converter=_names, default=())


@attrs.frozen
class Phase:
    """One phase: RFC 3339 start (and end, once it ended) and tokens per agent."""

    name: str
    started: str
    ended: str | None = None
    tokens: Mapping[str, int] = attrs.field(converter=_frozen_map, factory=dict)


@attrs.frozen
class FindingEvent:
    """One lifecycle step of a finding, optionally with who caused it and when."""

    finding: str
    state: str
    agent: str | None = None
    timestamp: str | None = None


@attrs.frozen
class Agreement:
    """The agreement level and, optionally, each finding's resolution outcome."""

    level: str
    outcomes: Mapping[str, str] = attrs.field(converter=_frozen_map, factory=dict)


@attrs.frozen
class ScriptResult:
    script: str
    exit_code: int
    output: str | None = None
    timestamp: str | None = None


def _phases(value: Iterable[Phase]) -> tuple[Phase, ...]:
    return tuple(value)


def _events(value: Iterable[FindingEvent]) -> tuple[FindingEvent, ...]:
    return tuple(value)


def _scripts(value: Iterable[ScriptResult]) -> tuple[ScriptResult, ...]:
    return tuple(value)


@attrs.frozen
class SessionRecord:
    """A review session's audit record (see the module docstring)."""

    parameters: Parameters
    phases: tuple[Phase, ...] = attrs.field(converter=_phases, default=())
    events: tuple[FindingEvent, ...] = attrs.field(converter=_events, default=())
    agreement: Agreement | None = None
    scripts: tuple[ScriptResult, ...] = attrs.field(converter=_scripts, default=())

    @property
    def lifecycles(self) -> Mapping[str, tuple[str, ...]]:
        """Each finding's states in order (findings in first-seen order)."""
        out: dict[str, tuple[str, ...]] = {}
        for e in self.events:
            out[e.finding] = (*out.get(e.finding, ()), e.state)
        return MappingProxyType(out)

    @property
    def final_states(self) -> dict[str, str]:
        return lifecycle((e.finding, e.state) for e in self.events)

    def to_jsonl(self) -> str:
        return to_jsonl(self)

    @classmethod
    def from_jsonl(cls, text: str, *, source: str = "<session>") -> SessionRecord:
        return from_jsonl(text, source=source)


@cache
def _schema_text() -> str:
    return package_data("kernel", f"data/{_SCHEMA_FILE}").decode("utf-8")


@cache
def _schema() -> Any:
    return loads_strict(_schema_text(), source=f"kernel/data/{_SCHEMA_FILE}")


def session_schema() -> dict[str, Any]:
    """A fresh copy of the shipped JSON Schema of one session-log line."""
    value: dict[str, Any] = copy.deepcopy(_schema())
    return value


@cache
def _line_validator(event: str | None) -> Any:
    """The shipped schema's validator, or (same verdicts, faster) the validator of one
    event's definition with its ``$ref``s inlined."""
    schema = _schema()
    if event is None:
        return validator(schema)
    defs = schema["$defs"]

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return inline(defs[ref.removeprefix("#/$defs/")])
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    return validator(inline(defs[event]))


def _line_problems(number: int, obj: Any) -> list[Problem]:
    event = obj.get("event") if isinstance(obj, dict) else None
    known = isinstance(event, str) and event in _schema()["properties"]["event"]["enum"]
    return schema_problems(_line_validator(event if known else None), obj, line=number)


def _optional(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


def _lines(record: SessionRecord) -> list[dict[str, Any]]:
    p = record.parameters
    lines: list[dict[str, Any]] = [
        {
            "event": "session",
            "version": SCHEMA_VERSION,
            "target": p.target,
            "flags": list(p.flags),
            "specialists": list(p.specialists),
            "budget": p.budget,
        }
    ]
    lines += [
        {
            "event": "phase",
            "phase": ph.name,
            "started": ph.started,
            **_optional(ended=ph.ended),
            "tokens": dict(ph.tokens),
        }
        for ph in record.phases
    ]
    lines += [
        {
            "event": "finding",
            "finding": e.finding,
            "state": e.state,
            **_optional(agent=e.agent, timestamp=e.timestamp),
        }
        for e in record.events
    ]
    if record.agreement is not None:
        a = record.agreement
        lines.append({"event": "agreement", "level": a.level, "outcomes": dict(a.outcomes)})
    lines += [
        {
            "event": "script",
            "script": s.script,
            "exit_code": s.exit_code,
            **_optional(output=s.output, timestamp=s.timestamp),
        }
        for s in record.scripts
    ]
    return lines


def _instant(timestamp: str) -> datetime:
    return datetime.fromisoformat(timestamp.upper())  # RFC 3339 allows a lower-case t and z


def _read(lines: list[tuple[int, Any]]) -> SessionRecord:
    """Build and check a record from decoded lines ``(line number, object)``."""
    problems = [p for number, obj in lines for p in _line_problems(number, obj)]
    if problems:
        raise PanelInputError(problems)
    if not lines:
        raise PanelInputError([Problem("empty session log: the first line must be a session line")])
    first_line, head = lines[0]
    if head["event"] != "session":
        raise PanelInputError(
            [
                Problem(
                    f"the first line must be the session line, not {shown(head['event'])}",
                    line=first_line,
                )
            ]
        )
    parameters = Parameters(
        target=head["target"],
        specialists=head["specialists"],
        budget=head["budget"],
        flags=head.get("flags", ()),
    )
    phases: list[Phase] = []
    events: list[tuple[int, FindingEvent]] = []
    agreement: tuple[int, Agreement] | None = None
    scripts: list[ScriptResult] = []
    for number, obj in lines[1:]:
        kind = obj["event"]
        if kind == "session":
            problems.append(Problem("a second session line", line=number))
        elif kind == "phase":
            phase = Phase(obj["phase"], obj["started"], obj.get("ended"), obj.get("tokens", {}))
            if any(ph.name == phase.name for ph in phases):
                problems.append(
                    Problem(f"phase {shown(phase.name)} recorded twice", "/phase", number)
                )
            if phase.ended is not None:
                try:
                    backwards = _instant(phase.ended) < _instant(phase.started)
                except ValueError:
                    problems.append(Problem("cannot compare the timestamps", "/ended", number))
                else:
                    if backwards:
                        problems.append(
                            Problem(
                                f"phase {shown(phase.name)} ends before it starts", "/ended", number
                            )
                        )
            phases.append(phase)
        elif kind == "finding":
            event = FindingEvent(
                obj["finding"], obj["state"], obj.get("agent"), obj.get("timestamp")
            )
            if event.agent is not None and event.agent not in parameters.specialists:
                problems.append(
                    Problem(
                        f"{shown(event.agent)} is not one of the session's specialists",
                        "/agent",
                        number,
                    )
                )
            events.append((number, event))
        elif kind == "agreement":
            if agreement is not None:
                problems.append(Problem("a second agreement line", line=number))
            agreement = (number, Agreement(obj["level"], obj.get("outcomes", {})))
        else:
            scripts.append(
                ScriptResult(
                    obj["script"], obj["exit_code"], obj.get("output"), obj.get("timestamp")
                )
            )
    if problems:
        raise PanelInputError(problems)
    finals = _fold((e.finding, e.state, number) for number, e in events)
    if agreement is not None:
        number, a = agreement
        for fid in a.outcomes:
            if fid not in finals:
                problems.append(
                    Problem(
                        f"outcome for {shown(fid)}, a finding the log never created",
                        "/outcomes",
                        number,
                    )
                )
        if a.outcomes and agreement_level(a.outcomes.values()) != a.level:
            problems.append(
                Problem(
                    f"level {shown(a.level)} does not follow from the outcomes "
                    f"({shown(agreement_level(a.outcomes.values()))})",
                    "/level",
                    number,
                )
            )
    if problems:
        raise PanelInputError(problems)
    return SessionRecord(
        parameters=parameters,
        phases=phases,
        events=[e for _, e in events],
        agreement=None if agreement is None else agreement[1],
        scripts=scripts,
    )


def _dump(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise KernelError(f"session record is not JSON: {exc}") from None


def to_jsonl(record: SessionRecord) -> str:
    """The record as JSON Lines (one event per line, each ending in ``\\n``): the session
    line, the phases, the finding events in order, the agreement, the scripts.

    The lines are checked exactly as ``from_jsonl`` checks them, so a record that could not
    be read back (an illegal lifecycle, a bad timestamp …) raises instead of being written.
    """
    if not isinstance(record, SessionRecord):
        raise KernelError(f"to_jsonl needs a SessionRecord, got {type(record).__name__}")
    try:
        lines = _lines(record)
    except (AttributeError, TypeError) as exc:
        raise KernelError(f"session record is malformed: {exc}") from None
    texts = [_dump(line) for line in lines]
    back = _read([(n, json.loads(t)) for n, t in enumerate(texts, start=1)])
    if back != record:
        raise KernelError("session record holds values that do not survive JSON (check types)")
    return "".join(t + "\n" for t in texts)


def from_jsonl(text: str, *, source: str = "<session>") -> SessionRecord:
    """Read a session log. Raises ``InputError`` for text that is not strict JSON Lines,
    ``PanelInputError`` naming each line (and JSON path) that breaks the schema or the
    record's rules, and ``IllegalTransition`` for a lifecycle event out of order."""
    source = label(source, "source")
    if not isinstance(text, str):
        raise KernelError(f"a session log must be text, got {type(text).__name__}")
    return _read(loads_jsonl(text, source=source))


def session_summary(record: SessionRecord) -> dict[str, Any]:
    """What a reader of the log wants first: parameters, tokens per phase against the
    budget, each finding's path through the lifecycle and final state, the findings still
    open, the agreement level and the scripts that failed."""
    p = record.parameters
    lifecycles = record.lifecycles
    finals = {fid: states[-1] for fid, states in lifecycles.items()}
    per_phase = {ph.name: sum(ph.tokens.values()) for ph in record.phases}
    counts = Counter(finals.values())
    return {
        "target": p.target,
        "flags": list(p.flags),
        "specialists": list(p.specialists),
        "budget": p.budget,
        "tokens": {"total": sum(per_phase.values()), "phases": per_phase},
        "phases": [
            {"phase": ph.name, "started": ph.started, "ended": ph.ended} for ph in record.phases
        ],
        "findings": {
            fid: {"state": finals[fid], "lifecycle": list(s)} for fid, s in lifecycles.items()
        },
        "states": {s: counts[s] for s in STATES},
        "open": [fid for fid, s in finals.items() if s not in TERMINAL_STATES],
        "agreement": None if record.agreement is None else record.agreement.level,
        "scripts_failed": [
            {"script": s.script, "exit_code": s.exit_code} for s in record.scripts if s.exit_code
        ],
    }
