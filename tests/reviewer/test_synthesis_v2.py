"""The 13.2 synthesis check (13.2 §G): each parse rule, the mismatch naming every part, the
DA gate, and the worked example's synthesis."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support import paths

from kernel.reviewer.roles import scope_of
from kernel.reviewer.synthesis_v2 import Recomputed, check_synthesis_v2

EXAMPLE = paths.ROOT / "examples" / "full-13.2"
SCOPE = scope_of(json.loads((EXAMPLE / "contract.json").read_text()))
TEXT = (EXAMPLE / "synthesis.md").read_text()
VERDICTS = {"D1": "warn", "D2": "pass", "D3": "warn", "D4": "warn", "D5": "warn", "D6": "block"}
RIGHT = Recomputed(("F2", "F3", "F4"), "editorial_decision=major_revision", VERDICTS, ("C1", "C2"))


def messages(text: str, recomputed: Recomputed = RIGHT, *, ars: str = "main") -> list[str]:
    return [f.tag for f in check_synthesis_v2(SCOPE, recomputed, text, ars=ars).findings]


def test_the_worked_synthesis_agrees() -> None:
    report = check_synthesis_v2(SCOPE, RIGHT, TEXT)
    assert report.ok
    assert report.fired == ("F2", "F3", "F4")
    assert report.action == "editorial_decision=major_revision"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "fired_conditions: [F2, F3, F4]\n",
            "",
            "expected exactly one fired_conditions line, found 0",
        ),
        (
            "fired_conditions: [F2, F3, F4]\n",
            "```\nfired_conditions: [F2, F3, F4]\n```\n",
            "expected exactly one fired_conditions line, found 0",
        ),
        (
            "fired_conditions: [F2, F3, F4]",
            "fired_conditions: [F2, F3, F9]",
            "invalid fired_conditions ['F2', 'F3', 'F9']",
        ),
        (
            "fired_conditions: [F2, F3, F4]",
            "fired_conditions: [F2, F2]",
            "invalid fired_conditions ['F2', 'F2']",
        ),
        ("D6=block]", "D6=fatal]", "invalid dimension verdict 'D6=fatal'"),
        ("D1=warn,", "D1=warn, D1=pass,", "invalid dimension verdict 'D1=pass'"),
        ("C2=REJECTED]", "C2=rejected]", "invalid DA adjudication 'C2=rejected'"),
        (
            "editorial_decision=major_revision",
            "editorial_decision=reject_or_major_revision",
            "expected exactly one valid decision",
        ),
        (
            "editorial_decision=major_revision\n",
            "editorial_decision=major_revision\neditorial_decision=reject\n",
            "expected exactly one valid decision",
        ),
        (
            "C2 rejection rationale: Table 4",
            "C2 rejection rationale: a\nC2 rejection rationale: Table 4",
            "duplicate rejection rationale for C2",
        ),
    ],
)
def test_each_parse_rule(old: str, new: str, expected: str) -> None:
    """The fork's rules (13.2 §G2-§G3); upstream main agrees but reads a fenced audit line
    (ars-main §2)."""
    assert old in TEXT
    wanted = [f"[SYNTHESIS-PARSE: synthesis: {expected}]"]
    assert messages(TEXT.replace(old, new), ars="fork") == wanted
    assert messages(TEXT.replace(old, new)) == ([] if "```" in new else wanted)


def test_empty_tokens_are_dropped() -> None:
    assert messages(TEXT.replace("[F2, F3, F4]", "[F2,, F3, F4,]")) == []


def test_the_fired_list_is_compared_in_contract_order() -> None:
    assert messages(TEXT.replace("[F2, F3, F4]", "[F3, F2, F4]")) == [
        "[PANEL-SYNTHESIS-MISMATCH: fired=['F3', 'F2', 'F4'], recomputed_fired=['F2', 'F3', 'F4']]"
    ]


def test_a_mismatch_names_every_part() -> None:
    other = Recomputed(
        ("F4",), "editorial_decision=minor_revision", {**VERDICTS, "D6": "warn"}, ("C1", "C2")
    )
    [message] = messages(TEXT, other)
    assert message.startswith("[PANEL-SYNTHESIS-MISMATCH: fired=")
    assert "recomputed_fired=['F4']" in message
    assert "recomputed_verdicts=" in message and "'D6': 'warn'" in message
    assert (
        "decision=editorial_decision=major_revision, recomputed=editorial_decision=minor_revision"
        in message
    )


def test_the_da_gate() -> None:
    assert messages(TEXT, Recomputed(RIGHT.fired, RIGHT.action, VERDICTS, ("C1",))) == [
        "[DA-CRITICAL-ADJUDICATION-MISMATCH: report=['C1'], synthesis=['C1', 'C2']]"
    ]
    assert messages(
        TEXT.replace(
            "C2 rejection rationale: Table 4 reports attrition by arm and it does not differ.\n", ""
        )
    ) == ["[DA-CRITICAL-RATIONALE-MISSING: C2]"]
    marker = TEXT + "[DA-CRITICAL-VS-ACCEPT: 1 validated/unresolved]\n"
    assert messages(marker) == ["[DA-CRITICAL-VS-ACCEPT-MARKER: marker forbidden in this state]"]


def test_accepting_over_a_validated_critical_needs_the_marker() -> None:
    accepted = Recomputed((), "editorial_decision=accept", VERDICTS, ("C1", "C2"))
    text = TEXT.replace("[F2, F3, F4]", "[]").replace(
        "editorial_decision=major_revision", "editorial_decision=accept"
    )
    assert messages(text, accepted) == ["[DA-CRITICAL-VS-ACCEPT-MARKER: expected=1, stated=None]"]
    assert messages(text + "[DA-CRITICAL-VS-ACCEPT: 01 validated/unresolved]\n", accepted) == []
    assert messages(text + "[DA-CRITICAL-VS-ACCEPT: 2 validated/unresolved]\n", accepted) == [
        "[DA-CRITICAL-VS-ACCEPT-MARKER: expected=1, stated=2]"
    ]


def test_the_report_as_a_dict() -> None:
    report = check_synthesis_v2(SCOPE, RIGHT, TEXT).to_dict()
    assert report["verdicts"] == VERDICTS
    assert report["adjudications"] == {"C1": "VALIDATED", "C2": "REJECTED"}
    failed = check_synthesis_v2(SCOPE, RIGHT, "no synthesis here").to_dict()
    assert failed["verdicts"] is None and failed["adjudications"] is None and not failed["ok"]


def test_a_second_or_missing_decision_is_placed_at_the_first() -> None:
    twice = TEXT + "\neditorial_decision=accept\n"
    [finding] = check_synthesis_v2(SCOPE, RIGHT, twice).findings
    assert (finding.message, finding.line) == (
        "[SYNTHESIS-PARSE: synthesis: expected exactly one valid decision] write one line "
        "'editorial_decision=<action>', the action one of accept, major_revision, "
        "minor_revision, reject",
        12,
    )
    [missing] = check_synthesis_v2(
        SCOPE, RIGHT, TEXT.replace("editorial_decision=major_revision", "")
    ).findings
    assert missing.line is None


def test_the_accept_marker_counts_validated_and_unresolved_only() -> None:
    accepted = Recomputed((), "editorial_decision=accept", VERDICTS, ("C1", "C2"))
    text = (
        TEXT.replace("[F2, F3, F4]", "[]")
        .replace("editorial_decision=major_revision", "editorial_decision=accept")
        .replace("C2=REJECTED", "C2=UNRESOLVED")
    )
    assert messages(text, accepted) == ["[DA-CRITICAL-VS-ACCEPT-MARKER: expected=2, stated=None]"]


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("[F2, F3, F4]", "[F2, F2]", 7),
        ("D6=block]", "D6=maybe]", 8),
        ("C2=REJECTED", "C2=LATER", 9),
    ],
)
def test_a_bad_list_is_placed_at_its_line(old: str, new: str, line: int) -> None:
    [finding] = check_synthesis_v2(SCOPE, RIGHT, TEXT.replace(old, new)).findings
    assert finding.code == "SY-101" and finding.line == line


# --- one door: kernel.check_synthesis reads both dialects ---------------------------------


def _decided() -> tuple[Any, Any]:
    from kernel import load_contract
    from kernel.reviewer.review import decide_documents

    contract = load_contract(str(EXAMPLE / "contract.json"))
    roles = ("eic", "methodology", "domain", "perspective", "da")
    reports = [
        (
            role,
            (EXAMPLE / f"{role}.phase2.md").read_text("utf-8"),
            (EXAMPLE / f"{role}.phase1.md").read_text("utf-8"),
        )
        for role in roles
    ]
    outcome = decide_documents(contract, reports)
    return contract, outcome


def test_check_synthesis_is_one_door_for_13_2() -> None:
    from kernel import check_synthesis
    from kernel.reviewer.synthesis_v2 import SynthesisV2

    contract, outcome = _decided()
    decision = outcome.decision
    da = (EXAMPLE / "da.phase2.md").read_text("utf-8")
    report = check_synthesis(contract, decision, TEXT, da_report=da)
    assert isinstance(report, SynthesisV2) and report.ok
    assert report.fired == ("F2", "F3", "F4") and report.adjudications is not None
    # the same answer as the round's own check (decide_documents(synthesis=...))
    assert report == check_synthesis_v2(SCOPE, outcome.recomputed, TEXT)
    wrong = check_synthesis(
        contract,
        decision,
        TEXT.replace("editorial_decision=major_revision", "editorial_decision=accept"),
        da_report=da,
    )
    assert not wrong.ok
    assert [f.code for f in wrong.findings][:1] == ["SY-102"]


def test_a_13_2_synthesis_needs_the_da_report_when_the_mode_seats_a_da() -> None:
    from kernel import check_synthesis
    from kernel.errors import KernelError

    contract, outcome = _decided()
    decision = outcome.decision
    with pytest.raises(KernelError, match="da_report"):
        check_synthesis(contract, decision, TEXT)
    with pytest.raises(KernelError, match="do not parse"):
        check_synthesis(contract, decision, TEXT, da_report="# not a DA report\n")


def test_the_13_door_refuses_a_da_report() -> None:
    from kernel import check_synthesis, decide, load_contract
    from kernel.errors import KernelError
    from kernel.reviewer.synthesis import SynthesisReport

    contract = load_contract("reviewer/full")
    decision = decide(contract, {d: ["pass"] * 5 for d in contract.dimension_ids})
    text = "fired_conditions: [F0]\neditorial_decision=accept\n"
    report = check_synthesis(contract, decision, text)
    assert isinstance(report, SynthesisReport) and report.ok
    with pytest.raises(KernelError, match="da_report"):
        check_synthesis(contract, decision, text, da_report="x")
