"""Quorum, consensus and ratio arithmetic: threshold tables, exactness, an oracle."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.consensus import (
    CritiqueResponse,
    QuorumError,
    check_quorum,
    consensus_reached,
    quorum,
    required_approvals,
    to_fraction,
)
from kernel.errors import KernelError

PARTICIPANTS = list(range(2, 13))

# ceil(ratio * n) for n = 2 ... 12, worked out by hand.
TABLES: dict[str, tuple[Any, list[int]]] = {
    "1/2": (Fraction(1, 2), [1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]),
    "2/3": (Fraction(2, 3), [2, 2, 3, 4, 4, 5, 6, 6, 7, 8, 8]),
    "0.67": ("0.67", [2, 3, 3, 4, 5, 5, 6, 7, 7, 8, 9]),
    "3/4": (Fraction(3, 4), [2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9]),
    "1": (1, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
}


def oracle_threshold(ratio: Fraction, n: int) -> int:
    """The least k with k/n ≥ ratio, by counting up (a different way to take the ceiling)."""
    k = 0
    while Fraction(k, n) < ratio:
        k += 1
    return k


@pytest.mark.parametrize("name", sorted(TABLES))
def test_threshold_tables(name: str) -> None:
    ratio, expected = TABLES[name]
    assert [quorum(n, ratio) for n in PARTICIPANTS] == expected
    assert [required_approvals(n, ratio) for n in PARTICIPANTS] == expected


@pytest.mark.parametrize("name", sorted(TABLES))
def test_consensus_at_exactly_the_threshold(name: str) -> None:
    ratio, expected = TABLES[name]
    for n, needed in zip(PARTICIPANTS, expected, strict=True):
        yes = CritiqueResponse(approve=True, critical=False)
        no = CritiqueResponse(approve=False, critical=False)
        assert consensus_reached([yes] * needed + [no] * (n - needed), n, ratio)
        assert not consensus_reached([yes] * (needed - 1) + [no] * (n - needed + 1), n, ratio)
        # Approvals count against the configured participants, not the responses received.
        assert not consensus_reached([yes] * (needed - 1), n, ratio)


def test_decimal_and_rational_ratios_stay_different() -> None:
    assert quorum(3) == 2
    assert quorum(3, Fraction(2, 3)) == 2
    assert quorum(3, "0.67") == 3
    assert quorum(3, 0.67) == 3  # the float reads as its shortest repr, 67/100
    assert quorum(3, Decimal("0.67")) == 3
    assert quorum(3, "2/3") == 2
    assert required_approvals(100, 0.67) == 67
    assert required_approvals(100, Fraction(2, 3)) == 67
    assert required_approvals(300, 0.67) == 201
    assert required_approvals(300, Fraction(2, 3)) == 200


def test_floats_are_read_as_their_shortest_decimal() -> None:
    assert to_fraction(0.1) == Fraction(1, 10)
    assert to_fraction(0.67) == Fraction(67, 100)
    assert to_fraction(1e-300) == Fraction(1, 10**300)
    assert to_fraction("1e-2") == Fraction(1, 100)
    assert to_fraction(" 0.670 ") == Fraction(67, 100)


@pytest.mark.parametrize(
    "ratio",
    [
        True,
        False,
        float("nan"),
        float("inf"),
        Decimal("NaN"),
        "nan",
        "inf",
        "1/0",
        "1_0",
        "0x1",
        "",
        "two thirds",
        "\u0660.\u0665",  # Arabic-Indic digits
        None,
        [1],
        0,
        "0",
        -0.5,
        1.01,
        "3/2",
        "1e999",
        "1" * 60,
        "1/" + "3" * 60,
    ],
)
def test_bad_ratios_raise_kernel_error(ratio: Any) -> None:
    with pytest.raises(KernelError):
        quorum(3, ratio)
    with pytest.raises(KernelError):
        consensus_reached([], 3, ratio)


@pytest.mark.parametrize("participants", [0, 1, -3, True, 2.0, "3", None])
def test_bad_participant_counts_raise_kernel_error(participants: Any) -> None:
    with pytest.raises(KernelError):
        quorum(participants)
    with pytest.raises(KernelError):
        consensus_reached([], participants)


def test_critical_vetoes_consensus() -> None:
    yes = {"approve": True, "critical": False}
    veto = {"approve": True, "critical": True}
    assert consensus_reached([yes, yes, yes], 3)
    assert not consensus_reached([yes, yes, veto], 3)
    assert not consensus_reached([yes, yes, {"approve": False, "critical": True}], 3)


def test_critiques_are_validated() -> None:
    with pytest.raises(KernelError, match=r"critiques\[1\]"):
        consensus_reached([{"approve": True, "critical": False}, {"approve": "yes"}], 3)
    with pytest.raises(KernelError, match="critiques"):
        consensus_reached("approve", 3)  # type: ignore[arg-type]
    with pytest.raises(KernelError, match="only 2 participants"):
        consensus_reached([{"approve": True, "critical": False}] * 3, 2)


def test_quorum_error() -> None:
    check_quorum(2, 3)
    with pytest.raises(QuorumError) as info:
        check_quorum(1, 3)
    assert (info.value.responses, info.value.required, info.value.participants) == (1, 2, 3)
    assert isinstance(info.value, KernelError)
    with pytest.raises(KernelError):
        check_quorum(4, 3)


RATIOS = st.one_of(
    st.fractions(min_value=Fraction(1, 1000), max_value=1, max_denominator=1000).filter(
        lambda f: f > 0
    ),
    st.decimals(min_value=Decimal("0.001"), max_value=1, places=3).map(str),
)
CRITIQUES = st.builds(CritiqueResponse, st.booleans(), st.booleans())


@given(st.integers(2, 40), RATIOS, st.data())
@example(3, "0.67", None)
def test_consensus_matches_the_oracle(n: int, ratio: Any, data: st.DataObject | None) -> None:
    critiques = [] if data is None else data.draw(st.lists(CRITIQUES, max_size=n))
    exact = Fraction(ratio) if isinstance(ratio, str) else ratio
    approvals = sum(c.approve for c in critiques)
    expected = approvals >= oracle_threshold(exact, n) and not any(c.critical for c in critiques)
    assert consensus_reached(critiques, n, ratio) is expected
    assert quorum(n, ratio) == oracle_threshold(exact, n)
    assert 1 <= quorum(n, ratio) <= n


@pytest.mark.parametrize("responses", [-1, -3, 2.0, 1.5, True, False, "2", None])
def test_check_quorum_refuses_a_count_that_is_not_a_non_negative_int(responses: Any) -> None:
    with pytest.raises(KernelError) as info:
        check_quorum(responses, 3)
    assert not isinstance(info.value, QuorumError)
    assert info.value.message == f"responses must be a non-negative int, got {responses!r}"
    # Zero responses is a count, below the quorum.
    with pytest.raises(QuorumError):
        check_quorum(0, 3)
