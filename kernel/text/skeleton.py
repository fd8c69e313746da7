"""Confusable-aware text skeletons with a map back to the original text (shared).

``skeletonize(text)`` turns text into the form the injection scan and the delimiter escaper
match against, one original code point at a time:

1. NFKC (full-width and mathematical letters, ligatures, compatibility spaces);
2. canonical decomposition, then removal of combining marks and of every
   Default_Ignorable_Code_Point (zero-width spaces and joiners, soft hyphen, bidi controls,
   variation selectors, tags, Hangul fillers ...);
3. each remaining non-ASCII letter mapped to its Latin prototype with the Unicode TS #39
   confusables data shipped by the maintained ``confusable-homoglyphs`` package (Cyrillic
   U+043E → ``o``, Greek U+03B9 → ``i``, ...);
4. case folding, then ``l``/``1`` → ``i`` and ``0`` → ``o`` (look-alikes in many fonts).

Every skeleton character remembers the original code point it came from, so a match in the
skeleton is reported as a span of the original text. All of it is linear in the input.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Collection, Iterable, Mapping
from itertools import accumulate

import attrs

from kernel.io import package_data

__all__ = [
    "Skeleton",
    "char_skeleton",
    "fold_table",
    "full_skeleton",
    "is_ignorable",
    "skeletonize",
    "without_ignorables",
]

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt, 15.1).
_IGNORABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)

_FOLD = str.maketrans({"l": "i", "1": "i", "0": "o"})
_MARKS = frozenset({"Mn", "Me"})


_IGNORABLE = frozenset(chr(cp) for lo, hi in _IGNORABLE_RANGES for cp in range(lo, hi + 1))


@functools.cache
def _delete_ignorable() -> dict[int, None]:
    """``str.translate`` table deleting every Default_Ignorable_Code_Point (built on first
    need: most texts are ASCII)."""
    return dict.fromkeys(map(ord, _IGNORABLE))


def is_ignorable(ch: str) -> bool:
    """True for a Default_Ignorable_Code_Point (one code point)."""
    return ch in _IGNORABLE


def without_ignorables(text: str) -> str:
    """``text`` without its Default_Ignorable_Code_Points (in C, one pass)."""
    return text if text.isascii() else text.translate(_delete_ignorable())


def _strip(text: str) -> str:
    """Decompose and drop combining marks and default-ignorable code points."""
    return "".join(
        c
        for c in unicodedata.normalize("NFD", text)
        if c not in _IGNORABLE and unicodedata.category(c) not in _MARKS
    )


@functools.cache
def _confusables() -> dict[str, list[dict[str, str]]]:
    """The package's TS #39 data, read on first need (ASCII text never needs it). Read as a
    data file: importing ``confusable_homoglyphs.confusables`` pulls in ``urllib``."""
    data = package_data("confusable_homoglyphs", "confusables.json")
    return json.loads(data.decode("utf-8"))  # type: ignore[no-any-return]


def _prototype(ch: str) -> str | None:
    """The TS #39 prototype of a confusable source character, if the data names one.

    The package lists, for a source, its one prototype, and for a prototype all its sources;
    so a single candidate is the prototype and several mean ``ch`` is a prototype itself.
    """
    entries = _confusables().get(ch)
    if not entries or len(entries) != 1:
        return None
    proto = _strip(str(entries[0]["c"]).replace("\u200e", ""))
    return proto if proto and proto != ch else None


def _latin(ch: str) -> str:
    if ch.isascii():
        return ch
    for start in dict.fromkeys((ch, ch.casefold(), ch.lower(), ch.upper())):
        current: str | None = start
        for _ in range(3):
            current = _prototype(current) if current is not None and len(current) == 1 else None
            if current is None:
                break
            if current.isascii():
                return current
    return ch


@functools.cache
def fold_table() -> dict[int, str | None]:
    """A ``str.translate`` table, built once, that removes every default-ignorable code point
    and maps each non-ASCII character the TS #39 data confuses with ASCII to that ASCII text
    (Greek U+03BF → ``o``, U+2236 RATIO → ``:``); ASCII is left alone. Field keys are read
    through it (R20), so a look-alike letter cannot disguise a key."""
    table: dict[int, str | None] = dict.fromkeys(map(ord, _IGNORABLE))
    for ch in _confusables():
        if len(ch) == 1 and not ch.isascii() and ord(ch) not in table:
            latin = "".join(_latin(c) for c in _strip(unicodedata.normalize("NFKC", ch)))
            if latin and latin.isascii() and latin != ch:
                table[ord(ch)] = latin
    return table


@functools.lru_cache(maxsize=1 << 18)
def char_skeleton(ch: str) -> str:
    """The skeleton of one code point (possibly empty, possibly several characters)."""
    if ch.isascii():
        return ch.lower().translate(_FOLD)
    data = _confusables()
    if (  # fast path: nothing below would change ch
        ch not in data
        and ch.upper() not in data
        and ch.lower() not in data
        and ch not in _IGNORABLE
        and unicodedata.is_normalized("NFKD", ch)
        and unicodedata.category(ch) not in _MARKS
        and ch.casefold() == ch
    ):
        return ch
    return full_skeleton(ch)


def full_skeleton(ch: str) -> str:
    """``char_skeleton`` without its fast path (kept separate so tests can compare them)."""
    if ch.isascii():
        return ch.lower().translate(_FOLD)
    base = _strip(unicodedata.normalize("NFKC", ch))
    latin = "".join(_latin(c) for c in base)
    return _strip(unicodedata.normalize("NFKC", latin.casefold())).translate(_FOLD)


@attrs.frozen
class Skeleton:
    """A text's skeleton and the way back to the original.

    ``text`` has one entry per skeleton character; ``spans`` maps skeleton ranges back.
    """

    original: str
    text: str
    #: Cumulative skeleton length after each original code point; ``None`` when aligned.
    _ends: array[int] | None = attrs.field(repr=False)

    @property
    def aligned(self) -> bool:
        """True when skeleton index ``i`` comes from original index ``i`` everywhere."""
        return self._ends is None

    def spans(self, ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        """Map skeleton ``[start, end)`` ranges (non-empty) to original ``[start, end)``.

        The original span runs from the code point that produced the first matched skeleton
        character to the one that produced the last, so ignorable characters inside a match
        are part of its span.
        """
        items = list(ranges)
        ends = self._ends
        if ends is None:
            return items
        out: list[tuple[int, int]] = []
        for start, end in items:
            first = bisect_right(ends, start)
            last = bisect_right(ends, end - 1)
            out.append((first, last + 1))
        return out


def skeletonize(text: str) -> Skeleton:
    """The skeleton of ``text`` (see the module docstring)."""
    ascii_table, ascii_lengths, aligned = _ascii_tables()
    # ASCII goes by tables built once; only the other characters are looked at here: found
    # by a regex when they are few, else from the set of all characters (which also tells
    # which ASCII ones occur).
    others: Collection[str] = ()
    table = ascii_table
    if not text.isascii():
        if len(text.encode("utf-8", "surrogatepass")) - len(text) > len(text) // 8:
            present = set(text)
            others = [c for c in present if c > "\x7f"]
            table = {ord(c): ascii_table[ord(c)] for c in present if ord(c) in ascii_table}
        else:
            others = set(_NON_ASCII.findall(text))
        table = dict(table)
    lengths = {}  # code point -> chr(skeleton length), for translate()
    changed: dict[str, str] = {}
    for ch in others:
        sk = char_skeleton(ch)
        if sk != ch:
            table[ord(ch)] = sk
            changed[ch] = sk
        lengths[ord(ch)] = chr(len(sk))
        aligned = aligned and len(sk) == 1
    mixed = bool(others) and len(others) <= _FEW_OTHERS
    ends = None
    if not aligned:
        # One byte per code point holding its skeleton length (NFKC expands a code point to
        # at most 18 characters), summed in C.
        if mixed:
            lengths_of = {ch: lengths[ord(ch)] for ch in others}
            widths = translate_mixed(text, _ASCII_ONES, lengths_of).encode("latin-1")
        else:
            widths = text.translate({**ascii_lengths, **lengths}).encode("latin-1")
        ends = array("q", accumulate(widths))
    if mixed:
        return Skeleton(text, translate_mixed(text, _ascii_bytes(), changed), ends)
    return Skeleton(text, text.translate(table) if table else text, ends)


#: Up to this many distinct non-ASCII characters, a text is translated by
#: :func:`translate_mixed` (ASCII in one C pass, then each of those characters).
_FEW_OTHERS = 24
#: bytes.translate table: every ASCII byte to 1, every other byte kept.
_ASCII_ONES = bytes([1] * 128 + list(range(128, 256)))


def translate_mixed(text: str, ascii_table: bytes, others: Mapping[str, str]) -> str:
    """``text.translate`` for a table given in two parts: ``ascii_table`` (256 bytes; bytes
    128 to 255 map to themselves) for ASCII characters, each to one ASCII character, and
    ``others`` for the non-ASCII ones it holds (a character not in it stays). The ASCII part
    runs in C over the UTF-8 bytes (a non-ASCII character's bytes are all past 127), then
    each non-ASCII character is replaced: a per-character ``str.translate`` of a text that
    is not all ASCII costs a dictionary lookup a character."""
    out = (
        text.encode("utf-8", "surrogatepass")
        .translate(ascii_table)
        .decode("utf-8", "surrogatepass")
    )
    moved = {ch: sk for ch, sk in others.items() if sk != ch}
    if all(sk.isascii() for sk in moved.values()):  # no replacement holds another's key
        for ch, sk in moved.items():
            out = out.replace(ch, sk)
        return out
    return out.translate({ord(ch): sk for ch, sk in moved.items()})


@functools.cache
def _ascii_bytes() -> bytes:
    """The skeleton of every ASCII character as a bytes.translate table (bytes 128 to 255
    kept)."""
    changed, _, aligned = _ascii_tables()
    assert aligned
    return bytes([ord(changed.get(i, chr(i))) for i in range(128)] + list(range(128, 256)))


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@functools.cache
def _ascii_tables() -> tuple[dict[int, str], dict[int, str], bool]:
    """For ASCII: the skeleton of every character that changes, every character's skeleton
    length (as ``chr(length)``), and whether each skeleton is one character."""
    skeletons = {i: char_skeleton(chr(i)) for i in range(128)}
    changed = {i: sk for i, sk in skeletons.items() if sk != chr(i)}
    lengths = {i: chr(len(sk)) for i, sk in skeletons.items()}
    return changed, lengths, all(len(sk) == 1 for sk in skeletons.values())
