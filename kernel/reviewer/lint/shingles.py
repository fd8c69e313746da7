"""Which word shingles of one text are substrings of another, in O(n log n) (13.2 §E9.3).

Both texts are normalised (words joined by single spaces). A shingle ``w0 … wk`` is a
substring of a text exactly when, at some word ``j`` of the text, words ``j+1 … j+k-1``
equal ``w1 … wk-1``, ``w0`` ends word ``j`` and ``wk`` begins word ``j+k``: the substring
need not start or end on a word boundary. The shingles are grouped by their inner words
(one dictionary lookup each); within a group, "ends ``a`` and begins ``b``" is a query for
a point in a rectangle (the ``a`` sorted reversed, the ``b`` sorted), answered for the whole
group at once by a sweep with a Fenwick tree. Searching each shingle in the text instead
costs the manuscript's length times the text's.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import repeat

__all__ = ["shingles_found"]

_Inner = tuple[int, ...]


def shingles_found(words: Sequence[str], size: int, text: str, starts: Iterable[int]) -> set[int]:
    """The ``starts`` whose shingle ``" ".join(words[s : s + size])`` (``size`` ≥ 2) is a
    substring of ``text``. ``words`` and ``text`` hold no empty word and single spaces only."""
    tokens = text.split(" ")
    if len(tokens) < size:
        return set()
    inner = size - 2
    ids, by_inner = _index(words, size)
    # A text window can match only where its inner words all occur in ``words``: those
    # windows are found as runs of known words, in C.
    token_ids = list(map(ids.get, tokens, repeat(-1)))
    points: dict[_Inner, set[tuple[str, str]]] = defaultdict(set)
    known = bytes(map((-1).__lt__, token_ids))
    for j in _windows(known, inner, range(len(tokens) - size + 1)):
        points[tuple(token_ids[j + 1 : j + 1 + inner])].add((tokens[j], tokens[j + size - 1]))
    wanted = starts if isinstance(starts, range | set | frozenset) else set(starts)
    queries: dict[_Inner, list[int]] = {}
    for key in points:
        group = [s for s in by_inner.get(key, ()) if s in wanted]
        if group:
            queries[key] = group
    found: set[int] = set()
    for key, group in queries.items():
        asked = [(words[s], words[s + size - 1]) for s in group]
        hits = _in_rectangles(points[key], asked)
        found.update(s for s, hit in zip(group, hits, strict=True) if hit)
    return found


#: The index of the last ``words`` tuple (a manuscript is read once per seat of a round).
_INDEXED: dict[int, tuple[Sequence[str], int, dict[str, int], dict[_Inner, list[int]]]] = {}


def _index(words: Sequence[str], size: int) -> tuple[dict[str, int], dict[_Inner, list[int]]]:
    """Each word's id, and the shingle starts of ``words`` by their inner words' ids; kept
    for a tuple (which cannot change), the last one."""
    held = _INDEXED.get(id(words))
    if held is not None and held[0] is words and held[1] == size:
        return held[2], held[3]
    ids: dict[str, int] = {}
    word_ids = [ids.setdefault(w, len(ids)) for w in words]
    inner = size - 2
    by_inner: dict[_Inner, list[int]] = defaultdict(list)
    for s in range(len(words) - size + 1):
        by_inner[tuple(word_ids[s + 1 : s + 1 + inner])].append(s)
    if isinstance(words, tuple):
        _INDEXED.pop(id(words), None)
        _INDEXED[id(words)] = (words, size, ids, by_inner)
        while len(_INDEXED) > 1:
            del _INDEXED[next(iter(_INDEXED))]
    return ids, by_inner


@functools.cache
def _known_run(inner: int) -> re.Pattern[bytes]:
    return re.compile(b"\x01{%d,}" % inner)


def _windows(known: bytes, inner: int, starts: Iterable[int]) -> Iterable[int]:
    """The ``starts`` ``s`` whose inner words ``s + 1 … s + inner`` are all known
    (``known[i]`` is 1)."""
    if not inner:
        return starts
    wanted = starts if isinstance(starts, range | set | frozenset) else set(starts)
    return [
        s
        for m in _known_run(inner).finditer(known)
        for s in range(m.start() - 1, m.end() - inner)
        if s in wanted
    ]


def _prefixed(ordered: Sequence[str], prefix: str) -> tuple[int, int]:
    """The index range of the strings of ``ordered`` that start with ``prefix``."""
    lo = bisect_left(ordered, prefix)
    hi = bisect_right(ordered, prefix, lo, key=lambda s: s[: len(prefix)])
    return lo, hi


def _in_rectangles(
    pairs: Iterable[tuple[str, str]], asked: Sequence[tuple[str, str]]
) -> list[bool]:
    """For each ``(first, last)`` asked, whether some pair ``(a, b)`` has ``a`` ending with
    ``first`` and ``b`` starting with ``last``."""
    pairs = list(pairs)
    xs = sorted({a[::-1] for a, _ in pairs})
    ys = sorted({b for _, b in pairs})
    x_rank = {x: i for i, x in enumerate(xs)}
    y_rank = {y: i for i, y in enumerate(ys)}
    # Points by x; each query's count is F(x_hi) - F(x_lo), F(x) counting the points left
    # of x with y in the query's range.
    by_x: list[list[int]] = [[] for _ in xs]
    for a, b in pairs:
        by_x[x_rank[a[::-1]]].append(y_rank[b])
    sweep: list[list[tuple[int, int, int, int]]] = [[] for _ in range(len(xs) + 1)]
    for q, (first, last) in enumerate(asked):
        x_lo, x_hi = _prefixed(xs, first[::-1])
        y_lo, y_hi = _prefixed(ys, last)
        if x_lo < x_hi and y_lo < y_hi:
            sweep[x_lo].append((q, -1, y_lo, y_hi))
            sweep[x_hi].append((q, 1, y_lo, y_hi))
    counts = [0] * len(asked)
    tree = [0] * (len(ys) + 1)

    def below(y: int) -> int:
        total = 0
        while y > 0:
            total += tree[y]
            y -= y & -y
        return total

    for x in range(len(xs) + 1):
        for q, sign, y_lo, y_hi in sweep[x]:
            counts[q] += sign * (below(y_hi) - below(y_lo))
        if x < len(xs):
            for y in by_x[x]:
                i = y + 1
                while i <= len(ys):
                    tree[i] += 1
                    i += i & -i
    return [c > 0 for c in counts]
