"""Convergence detection and the hard iteration cap, as properties."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.errors import KernelError
from kernel.panel.convergence import (
    MAX_ITERATIONS,
    MAX_ITERATIONS_THOROUGH,
    advance,
    compare,
    iteration_cap,
    normalise_evidence,
    start,
)
from kernel.panel.verdicts import SEVERITIES

finding = st.fixed_dictionaries(
    {
        "id": st.sampled_from([f"F{i}" for i in range(12)]),
        "severity": st.sampled_from(SEVERITIES),
        "evidence": st.sampled_from(["a b", "A  b", "c", "\uff43", "d\te"]),
    }
)
iteration = st.lists(finding, max_size=12, unique_by=lambda f: f["id"])


def ref_delta(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> Fraction:
    def key(f: dict[str, Any]) -> tuple[str, str]:
        return f["severity"], " ".join(f["evidence"].casefold().split())

    a = {f["id"]: f for f in old}
    b = {f["id"]: f for f in new}
    ids = set(a) | set(b)
    moved = sum(1 for i in ids if i not in a or i not in b or key(a[i]) != key(b[i]))
    return Fraction(moved, max(1, len(ids)))


@given(iteration, iteration)
def test_delta_matches_reference(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    old_n = [{**f, "evidence": f["evidence"].replace("\uff43", "c")} for f in old]
    new_n = [{**f, "evidence": f["evidence"].replace("\uff43", "c")} for f in new]
    d = compare(old, new)
    assert d.value == ref_delta(old_n, new_n)
    assert d.converged == (d.value <= Fraction(1, 10))
    assert compare(new, new).value == 0


def test_threshold_is_inclusive() -> None:
    old = [{"id": f"F{i}", "severity": "Minor", "evidence": "x"} for i in range(10)]
    new = [*old[:9], {"id": "F9", "severity": "Critical", "evidence": "x"}]
    assert compare(old, new).value == Fraction(1, 10)
    assert compare(old, new).converged
    assert not compare(old[:8], new).converged


def test_evidence_normalisation() -> None:
    assert normalise_evidence("  \uff21\u00a0b\n C ") == "a b c"


@given(
    st.booleans(),
    st.lists(st.tuples(iteration, st.dictionaries(st.text(max_size=5), st.integers())),
             min_size=1, max_size=8),
)  # fmt: skip
def test_iteration_cap_holds_whatever_agents_report(
    thorough: bool, reports: list[tuple[list[dict[str, Any]], dict[str, int]]]
) -> None:
    state = start(thorough=thorough)
    cap = MAX_ITERATIONS_THOROUGH if thorough else MAX_ITERATIONS
    for found, extra in reports:
        if state.stopped is not None:
            with pytest.raises(KernelError):
                advance(state, found)
            break
        # Whatever else the agent says (max_iterations=99, continue=true) is not an input.
        state = advance(state, [{**f, **{k: v for k, v in extra.items() if k == "x"}}
                                for f in found])  # fmt: skip
        assert state.iterations <= cap
        assert state.cap == cap
    assert state.iterations <= cap
    if state.iterations == cap:
        assert state.stopped is not None


def test_converged_stops_early() -> None:
    same = [{"id": "F1", "severity": "Minor", "evidence": "x"}]
    state = advance(advance(start(thorough=True), same), same)
    assert state.stopped == "converged" and state.iterations == 2
    moved = advance(advance(start(thorough=True), same), [])
    assert moved.stopped is None
    assert advance(moved, []).stopped == "converged"


def test_caps() -> None:
    assert iteration_cap() == 2 and iteration_cap(True) == 3
    with pytest.raises(KernelError):
        iteration_cap("yes")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad",
    [
        [{"id": "F1", "severity": "Minor", "evidence": "x"}] * 2,
        [{"id": "F1", "severity": "Huge", "evidence": "x"}],
        [{"id": "", "severity": "Minor", "evidence": "x"}],
        [{"id": "F1", "severity": "Minor"}],
        [{"id": "F1", "severity": "Minor", "evidence": 3}],
        ["F1"],
    ],
)
def test_bad_findings_are_refused(bad: list[Any]) -> None:
    with pytest.raises(KernelError):
        compare([], bad)
