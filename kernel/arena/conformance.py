"""Arena §12: the 13 conformance checks over a §11 audit trail, and the §2 level."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import attrs

from kernel.arena import audit
from kernel.arena.audit import RECORD_FIELDS, TrailLine, parse_trail, record_schema_errors
from kernel.arena.config import (
    DEFAULT_MAX_ROUNDS,
    MAX_ROUNDS_RANGE,
    session_id_valid,
    validate_run_inputs,
)
from kernel.arena.credentials import find_credentials
from kernel.arena.machine import REASON_MISSING_VERDICT, REASON_NOTEBOOK_UNAVAILABLE
from kernel.arena.states import TERMINAL, TRANSITIONS, State
from kernel.arena.values import shown
from kernel.arena.verdict import (
    PARSER_ERROR_MISSING_VERDICT,
    PARSER_WARNING_MULTIPLE_VERDICTS,
    parse_verdict,
    verdict_is_last,
)
from kernel.errors import KernelError
from kernel.io import label
from kernel.strict import is_int

__all__ = [
    "CHECKS",
    "COMPLIANT",
    "CONDITIONALLY_COMPLIANT",
    "NON_COMPLIANT",
    "CheckResult",
    "ConformanceReport",
    "Finding",
    "check_conformance",
]

COMPLIANT = "Compliant"
CONDITIONALLY_COMPLIANT = "Conditionally Compliant"
NON_COMPLIANT = "Non-Compliant"
MUST = "MUST"
SHOULD = "SHOULD"

#: §12, in order: (slug, text).
CHECKS: tuple[tuple[str, str], ...] = (
    ("config", "ProtocolConfig satisfies Section 4.1 constraints"),
    ("states", "All states are in the allowed ProtocolState enum"),
    ("transitions", "All transitions follow Section 5.1"),
    ("reviewer-mode", "Reviewer mode is enforced as read-only"),
    ("verdict-parsing", "Verdict parsing follows Section 7.3 exactly"),
    ("missing-verdict-retry", "Missing verdict handling uses exactly one retry"),
    ("max-rounds", "max_rounds cap is enforced"),
    ("session-resume", "Session resume is enforced when required"),
    ("notebook-hooks", "Notebook hooks execute for enabled phases"),
    ("drift-check", "After-hook includes mandatory drift-check query"),
    ("studio-create-optional", "studio_create is optional, not mandatory"),
    ("audit-trail", "Audit trail contains all required events and records"),
    ("excess-content", "No prohibited excess content is introduced into protocol artifacts"),
)


@attrs.frozen
class Finding:
    """One failed requirement; ``line`` is the trail line (1-based) when one is to blame."""

    line: int | None
    message: str
    requirement: str = MUST

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class CheckResult:
    number: int
    name: str
    title: str
    findings: tuple[Finding, ...]

    @property
    def passed(self) -> bool:
        """No MUST finding (SHOULD findings only lower the level to Conditionally Compliant)."""
        return all(f.requirement != MUST for f in self.findings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "name": self.name,
            "title": self.title,
            "passed": self.passed,
            "findings": [f.to_dict() for f in self.findings],
        }


@attrs.frozen
class ConformanceReport:
    level: str
    checks: tuple[CheckResult, ...]

    def check(self, number: int) -> CheckResult:
        return self.checks[number - 1]

    @property
    def failed(self) -> tuple[int, ...]:
        return tuple(c.number for c in self.checks if not c.passed)

    def to_dict(self) -> dict[str, Any]:
        return {"level": self.level, "checks": [c.to_dict() for c in self.checks]}


@attrs.frozen
class _Item:
    """A well-formed record with the run's state and round before it was written."""

    line: int
    rec: Mapping[str, Any]
    state: str
    round: int
    stay: int  # counts transitions so far: records with equal ``stay`` share a state visit

    @property
    def event(self) -> str:
        return str(self.rec["event"])


@attrs.frozen
class _Trail:
    lines: tuple[TrailLine, ...]
    malformed: tuple[Finding, ...]
    items: tuple[_Item, ...]
    config: Any
    task: Any
    notebook: Any
    started: _Item | None
    transitions: tuple[_Item, ...]
    stays: Mapping[int, tuple[_Item, ...]]  # records of each state visit, in order
    exits: Mapping[int, _Item]  # the transition that ended each state visit
    reason: str  # the last RUN_TERMINATED reason ("" when none)

    @property
    def config_map(self) -> Mapping[str, Any]:
        return self.config if isinstance(self.config, Mapping) else {}

    @property
    def task_map(self) -> Mapping[str, Any]:
        return self.task if isinstance(self.task, Mapping) else {}

    @property
    def enabled(self) -> bool:
        return self.config_map.get("notebook_enabled") is True

    @property
    def required(self) -> bool:
        return self.task_map.get("notebook_required") is True

    @property
    def max_rounds(self) -> int:
        value = self.config_map.get("max_rounds", DEFAULT_MAX_ROUNDS)
        lo, hi = MAX_ROUNDS_RANGE
        ok = is_int(value) and lo <= value <= hi
        return value if ok else DEFAULT_MAX_ROUNDS

    def of(self, *events: str) -> Iterator[_Item]:
        return (i for i in self.items if i.event in events)

    def first_progress(self) -> _Item | None:
        """The first transition other than INIT -> TERMINATED_ERROR (the run went on)."""
        for t in self.transitions:
            if (t.rec["from"], t.rec["to"]) != (State.INIT, State.TERMINATED_ERROR):
                return t
        return None


def _prepare(lines: tuple[TrailLine, ...]) -> _Trail:
    malformed: list[Finding] = []
    items: list[_Item] = []
    state, rnd, stay = State.INIT.value, 0, 0
    for tl in lines:
        errors = record_schema_errors(tl.record)
        if errors:
            malformed.extend(Finding(tl.line, f"malformed record: {e}") for e in errors)
            continue
        rec = tl.record
        items.append(_Item(tl.line, rec, state, rnd, stay))
        if rec["event"] == audit.STATE_TRANSITION:
            state, rnd, stay = rec["to"], rec["round_index"], stay + 1
    started = next((i for i in items if i.event == audit.RUN_STARTED), None)
    rec = started.rec if started else {}
    stays: dict[int, list[_Item]] = {}
    for item in items:
        stays.setdefault(item.stay, []).append(item)
    transitions = tuple(i for i in items if i.event == audit.STATE_TRANSITION)
    ends = [i for i in items if i.event == audit.RUN_TERMINATED]
    return _Trail(
        lines,
        tuple(malformed),
        tuple(items),
        rec.get("config"),
        rec.get("task"),
        rec.get("notebook"),
        started,
        transitions,
        {k: tuple(v) for k, v in stays.items()},
        {t.stay: t for t in transitions},
        str(ends[-1].rec["reason"]) if ends else "",
    )


# ---- the checks -------------------------------------------------------------------------

_Check = Callable[[_Trail], Iterator[Finding]]


def _c1_config(t: _Trail) -> Iterator[Finding]:
    if t.started is None:
        yield Finding(None, "no RUN_STARTED record, so no effective ProtocolConfig is recorded")
        return
    errors = validate_run_inputs(t.config, t.task, t.notebook)
    progress = t.first_progress()
    if errors and progress is not None:
        yield Finding(
            t.started.line,
            f"invalid inputs ({'; '.join(errors)}), yet the run went on "
            f"(line {progress.line}: {progress.rec['from']} -> {progress.rec['to']}) "
            "instead of INIT -> TERMINATED_ERROR (§6.2)",
        )


def _c2_states(t: _Trail) -> Iterator[Finding]:
    allowed = {s.value for s in State}
    for item in t.of(audit.STATE_TRANSITION, audit.RUN_TERMINATED):
        keys = ("from", "to") if item.event == audit.STATE_TRANSITION else ("state",)
        for key in keys:
            if item.rec[key] not in allowed:
                yield Finding(item.line, f"{key} {shown(item.rec[key])} is not a ProtocolState")


_ALLOWED = frozenset((a.value, b.value) for a, b in TRANSITIONS)
_TERMINAL_NAMES = frozenset(s.value for s in TERMINAL)


def _c3_transitions(t: _Trail) -> Iterator[Finding]:
    prev, prev_round = State.INIT.value, 0
    closed: _Item | None = None
    verdicts: dict[int, str] = {}
    for item in t.items:
        if item.event == audit.ROUND_RECORDED:
            verdicts[item.stay] = item.rec["verdict"]
        if item.event != audit.STATE_TRANSITION:
            continue
        frm, to, rnd = item.rec["from"], item.rec["to"], item.rec["round_index"]
        if closed is not None:
            yield Finding(
                item.line,
                f"{frm} -> {to} after the run reached {closed.rec['to']} "
                f"(line {closed.line}): terminal states absorb",
            )
            continue
        if frm != prev:
            yield Finding(item.line, f"transition from {frm}, but the run was in {prev}")
        if (frm, to) not in _ALLOWED:
            yield Finding(item.line, f"{frm} -> {to} is not in the §5.1 transition table")
        expected = prev_round + 1 if to == State.DRAFTING else prev_round
        if rnd != expected:
            yield Finding(item.line, f"round_index {rnd}, expected {expected}")
        if frm == State.INIT and to in (State.SEEDING, State.DRAFTING):
            enabled = t.config_map.get("notebook_enabled")
            if isinstance(enabled, bool) and enabled != (to == State.SEEDING):
                yield Finding(
                    item.line, f"INIT -> {to} with notebook_enabled={str(enabled).lower()}"
                )
        if frm == State.REVIEWING and to in (State.FINALIZING, State.REVISING):
            need = "APPROVED" if to == State.FINALIZING else "REVISE"
            got = verdicts.get(item.stay)
            if got is not None and got != need:
                yield Finding(
                    item.line, f"REVIEWING -> {to} requires verdict {need}, recorded {got}"
                )
        prev, prev_round = to, rnd
        if to in _TERMINAL_NAMES:
            closed = item


def _c4_reviewer_mode(t: _Trail) -> Iterator[Finding]:
    mode = t.config_map.get("reviewer_mode")
    if mode == "read-only" and isinstance(mode, str):
        return
    for item in t.transitions:
        if item.rec["to"] == State.REVIEWING:
            yield Finding(
                item.line, f'reviewer invoked with reviewer_mode {shown(mode)}, not "read-only"'
            )
            return


def _c5_verdicts(t: _Trail) -> Iterator[Finding]:
    warnings: dict[int, list[_Item]] = {}
    for item in t.of(audit.PARSER_WARNING, audit.PARSER_ERROR):
        code, want = (
            item.rec["code"],
            (
                PARSER_WARNING_MULTIPLE_VERDICTS
                if item.event == audit.PARSER_WARNING
                else PARSER_ERROR_MISSING_VERDICT
            ),
        )
        if code != want:
            yield Finding(item.line, f"{item.event} code {shown(code)}; §7.3 defines only {want}")
        if item.state != State.REVIEWING or item.rec["round_index"] != item.round:
            yield Finding(
                item.line,
                f"{item.event} for round {item.rec['round_index']} outside that round's review "
                f"(state {item.state}, round {item.round})",
            )
        if item.event == audit.PARSER_WARNING:
            warnings.setdefault(item.stay, []).append(item)
    for item in t.of(audit.ROUND_RECORDED):
        text = item.rec.get("reviewer_output")
        if not isinstance(text, str):
            continue
        try:
            result = parse_verdict(text)
        except KernelError as exc:
            yield Finding(item.line, f"reviewer_output cannot be parsed: {exc}")
            continue
        if result.verdict != item.rec["verdict"]:
            yield Finding(
                item.line,
                f"recorded verdict {item.rec['verdict']}, but §7.3 parses reviewer_output as "
                f"{result.verdict or 'no verdict (PARSER_ERROR_MISSING_VERDICT)'}",
            )
        multiple = PARSER_WARNING_MULTIPLE_VERDICTS in result.codes
        logged = [w for w in warnings.get(item.stay, []) if w.line < item.line]
        if multiple and not logged:
            yield Finding(
                item.line,
                f"reviewer_output has {len(result.lines)} verdict lines but no "
                "PARSER_WARNING PARSER_WARNING_MULTIPLE_VERDICTS was logged (§9.2)",
            )
        if not multiple and logged:
            yield Finding(
                logged[-1].line, "PARSER_WARNING logged, but the output has a single verdict line"
            )
        if result.verdict is not None and not verdict_is_last(text, result):
            yield Finding(
                item.line,
                f"the verdict (line {result.line} of reviewer_output) is not the last non-empty "
                "line (§7.1)",
                SHOULD,
            )


def _c6_retry(t: _Trail) -> Iterator[Finding]:
    misses: dict[int, list[_Item]] = {}
    for item in t.items:
        if item.event == audit.PARSER_ERROR and item.rec["code"] == PARSER_ERROR_MISSING_VERDICT:
            seen = misses.setdefault(item.stay, [])
            seen.append(item)
            if len(seen) > 2:
                yield Finding(
                    item.line,
                    f"missing verdict #{len(seen)} in round {item.round}: the reviewer was "
                    "retried more than once",
                )
        elif item.event == audit.ROUND_RECORDED:
            count = len(misses.get(item.stay, []))
            attempt = item.rec.get("reviewer_attempt")
            if count >= 2:
                yield Finding(
                    item.line,
                    f"round {item.round} recorded after two missing verdicts: a second retry "
                    "was made instead of TERMINATED_ERROR (§9.1)",
                )
            elif attempt is not None and attempt != count + 1:
                yield Finding(
                    item.line,
                    f"reviewer_attempt {attempt}, but {count} missing verdict(s) were logged "
                    f"in round {item.round}",
                )
        elif item.event == audit.STATE_TRANSITION and item.state == State.REVIEWING:
            count = len(misses.get(item.stay, []))
            if item.rec["to"] == State.TERMINATED_ERROR:
                if t.reason.startswith(REASON_MISSING_VERDICT) and count != 2:
                    yield Finding(
                        item.line,
                        f"terminated for a missing verdict after {count} missing verdict(s); "
                        "§9.1 retries exactly once",
                    )
                elif count >= 2 and not t.reason.startswith(REASON_MISSING_VERDICT):
                    yield Finding(
                        item.line,
                        f"two missing verdicts in round {item.round}, but the run ended for "
                        "another reason: the second one ends it (§9.1.2)",
                    )
            elif count >= 2:
                yield Finding(
                    item.line,
                    f"round {item.round} went on after two missing verdicts (§9.1.2)",
                )


def _c7_max_rounds(t: _Trail) -> Iterator[Finding]:
    cap = t.max_rounds
    for item in t.items:
        rnd = item.rec.get("round_index")
        if isinstance(rnd, int) and item.event != audit.RUN_STARTED and rnd > cap:
            yield Finding(item.line, f"round_index {rnd} exceeds max_rounds={cap}")
        if item.event != audit.STATE_TRANSITION or item.rec["from"] != State.REVISING:
            continue
        if item.rec["to"] == State.DRAFTING and item.round >= cap:
            yield Finding(
                item.line,
                f"REVISE at round {item.round} == max_rounds={cap} must end in "
                "TERMINATED_MAX_ROUNDS, not a new round (§9.3)",
            )
        if item.rec["to"] == State.TERMINATED_MAX_ROUNDS and item.round < cap:
            yield Finding(
                item.line, f"TERMINATED_MAX_ROUNDS at round {item.round} < max_rounds={cap}"
            )


def _c8_session(t: _Trail) -> Iterator[Finding]:
    if t.started is None:
        return
    session = t.task_map.get("session_id")
    progress = t.first_progress()
    if not session_id_valid(session) and progress is not None:
        yield Finding(
            progress.line,
            "session resume is required but TaskContext.session_id is missing or blank; "
            "the run must hard-fail to TERMINATED_ERROR (§9.5)",
        )


_HOOK_STATE = {"before": State.SEEDING, "during": State.REVIEWING, "after": State.FINALIZING}
_USABLE = ("SUCCESS", "SKIPPED_DEGRADED")
_ENTER_DRAFTING = {(State.SEEDING, State.DRAFTING), (State.INIT, State.DRAFTING)}


def _hook_status_findings(t: _Trail, item: _Item) -> Iterator[Finding]:
    phase, status = item.rec["phase"], item.rec["status"]
    expected = _HOOK_STATE[phase]
    if item.state != expected and not (
        phase == "before" and status == "SKIPPED_DISABLED" and item.state == State.INIT
    ):
        yield Finding(item.line, f"{phase} hook recorded in state {item.state}, not {expected}")
    if status == "SKIPPED_DISABLED" and t.enabled:
        yield Finding(item.line, f"{phase} hook skipped as disabled, but notebook_enabled is true")
    if status != "SKIPPED_DISABLED" and not t.enabled:
        yield Finding(item.line, f"{phase} hook {status} although notebook_enabled is not true")
    if status == "SKIPPED_DEGRADED" and t.required:
        yield Finding(
            item.line, "degraded mode while notebook_required is true: must be TERMINATED_ERROR"
        )
    if status == "FAILED":
        after = t.exits.get(item.stay)
        if after is None or after.rec["to"] != State.TERMINATED_ERROR:
            yield Finding(item.line, f"{phase} hook FAILED but the run did not end in error")
    if status != "SKIPPED_DISABLED" and not item.rec["query"].strip() and phase != "after":
        yield Finding(item.line, f"{phase} hook without a query")


def _usable_hook(t: _Trail, phase: str, stay: int, before_line: int) -> bool:
    """A hook record for ``phase`` in this state visit, before ``before_line``, that lets the
    run go on: SUCCESS or SKIPPED_DEGRADED, or SKIPPED_DISABLED when notebooks are off."""
    usable = _USABLE if t.enabled else ("SKIPPED_DISABLED",)
    return any(
        h.rec["phase"] == phase
        and h.rec["status"] in usable
        and h.stay == stay
        and h.line < before_line
        for h in t.stays.get(stay, ())
        if h.event == audit.HOOK_EXECUTED
    )


def _c9_hooks(t: _Trail) -> Iterator[Finding]:
    for item in t.of(audit.HOOK_EXECUTED):
        if item.rec["phase"] != "after":
            yield from _hook_status_findings(t, item)
    for item in t.transitions:
        pair = (item.rec["from"], item.rec["to"])
        if pair in _ENTER_DRAFTING and not _usable_hook(t, "before", item.stay, item.line):
            yield Finding(item.line, f"{pair[0]} -> DRAFTING without a before hook record (§8.1)")
    failed = any(h.rec["status"] == "FAILED" for h in t.of(audit.HOOK_EXECUTED))
    for item in t.of(audit.RUN_TERMINATED):
        if item.rec["reason"].startswith(REASON_NOTEBOOK_UNAVAILABLE) and not failed:
            yield Finding(item.line, "terminated for notebook unavailability without a FAILED hook")
    for item in t.transitions:
        if item.rec["to"] == State.REVIEWING and _hook_missing(t, "during", item.stay + 1):
            yield Finding(
                item.line, f"review in round {item.rec['round_index']} without a during hook (§8.2)"
            )


_OUTCOMES = (audit.PARSER_ERROR, audit.PARSER_WARNING, audit.ROUND_RECORDED)


def _hook_missing(t: _Trail, phase: str, stay: int) -> bool:
    """Whether the state visit ``stay`` lacks the hook record it needs for ``phase``.

    With notebooks off the orchestrator writes the SKIPPED_DISABLED record on entry, so it is
    always due; with notebooks on it is due once the visit went on (a reviewer outcome, or a
    way out other than TERMINATED_ERROR), since the hook may be what failed.
    """
    outcome = next((i.line for i in t.stays.get(stay, ()) if i.event in _OUTCOMES), None)
    exit_ = t.exits.get(stay)
    due = (
        not t.enabled
        or outcome is not None
        or (exit_ is not None and exit_.rec["to"] != State.TERMINATED_ERROR)
    )
    if not due:
        return False
    limit = outcome or (exit_.line if exit_ is not None else 1 << 62)
    return not _usable_hook(t, phase, stay, limit)


def _c10_drift(t: _Trail) -> Iterator[Finding]:
    for item in t.of(audit.HOOK_EXECUTED):
        if item.rec["phase"] == "after":
            yield from _hook_status_findings(t, item)
            if item.rec["status"] != "SKIPPED_DISABLED" and not item.rec["query"].strip():
                yield Finding(item.line, "after hook without a drift-check query (§8.3)")
    for item in t.transitions:
        if item.rec["to"] == State.FINALIZING and _hook_missing(t, "after", item.stay + 1):
            yield Finding(item.line, "FINALIZING without an after hook record (§8.3)")


def _c11_studio(t: _Trail) -> Iterator[Finding]:
    for item in t.of(audit.RUN_TERMINATED):
        if item.rec["state"] == State.TERMINATED_ERROR and "studio_create" in item.rec["reason"]:
            yield Finding(item.line, "run failed over studio_create, which is optional (§8.3.2)")


def _c12_trail(t: _Trail) -> Iterator[Finding]:
    yield from t.malformed
    if not t.lines:
        yield Finding(None, "empty audit trail")
        return
    first = t.lines[0]
    if not (t.items and t.items[0].line == first.line and t.items[0].event == audit.RUN_STARTED):
        yield Finding(first.line, "the trail must begin with RUN_STARTED")
    for extra in list(t.of(audit.RUN_STARTED))[1:]:
        yield Finding(extra.line, "a second RUN_STARTED")
    transitions = t.transitions
    if not transitions:
        yield Finding(None, "no STATE_TRANSITION records")
    ends = list(t.of(audit.RUN_TERMINATED))
    if not ends:
        yield Finding(None, "no RUN_TERMINATED record: the run has no terminal state and reason")
    for end in ends[1:]:
        yield Finding(end.line, "a second RUN_TERMINATED")
    if ends:
        end = ends[0]
        for item in t.items:
            if item.line > end.line and item.event != audit.RUN_TERMINATED:
                yield Finding(item.line, f"{item.event} after RUN_TERMINATED (line {end.line})")
        last = transitions[-1].rec["to"] if transitions else State.INIT.value
        if end.rec["state"] != last or end.state != last:
            yield Finding(
                end.line,
                f"RUN_TERMINATED state {end.rec['state']}, but the last transition is to {last}",
            )
    recorded = {i.stay for i in t.of(audit.ROUND_RECORDED)}
    for item in t.of(audit.ROUND_RECORDED):
        if item.state != State.REVIEWING or item.rec["round_index"] != item.round:
            yield Finding(
                item.line,
                f"RoundRecord for round {item.rec['round_index']} written in state "
                f"{item.state}, round {item.round}",
            )
    for item in transitions:
        frm, to = item.rec["from"], item.rec["to"]
        reviewed = frm == State.REVIEWING and to in (State.FINALIZING, State.REVISING)
        if reviewed and item.stay not in recorded:
            yield Finding(item.line, f"REVIEWING -> {to} without a ROUND_RECORDED record")
    yield from _repeats(t)


def _repeats(t: _Trail) -> Iterator[Finding]:
    """The trail is a sequence: within one state visit a round is recorded once, each hook
    phase runs once and before the review, one PARSER_WARNING at most, nothing after the round
    is recorded but the way out."""
    for stay in t.stays.values():
        first: dict[tuple[str, str], _Item] = {}
        recorded: _Item | None = None
        outcome: _Item | None = None  # the first parser record or the round record
        for item in stay:
            if item.event == audit.HOOK_EXECUTED:
                key = (item.event, str(item.rec["phase"]))
                what = f"{item.rec['phase']} hook"
            elif item.event in (audit.ROUND_RECORDED, audit.PARSER_WARNING):
                key = (item.event, "")
                what = item.event
            else:
                key = ("", "")
                what = item.event
            if key[0] and key in first:
                yield Finding(
                    item.line,
                    f"a second {what} record in this state visit (the first on line "
                    f"{first[key].line}): a record is written once",
                )
            first.setdefault(key, item)
            if recorded is not None and item.event in (
                audit.HOOK_EXECUTED,
                audit.PARSER_WARNING,
                audit.PARSER_ERROR,
            ):
                yield Finding(
                    item.line,
                    f"{what} after round {recorded.rec['round_index']} was recorded (line "
                    f"{recorded.line})",
                )
            elif (
                outcome is not None
                and item.event == audit.HOOK_EXECUTED
                and item.rec["phase"] == "during"
            ):
                yield Finding(
                    item.line,
                    f"during hook after the reviewer's outcome (line {outcome.line}): the hook "
                    "runs before the reviewer (§8.2)",
                )
            if item.event in _OUTCOMES and outcome is None:
                outcome = item
            if item.event == audit.ROUND_RECORDED and recorded is None:
                recorded = item


def _c13_excess(t: _Trail) -> Iterator[Finding]:
    for tl in t.lines:
        rec = tl.record
        event = rec.get("event") if isinstance(rec, Mapping) else None
        if isinstance(event, str) and event in RECORD_FIELDS:
            allowed = {"event", "timestamp", *RECORD_FIELDS[event]}
            extra = sorted(k if isinstance(k, str) else shown(k) for k in rec if k not in allowed)
            if extra:
                yield Finding(tl.line, f"fields outside the §11 record: {', '.join(extra)}")
        for path, text in _strings(rec, "record"):
            for kind, start, _end in find_credentials(text):
                yield Finding(tl.line, f"{kind} in {path} at offset {start} (§10.3: no secrets)")


def _strings(value: object, path: str) -> Iterator[tuple[str, str]]:
    stack: list[tuple[object, str]] = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, str):
            yield where, node
        elif isinstance(node, Mapping):
            for key, child in node.items():
                name = key if isinstance(key, str) else shown(key)
                yield f"{where} key", name
                stack.append((child, f"{where}.{name}"))
        elif isinstance(node, list | tuple):
            stack.extend((child, f"{where}[{i}]") for i, child in enumerate(node))


_RUNNERS: tuple[_Check, ...] = (
    _c1_config,
    _c2_states,
    _c3_transitions,
    _c4_reviewer_mode,
    _c5_verdicts,
    _c6_retry,
    _c7_max_rounds,
    _c8_session,
    _c9_hooks,
    _c10_drift,
    _c11_studio,
    _c12_trail,
    _c13_excess,
)


def _as_lines(records: object, source: str) -> tuple[TrailLine, ...]:
    if isinstance(records, str):
        return parse_trail(records, source=source)
    if isinstance(records, Mapping | bytes | bytearray) or not isinstance(records, Iterable):
        raise KernelError(
            "records must be JSON Lines text or a sequence of records, "
            f"got {type(records).__name__}"
        )
    return tuple(
        r if isinstance(r, TrailLine) else TrailLine(n, r) for n, r in enumerate(records, 1)
    )


def check_conformance(records: object, *, source: str = "<trail>") -> ConformanceReport:
    """Run the 13 §12 checks over an audit trail and grade it per §2.

    ``records`` is JSON Lines text, or a sequence of parsed records (line = position + 1).
    """
    source = label(source, "source")
    trail = _prepare(_as_lines(records, source))
    results = []
    for number, ((name, title), runner) in enumerate(zip(CHECKS, _RUNNERS, strict=True), 1):
        findings = sorted(runner(trail), key=lambda f: (f.line or 0, f.message))
        results.append(CheckResult(number, name, title, tuple(findings)))
    if not all(r.passed for r in results):
        level = NON_COMPLIANT
    elif any(r.findings for r in results):
        level = CONDITIONALLY_COMPLIANT
    else:
        level = COMPLIANT
    return ConformanceReport(level, tuple(results))
