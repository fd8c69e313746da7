"""kernel.round: the whole §5.1 round as a fold. On any sequence of conforming and broken
documents, in any interleaving, a round ends in exactly one of "the decision of ``decide``
over the usable columns" or "an abort with the right tags"; its events round-trip through
JSON Lines and satisfy the shipped schema."""

from __future__ import annotations

import functools
import json
from typing import Any

import attrs
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from kernel import round as rnd
from kernel.contract.model import Contract, load_contract
from kernel.decision.decision import decide
from kernel.errors import KernelError
from kernel.reviewer.lint.phase1 import TAG, lint_phase1
from kernel.reviewer.lint.phase2 import lint_phase2
from kernel.reviewer.render import render_phase1, render_phase2
from kernel.testing import contracts

FULL = load_contract("reviewer/full")
ROLES = ("eic", "methodology", "domain", "perspective", "da")
VALIDATOR = Draft202012Validator(rnd.event_schema())


@functools.cache
def _template(name: str) -> Contract:
    return load_contract(name)


round_contracts = st.one_of(
    st.sampled_from(("reviewer/full", "reviewer/methodology_focus")).map(_template),
    contracts(max_dimensions=3, max_conditions=3, panel_sizes=st.integers(1, 4)).map(load_contract),
)


def _signed(phase2: str, signature: str) -> str:
    return phase2.replace(
        "## Review Body\n\n", f"## Review Body\n\nReviewed by {signature}.\n\n", 1
    )


def _tag(role: str, contract: Contract, detail: str) -> str:
    return f"[PROTOCOL-VIOLATION: reviewer={role}, contract={contract.contract_id}, {detail}]"


def _normalised(text: str) -> str:
    return "\n".join(line.rstrip(" \t") for line in text.replace("\r\n", "\n").split("\n"))


@attrs.define
class Model:
    """The §5.1 rules at the level of document kinds, written out independently."""

    round: int = 1
    attempt: int = 1
    phase: int = 1
    outcome: str | None = None  # "usable" or the violation detail
    text: str | None = None
    column: dict[str, str] | None = None

    def expect(self, kind: str) -> tuple[str, str | None]:
        """The step's ``next`` and violation detail for a document of ``kind``."""
        if self.phase == 1:
            if kind == "ok":
                self.phase = 2
                return "phase2", None
            if self.attempt == 1:
                self.attempt = 2
                return "retry_phase1", None
            self.outcome = "phase1_lint_failed=true"
            return "dropped", self.outcome
        if kind in ("ok", "copy"):
            self.outcome = "usable"
            return "done", None
        if kind == "multi" and self.round == 1:
            self.round, self.attempt, self.phase = 2, 1, 1
            return "restart_phase1", None
        self.outcome = (
            "multi_dissent=true"
            if kind == "multi"
            else "phase2_lint_failed=failure_condition_checks"
        )
        return "dropped", self.outcome


def _phase2_doc(
    data: st.DataObject, contract: Contract, kind: str, signature: str, pool: list[str]
) -> tuple[str, str]:
    """A Phase 2 document of ``kind`` (the kind may change when ``kind`` cannot be made)."""
    if kind == "copy" and pool:
        text = data.draw(st.sampled_from(pool))
        if data.draw(st.booleans()):
            text = text.replace("\n", "\r\n")
        if data.draw(st.booleans()):
            text = text.replace("\n", "  \n")
        return "copy", text
    if kind == "copy":
        kind = "ok"
    column = {
        d: data.draw(st.sampled_from(("pass", "warn", "block"))) for d in contract.dimension_ids
    }
    if kind in ("multi", "multi_broken") and len(contract.dimensions) < 2:
        kind = "broken"
    dissent = None
    if kind in ("multi", "multi_broken"):
        first, second = contract.dimension_ids[:2]
        dissent = {first: "sample size", second: "baseline choice"}
    text = _signed(render_phase2(contract, column, dissent=dissent), signature)
    if kind in ("broken", "multi_broken"):
        text = text.replace("fired: ", "fired:  maybe ", 1)
        kind = "broken"
    if kind == "ok":
        pool.append(text)
    return kind, text


def _check_events(events: tuple[dict[str, Any], ...]) -> None:
    for e in events:
        assert list(VALIDATOR.iter_errors(e)) == []
    assert rnd.from_jsonl(rnd.to_jsonl(events)) == events


@settings(max_examples=40)
@given(st.data(), round_contracts)
def test_a_round_decides_like_decide_or_aborts_with_the_right_tags(
    data: st.DataObject, contract: Contract
) -> None:
    roles = (
        tuple(ROLES[: contract.panel_size])
        if contract.panel_size <= 5
        else tuple(f"r{i}" for i in range(contract.panel_size))
    )
    state = rnd.start(contract, roles)
    models = {r: Model() for r in roles}
    phase1 = render_phase1(contract)
    pool: list[str] = []
    steps = 0
    while state.pending:
        role = data.draw(st.sampled_from(state.pending))
        model = models[role]
        phase = model.phase
        assert state.next_phase(role) == phase
        if phase == 1:
            kind = data.draw(st.sampled_from(("ok", "ok", "broken")))
            text = phase1 if kind == "ok" else phase1.replace(TAG, "")
            report = lint_phase1(text, contract)
        else:
            wanted = data.draw(
                st.sampled_from(("ok", "ok", "copy", "multi", "broken", "multi_broken"))
            )
            kind, text = _phase2_doc(data, contract, wanted, f"{role}-{steps}", pool)
            report = lint_phase2(text, contract, phase1)
        nxt, detail = model.expect(kind)
        if nxt == "done":
            model.text = text
            model.column = dict(report.scores or {})
        state, step = rnd.submit(state, role, phase, text)
        steps += 1
        event(f"step: {nxt}")
        assert step.role == role and step.next == nxt
        assert step.report == report
        if nxt == "phase2":
            assert step.tags == (TAG,)
        elif detail is not None:
            assert step.tags == (_tag(role, contract, detail),)
        else:
            assert step.tags == ()
        if nxt == "retry_phase1":
            assert step.hint is not None
            assert all(f.code in step.hint for f in report.errors[:10])
        else:
            assert step.hint is None
    assert steps <= 6 * len(roles)

    outcome = rnd.finish(state)
    usable_texts: dict[str, str] = {}
    expected_tags = []
    usable = []
    for role in roles:
        model = models[role]
        if model.outcome == "usable":
            assert model.text is not None
            key = _normalised(model.text)
            if key in usable_texts.values():
                expected_tags.append(_tag(role, contract, "phase2_lint_failed=duplicate_report"))
                continue
            usable_texts[role] = key
            usable.append(role)
        else:
            assert model.outcome is not None
            expected_tags.append(_tag(role, contract, model.outcome))
    assert outcome.usable == tuple(usable)
    if len(usable) < contract.panel_size:
        expected_tags.append(
            f"[PANEL-SHRUNK: usable={len(usable)}, panel_size={contract.panel_size}]"
        )
        assert outcome.decision is None and outcome.matrix is None and outcome.aborted
    else:
        columns = [models[r].column for r in roles]
        matrix = {d: [c[d] for c in columns if c is not None] for d in contract.dimension_ids}
        assert outcome.decision == decide(contract, matrix)
        assert outcome.matrix is not None
        assert {d: list(s) for d, s in outcome.matrix.items()} == matrix
    assert outcome.tags == tuple(expected_tags)
    event("outcome: " + ("abort" if outcome.aborted else "decision"))
    if any("duplicate_report" in t for t in outcome.tags):
        event("outcome: with a duplicate")

    events = outcome.events
    assert len(events) == steps + 2
    assert events[0]["event"] == "start" and events[-1]["event"] == "finish"
    assert events[-1]["tags"] == list(outcome.tags)
    assert events[-1]["decision"] == (
        outcome.decision.to_dict() if outcome.decision is not None else None
    )
    assert events[:-1] == state.events
    _check_events(events)


# --- a worked round and its events ------------------------------------------------------------

P1 = render_phase1(FULL)


def _column(**kw: str) -> dict[str, str]:
    return dict.fromkeys(FULL.dimension_ids, "pass") | kw


def _p2(role: str, **kw: str) -> str:
    return _signed(render_phase2(FULL, _column(**kw)), role)


def _all_phase1(state: rnd.RoundState) -> rnd.RoundState:
    for role in ROLES:
        state, step = rnd.submit(state, role, 1, P1)
        assert step.next == "phase2" and step.tags == (TAG,)
    return state


def test_a_clean_round_decides() -> None:
    state = _all_phase1(rnd.start("reviewer/full", ROLES))
    for role in ROLES:
        state, step = rnd.submit(state, role, 2, _p2(role, D5="warn"))
        assert step.next == "done" and step.tags == () and step.report.ok
    outcome = rnd.finish(state)
    assert outcome.tags == () and outcome.usable == ROLES
    assert outcome.decision == decide(FULL, {d: ["pass"] * 5 for d in FULL.dimension_ids})
    start = outcome.events[0]
    assert start == {
        "event": "start",
        "format": 1,
        "contract_id": FULL.contract_id,
        "baseline_digest": start["baseline_digest"],
        "panel_size": 5,
        "roles": list(ROLES),
    }
    from kernel.contract.baseline import baseline_digest
    from kernel.contract.templates import shipped_template

    assert start["baseline_digest"] == baseline_digest(shipped_template("reviewer/full"))
    _check_events(outcome.events)


def test_retry_restart_and_a_duplicate() -> None:
    state = rnd.start(FULL, ROLES)
    state, step = rnd.submit(state, "eic", 1, P1.replace("## Scoring Plan", "## Scoring plan"))
    assert step.next == "retry_phase1" and step.tags == ()
    assert step.hint is not None and "P1-" in step.hint
    state, step = rnd.submit(state, "eic", 1, P1)
    assert step.next == "phase2" and step.hint is None
    for role in ROLES[1:]:
        state, _ = rnd.submit(state, role, 1, P1)
    multi = render_phase2(FULL, _column(), dissent={"D1": "sample", "D2": "baseline"})
    state, step = rnd.submit(state, "da", 2, multi)
    assert step.next == "restart_phase1" and step.tags == () and step.hint is None
    assert state.next_phase("da") == 1
    state, _ = rnd.submit(state, "da", 1, P1)
    state, step = rnd.submit(state, "da", 2, _p2("da"))
    assert step.next == "done"
    copy = _p2("eic", D1="warn")
    state, _ = rnd.submit(state, "perspective", 2, copy.replace("\n", "\r\n"))
    state, _ = rnd.submit(state, "eic", 2, copy)
    for role in ("methodology", "domain"):
        state, _ = rnd.submit(state, role, 2, _p2(role))
    outcome = rnd.finish(state)
    assert outcome.decision is None and outcome.matrix is None
    assert outcome.tags == (
        _tag("perspective", FULL, "phase2_lint_failed=duplicate_report"),
        "[PANEL-SHRUNK: usable=4, panel_size=5]",
    )
    assert outcome.usable == ("eic", "methodology", "domain", "da")
    assert outcome.events[-1]["duplicates"] == {"perspective": "eic"}
    _check_events(outcome.events)


def test_states_are_values() -> None:
    s0 = rnd.start(FULL, ROLES)
    s1, step1 = rnd.submit(s0, "eic", 1, P1)
    s1b, step1b = rnd.submit(s0, "eic", 1, P1)
    assert (s1, step1) == (s1b, step1b)
    assert s0.next_phase("eic") == 1 and s1.next_phase("eic") == 2
    assert len(s0.events) == 1 and len(s1.events) == 2
    s1.events[0]["roles"].append("intruder")
    assert s1.events[0]["roles"] == list(ROLES)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        s1.roles = ()  # type: ignore[misc]


def test_step_events_name_the_document() -> None:
    import hashlib

    state, _ = rnd.submit(rnd.start(FULL, ROLES), "domain", 1, P1)
    event = state.events[-1]
    assert event["role"] == "domain" and event["phase"] == 1 and event["call"] == 1
    assert event["sha256"] == hashlib.sha256(P1.encode()).hexdigest()
    assert event["report"] == lint_phase1(P1, FULL).to_dict()
    assert event["tags"] == [TAG] and event["next"] == "phase2" and event["hint"] is None


# --- misuse ---------------------------------------------------------------------------------


def test_misuse_raises() -> None:
    state = rnd.start(FULL, ROLES)
    with pytest.raises(KernelError, match="unknown reviewer role 'editor'"):
        rnd.submit(state, "editor", 1, P1)
    with pytest.raises(KernelError, match="phase out of order"):
        rnd.submit(state, "eic", 2, _p2("eic"))
    for bad in (0, 3, True, "1", 1.0):
        with pytest.raises(KernelError, match="phase must be 1 or 2"):
            rnd.submit(state, "eic", bad, P1)  # type: ignore[arg-type]
    with pytest.raises(KernelError, match="cannot finish"):
        rnd.finish(state)
    state = _all_phase1(state)
    with pytest.raises(KernelError, match="phase out of order"):
        rnd.submit(state, "eic", 1, P1)
    state, _ = rnd.submit(state, "eic", 2, _p2("eic"))
    with pytest.raises(KernelError, match="already usable"):
        rnd.submit(state, "eic", 2, _p2("eic"))
    state, step = rnd.submit(state, "da", 2, "## Dimension Scores\n")
    assert step.next == "dropped"
    with pytest.raises(KernelError, match="already dropped"):
        rnd.submit(state, "da", 1, P1)
    with pytest.raises(KernelError, match="methodology, domain, perspective"):
        rnd.finish(state)
    with pytest.raises(KernelError):
        rnd.submit(state, "domain", 2, None)  # type: ignore[arg-type]
    with pytest.raises(KernelError):
        rnd.finish("not a state")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "roles",
    [
        ROLES[:4],
        (*ROLES[:4], "eic"),
        "eicmd",
        ("eic", "methodology", "domain", "perspective", "d=a"),
        ("eic", "methodology", "domain", "perspective", " da"),
        None,
    ],
)
def test_bad_roles_are_refused(roles: Any) -> None:
    with pytest.raises(KernelError):
        rnd.start(FULL, roles)


def test_bad_contract_is_refused() -> None:
    with pytest.raises(KernelError):
        rnd.start({"contract_id": "x"}, ROLES)


# --- JSON Lines -----------------------------------------------------------------------------


def _events() -> tuple[dict[str, Any], ...]:
    state = _all_phase1(rnd.start(FULL, ROLES))
    for role in ROLES:
        state, _ = rnd.submit(state, role, 2, _p2(role))
    return rnd.finish(state).events


def test_jsonl_is_one_event_per_line_and_keeps_callers_keys() -> None:
    events = _events()
    stamped = tuple({**e, "at": f"2026-01-0{i % 9 + 1}T00:00:00Z"} for i, e in enumerate(events))
    text = rnd.to_jsonl(stamped)
    assert text.endswith("\n") and text.count("\n") == len(events)
    assert [json.loads(line) for line in text.splitlines()] == list(stamped)
    assert rnd.from_jsonl(text) == stamped
    assert rnd.from_jsonl(text.rstrip("\n")) == stamped
    assert rnd.to_jsonl(()) == "" and rnd.from_jsonl("") == ()


def test_line_separators_in_strings_are_escaped() -> None:
    start = dict(_events()[0])
    start["note"] = "a\u2028b\u2029c\x85d"
    text = rnd.to_jsonl([start])
    assert text.count("\n") == 1 and len(text.splitlines()) == 1
    assert rnd.from_jsonl(text) == (start,)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"event": "start", "roles": ("a",)}, r"events\[0\]\['roles'\]: a tuple"),
        ({"event": "start", 1: "x"}, "key 1 is not a str"),
        ({"event": "start", "x": float("nan")}, "is not JSON"),
        ({"event": "begin"}, "not a round event"),
        ({"event": "step", "role": "eic"}, "not a round event"),
        (["event"], "a list is not JSON-ready|must be a JSON object"),
    ],
)
def test_to_jsonl_refuses_what_would_not_round_trip(value: Any, message: str) -> None:
    with pytest.raises(KernelError, match=message):
        rnd.to_jsonl([value])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"event":"start"}\n', "line 1: not a round event"),
        ("\n", "line 1: empty line"),
        ("[1]\n", "line 1: an event must be a JSON object"),
        ('{"event": "start", "event": "step"}\n', "line 1: not strict JSON: duplicate key"),
        ("{\n", "line 1, column 2: not JSON"),
        (
            '{"event":"finish","decision":null,"tags":[],"usable":[],"duplicates":{},"matrix":NaN}',
            "line 1: not strict JSON",
        ),
        (b"{}", "must be a str"),
    ],
)
def test_from_jsonl_names_the_bad_line(text: Any, message: str) -> None:
    with pytest.raises(KernelError, match=message):
        rnd.from_jsonl(text)


def test_from_jsonl_names_a_later_line() -> None:
    lines = rnd.to_jsonl(_events()).splitlines()
    lines[3] = lines[3].replace('"next":"', '"next":"not-', 1)
    with pytest.raises(KernelError, match="line 4: not a round event"):
        rnd.from_jsonl("\n".join(lines))


def test_the_shipped_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(rnd.event_schema())
    assert rnd.event_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_events_are_checked_with_the_strict_rules() -> None:
    events = [dict(e) for e in _events()]
    assert rnd.from_jsonl(rnd.to_jsonl(events)) == tuple(events)
    finish = next(e for e in events if e["event"] == "finish")
    stretched = json.loads(json.dumps(finish).replace('"D1"', '"D1\\n"', 1))
    assert stretched != finish, "the finish event names D1"
    with pytest.raises(KernelError, match="not a round event"):
        rnd.to_jsonl([stretched])


def test_a_contract_without_a_panel_has_no_round() -> None:
    from kernel import round as rounds

    for name in ("13.2/writer/full", "13.2/evaluator/full"):
        with pytest.raises(KernelError, match="has no reviewer panel, so no round"):
            rounds.start(name, [])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda c: rnd.start(c, ["a", 5]),  # type: ignore[list-item]
            "roles[1] must be a role name (str), got 5",
        ),
        (
            lambda c: rnd.to_jsonl(5),  # type: ignore[arg-type]
            "events must be an iterable of event mappings, got int",
        ),
        (
            lambda c: rnd.to_jsonl([{"event": 10**5000}]),
            "events[0]: holds an integer too long to write (over 4300 digits)",
        ),
        (
            lambda c: rnd.to_jsonl([{"event": "x", "extra": [1, float("nan")]}]),
            "events[0]['extra'][1]: nan is not JSON",
        ),
    ],
)
def test_bad_roles_and_events_are_refused_with_where(call: Any, message: str) -> None:
    contract = load_contract("reviewer/methodology_focus")
    with pytest.raises(KernelError) as info:
        call(contract)
    assert info.value.message == message
