"""Round decisions: quorum, consensus, the stop rules in order, the disagreement summary."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.consensus import (
    CritiqueResponse,
    RoundConfig,
    RoundError,
    RoundInput,
    disagreement,
    evaluate_round,
    round_from_mapping,
)
from kernel.consensus.responses import schema_errors
from kernel.errors import KernelError

YES = CritiqueResponse(approve=True, critical=False)
NO = CritiqueResponse(approve=False, critical=False, objections=("vague",), edits=("fix",))
NO_EDITS = CritiqueResponse(approve=False, critical=False, objections=("vague",))
SILENT = CritiqueResponse(approve=False, critical=False)  # proposes no change at all


def make(
    critiques: list[CritiqueResponse],
    *,
    participants: int = 3,
    round_index: int = 2,
    previous: str | None = None,
    candidate: str | None = None,
    **config: Any,
) -> RoundInput:
    return RoundInput(
        RoundConfig(participants, **config),
        round_index,
        tuple(critiques),
        candidate=candidate,
        previous_candidate=previous,
    )


def test_defaults() -> None:
    config = RoundConfig(3)
    assert config.max_rounds == 3
    assert config.approval_ratio == Fraction(2, 3)
    assert config.quorum_ratio == Fraction(2, 3)
    assert config.change_threshold == Fraction(1, 10)


def test_consensus_ends_the_run() -> None:
    decision = evaluate_round(make([YES, YES, NO]))
    assert decision.outcome == "consensus"
    assert decision.consensus and decision.stop
    assert decision.disagreement is None
    assert decision.reasons == ("consensus: 2 of 3 approved, 2 required, no critique critical",)


def test_decimal_ratio_needs_one_more_approval() -> None:
    decision = evaluate_round(make([YES, YES, NO], approval_ratio="0.67"))
    assert decision.outcome == "continue"
    assert decision.approvals_required == 3


def test_critical_blocks_consensus() -> None:
    veto = CritiqueResponse(approve=True, critical=True, objections=("wrong dose",), edits=("x",))
    decision = evaluate_round(make([YES, YES, veto]))
    assert not decision.consensus
    assert decision.critical == 1
    assert decision.reasons[0] == "no consensus: 1 critique(s) marked critical"


def test_below_quorum() -> None:
    decision = evaluate_round(make([YES], participants=3))
    assert decision.outcome == "no_quorum"
    assert decision.stop and not decision.consensus
    assert decision.checks == ()
    assert decision.reasons == ("quorum not met: 1 of 3 responded, 2 required",)
    assert decision.to_dict()["quorum"] == {"required": 2, "met": False}


def test_stop_rules_are_checked_in_order() -> None:
    # All three fire: max_rounds wins.
    every = make([SILENT, SILENT], round_index=3, previous="a b c", candidate="a b c")
    decision = evaluate_round(every)
    assert decision.outcome == "stop"
    assert decision.stop_reason == "max_rounds"
    assert [c.triggered for c in decision.checks] == [True, True, True]
    # Not the last round: the small change wins over no proposed change.
    second = make([SILENT, SILENT], round_index=2, previous="a b c", candidate="a b c")
    assert evaluate_round(second).stop_reason == "change_below_threshold"
    # Big change, nobody proposes a change.
    third = make([SILENT, SILENT], previous="a b c", candidate="x y z")
    assert evaluate_round(third).stop_reason == "no_edits"
    assert evaluate_round(third).checks[2].detail.startswith("no critique proposed a change")
    # Someone proposes edits, the candidate moved a lot, rounds remain.
    assert evaluate_round(make([NO, SILENT], previous="a", candidate="b")).outcome == "continue"


_ITEMS = st.lists(st.sampled_from(["x", "cite a source"]), max_size=2).map(tuple)


@given(
    st.lists(
        st.builds(CritiqueResponse, st.just(False), st.just(False), _ITEMS, _ITEMS, _ITEMS),
        min_size=2,
        max_size=3,
    )
)
@example([NO_EDITS, SILENT])  # an objection without an edit is still a proposed change
@example([CritiqueResponse(False, False, missing=("population",)), SILENT])
@example([SILENT, SILENT])
def test_early_stop_when_no_critique_proposes_a_change(critiques: list[CritiqueResponse]) -> None:
    decision = evaluate_round(make(critiques, previous="a b c", candidate="x y z"))
    quiet = all(not (c.objections or c.missing or c.edits) for c in critiques)
    assert decision.checks[2].rule == "no_edits"
    assert decision.checks[2].triggered is quiet
    assert decision.outcome == ("stop" if quiet else "continue")


def test_change_threshold_is_strict_and_exact() -> None:
    ten = " ".join(f"w{i}" for i in range(10))
    one_changed = ten.replace("w3", "changed")
    at = make([NO, NO], previous=ten, candidate=one_changed)  # change 1/10, threshold 1/10
    assert evaluate_round(at).outcome == "continue"
    assert evaluate_round(at).change == Fraction(1, 10)
    above = make([NO, NO], previous=ten, candidate=one_changed, change_threshold="0.1000001")
    assert evaluate_round(above).stop_reason == "change_below_threshold"
    zero = make([NO, NO], previous=ten, candidate=ten, change_threshold=0)
    assert evaluate_round(zero).outcome == "continue"


def test_no_previous_candidate_means_no_change_check() -> None:
    decision = evaluate_round(make([NO, NO], candidate="x"))
    assert decision.change is None
    assert decision.checks[1].triggered is False
    assert decision.checks[1].detail == "no previous candidate to compare"


def test_disagreement_summary() -> None:
    critiques = [
        CritiqueResponse(False, False, objections=("B", "A", "A"), missing=("m1",)),
        CritiqueResponse(False, False, objections=("c", " a "), missing=("M1", "m2")),
        CritiqueResponse(True, False, objections=("C", "d", "b", "  "), missing=("", "m3")),
    ]
    summary = disagreement(critiques, "why")
    # A: 2 critiques (repeat within one critique counts once), B: 2, c: 2, d: 1. Ties keep the
    # order of first appearance: B, A, c.
    assert summary.objections == (("B", 2), ("A", 2), ("c", 2))
    assert summary.missing == ("m1", "m2", "m3")
    assert summary.reason == "why"


@given(
    st.lists(
        st.builds(
            CritiqueResponse,
            st.booleans(),
            st.booleans(),
            st.lists(st.sampled_from(["a", "b", "c", "d", "A"]), max_size=4),
        ),
        max_size=8,
    )
)
def test_disagreement_counts_and_order(critiques: list[CritiqueResponse]) -> None:
    summary = disagreement(critiques, "r")
    counts: dict[str, int] = {}
    for c in critiques:
        for key in {o.casefold() for o in c.objections}:
            counts[key] = counts.get(key, 0) + 1
    assert len(summary.objections) == min(3, len(counts))
    shown = [count for _, count in summary.objections]
    assert shown == sorted(shown, reverse=True)
    assert all(counts[text.casefold()] == count for text, count in summary.objections)
    if summary.objections:
        assert summary.objections[0][1] == max(counts.values())


DOC: dict[str, Any] = {
    "participants": 3,
    "round": 2,
    "max_rounds": 3,
    "approval_ratio": 0.67,
    "candidate": "Paris is the capital of France.",
    "previous_candidate": "Paris is the capital.",
    "critiques": [
        {"approve": True, "critical": False},
        {"approve": True, "critical": False, "objections": ["cite"], "edits": ["add source"]},
        {"approve": False, "critical": False, "objections": ["Cite"], "missing": ["population"]},
    ],
}


def test_round_document() -> None:
    decision = evaluate_round(round_from_mapping(DOC))
    data = decision.to_dict()
    assert data["outcome"] == "continue"
    assert data["approvals_required"] == 3
    assert data["config"]["approval_ratio"] == "67/100"
    assert data["change"] == {"ratio": "1/2", "value": 0.5}
    assert data["disagreement"]["objections"] == [{"text": "cite", "count": 2}]
    assert data["disagreement"]["missing"] == ["population"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"participants": 1}, "participants must be at least 2"),
        ({"participants": 3.0}, "$.participants: 3.0 is not of type 'integer'"),
        ({"round": True}, "$.round: True is not of type 'integer'"),
        ({"round": 4}, "round 4 is past max_rounds 3"),
        ({"round": 0}, "round must be an int >= 1"),
        ({"max_rounds": 0}, "max_rounds must be an int >= 1"),
        ({"approval_ratio": "NaN"}, "approval_ratio"),
        ({"quorum_ratio": 0}, "quorum_ratio: 0 is outside (0, 1]"),
        ({"change_threshold": 1.5}, "change_threshold: 3/2 is outside [0, 1]"),
        ({"extra": 1}, "Additional properties are not allowed"),
        ({"critiques": [{"approve": 1, "critical": False}]}, "$.critiques[0].approve"),
        ({"critiques": [{"approve": True, "critical": False}] * 4}, "4 critiques from only 3"),
        ({"candidate": 5}, "$.candidate: 5 is not of type"),
    ],
)
def test_invalid_round_documents(change: dict[str, Any], message: str) -> None:
    with pytest.raises(RoundError) as info:
        round_from_mapping({**DOC, **change})
    assert any(message in error for error in info.value.errors), info.value.errors


@pytest.mark.parametrize("document", [[], "x", None, {"round": 1}])
def test_round_document_must_be_an_object_with_the_required_fields(document: Any) -> None:
    with pytest.raises(KernelError):
        round_from_mapping(document)


def test_round_input_accepts_parsed_critique_values() -> None:
    parsed = [{"approve": True, "critical": False}, {"approve": True, "critical": False}]
    decision = evaluate_round(RoundInput(RoundConfig(3), 2, parsed))
    assert decision.outcome == "consensus"
    with pytest.raises(KernelError, match=r"critiques\[0\]"):
        RoundInput(RoundConfig(3), 2, [{"approve": True}])
    with pytest.raises(KernelError, match="4 critiques from only 3"):
        RoundInput(RoundConfig(3), 2, parsed * 2)


def test_decimal_and_rational_defaults_differ_on_the_documented_example() -> None:
    document = {**DOC, "approval_ratio": "2/3"}
    assert evaluate_round(round_from_mapping(document)).outcome == "consensus"
    assert evaluate_round(round_from_mapping(DOC)).outcome == "continue"


@pytest.mark.parametrize(("round_index", "outcome"), [(3, "stop"), (2, "continue")])
def test_enough_approvals_with_a_critical_critique_is_no_consensus(
    round_index: int, outcome: str
) -> None:
    # Two of three approve (exactly the two needed), but one approval is critical.
    veto = CritiqueResponse(approve=True, critical=True, objections=("wrong dose",), edits=("x",))
    decision = evaluate_round(make([YES, veto, NO], round_index=round_index))
    assert (decision.approvals, decision.approvals_required) == (2, 2)
    assert decision.outcome == outcome
    failed = "no consensus: 1 critique(s) marked critical"
    if outcome == "stop":
        assert decision.stop_reason == "max_rounds"
        assert decision.reasons == (failed, "stop (max_rounds): round 3 of 3 is the last")
    else:
        assert decision.stop_reason is None
        assert decision.reasons == (failed, "continue: no stop rule fired")


@pytest.mark.parametrize("name", ["round", "participants", "max_rounds"])
@pytest.mark.parametrize("value", [2.0, 3.0, True])
def test_a_float_or_boolean_count_is_refused(name: str, value: object) -> None:
    with pytest.raises(RoundError) as info:
        round_from_mapping({**DOC, name: value})
    assert info.value.errors == [f"$.{name}: {value!r} is not of type 'integer'"]


@pytest.mark.parametrize("value", [2.0, 1.5, True])
def test_a_round_input_refuses_a_round_that_is_not_an_int(value: Any) -> None:
    with pytest.raises(KernelError, match=rf"^round must be an int >= 1, got {value!r}$"):
        RoundInput(RoundConfig(3), value, ())


def test_long_error_messages_are_clipped_to_200_characters() -> None:
    long = "x" * 500
    with pytest.raises(RoundError) as info:
        round_from_mapping({**DOC, "candidate": [long]})
    (error,) = info.value.errors
    where, _, message = error.partition(": ")
    assert where == "$.candidate"
    assert len(message) == 200 and message.startswith("['xxx") and message.endswith("x…")
    # A message of 200 characters is left whole, one of 201 is clipped.
    for size, clipped in ((164, False), (165, True)):
        with pytest.raises(RoundError) as info:
            round_from_mapping({**DOC, "candidate": ["x" * size]})
        message = info.value.errors[0].partition(": ")[2]
        assert len(message) == 200 and message.endswith("…") == clipped, (size, message)
    errors = schema_errors({"approve": long, "critical": False}, "critique")
    assert [len(e.partition(": ")[2]) for e in errors] == [200]
    assert errors[0].startswith("$.approve: 'xxx") and errors[0].endswith("…")
