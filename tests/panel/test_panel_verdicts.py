"""Verdict resolution (every multiset up to 7) and escalation that never downgrades."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.errors import KernelError
from kernel.panel import OUTCOMES, SEVERITIES, VERDICTS, escalate, resolve_verdict

ORDER = {"Approve": 0, "Revise": 1, "Reject": 2}


def ref_verdict(cast: Sequence[str]) -> str:
    """Unanimity, then more than half, then the most conservative (restated)."""
    if len(set(cast)) == 1:
        return cast[0]
    for v in VERDICTS:
        if 2 * cast.count(v) > len(cast):
            return v
    return sorted(cast, key=ORDER.__getitem__)[-1]


def test_every_multiset_up_to_7() -> None:
    for size in range(1, 8):
        for combo in itertools.combinations_with_replacement(VERDICTS, size):
            for order in {combo, combo[::-1]}:
                assert resolve_verdict(order) == ref_verdict(combo), combo


@pytest.mark.parametrize(
    ("cast", "verdict"),
    [
        (["Approve"], "Approve"),
        (["Approve", "Approve", "Reject"], "Approve"),
        (["Approve", "Reject"], "Reject"),
        (["Approve", "Revise"], "Revise"),
        (["Approve", "Approve", "Revise", "Revise"], "Revise"),
        (["Approve", "Approve", "Revise", "Reject"], "Reject"),
        (["Approve", "Approve", "Approve", "Revise", "Reject"], "Approve"),
    ],
)
def test_examples(cast: list[str], verdict: str) -> None:
    assert resolve_verdict(cast) == verdict


@pytest.mark.parametrize("bad", [[], ["approve"], [None], "Approve", 7])
def test_bad_verdicts_are_refused(bad: object) -> None:
    with pytest.raises(KernelError):
        resolve_verdict(bad)  # type: ignore[arg-type]


findings = st.lists(st.tuples(st.sampled_from(SEVERITIES), st.sampled_from(OUTCOMES)), max_size=12)


@given(st.sampled_from(VERDICTS), findings)
def test_escalation_never_lowers(verdict: str, found: list[tuple[str, str]]) -> None:
    result = escalate(verdict, found)
    assert ORDER[result.verdict] >= ORDER[verdict]
    assert result.before == verdict
    assert (result.verdict != verdict) == bool(result.reasons)
    # Escalating again changes nothing, and more findings never lower the result.
    assert escalate(result.verdict, found).verdict == result.verdict
    assert (
        ORDER[escalate(verdict, [*found, ("Minor", "Consensus")]).verdict] >= ORDER[result.verdict]
    )


@given(st.sampled_from(VERDICTS), findings)
def test_escalation_matches_reference(verdict: str, found: list[tuple[str, str]]) -> None:
    live = [(s, o) for s, o in found if o != "Dismissed"]
    serious = sum(1 for s, _ in live if s in ("Important", "Critical"))
    critical = any(s == "Critical" and o in ("Consensus", "Majority") for s, o in live)
    floor = 2 if critical or serious >= 5 else 1 if serious >= 3 else 0
    assert escalate(verdict, found).verdict == VERDICTS[max(ORDER[verdict], floor)]


@pytest.mark.parametrize(
    ("found", "verdict"),
    [
        ([("Critical", "Majority")], "Reject"),
        ([("Critical", "Escalated")], "Approve"),
        ([("Critical", "Single")], "Approve"),
        ([("Critical", "Dismissed")] * 6, "Approve"),
        ([("Important", "Consensus")] * 3, "Revise"),
        ([("Important", "Escalated")] * 4, "Revise"),
        ([("Important", "Consensus")] * 5, "Reject"),
        ([("Minor", "Consensus")] * 9, "Approve"),
    ],
)
def test_escalation_rules(found: list[tuple[str, str]], verdict: str) -> None:
    assert escalate("Approve", found).verdict == verdict


def test_escalation_refuses_bad_findings() -> None:
    with pytest.raises(KernelError):
        escalate("Approve", [("Severe", "Consensus")])
    with pytest.raises(KernelError):
        escalate("Approve", [("Minor", "Agreed")])
    with pytest.raises(KernelError):
        escalate("Maybe", [])
    with pytest.raises(KernelError):
        escalate("Approve", ["Minor"])  # type: ignore[list-item]
