"""The analyzer's ``progress`` and ``budget`` arguments (Python API): junk is a
``KernelError`` before any work; a callback's own exception is the caller's and propagates."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.analysis import analyze, analyze_diff, parse_prior, probabilities
from kernel.analysis.budget import MAX_STEPS, Budget
from kernel.errors import KernelError

T = "reviewer/full"
ENTRIES: dict[str, Callable[..., Any]] = {
    "analyze": lambda progress, budget: analyze(T, progress, budget),
    "analyze_diff": lambda progress, budget: analyze_diff(T, T, progress, budget),
    "probabilities": lambda progress, budget: probabilities(
        T, parse_prior("pass=1/2,warn=1/4,block=1/4"), progress, budget
    ),
}


class Mine(Exception):
    pass


def raising(phase: str, fraction: float) -> None:
    raise Mine(phase)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_a_callback_that_raises_propagates_unchanged(name: str) -> None:
    with pytest.raises(Mine):
        ENTRIES[name](raising, None)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_progress_is_called_with_phase_and_fraction(name: str) -> None:
    seen: list[tuple[str, float]] = []
    ENTRIES[name](lambda phase, fraction: seen.append((phase, fraction)), None)
    assert seen and all(isinstance(p, str) and 0 <= f <= 1 for p, f in seen)


@pytest.mark.parametrize("name", sorted(ENTRIES))
@pytest.mark.parametrize(
    ("progress", "says"),
    [
        (5, "progress must be callable or None, got 5"),
        ("x", "got 'x'"),
        (lambda: None, "progress must take (phase, fraction)"),
        (lambda a, b, c: None, "progress must take (phase, fraction)"),
    ],
)
def test_progress_that_cannot_be_called_so_is_refused(name: str, progress: Any, says: str) -> None:
    with pytest.raises(KernelError) as caught:
        ENTRIES[name](progress, None)
    assert caught.value.message.startswith(f"{name}: ")
    assert says in caught.value.message


@pytest.mark.parametrize("name", sorted(ENTRIES))
@given(
    st.one_of(
        st.builds(Budget, limit=st.integers(max_value=-1) | st.integers(MAX_STEPS + 1)),
        st.builds(Budget, limit=st.just(10**5000) | st.just(-(10**5000))),
        st.builds(Budget, limit=st.sampled_from(["1", 1.0, True, None])),
        st.builds(Budget, used=st.integers(max_value=-1) | st.sampled_from([0.5, "0", None])),
        st.integers() | st.text(max_size=3) | st.just({"limit": 5}),
    )
)
def test_a_budget_that_is_not_one_is_refused(name: str, budget: Any) -> None:
    with pytest.raises(KernelError) as caught:
        ENTRIES[name](None, budget)
    assert caught.value.message.startswith(f"{name}: budget")
    assert len(caught.value.message) < 200


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_a_lower_budget_is_kept_and_spent(name: str) -> None:
    budget = Budget(limit=MAX_STEPS)
    ENTRIES[name](None, budget)
    assert 0 < budget.used <= MAX_STEPS
    with pytest.raises(KernelError, match="at most 0 steps"):
        ENTRIES[name](None, Budget(limit=0))
