"""Hypothesis strategies built from the contract domain, shared by the test modules.

They live in :mod:`kernel.testing` (the strategies the kernel offers its users); the tests use
the same ones, so the suite shows they produce what they promise.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from kernel import testing
from kernel.testing import atoms, dimension_ids, expressions, matrices, priorities, scores, spelled

__all__ = [
    "atoms",
    "contracts",
    "dimension_ids",
    "expressions",
    "matrices",
    "priorities",
    "scores",
    "spelled",
]


PANEL_SIZES = st.integers(1, 9)


def contracts(
    *,
    max_dimensions: int = 5,
    max_conditions: int = 5,
    panel_sizes: st.SearchStrategy[int] = PANEL_SIZES,
    with_accept: bool | None = None,
) -> st.SearchStrategy[dict[str, Any]]:
    """:func:`kernel.testing.contracts`, but whether conditions other than the required
    accept-grade ``F0`` (R18) are accept-grade is left to chance unless ``with_accept`` says
    otherwise."""
    return testing.contracts(
        max_dimensions=max_dimensions,
        max_conditions=max_conditions,
        panel_sizes=panel_sizes,
        with_accept=with_accept,
    )
