"""kernel.arena.check_conformance: the 13 §12 checks, the §2 level, mutations, bad input."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from support.arena_support import TS, Driven, drive_records, driven_runs, two_round_events

from kernel.arena import State, check_conformance, find_credentials
from kernel.arena.states import TRANSITIONS
from kernel.errors import KernelError
from kernel.io import InputError

Records = list[dict[str, Any]]


def base(enabled: bool = True) -> Records:
    return drive_records(two_round_events(enabled=enabled))


def failed(records: object) -> tuple[int, ...]:
    return check_conformance(records).failed


def find(records: Records, event: str, **match: Any) -> int:
    return next(
        i
        for i, r in enumerate(records)
        if r["event"] == event and all(r.get(k) == v for k, v in match.items())
    )


def test_machine_trails_are_compliant() -> None:
    for enabled in (True, False):
        report = check_conformance(base(enabled))
        assert report.level == "Compliant"
        assert [c.number for c in report.checks] == list(range(1, 14))
        assert all(c.passed and not c.findings for c in report.checks)


def test_jsonl_text_and_records_agree() -> None:
    records = base()
    text = "".join(json.dumps(r) + "\n" for r in records)
    assert check_conformance(text) == check_conformance(records)


# ---- one example per check ---------------------------------------------------------------


def _edit(records: Records, index: int, **changes: Any) -> Records:
    out = copy.deepcopy(records)
    out[index].update(changes)
    return out


def test_c1_invalid_config_that_went_on() -> None:
    records = base()
    records[0]["config"]["max_rounds"] = 9
    report = check_conformance(records)
    assert 1 in report.failed
    [finding] = report.check(1).findings
    assert finding.line == 1 and "ProtocolConfig.max_rounds" in finding.message


def test_c2_unknown_state() -> None:
    records = base()
    i = find(records, "STATE_TRANSITION", to="REVISING")
    records[i]["to"] = "PAUSED"
    report = check_conformance(records)
    assert 2 in report.failed
    assert report.check(2).findings[0].line == i + 1


def test_c3_forbidden_transition_and_absorbing_terminal() -> None:
    records = base()
    i = find(records, "STATE_TRANSITION", to="FINALIZING")
    assert 3 in failed(_edit(records, i, to="TERMINATED_APPROVED"))
    extra = {
        "event": "STATE_TRANSITION",
        "timestamp": TS,
        "from": "TERMINATED_APPROVED",
        "to": "DRAFTING",
        "round_index": 3,
    }
    report = check_conformance([*records[:-1], extra, records[-1]])
    assert 3 in report.failed
    assert any("terminal states absorb" in f.message for f in report.check(3).findings)


def test_c3_verdict_must_match_the_transition() -> None:
    records = base()
    i = find(records, "ROUND_RECORDED", round_index=1)
    records[i]["verdict"] = "APPROVED"
    records[i]["reviewer_output"] = "VERDICT: APPROVED"
    assert failed(records) == (3,)


def test_c4_reviewer_mode() -> None:
    records = base()
    records[0]["config"]["reviewer_mode"] = "read-write"
    assert {1, 4} <= set(failed(records))


def test_c5_verdict_must_be_what_the_parser_reads() -> None:
    records = base()
    i = find(records, "ROUND_RECORDED", round_index=1)
    records[i]["reviewer_output"] = "I would say VERDICT: REVISE here."
    assert 5 in failed(records)


def test_c5_the_verdict_not_last_is_a_should() -> None:
    records = base()
    i = find(records, "ROUND_RECORDED", round_index=1)
    records[i]["reviewer_output"] += "\nThanks!"
    report = check_conformance(records)
    assert report.level == "Conditionally Compliant"
    assert report.check(5).passed
    [finding] = report.check(5).findings
    assert (finding.requirement, finding.line) == ("SHOULD", i + 1)


def test_c6_two_retries() -> None:
    records = base()
    i = find(records, "PARSER_ERROR")
    records.insert(i, copy.deepcopy(records[i]))
    assert 6 in failed(records)


def test_c7_round_beyond_the_cap() -> None:
    records = base()
    records[0]["config"]["max_rounds"] = 1
    report = check_conformance(records)
    assert 7 in report.failed
    assert any("max_rounds=1" in f.message for f in report.check(7).findings)


def test_c8_session_missing_but_the_run_went_on() -> None:
    records = base()
    records[0]["task"]["session_id"] = " "
    assert {1, 8} <= set(failed(records))


def test_c9_hook_recorded_while_notebooks_are_off() -> None:
    records = base(enabled=False)
    i = find(records, "HOOK_EXECUTED", phase="during")
    records[i].update(status="SUCCESS", query="q")
    assert failed(records) == (9,)


def test_c9_degraded_while_required() -> None:
    records = base()
    records[0]["task"]["notebook_required"] = True
    i = find(records, "HOOK_EXECUTED", phase="during")
    records[i]["status"] = "SKIPPED_DEGRADED"
    assert failed(records) == (9,)


def test_c10_after_hook_without_a_query() -> None:
    records = base()
    i = find(records, "HOOK_EXECUTED", phase="after")
    records[i]["query"] = ""
    assert failed(records) == (10,)


def test_c11_studio_create_is_not_a_reason_to_fail() -> None:
    records = base()
    records[-2]["to"] = "TERMINATED_ERROR"
    records[-1].update(state="TERMINATED_ERROR", reason="UNRECOVERABLE: studio_create missing")
    assert failed(records) == (11,)


def test_c12_incomplete_trail() -> None:
    records = base()
    report = check_conformance(records[:-1])
    assert report.failed == (12,)
    assert "no RUN_TERMINATED" in report.check(12).findings[0].message


def test_c13_extra_fields_and_secrets() -> None:
    records = base()
    records[1]["run_id"] = "r-1"
    records[2]["query"] = "password=hunter2hunter2"
    report = check_conformance(records)
    assert report.failed == (13,)
    assert [f.line for f in report.check(13).findings] == [2, 3]


def test_empty_trail() -> None:
    report = check_conformance("")
    assert report.level == "Non-Compliant"
    assert 12 in report.failed


# ---- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"event": "RUN_STARTED"}\n{"event": \n', "run.jsonl:2:"),
        ('{"a": 1}\n\n{"a": 1, "a": 2}\n', "run.jsonl:3:"),
        ('{"a": NaN}\n', "run.jsonl:1:"),
        ('{"a": 1} {"b": 2}\n', "run.jsonl:1:"),
        ("[1, 2\n", "run.jsonl:1:"),
    ],
)
def test_malformed_json_lines_name_the_line(text: str, where: str) -> None:
    with pytest.raises(InputError) as info:
        check_conformance(text, source="run.jsonl")
    assert str(info.value).startswith(where)


def test_unknown_events_and_wrong_types_are_findings_with_lines() -> None:
    records: list[Any] = base()
    i = find(records, "PARSER_ERROR") + 2
    records.insert(3, {"event": "COFFEE_BREAK", "timestamp": TS})
    records.insert(5, ["not", "an", "object"])
    records[i] = {**records[i], "round_index": "one"}
    records[i + 1] = {**records[i + 1], "timestamp": "yesterday"}
    report = check_conformance(records)
    lines = {f.line for f in report.check(12).findings}
    assert {4, 6, i + 1, i + 2} <= lines
    messages = " ".join(f.message for f in report.check(12).findings)
    assert "unknown event 'COFFEE_BREAK'" in messages
    assert "must be a JSON object" in messages
    assert "RFC 3339" in messages


@pytest.mark.parametrize("value", [1.0, True, "1", -1, None])
def test_round_index_must_be_a_json_integer(value: object) -> None:
    records = base()
    i = find(records, "PARSER_ERROR")
    records[i]["round_index"] = value
    report = check_conformance(records)
    assert 12 in report.failed
    assert any(f.line == i + 1 and "round_index" in f.message for f in report.check(12).findings)


@pytest.mark.parametrize("bad", [None, 5, {"event": "RUN_STARTED"}, b"{}"])
def test_records_of_the_wrong_shape_are_kernel_errors(bad: object) -> None:
    with pytest.raises(KernelError):
        check_conformance(bad)


json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
record_like = st.fixed_dictionaries(
    {
        "event": st.sampled_from(
            [
                "RUN_STARTED",
                "STATE_TRANSITION",
                "ROUND_RECORDED",
                "HOOK_EXECUTED",
                "PARSER_ERROR",
                "RUN_TERMINATED",
                "OTHER",
            ]
        ),
        "timestamp": st.sampled_from([TS, "x"]),
    },
    optional={
        k: json_values
        for k in (
            "from",
            "to",
            "round_index",
            "verdict",
            "phase",
            "status",
            "query",
            "reason",
            "state",
            "code",
            "config",
            "task",
        )
    },
)


@given(st.lists(st.one_of(json_values, record_like), max_size=12))
def test_any_json_records_are_judged_without_crashing(records: list[Any]) -> None:
    report = check_conformance(records)
    assert report.level in ("Compliant", "Conditionally Compliant", "Non-Compliant")
    assert len(report.checks) == 13


@given(st.text(max_size=200))
@example("\ufeff{}\n")
@example('{"event": "RUN_STARTED"}\r\n')
def test_any_text_is_parsed_or_refused_with_input_error(text: str) -> None:
    try:
        report = check_conformance(text)
    except InputError as exc:
        assert str(exc).startswith("<trail>:")
    else:
        assert report.level in ("Compliant", "Conditionally Compliant", "Non-Compliant")


# ---- mutations of machine trails ------------------------------------------------------------


def _expected_check_for_drop(records: Records, i: int) -> int | None:
    """The check that must catch dropping record ``i``, or None when the shorter trail is itself
    a legal one (a hook or parser record of a visit that then failed for another reason)."""
    rec = records[i]
    event = rec["event"]
    later = records[i + 1 :]
    next_move = next((r for r in later if r["event"] == "STATE_TRANSITION"), None)
    reason = records[-1].get("reason", "")
    went_on = next_move is not None and next_move["to"] != "TERMINATED_ERROR"
    if event == "STATE_TRANSITION":
        return 12 if next_move is None else 3
    if event in ("RUN_STARTED", "RUN_TERMINATED", "ROUND_RECORDED"):
        return 12
    if event == "PARSER_WARNING":
        return 5
    if event == "PARSER_ERROR":
        reviewed = any(r["event"] == "ROUND_RECORDED" for r in later[:3])
        return 6 if reviewed or reason.startswith("MISSING_VERDICT") else None
    assert event == "HOOK_EXECUTED"
    if rec["status"] == "FAILED":
        return 9
    disabled = rec["status"] == "SKIPPED_DISABLED"
    visit = later[: later.index(next_move)] if next_move is not None else later
    outcome = rec["phase"] == "during" and any(
        r["event"] in ("PARSER_ERROR", "PARSER_WARNING", "ROUND_RECORDED") for r in visit
    )
    if not (disabled or went_on or outcome):
        return None
    return 10 if rec["phase"] == "after" else 9


@given(driven_runs(), st.data())
def test_dropping_any_record_is_caught_by_its_check(d: Driven, data: st.DataObject) -> None:
    records = d.records
    droppable = [i for i in range(len(records)) if _expected_check_for_drop(records, i)]
    assume(droppable)
    i = data.draw(st.sampled_from(droppable))
    expected = _expected_check_for_drop(records, i)
    mutated = records[:i] + records[i + 1 :]
    report = check_conformance(mutated)
    assert report.level == "Non-Compliant"
    assert expected in report.failed, (records[i], report.failed)


@given(driven_runs(), st.data())
def test_a_forbidden_transition_is_caught_by_check_3(d: Driven, data: st.DataObject) -> None:
    records = d.records
    moves = [i for i, r in enumerate(records) if r["event"] == "STATE_TRANSITION"]
    i = data.draw(st.sampled_from(moves))
    frm = State(records[i]["from"])
    forbidden = [s for s in State if (frm, s) not in TRANSITIONS]
    records[i]["to"] = data.draw(st.sampled_from(forbidden)).value
    assert 3 in failed(records)


@given(driven_runs(), st.data())
def test_a_second_retry_is_caught_by_check_6(d: Driven, data: st.DataObject) -> None:
    records = d.records
    rounds = [i for i, r in enumerate(records) if r["event"] == "ROUND_RECORDED"]
    assume(rounds)
    i = data.draw(st.sampled_from(rounds))
    miss = {
        "event": "PARSER_ERROR",
        "timestamp": TS,
        "code": "PARSER_ERROR_MISSING_VERDICT",
        "round_index": records[i]["round_index"],
    }
    mutated = [*records[:i], miss, dict(miss), *records[i:]]
    assert 6 in failed(mutated)


SECRETS = st.one_of(
    st.text(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", min_size=24, max_size=40
    ).map(lambda s: "sk-" + s),
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", min_size=16, max_size=16).map(lambda s: "AKIA" + s),
    st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789", min_size=36, max_size=36).map(
        lambda s: "ghp_" + s
    ),
    st.text("0123456789abcdef-", min_size=12, max_size=30).map(lambda s: "xoxb-" + s),
    st.sampled_from(
        [
            "-----BEGIN RSA PRIVATE KEY-----",
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----",
            "password=hunter22",
            "PASSWORD: 'correct-horse'",
            "api_key=abcd1234efgh",
            "client_secret = s3cr3tValue",
        ]
    ),
)


@given(driven_runs(), st.data(), SECRETS)
def test_a_leaked_credential_is_caught_by_check_13(
    d: Driven, data: st.DataObject, secret: str
) -> None:
    records = d.records
    i = data.draw(st.integers(0, len(records) - 1))
    key = data.draw(st.sampled_from(sorted(k for k in records[i] if k != "event")))
    value = records[i][key]
    if isinstance(value, str):
        records[i][key] = value + " " + secret
    elif isinstance(value, list):
        value.append(secret)
    elif isinstance(value, dict):
        value["note"] = secret
    else:
        records[i][key] = secret
    report = check_conformance(records)
    assert 13 in report.failed
    assert any(f.line == i + 1 for f in report.check(13).findings)


@pytest.mark.parametrize(
    "harmless",
    [
        "3f2c9a1e-5b7d-4e21-9c0a-7d1e2f3a4b5c",
        "sess_9f8e7d6c5b4a39281706f5e4d3c2b1a0",
        "c2Vzc2lvbi1pZC0xMjM0NTY3ODkwYWJjZGVm",
        "a risk-based review of task-list items",
        "The password field must be hashed.",
        "ask-the-reviewer-about-the-deadline-please",
        "AKIAshort",
        "token: see the session log",
    ],
)
def test_session_ids_and_prose_are_not_credentials(harmless: str) -> None:
    assert find_credentials(harmless) == []


# ---- arbitrary JSON in any field; the trail as a sequence -----------------------------------

any_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["RUN_STARTED", "ROUND_RECORDED", "REVIEWING", "during", "SUCCESS", TS]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
_FIELDS = sorted(
    {"event", "timestamp", "reviewer_output", "reviewer_attempt", "round_index", "phase"}
    | {"from", "to", "verdict", "status", "query", "state", "reason", "code", "issues"}
    | {"config", "task", "notebook", "evidence_refs", "planner_output_ref"}
)


def _judged(records: list[Any]) -> None:
    """A conformance result or a KernelError, for the records and for their JSON Lines text."""
    for trail in (records, "".join(json.dumps(r) + "\n" for r in records)):
        try:
            report = check_conformance(trail)
        except KernelError:
            continue
        assert report.level in ("Compliant", "Conditionally Compliant", "Non-Compliant")
        json.dumps(report.to_dict())


@pytest.mark.parametrize(
    "record",
    [
        {"event": {}},  # the reproducer: 401 of 3,000 fuzzed trails crashed so
        {"event": []},
        {"event": ["RUN_STARTED"], "timestamp": TS},
        {"event": "RUN_STARTED", "timestamp": TS, "config": {"max_rounds": 10**5000}},
        {"event": "STATE_TRANSITION", "timestamp": TS, "from": "INIT", "to": "DRAFTING",
         "round_index": 10**5000},
        {"event": "RUN_STARTED", "timestamp": TS, 7: "int key"},
        {"event": "RUN_STARTED", "timestamp": TS, "config": {10**5000: 1}},
        {"event": "HOOK_EXECUTED", "timestamp": TS, "phase": "during", "query": float("nan")},
        {"event": "ROUND_RECORDED", "timestamp": TS, "issues": {1, 2}},
    ],
)  # fmt: skip
def test_a_record_of_any_shape_is_judged(record: dict[Any, Any]) -> None:
    records: list[Any] = base()
    for i in (0, 3, len(records)):
        trail = [*records[:i], record, *records[i:]]
        report = check_conformance(trail)
        assert report.level == "Non-Compliant"
        assert any(f.line == i + 1 for f in report.check(12).findings)


@given(driven_runs(), st.data())
def test_any_json_value_in_any_field_is_judged(d: Driven, data: st.DataObject) -> None:
    records: list[Any] = d.records
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(records) - 1))
        if data.draw(st.booleans()) and isinstance(records[i], dict):
            records[i][data.draw(st.sampled_from(_FIELDS))] = data.draw(any_json)
        elif data.draw(st.booleans()) and isinstance(records[0], dict):
            inner = data.draw(st.sampled_from(["config", "task", "notebook"]))
            records[0][inner] = data.draw(
                st.dictionaries(st.sampled_from(["max_rounds", "notebook_enabled", "tools",
                                                 "session_id", "notebook_required"]), any_json)
            )  # fmt: skip
        else:
            records[i] = data.draw(any_json)
    _judged(records)


def test_a_repeated_round_record_is_non_compliant() -> None:
    records = base()
    i = find(records, "ROUND_RECORDED")
    report = check_conformance([*records[: i + 1], records[i], *records[i + 1 :]])
    assert report.level == "Non-Compliant"
    assert [f.line for f in report.check(12).findings] == [i + 2]
    assert "a second ROUND_RECORDED" in report.check(12).findings[0].message


@given(driven_runs(), st.data())
def test_a_copy_of_any_record_anywhere_is_non_compliant(d: Driven, data: st.DataObject) -> None:
    records = d.records
    i = data.draw(st.integers(0, len(records) - 1))
    j = data.draw(st.integers(0, len(records)))
    trail = [*records[:j], copy.deepcopy(records[i]), *records[j:]]
    report = check_conformance(trail)
    assert report.level == "Non-Compliant", (records[i], j, report.to_dict())


@given(driven_runs(), st.data())
def test_a_round_index_going_backwards_is_non_compliant(d: Driven, data: st.DataObject) -> None:
    records = d.records
    indexed = [i for i, r in enumerate(records) if r.get("round_index", 0) >= 1]
    assume(indexed)
    i = data.draw(st.sampled_from(indexed))
    records[i]["round_index"] -= 1
    assert check_conformance(records).level == "Non-Compliant"


def test_credentials_are_listed_in_text_order_not_by_kind() -> None:
    github = "ghp_" + "a1" * 18
    aws = "AKIA" + "B2" * 8
    found = find_credentials(f"{github} and {aws}")
    assert [kind for kind, _, _ in found] == ["GitHub token", "AWS access key id"]
