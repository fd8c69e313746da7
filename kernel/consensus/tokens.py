"""Whitespace tokens and the token-level Levenshtein change metric (companions §B, stop rules)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

from kernel.errors import KernelError

__all__ = ["change_ratio", "levenshtein", "tokens"]


def tokens(text: str) -> list[str]:
    """Split ``text`` on runs of whitespace (``str.split()``: Unicode whitespace, no empties)."""
    if not isinstance(text, str):
        raise KernelError(f"candidate text must be a str, got {type(text).__name__}")
    return text.split()


def levenshtein(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Edit distance (insert, delete, substitute; each costs 1) between two sequences.

    Bit-parallel (Myers 1999, in Hyyrö's formulation for the global distance), with Python
    integers as bit vectors: O(len(a) · len(b) / word size) after trimming the common prefix
    and suffix.
    """
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    a, b = a[start:end_a], b[start:end_b]
    if len(a) > len(b):
        a, b = b, a
    m = len(a)
    if m == 0:
        return len(b)
    peq: dict[Hashable, int] = {}
    for i, item in enumerate(a):
        peq[item] = peq.get(item, 0) | (1 << i)
    mask = (1 << m) - 1
    high = 1 << (m - 1)
    pv, mv, score = mask, 0, m
    for item in b:
        eq = peq.get(item, 0)
        xv = eq | mv
        xh = ((((eq & pv) + pv) & mask) ^ pv) | eq
        ph = mv | (~(xh | pv) & mask)
        mh = pv & xh
        if ph & high:
            score += 1
        elif mh & high:
            score -= 1
        ph = ((ph << 1) | 1) & mask
        mh = (mh << 1) & mask
        pv = mh | (~(xv | ph) & mask)
        mv = ph & xv
    return score


def change_ratio(old_text: str, new_text: str) -> Fraction:
    """How much the candidate changed: token Levenshtein distance over the longer token count.

    Exact, in [0, 1]; 0 when both texts have no tokens.
    """
    old, new = tokens(old_text), tokens(new_text)
    longest = max(len(old), len(new))
    if longest == 0:
        return Fraction(0)
    return Fraction(levenshtein(old, new), longest)
