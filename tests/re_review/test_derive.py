"""Steps 2-3 of the re-review decision (design/re-review.md sec. 5.3-5.4) on the design's
worked examples (sec. 7, 1-9), and ``Operands.from_decision_inputs``."""

from __future__ import annotations

import pytest

from kernel.re_review.decision import EscalationOperand, Operands, P1Operand, derive
from kernel.re_review.model import ReReviewError

FULLY, PARTIAL, NOT, WORSE, CV = (
    "FULLY_ADDRESSED",
    "PARTIALLY_ADDRESSED",
    "NOT_ADDRESSED",
    "MADE_WORSE",
    "CANNOT_VERIFY",
)


def p1(*specs: tuple[str, str | None] | tuple[str, str | None, str]) -> list[P1Operand]:
    return [P1Operand(*spec, item_id=f"REV-{n}") for n, spec in enumerate(specs, 1)]


def outcome(ops: Operands) -> tuple[str, str | None, bool | None]:
    d = derive(ops)
    return d.decision_state, d.base_rule, d.reject_recommended


def test_example_1_p2_two_of_three_is_minor() -> None:
    ops = Operands(p1((FULLY, "major"), (FULLY, "major")), (), False, (2, 3))
    assert outcome(ops) == ("Minor Revision", "B5", False)


@pytest.mark.parametrize(
    ("rate", "expected"),
    [
        ((3, 4), ("Minor Revision", "B5", False)),
        ((4, 5), ("Accept", "B6", False)),
        ((0, 0), ("Accept", "B6", False)),
    ],
)
def test_example_2_the_80_percent_line(
    rate: tuple[int, int], expected: tuple[str, str, bool]
) -> None:
    assert outcome(Operands([], (), False, rate)) == expected


def test_example_3_half_the_p1_items_failing_recommends_reject() -> None:
    assert outcome(Operands(p1((NOT, "major"), (FULLY, "minor")))) == ("Major Revision", "B2", True)
    three = Operands(p1((NOT, "major"), (FULLY, "minor"), (FULLY, "minor")))
    assert outcome(three) == ("Major Revision", "B3", False)


def test_example_4_cannot_verify_counts_in_b2s_denominator_only() -> None:
    assert outcome(Operands(p1((CV, None), (FULLY, None), (FULLY, None)))) == (
        "Major Revision",
        "B3",
        False,
    )
    # one CANNOT_VERIFY of one: B2's numerator is 0, so B3
    assert outcome(Operands(p1((CV, "critical")))) == ("Major Revision", "B3", False)


def test_example_5_made_worse_and_critical() -> None:
    ops = Operands(p1((WORSE, "critical"), (FULLY, "major"), (FULLY, "major")))
    assert outcome(ops) == ("Major Revision", "B1", True)
    assert derive(ops).reasons[0][2] == ("REV-1",)
    null = Operands(p1((WORSE, None), (FULLY, "major"), (FULLY, "major")))
    assert outcome(null) == ("Major Revision", "B3", False)


def test_example_6_regressions_without_p1_items() -> None:
    ops = Operands([], (), False, (0, 0), ("critical",), regression_ids=("NEW-1",))
    assert outcome(ops) == ("Major Revision", "B1", True)
    assert derive(ops).reasons[0][2] == ("NEW-1",)
    assert outcome(Operands([])) == ("Accept", "B6", False)


def test_example_7_only_regressions_reach_the_decision() -> None:
    assert outcome(Operands([], (), False, (0, 0), ())) == ("Accept", "B6", False)
    assert outcome(Operands([], (), False, (0, 0), ("major",))) == ("Major Revision", "B3", False)
    assert outcome(Operands([], (), False, (0, 0), ("minor",))) == ("Minor Revision", "B5", False)


def test_example_8_p2_partial_with_a_must_fix_gap_is_major() -> None:
    ops = Operands(p1((FULLY, "major")), ("must_fix",), False, (0, 1), p2_partial_ids=("REV-9",))
    d = derive(ops)
    assert (d.decision_state, d.base_rule) == ("Major Revision", "B4")
    assert d.reasons[0][2] == ("REV-9",)


def test_p1_partial_magnitudes() -> None:
    assert outcome(Operands(p1((PARTIAL, "major", "must_fix")))) == ("Major Revision", "B4", False)
    for magnitude in ("should_fix", "consider"):
        assert outcome(Operands(p1((PARTIAL, "major", magnitude)))) == (
            "Minor Revision",
            "B5",
            False,
        )


def test_p2_made_worse_is_minor() -> None:
    assert outcome(Operands([], (), True, (4, 5))) == ("Minor Revision", "B5", False)


def test_example_9_floors_and_the_flag() -> None:
    integrity = EscalationOperand("approved", "research_integrity", "Minor Revision", "ESC-1")
    d = derive(Operands([], (), False, (0, 0), (), (integrity,)))
    assert (d.decision_state, d.base_rule, d.reject_recommended) == ("Minor Revision", "B6", True)
    assert d.floors == ("ESC-1",)
    assert "ESC-1" in d.explain() and "research_integrity" in d.explain()
    rejected = EscalationOperand("rejected", "fatal_validity", "Major Revision", "ESC-2")
    d = derive(Operands([], (), False, (0, 0), ("minor",), (rejected,)))
    assert (d.decision_state, d.base_rule, d.reject_recommended, d.floors) == (
        "Minor Revision",
        "B5",
        False,
        (),
    )


def test_a_floor_never_lowers_the_decision() -> None:
    floor = EscalationOperand("approved", "safety", "Minor Revision", "ESC-1")
    d = derive(Operands(p1((NOT, "major")), (), False, (0, 0), (), (floor,)))
    assert (d.decision_state, d.base_rule) == ("Major Revision", "B2")
    assert "changes nothing" in d.explain()


def test_a_partial_operand_without_a_magnitude_is_refused() -> None:
    with pytest.raises(ReReviewError, match="without a residual magnitude"):
        derive(Operands(p1((PARTIAL, "major"))))
    with pytest.raises(ReReviewError, match="no residual magnitude"):
        derive(Operands([], (None,), False, (0, 1)))


def test_operands_refuse_values_outside_the_vocabulary() -> None:
    with pytest.raises(ReReviewError, match="final_verdict"):
        P1Operand("DONE", None)
    with pytest.raises(ReReviewError, match="driving_severity"):
        P1Operand(FULLY, "blocker")
    with pytest.raises(ReReviewError, match="mechanical_decision_impact"):
        EscalationOperand("approved", "ethics", "Accept")


def test_explain_names_the_rule_its_items_the_flag_and_the_state() -> None:
    d = derive(Operands(p1((NOT, "major"), (FULLY, "minor"))))
    lines = d.explain().splitlines()
    assert lines[0].startswith("gates: none")
    assert lines[1].startswith("B2: 1 of 2 P1 items") and lines[1].endswith("[REV-1]")
    assert lines[2] == "flag: reject_recommended true (base rule B2)"
    assert lines[-1] == "decision: Major Revision (base B2)"


def _inputs(**overrides: object) -> dict[str, object]:
    zero = dict.fromkeys((FULLY, PARTIAL, NOT, WORSE, CV), 0)
    mags = dict.fromkeys(("must_fix", "should_fix", "consider"), 0)
    inputs: dict[str, object] = {
        "per_item": [
            {
                "item_id": "REV-1",
                "final_verdict": PARTIAL,
                "driving_severity": "major",
                "residual_magnitude": "should_fix",
            }
        ],
        "verdict_counts": {
            "must_fix": {**zero, PARTIAL: 1},
            "should_fix": {**zero, WORSE: 1},
            "consider": zero,
        },
        "residual_magnitude_counts": {
            "must_fix": {**mags, "should_fix": 1},
            "should_fix": mags,
            "consider": mags,
        },
        "p2_addressed_rate": {"numerator": 0, "denominator": 1},
        "regressions": [{"new_issue_id": "NEW-1", "severity": "minor"}],
        "non_regression_new_issue_ids": [],
        "escalations": [
            {
                "exception_id": "ESC-1",
                "effective_approval_state": "approved",
                "escalation_class": "ethics",
                "mechanical_decision_impact": "Major Revision",
            }
        ],
        "apply_chain_witness": "pass",
    }
    inputs.update(overrides)
    return inputs


def test_operands_from_decision_inputs() -> None:
    ops = Operands.from_decision_inputs(_inputs())
    assert ops.p1 == (P1Operand(PARTIAL, "major", "should_fix", item_id="REV-1"),)
    assert ops.p2_made_worse and ops.p2_addressed == (0, 1)
    assert ops.regression_severities == ("minor",)
    d = derive(ops)
    assert (d.decision_state, d.base_rule, d.floors) == ("Major Revision", "B5", ("ESC-1",))


@pytest.mark.parametrize(
    "broken",
    [
        {"per_item": [{"final_verdict": "DONE", "driving_severity": None}]},
        {"p2_addressed_rate": {"numerator": True, "denominator": 1}},
        {"regressions": [{"new_issue_id": "NEW-1"}]},
        {"escalations": "none"},
        {"verdict_counts": {}},
    ],
)
def test_malformed_decision_inputs_are_a_kernel_error(broken: dict[str, object]) -> None:
    with pytest.raises(ReReviewError, match=r"decision_inputs|not one of|whole number"):
        Operands.from_decision_inputs(_inputs(**broken))


def test_operands_without_ids_are_named_by_their_position() -> None:
    same = P1Operand(NOT, "major")
    d = derive(Operands([P1Operand(FULLY, "major"), same, same]))
    assert d.reasons[0][:1] == ("B2",) and d.reasons[0][2] == ("P1#2", "P1#3")
    with pytest.raises(ReReviewError, match="P1#1 is PARTIALLY_ADDRESSED"):
        derive(Operands([P1Operand(PARTIAL, "minor")]))
