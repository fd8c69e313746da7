"""Strict majority, shared by the sprint contract (R1) and the review panel (companions §C)."""

from __future__ import annotations

from kernel.errors import KernelError
from kernel.strict import is_int, shown

__all__ = ["strict_majority"]


def strict_majority(n: int) -> int:
    """``⌊n/2⌋ + 1``: the least count that is more than half of ``n`` (n ≥ 1)."""
    if not is_int(n):
        raise KernelError(f"strict_majority needs an int, got {type(n).__name__}")
    if n < 1:
        raise KernelError(f"strict_majority needs n >= 1, got {shown(n)}")
    return n // 2 + 1
