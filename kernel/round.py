"""``kernel.round``: one editorial round of seed §5.1 as a pure fold over immutable states.

``start(contract, roles)`` opens the round; ``submit(state, role, phase, text)`` lints one
reviewer document and returns the next state and a :class:`Step` that tells the orchestrator
what to call next for that reviewer; ``finish(state)`` applies R16 and R9 and decides, or
aborts. Nothing here reads a clock, a file or a global: the same submissions give the same
states, steps, outcome and events.

Per reviewer (the rules of :mod:`kernel.reviewer.cycle`, reused here):

* Phase 1 passes → ``phase2`` with ``[CONTRACT-ACKNOWLEDGED]``. The first failure →
  ``retry_phase1`` with a hint naming the lint gap; a second → ``dropped`` with
  ``phase1_lint_failed=true``.
* Phase 2 usable → ``done``. The first multi-dissent (and no other failure) →
  ``restart_phase1`` (the restarted Phase 1 again has one retry); a second → ``dropped`` with
  ``multi_dissent=true``. Any other failure → ``dropped`` with ``phase2_lint_failed=<check>``.
* The Phase 2 lint checks consistency against the Phase 1 document that passed last.

Whether a usable report duplicates another reviewer's (R16) is known only once every reviewer
is in, so :func:`finish` applies it, in reviewer order, whatever order the submissions came in.

Every step and the outcome are also *events*: JSON-ready dicts without a clock (the caller may
add its own keys, such as a timestamp). :func:`to_jsonl` writes them one per line and
:func:`from_jsonl` reads them back, both checking them against the shipped JSON Schema
``kernel/data/round_events.schema.json``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import resources
from types import MappingProxyType
from typing import Any, Final, Literal

import attrs

from kernel.contract.baseline import baseline_digest
from kernel.contract.model import Contract, load_contract
from kernel.decision.decision import decide
from kernel.decision.value import Decision
from kernel.errors import KernelError, MatrixError
from kernel.io import InputError, loads_strict
from kernel.reviewer import cycle
from kernel.reviewer.duplicates import duplicate_of
from kernel.reviewer.lint.ars import DEFAULT_ARS, Reading, reading
from kernel.reviewer.lint.dialects import LINTS, dialect_of, lint_phase1, lint_phase2
from kernel.reviewer.lint.phase1 import TAG
from kernel.reviewer.lint.report import LintReport
from kernel.reviewer.roles import scope_of
from kernel.schema import HUGE_INTEGER, StrictValidator, strict_validator
from kernel.strict import shown

__all__ = [
    "EVENT_FORMAT",
    "Next",
    "RoundOutcome",
    "RoundState",
    "Step",
    "event_schema",
    "finish",
    "from_jsonl",
    "start",
    "submit",
    "to_jsonl",
]

Next = Literal["phase2", "retry_phase1", "restart_phase1", "done", "dropped"]
#: Version of the event format, in every ``start`` event.
EVENT_FORMAT: Final = 1
_SCHEMA_FILE: Final = "round_events.schema.json"


@attrs.frozen
class Step:
    """What one submission did, and what the orchestrator calls next for that reviewer."""

    role: str
    phase: int
    #: The lint report of the submitted document.
    report: LintReport
    #: The audit tags this step emitted (``[CONTRACT-ACKNOWLEDGED]``, a violation, or none).
    tags: tuple[str, ...]
    #: The amended-prompt hint for the Phase 1 retry; ``None`` unless ``next`` is
    #: ``retry_phase1``.
    hint: str | None
    next: Next


@attrs.frozen
class RoundOutcome:
    """The end of a round: a decision over the usable reviewers, or an abort."""

    #: ``None`` when the round aborted.
    decision: Decision | None
    #: Each unusable reviewer's ``[PROTOCOL-VIOLATION: …]`` in reviewer order (R16 copies
    #: included), then ``[PANEL-SHRUNK: …]`` when fewer than ``panel_size`` are usable.
    tags: tuple[str, ...]
    #: The usable roles, in reviewer order.
    usable: tuple[str, ...]
    #: Dimension id → the usable reviewers' scores in reviewer order (13.2: dimension id →
    #: eligible role → value); ``None`` when the panel shrank (R9).
    matrix: Mapping[str, Any] | None
    #: Every event of the round, ``finish`` last.
    events: tuple[dict[str, Any], ...]

    @property
    def aborted(self) -> bool:
        return self.decision is None


@attrs.frozen
class _Reviewer:
    state: cycle.ReviewerState
    #: The Phase 1 text that passed last (the Phase 2 consistency check reads it).
    phase1: str | None = None
    #: The usable Phase 2 text and its scores.
    phase2: str | None = None
    scores: Mapping[str, str] | None = None


@attrs.frozen
class RoundState:
    """A round in progress. Build it with :func:`start`; advance it with :func:`submit`."""

    contract: Contract
    #: The reviewer roles, in reviewer order.
    roles: tuple[str, ...]
    _reviewers: tuple[_Reviewer, ...] = attrs.field(repr=False, alias="reviewers")
    #: The events so far, each as one line of JSON (so the state holds no mutable value).
    _lines: tuple[str, ...] = attrs.field(repr=False, alias="lines")
    #: The ARS reading of the round's 13.2 documents (``"main"`` or ``"fork"``).
    ars: str = DEFAULT_ARS

    def next_phase(self, role: str) -> Literal[1, 2] | None:
        """The phase the reviewer submits next, or ``None`` once it is done or dropped."""
        call = self._reviewers[_index(self, role)].state.next_call
        return None if call is None else 1 if call == "phase1" else 2

    @property
    def pending(self) -> tuple[str, ...]:
        """The roles that are neither done nor dropped, in reviewer order."""
        pairs = zip(self.roles, self._reviewers, strict=True)
        return tuple(role for role, rv in pairs if not rv.state.done)

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        """The events so far (fresh dicts on every access)."""
        return tuple(json.loads(line) for line in self._lines)


def _dump(event: Mapping[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _index(state: RoundState, role: object) -> int:
    try:
        return state.roles.index(role)
    except ValueError:
        raise KernelError(
            f"unknown reviewer role {shown(role)} (this round's roles: {', '.join(state.roles)})"
        ) from None


def start(
    contract: Contract | Mapping[str, Any] | str,
    roles: Sequence[str],
    *,
    ars: str | Reading = DEFAULT_ARS,
) -> RoundState:
    """Open a round. ``contract``: anything :func:`load_contract` takes; ``roles``: the
    ``panel_size`` distinct reviewer roles, in reviewer order; ``ars``: the ARS reading of
    13.2 documents (``"main"``, the default, or ``"fork"``; a 13 round has one)."""
    chosen = reading(ars)
    contract = load_contract(contract)
    if contract.panel_size < 1:  # a 13.2 writer or evaluator contract
        raise KernelError(
            f"{contract.contract_id}: mode {contract.mode} has no reviewer panel, so no round"
        )
    if isinstance(roles, str) or not isinstance(roles, Sequence):
        raise KernelError(f"roles must be a sequence of role names, got {type(roles).__name__}")
    roles = tuple(roles)
    if len(roles) != contract.panel_size:
        raise KernelError(
            f"{len(roles)} role(s) for panel_size={contract.panel_size}: a round has exactly "
            "panel_size reviewers (R9)"
        )
    for i, role in enumerate(roles):
        if not isinstance(role, str):
            raise KernelError(f"roles[{i}] must be a role name (str), got {shown(role)}")
    if len(set(roles)) != len(roles):
        raise KernelError(f"reviewer roles must be distinct: {', '.join(map(shown, roles))}")
    _RULES[dialect_of(contract)].check_roles(contract, roles)
    reviewers = tuple(_Reviewer(cycle.start(r, contract.contract_id)) for r in roles)
    event = {
        "event": "start",
        "format": EVENT_FORMAT,
        "contract_id": contract.contract_id,
        "baseline_digest": baseline_digest(contract),
        "panel_size": contract.panel_size,
        "roles": list(roles),
    }
    if dialect_of(contract) != "13":  # 13 events are as they were before 13.2
        event["dialect"] = dialect_of(contract)
        event["ars"] = chosen.name
    return RoundState(contract, roles, reviewers, (_dump(event),), chosen.name)


def submit(state: RoundState, role: str, phase: int, text: str) -> tuple[RoundState, Step]:
    """Lint the reviewer's ``phase`` document ``text`` and advance the round.

    Raises :class:`KernelError` for an unknown role, a phase other than the one the reviewer
    is due to submit (:meth:`RoundState.next_phase`), a reviewer that is already done or
    dropped, and a text the lints cannot read at all (not a str, over the size limit).
    """
    if not isinstance(state, RoundState):
        raise KernelError(f"state must be a RoundState, got {type(state).__name__}")
    i = _index(state, role)
    reviewer = state._reviewers[i]
    if type(phase) is not int or phase not in (1, 2):
        raise KernelError(f"phase must be 1 or 2, got {shown(phase)}")
    due = state.next_phase(role)
    if due is None:
        outcome = "usable" if reviewer.state.usable else "dropped"
        raise KernelError(f"reviewer {role} is already {outcome}: no further submission")
    if phase != due:
        raise KernelError(
            f"phase out of order: reviewer {role} is due to submit Phase {due}, not Phase {phase}"
        )
    contract = state.contract
    seat = role if LINTS[dialect_of(contract)].roles else None
    if phase == 1:
        report = lint_phase1(text, contract, role=seat, ars=state.ars)
    else:
        report = lint_phase2(text, contract, reviewer.phase1, role=seat, ars=state.ars)
    after = cycle.step(reviewer.state, report)
    hint: str | None = None
    tags: tuple[str, ...] = ()
    if after.stage == "unusable":
        assert after.tag is not None
        nxt: Next = "dropped"
        tags = (after.tag,)
        reviewer = _Reviewer(after)
    elif phase == 1 and after.stage == "phase2":
        nxt, tags = "phase2", (TAG,)
        reviewer = _Reviewer(after, phase1=text)
    elif phase == 1:
        nxt, hint = "retry_phase1", after.hint
        reviewer = _Reviewer(after)
    elif after.stage == "phase1":
        nxt = "restart_phase1"
        reviewer = _Reviewer(after)
    else:
        nxt = "done"
        reviewer = attrs.evolve(reviewer, state=after, phase2=text, scores=report.scores)
    step = Step(role, phase, report, tags, hint, nxt)
    event = {
        "event": "step",
        "role": role,
        "phase": phase,
        "call": after.calls,
        "sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        "next": nxt,
        "tags": list(tags),
        "hint": hint,
        "report": report.to_dict(),
    }
    reviewers = (*state._reviewers[:i], reviewer, *state._reviewers[i + 1 :])
    new = RoundState(
        contract, state.roles, reviewers, (*state._lines, _dump(event)), state.ars
    )
    return new, step


def finish(state: RoundState) -> RoundOutcome:
    """Close the round: R16 (later copies of a usable report are unusable), then R9 (fewer
    usable reviewers than ``panel_size`` → ``[PANEL-SHRUNK: …]`` and no decision), else the
    decision over the usable reviewers' scores. A 13.2 round where no eligible seat assessed
    a dimension aborts with ``[DIMENSION-UNASSESSED: Dn]``, as ``decide_documents`` does;
    the ``finish`` event is logged either way (its ``matrix`` is the one that was read).

    Raises :class:`KernelError` while a reviewer is neither done nor dropped, and the
    :class:`~kernel.errors.ContractError` of :func:`decide` when nothing fires and the
    contract has no accept-grade fallback (R5).
    """
    if not isinstance(state, RoundState):
        raise KernelError(f"state must be a RoundState, got {type(state).__name__}")
    if state.pending:
        raise KernelError(
            f"the round cannot finish: reviewer(s) {', '.join(state.pending)} are neither "
            "done nor dropped"
        )
    reviewers = list(state._reviewers)
    earlier = duplicate_of([rv.phase2 if rv.state.usable else None for rv in reviewers])
    duplicates: dict[str, str] = {}
    for i, j in enumerate(earlier):
        if j is not None:
            reviewers[i] = _Reviewer(cycle.duplicate(reviewers[i].state))
            duplicates[state.roles[i]] = state.roles[j]
    contract = state.contract
    tags = cycle.panel_tags([rv.state for rv in reviewers], contract.panel_size)
    usable = tuple(r for r, rv in zip(state.roles, reviewers, strict=True) if rv.state.usable)
    decision: Decision | None = None
    matrix: Mapping[str, Any] | None = None
    if len(usable) == contract.panel_size:
        columns = {r: rv.scores for r, rv in zip(state.roles, reviewers, strict=True)}
        matrix = _RULES[dialect_of(contract)].matrix(contract, columns)
        try:
            decision = decide(contract, matrix)
        except MatrixError as exc:  # 13.2: no seat assessed a dimension, the round aborts
            tags = (*tags, exc.tag or exc.message)
    event = {
        "event": "finish",
        "decision": decision.to_dict() if decision is not None else None,
        "tags": list(tags),
        "usable": list(usable),
        "duplicates": duplicates,
        "matrix": _RULES[dialect_of(contract)].to_json(matrix) if matrix is not None else None,
    }
    lines = (*state._lines, _dump(event))
    return RoundOutcome(
        decision,
        tags,
        usable,
        MappingProxyType(matrix) if matrix is not None else None,
        tuple(json.loads(line) for line in lines),
    )


# --- what differs by dialect ---------------------------------------------------------------


@attrs.frozen
class _Rules:
    #: Raise unless ``roles`` can seat this contract's panel.
    check_roles: Callable[[Contract, tuple[str, ...]], None]
    #: The matrix ``decide`` takes, from each role's usable scores.
    matrix: Callable[[Contract, Mapping[str, Mapping[str, str] | None]], Mapping[str, Any]]
    to_json: Callable[[Mapping[str, Any]], dict[str, Any]]


def _any_roles(contract: Contract, roles: tuple[str, ...]) -> None:
    return None


def _seat_roles(contract: Contract, roles: tuple[str, ...]) -> None:
    """13.2: the seats are exactly the mode's role set (13.2 §G6)."""
    required = scope_of(contract).roles
    if sorted(roles) != sorted(required):
        raise KernelError(
            f"the seats {', '.join(sorted(roles)) or 'none'} are not the roles of "
            f"{contract.mode}: {', '.join(required)}",
            tag=f"[PANEL-CARDINALITY: roles {sorted(roles)!r} != required {sorted(required)!r}]",
        )


def _columns(
    contract: Contract, columns: Mapping[str, Mapping[str, str] | None]
) -> dict[str, tuple[str, ...]]:
    return {
        d: tuple(c[d] for c in columns.values() if c is not None) for d in contract.dimension_ids
    }


def _seats(
    contract: Contract, columns: Mapping[str, Mapping[str, str] | None]
) -> dict[str, dict[str, str]]:
    """13.2: dimension id → eligible role → its value (13.2 §D1)."""
    return {
        d.id: {r: c[d.id] for r, c in columns.items() if c is not None and r in d.eligible_roles}
        for d in scope_of(contract).dimensions
    }


_RULES: Final[Mapping[str, _Rules]] = {
    "13": _Rules(_any_roles, _columns, lambda m: {d: list(s) for d, s in m.items()}),
    "13.2": _Rules(_seat_roles, _seats, lambda m: {d: dict(s) for d, s in m.items()}),
}


# --- events as JSON lines -------------------------------------------------------------------


def _json_ready(value: object, where: str) -> None:
    """Raise unless ``value`` is made of dict (str keys), list, str, int, finite float, bool
    and None only: exactly what JSON gives back unchanged."""
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise KernelError(f"{where}: {shown(value)} is not JSON")
        return
    if type(value) is list:
        for i, item in enumerate(value):
            _json_ready(item, f"{where}[{i}]")
        return
    if type(value) is dict:
        for key, item in value.items():
            if type(key) is not str:
                raise KernelError(f"{where}: key {shown(key)} is not a str")
            _json_ready(item, f"{where}[{shown(key)}]")
        return
    raise KernelError(
        f"{where}: a {type(value).__name__} is not JSON-ready (use dict, list, str, int, "
        "float, bool or None)"
    )


@functools.cache
def event_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) every event satisfies (a shared, read-only value)."""
    text = resources.files("kernel").joinpath("data", _SCHEMA_FILE).read_text("utf-8")
    schema: dict[str, Any] = loads_strict(text, source=f"kernel/data/{_SCHEMA_FILE}")
    return schema


@functools.cache
def _validator() -> StrictValidator:
    return strict_validator(event_schema())


def _check_event(event: object, where: str) -> None:
    if type(event) is not dict:
        raise KernelError(f"{where}: an event must be a JSON object, got {type(event).__name__}")
    try:
        found = list(_validator().iter_errors(event))
    except ValueError:  # jsonschema's message quotes a value: an integer too long to write
        raise KernelError(f"{where}: {HUGE_INTEGER}") from None
    errors = sorted(found, key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        raise KernelError(
            f"{where}: not a round event: {first.json_path}: {first.message}",
            errors=[f"{where}: {e.json_path}: {e.message}" for e in errors],
        )


def to_jsonl(events: Iterable[Mapping[str, Any]]) -> str:
    """The events as JSON Lines: one compact JSON object per line, each line ending in LF.

    Every event must be JSON-ready and satisfy :func:`event_schema` (keys the schema does
    not name are the caller's and are kept). U+2028, U+2029 and U+0085 are written as
    ``\\u`` escapes so that no reader splits a line inside a string.
    """
    if not isinstance(events, Iterable) or isinstance(events, str | bytes | Mapping):
        raise KernelError(
            f"events must be an iterable of event mappings, got {type(events).__name__}"
        )
    lines = []
    for i, event in enumerate(events):
        where = f"events[{i}]"
        _json_ready(event, where)
        _check_event(event, where)
        line = _dump(event)
        for char in ("\u2028", "\u2029", "\x85"):
            line = line.replace(char, f"\\u{ord(char):04x}")
        lines.append(line + "\n")
    return "".join(lines)


def from_jsonl(text: str) -> tuple[dict[str, Any], ...]:
    """Read :func:`to_jsonl`'s output back: ``from_jsonl(to_jsonl(events)) == events``.

    Lines end in LF (a final LF is optional); a line that is empty, not strict JSON or not a
    round event raises :class:`KernelError` naming its line number.
    """
    if not isinstance(text, str):
        raise KernelError(f"JSON Lines must be a str, got {type(text).__name__}")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    events = []
    for number, line in enumerate(lines, start=1):
        where = f"line {number}"
        if not line.strip(" \t\r"):
            raise KernelError(f"{where}: empty line (one event per line)")
        try:
            event = loads_strict(line, source=where)
        except InputError as exc:
            raise KernelError(exc.message.replace(f"{where}:1:", f"{where}, column ", 1)) from None
        _check_event(event, where)
        events.append(event)
    return tuple(events)
