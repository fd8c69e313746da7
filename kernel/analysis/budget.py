"""How much work an analysis may do, estimated before it is done.

Every phase states its cost in *steps* (one inner-loop step: one column class evaluated, one
count vector extended by one signature, one worsening tried) before it starts, and the
budget refuses it at once, with the estimate, when the total would pass :data:`MAX_STEPS`.
So an analysis either finishes within a few seconds or is refused without running long.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any, Final

import attrs

from kernel.analysis.result import AnalysisTooLarge
from kernel.errors import KernelError
from kernel.strict import is_int, shown

__all__ = [
    "MAX_CELLS",
    "MAX_STEPS",
    "Budget",
    "check_cells",
    "checked_budget",
    "checked_progress",
    "int_steps",
]

#: At most this many steps in one analysis (about 2 to 3 seconds).
MAX_STEPS: Final = 10_000_000

#: At most this many matrix cells (dimensions x panel size). The exact counts are written in
#: decimal, and ``3**8000`` has 3,818 digits: below Python's 4,300-digit conversion limit.
MAX_CELLS: Final = 8000

#: Bits of an integer that cost as much as one step when added or scaled.
_BITS_PER_STEP: Final = 2048


def int_steps(bits: int) -> int:
    """What one addition of integers of ``bits`` bits costs, in steps (at least 1)."""
    return 1 + bits // _BITS_PER_STEP


def check_cells(contract_id: str, dimensions: int, panel_size: int) -> None:
    """Refuse at once a matrix too large to count: the counts themselves are unprintable."""
    cells = dimensions * panel_size
    if cells > MAX_CELLS:
        raise AnalysisTooLarge(
            f"{contract_id}: {dimensions} dimensions x panel_size {_about(panel_size)} = "
            f"{_about(cells)} score cells: the number of matrices has "
            f"{_about(cells * 4771 // 10_000 + 1)} digits; the analyzer handles at most "
            f"{MAX_CELLS} cells"
        )


def _about(n: int) -> str:
    """``n`` in words fit for a message, however large (no decimal conversion of a huge int)."""
    if n < 10**15:
        return f"{n:,}"
    return f"about 10^{math.floor(math.log10(n))}"


@attrs.define
class Budget:
    """The steps an analysis has left; :meth:`charge` before each phase or layer."""

    limit: int = MAX_STEPS
    used: int = 0

    @property
    def remaining(self) -> int:
        return self.limit - self.used

    def check(self, steps: int, what: str) -> None:
        """Refuse now if ``steps`` more would pass the limit: the estimate is in the message."""
        if steps > self.remaining:
            raise AnalysisTooLarge(
                f"{what} {steps:,} more steps (after {self.used:,}); the analyzer does at "
                f"most {self.limit:,} steps (a few seconds)"
            )

    def charge(self, steps: int, what: str) -> None:
        """Spend ``steps`` on ``what``, or refuse."""
        self.check(steps, f"{what}: about")
        self.used += steps


def checked_budget(budget: object, where: str) -> Budget:
    """The caller's ``budget`` argument of ``where`` (``None``: a fresh default one). A budget
    can lower the limit, never raise it past :data:`MAX_STEPS`: anything else is refused."""
    if budget is None:
        return Budget()
    if not isinstance(budget, Budget):
        raise KernelError(f"{where}: budget must be a Budget or None, got {shown(budget)}")
    if not (is_int(budget.limit) and 0 <= budget.limit <= MAX_STEPS):
        raise KernelError(
            f"{where}: budget limit must be a whole number of steps from 0 to {MAX_STEPS:,}, "
            f"got {shown(budget.limit)}"
        )
    if not (is_int(budget.used) and budget.used >= 0):
        raise KernelError(
            f"{where}: budget used must be a whole number of steps from 0, "
            f"got {shown(budget.used)}"
        )
    return budget


def checked_progress(
    progress: object, where: str
) -> Callable[[str, float], None] | None:
    """The caller's ``progress`` argument of ``where``: ``None`` or a callable taking
    ``(phase, fraction)``. What the callable itself raises is the caller's and propagates."""
    if progress is None:
        return None
    if not callable(progress):
        raise KernelError(f"{where}: progress must be callable or None, got {shown(progress)}")
    try:
        inspect.signature(progress).bind("phase", 0.0)
    except TypeError:
        raise KernelError(
            f"{where}: progress must take (phase, fraction), got {shown(progress)}"
        ) from None
    except ValueError:  # no signature to read (some builtins): called as given
        pass
    checked: Callable[[str, float], Any] = progress
    return checked
