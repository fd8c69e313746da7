"""R17 check_synthesis: a written synthesis agrees with the decision exactly when it names the
fired set and the action; every disagreement is a finding that names what differs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel import SynthesisReport, check_synthesis
from kernel.contract.model import Contract, load_contract
from kernel.decision.decision import decide
from kernel.decision.value import Decision
from kernel.diagnostics import REGISTRY
from kernel.errors import KernelError
from kernel.reviewer.synthesis_v2 import SynthesisV2
from kernel.testing import contracts, matrices

FULL = load_contract("reviewer/full")
MAJOR = decide(
    FULL,
    {
        "D1": ["warn", "warn", "warn", "pass", "pass"],
        "D2": ["warn", "warn", "warn", "pass", "pass"],
        "D3": ["pass"] * 5,
        "D4": ["block", "pass", "pass", "pass", "pass"],
        "D5": ["pass"] * 5,
    },
)  # F2 and F3 fire; F2 decides: major_revision


def _synthesis(fired: list[str], action: str, prose: str = "") -> str:
    return (
        "# Editorial synthesis\n\n"
        f"{prose}"
        f"fired_conditions: [{', '.join(fired)}]\n\n"
        f"The panel's decision:\n\n{action}\n"
    )


def _codes(report: SynthesisReport | SynthesisV2) -> list[str]:
    return [f.code for f in report.findings]


def test_a_faithful_synthesis_is_ok() -> None:
    report = check_synthesis(FULL, MAJOR, _synthesis(["F2", "F3"], MAJOR.action))
    assert report.ok and report.findings == ()
    assert report.fired == ("F2", "F3")
    assert report.action == "editorial_decision=major_revision"
    assert report.to_dict() == {
        "ok": True,
        "fired": ["F2", "F3"],
        "action": "editorial_decision=major_revision",
        "findings": [],
    }


def test_order_and_spacing_of_the_list_do_not_matter() -> None:
    text = "fired_conditions:[ F3 ,F2 ]\n- editorial_decision=major_revision\n"
    assert check_synthesis("reviewer/full", MAJOR, text).ok


@settings(max_examples=40)
@given(st.data(), contracts(max_dimensions=3, max_conditions=4, panel_sizes=st.integers(1, 5)))
def test_written_from_the_decision_is_ok_and_any_change_is_named(
    data: st.DataObject, document: dict[str, object]
) -> None:
    contract = load_contract(document)
    decision = decide(contract, data.draw(matrices(contract)))
    computed = [cid for cid, flag in decision.fired.items() if flag]
    assert check_synthesis(contract, decision, _synthesis(computed, decision.action)).ok

    ids = [c.condition_id for c in contract.conditions]
    toggled = data.draw(st.sampled_from(ids))
    written = [c for c in computed if c != toggled] + ([] if toggled in computed else [toggled])
    report = check_synthesis(contract, decision, _synthesis(written, decision.action))
    assert not report.ok and len(report.findings) == 1
    (finding,) = report.findings
    assert finding.code == ("SY-006" if toggled in computed else "SY-007")
    assert toggled in finding.message and finding.line == 3

    actions = sorted({c.action for c in contract.conditions} | {"editorial_decision=reject"})
    other = data.draw(st.sampled_from([a for a in actions if a != decision.action]))
    report = check_synthesis(contract, decision, _synthesis(computed, other))
    assert _codes(report) == ["SY-010"]
    assert f"written {other}, computed {decision.action}" in report.findings[0].message


def test_missing_lines() -> None:
    report = check_synthesis(FULL, MAJOR, "# Synthesis\n\nThe panel asks for a major revision.\n")
    assert _codes(report) == ["SY-001", "SY-008"]
    assert report.fired is None and report.action is None


def test_repeated_lines() -> None:
    text = _synthesis(["F2", "F3"], MAJOR.action) + "\nfired_conditions: [F2]\n"
    text += "In short: editorial_decision=major_revision.\n"
    report = check_synthesis(FULL, MAJOR, text)
    assert _codes(report) == ["SY-002", "SY-009"]
    assert "lines 3, 9" in report.findings[0].message


def test_two_decision_tokens_on_one_line() -> None:
    text = (
        "fired_conditions: [F2, F3]\n"
        "editorial_decision=major_revision or editorial_decision=reject\n"
    )
    assert _codes(check_synthesis(FULL, MAJOR, text)) == ["SY-009"]


@pytest.mark.parametrize(
    ("written", "codes", "named"),
    [
        ("[F2, F3, F9]", ["SY-004"], "F9"),
        ("[F2, F3, F3]", ["SY-005"], "F3"),
        ("[F2, F3, D1]", ["SY-003"], "'D1'"),
        ("[F2, F3, F01]", ["SY-003"], "'F01'"),
        ("[F2, , F3]", ["SY-003"], "''"),
        ("[F2]", ["SY-006"], "F3"),
        ("[F2, F3, F1]", ["SY-007"], "F1"),
        ("[F9]", ["SY-004", "SY-006"], "F9"),
        ("F2, F3", ["SY-003"], "fired_conditions: F2, F3"),
        ('["F2", "F3"]', ["SY-003", "SY-003", "SY-006"], "'\"F2\"'"),
    ],
)
def test_list_findings(written: str, codes: list[str], named: str) -> None:
    text = f"fired_conditions: {written}\neditorial_decision=major_revision\n"
    report = check_synthesis(FULL, MAJOR, text)
    assert _codes(report) == codes
    assert named in report.findings[0].message
    assert all(f.line == 1 for f in report.findings)


def test_lines_inside_code_do_not_count() -> None:
    fenced = "```\nfired_conditions: [F1]\neditorial_decision=reject\n```\n"
    indented = "\n    fired_conditions: [F1]\n    editorial_decision=reject\n\n"
    for code in (fenced, indented):
        assert check_synthesis(FULL, MAJOR, code + _synthesis(["F2", "F3"], MAJOR.action)).ok
        assert _codes(check_synthesis(FULL, MAJOR, code)) == ["SY-001", "SY-008"]


def test_quoted_or_commented_lines_count() -> None:
    quoted = "> fired_conditions: [F1]\n\n" + _synthesis(["F2", "F3"], MAJOR.action)
    assert _codes(check_synthesis(FULL, MAJOR, quoted)) == ["SY-002"]
    comment = "<!--\neditorial_decision=accept\n-->\n\n" + _synthesis(["F2", "F3"], MAJOR.action)
    assert _codes(check_synthesis(FULL, MAJOR, comment)) == ["SY-009"]


def test_line_endings_and_bom() -> None:
    text = "\ufeff" + _synthesis(["F2", "F3"], MAJOR.action).replace("\n", "\r\n")
    assert check_synthesis(FULL, MAJOR, text).ok
    wrong = _synthesis(["F2"], MAJOR.action).replace("\n", "\r")
    assert [f.line for f in check_synthesis(FULL, MAJOR, wrong).findings] == [3]


def test_fallback_decision_has_an_empty_fired_set() -> None:
    fallback = decide(
        FULL,
        dict.fromkeys(FULL.dimension_ids, ["pass"] * 4 + ["warn"])
        | {"D1": ["warn", "pass", "pass", "pass", "pass"]},
    )
    assert fallback.fallback
    assert check_synthesis(FULL, fallback, "fired_conditions: []\neditorial_decision=accept\n").ok
    report = check_synthesis(FULL, fallback, "fired_conditions: [F0]\neditorial_decision=accept\n")
    assert _codes(report) == ["SY-007"]


def test_bad_arguments_raise() -> None:
    other: Contract = load_contract("reviewer/methodology_focus")
    other_decision = decide(other, {key: ["pass", "pass"] for key in other.dimension_ids})
    with pytest.raises(KernelError, match="must be a Decision of reviewer/reviewer_full/v1"):
        check_synthesis(FULL, other_decision, "")
    with pytest.raises(KernelError):
        check_synthesis(FULL, MAJOR, b"fired_conditions: []")  # type: ignore[arg-type]
    with pytest.raises(KernelError):
        check_synthesis(FULL, "major", "")  # type: ignore[arg-type]


def test_codes_are_registered() -> None:
    fired = {
        f.code
        for text in (
            "",
            "fired_conditions: []\nfired_conditions: []\n",
            "fired_conditions: [x, F9, F2, F2]\neditorial_decision=a editorial_decision=b\n",
            "fired_conditions: [F1]\neditorial_decision=accept\n",
        )
        for f in check_synthesis(FULL, MAJOR, text).findings
    }
    registered = {c for c in REGISTRY if c.startswith("SY-0")}  # SY-1xx: the 13.2 check
    assert fired == registered
    assert all(REGISTRY[c].severity == "error" and REGISTRY[c].rule == "R17" for c in registered)
    assert isinstance(MAJOR, Decision)


def test_a_second_decision_token_is_reported_at_its_line() -> None:
    text = (
        "fired_conditions: [F2, F3]\neditorial_decision=major_revision\n\n"
        "ok\neditorial_decision=reject\n"
    )
    (finding,) = check_synthesis(FULL, MAJOR, text).findings
    assert finding.code == "SY-009" and finding.line == 5
