"""How much work an analysis may do, estimated before it is done.

Every phase states its cost in *steps* (one inner-loop step: one column class evaluated, one
count vector extended by one signature, one worsening tried) before it starts, and the
budget refuses it at once, with the estimate, when the total would pass :data:`MAX_STEPS`.
So an analysis either finishes within a few seconds or is refused without running long.
"""

from __future__ import annotations

import math
from typing import Final

import attrs

from kernel.analysis.result import AnalysisTooLarge

__all__ = ["MAX_CELLS", "MAX_STEPS", "Budget", "check_cells", "int_steps"]

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
