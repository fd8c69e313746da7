"""strict_majority for direct callers: the R1 formula and its guards."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel import KernelError, strict_majority


@pytest.mark.parametrize(("n", "m"), [(1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (9, 5), (10, 6)])
def test_table(n: int, m: int) -> None:
    assert strict_majority(n) == m


@given(st.integers(1, 10**30))
def test_least_count_over_half(n: int) -> None:
    m = strict_majority(n)
    assert 2 * m > n
    assert 2 * (m - 1) <= n


@pytest.mark.parametrize(
    ("n", "message"), [(0, "got 0"), (-1, "got -1"), (-(10**20), f"got {-(10**20)}")]
)
def test_below_one_is_refused(n: int, message: str) -> None:
    with pytest.raises(KernelError) as info:
        strict_majority(n)
    assert info.value.message == f"strict_majority needs n >= 1, {message}"


@pytest.mark.parametrize(
    ("n", "name"),
    [(True, "bool"), (False, "bool"), (3.0, "float"), ("3", "str"), (None, "NoneType")],
)
def test_non_int_is_refused(n: Any, name: str) -> None:
    with pytest.raises(KernelError) as info:
        strict_majority(n)
    assert info.value.message == f"strict_majority needs an int, got {name}"
