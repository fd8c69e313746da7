"""Consensus bounds and messages, pinned by their numbers: ratio digits and exponents, lone
surrogates at both ends of the range, the first-object message, the edit budget."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kernel.consensus import parse_response, to_fraction
from kernel.consensus.responses import schema_errors
from kernel.consensus.tokens import MAX_EDIT_CELLS, measure_change
from kernel.errors import KernelError


def test_a_three_digit_exponent_is_read_and_a_four_digit_one_refused() -> None:
    assert to_fraction("1e-050") == Fraction(1, 10**50)
    with pytest.raises(KernelError, match="is too long or its exponent too large"):
        to_fraction("1e-0050")


def test_a_long_numerator_is_refused_even_over_a_short_denominator() -> None:
    with pytest.raises(KernelError, match="has more than 50 digits"):
        to_fraction("1" * 51 + "/3")
    assert to_fraction("1" * 50 + "/3") == Fraction(int("1" * 50), 3)


@pytest.mark.parametrize("ch", ["\ud800", "\udbff", "\udc00", "\udfff"])
def test_every_lone_surrogate_is_reported(ch: str) -> None:
    critique = {"approve": True, "critical": False, "objections": [f"a{ch}"]}
    assert schema_errors(critique, "critique") == [
        "$.objections[0]: string holds a lone surrogate (not valid Unicode)"
    ]


def test_no_brace_at_all_is_said_so() -> None:
    result = parse_response("no json here", "critique")
    assert result.response is None
    assert result.attempts[-1].message == "no '{' that could start a JSON object"


def test_the_edit_budget_is_15_billion_cells() -> None:
    assert MAX_EDIT_CELLS == 15 * 10**9


def test_a_small_change_is_found_within_a_budget_below_the_full_table() -> None:
    # 1000 tokens, the first and the last changed: no common prefix or suffix to trim, a
    # full table of 10**6 cells, and the distance (2) found in a band of cutoff 64.
    old = " ".join(f"w{i}" for i in range(1000))
    new = " ".join(["x", *(f"w{i}" for i in range(1, 999)), "y"])
    change = measure_change(old, new, budget=500_000)
    assert (change.distance, change.longest) == (2, 1000)
    assert measure_change(old, new, budget=100_000).distance is None
