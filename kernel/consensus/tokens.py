"""Whitespace tokens and the token-level Levenshtein change metric (companions §B, stop rules).

The edit distance is rapidfuzz's (C++, bit-parallel, banded when given a cutoff) over the
token lists, each distinct token interned as a small integer so no two tokens can compare
equal by accident. An exact distance ``d`` between ``n`` and ``m`` tokens costs about
``n * min(m, 2d)`` DP cells; ``change_ratio`` refuses past ``MAX_EDIT_CELLS`` instead of
running for minutes on two long texts that share nothing.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Final

import attrs
from rapidfuzz.distance import Levenshtein, Postfix, Prefix

from kernel.errors import EditBudgetError, KernelError
from kernel.strict import is_int, shown

__all__ = [
    "MAX_EDIT_CELLS",
    "Change",
    "EditBudgetError",
    "change_ratio",
    "levenshtein",
    "measure_change",
    "tokens",
]

#: Work budget of one change measurement, in DP cells (rows times band width): one to two
#: seconds; a text pair whose distance needs more is refused.
MAX_EDIT_CELLS: Final = 15 * 10**9
#: The first cutoff tried; each further try doubles it.
_FIRST_CUTOFF: Final = 64


def tokens(text: str) -> list[str]:
    """Split ``text`` on runs of whitespace (``str.split()``: Unicode whitespace, no empties)."""
    if not isinstance(text, str):
        raise KernelError(f"candidate text must be a str, got {type(text).__name__}")
    return text.split()


def _interned(a: Sequence[Hashable], b: Sequence[Hashable]) -> tuple[array[int], array[int]]:
    ids: dict[Hashable, int] = {}
    first = array("Q", [ids.setdefault(item, len(ids)) for item in a])
    second = array("Q", [ids.setdefault(item, len(ids)) for item in b])
    return first, second


@attrs.frozen
class _Search:
    distance: int | None  # exact, or None when the budget ran out first
    at_least: int  # a lower bound (the distance itself when known)


def _search(
    a: Sequence[Hashable], b: Sequence[Hashable], budget: int | None, must_try: int | None
) -> _Search:
    """Exact distance after trimming the common prefix and suffix: one full call when it costs
    at most half the budget (or there is none), else cutoffs 64, 128, ... (a call costs at most
    rows * (2 * cutoff + 1) cells, so the total is about twice the last), stopping before a call
    would take the work spent past ``budget``. ``must_try`` is a cutoff tried on the way, so
    whether the distance is at most ``must_try`` is settled when the budget allows."""
    x, y = _interned(a, b)
    head = Prefix.similarity(x, y)
    x, y = x[head:], y[head:]
    tail = Postfix.similarity(x, y)
    if tail:
        x, y = x[: len(x) - tail], y[: len(y) - tail]
    rows, cols = max(len(x), len(y)), min(len(x), len(y))
    lower = rows - cols
    if cols == 0:
        return _Search(lower, lower)
    full = rows * cols
    cutoffs: list[int] = []
    if budget is not None and 2 * full > budget:  # else one full call is cheap enough
        k = max(_FIRST_CUTOFF, lower)
        if must_try is not None and lower <= must_try:
            while 2 * k < must_try:  # the doubling below must_try costs less than must_try
                cutoffs.append(k)
                k *= 2
            k = must_try
        while 2 * k + 1 < cols:
            cutoffs.append(k)
            k *= 2
    cutoffs = [*sorted(set(cutoffs)), rows]  # the distance is at most ``rows``
    spent = 0
    for cutoff in cutoffs:
        cost = rows * min(cols, 2 * cutoff + 1)
        if budget is not None and spent + cost > budget:
            return _Search(None, lower)
        spent += cost
        found = int(Levenshtein.distance(x, y, score_cutoff=cutoff))
        if found <= cutoff:
            return _Search(found, found)
        lower = cutoff + 1
    raise AssertionError("unreachable: the last cutoff bounds the distance")


def levenshtein(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Edit distance (insert, delete, substitute; each costs 1) between two sequences of
    hashable items, exact and without a work limit (see ``change_ratio`` for one)."""
    for name, seq in (("a", a), ("b", b)):
        if not isinstance(seq, Sequence) or not all(isinstance(x, Hashable) for x in seq):
            raise KernelError(f"{name} must be a sequence of hashable items")
    try:
        found = _search(a, b, None, None).distance
    except TypeError:  # an item that says it is hashable but is not (a tuple holding a list)
        raise KernelError("a and b must be sequences of hashable items") from None
    assert found is not None
    return found


@attrs.frozen
class Change:
    """How much a candidate changed: the token edit distance (``None`` when the work budget
    ran out before it was known) with a lower bound, over the longer token count."""

    distance: int | None
    at_least: int
    longest: int

    @property
    def ratio(self) -> Fraction | None:
        """The exact change, or ``None`` when the distance is unknown."""
        if self.distance is None:
            return None
        return Fraction(self.distance, self.longest) if self.longest else Fraction(0)

    @property
    def floor(self) -> Fraction:
        """A lower bound on the change (the change itself when known)."""
        return Fraction(self.at_least, self.longest) if self.longest else Fraction(0)

    def below(self, threshold: Fraction) -> bool | None:
        """Whether the change is strictly below ``threshold``; ``None`` when unknown."""
        ratio = self.ratio
        if ratio is not None:
            return ratio < threshold
        return False if self.floor >= threshold else None


def measure_change(
    old_text: str,
    new_text: str,
    *,
    threshold: Fraction | None = None,
    budget: int = MAX_EDIT_CELLS,
) -> Change:
    """The token change between two texts within ``budget`` DP cells.

    With ``threshold`` the search also settles whether the change is below it, when the
    budget allows, even if the exact change is out of reach.
    """
    if threshold is not None and not isinstance(threshold, Fraction):
        raise KernelError(f"threshold must be a Fraction or None, got {type(threshold).__name__}")
    if not is_int(budget) or budget < 0:
        raise KernelError(f"budget must be a non-negative integer, got {shown(budget)}")
    old, new = tokens(old_text), tokens(new_text)
    longest = max(len(old), len(new))
    must_try = None
    if threshold is not None and longest:
        # change < t  <=>  distance < t·longest  <=>  distance <= ceil(t·longest) - 1
        must_try = -((-threshold.numerator * longest) // threshold.denominator) - 1
    found = _search(old, new, budget, must_try if must_try is None or must_try >= 0 else None)
    return Change(found.distance, found.at_least, longest)


def change_ratio(old_text: str, new_text: str) -> Fraction:
    """How much the candidate changed: token Levenshtein distance over the longer token count.

    Exact, in [0, 1]; 0 when both texts have no tokens. Raises ``EditBudgetError`` (a
    ``KernelError``) when the exact distance needs more than ``MAX_EDIT_CELLS`` cells of work.
    """
    change = measure_change(old_text, new_text)
    ratio = change.ratio
    if ratio is None:
        old, new = len(tokens(old_text)), len(tokens(new_text))
        raise EditBudgetError(
            f"change_ratio: the exact edit distance between {old} and {new} tokens needs more "
            f"than {MAX_EDIT_CELLS:,} cells of work (at least {change.at_least} edits); refused"
        )
    return ratio
