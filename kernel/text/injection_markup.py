r"""Markup a reader never sees: the injection scan's second view of a text (R19).

``unmarked(text)`` removes what renders as nothing and keeps a map back to the original, so
``ig**nore**``, ``ig`nore```, ``&#105;gnore``, ``ig<b>nore</b>``, ``ig<!-- x -->nore``,
``[ig](url)nore`` and ``[ig][1]nore`` all read ``ignore``:

* HTML comments (``<!-- … -->``; one left open runs to the end of the text) are removed;
* inline HTML tags (``<b>``, ``</span>``, ``<x attr="…">`` — any tag but the block-level ones)
  are removed, block-level tags (``<br>``, ``<p>``, ``<div>``, ``<li>`` …) become a space;
* character references (``&#105;``, ``&#x69;``, ``&shy;``, ``&nbsp;``) are decoded;
* a link's destination and title (``](url "title")``, one level of nested parentheses) and a
  reference link's label (``][1]``, ``][]``) are removed, and so are the brackets themselves
  and the ``!`` of an image: the link text stays, as a reader sees it;
* the Markdown emphasis, strikethrough and code-span characters ``*``, ``~`` and `````` ` ``````
  are removed, and so is every backslash (an escape such as ``rm \-rf`` shows only the
  escaped character); underscores are left: the scan already reads them as separators.

Removing a character that a reader would see (a literal ``*``, an escaped ``[``) can only join
two words: the view may read more than a reader. What a character reference shows is kept as
it is, but for emphasis characters (``&#91;INST&#93;`` reads ``[INST]``, ``&#42;`` nothing).
Everything is one pass of one regex, with possessive repetition, plus C-level translations:
linear in the text.
"""

from __future__ import annotations

import functools
import html
import itertools
import re
import string
from array import array
from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate
from typing import Final

import attrs

__all__ = [
    "BLOCK_TAGS",
    "COLON_MAY_FOLLOW",
    "Unmarked",
    "emphasis_in_word",
    "has_markup",
    "has_sites",
    "joins_ascii_words",
    "splits_words",
    "unmarked",
    "unmarked_emphasis",
]

#: Tags that break a line or a box: read as a space, never as nothing.
BLOCK_TAGS: Final = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "caption", "dd", "details",
        "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
        "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p",
        "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr",
        "ul",
    }
)  # fmt: skip
#: Characters removed wherever they stand: emphasis, code spans, link brackets and the
#: backslash of an escape.
_EMPHASIS: Final = "*~`[]\\"
#: The emphasis characters a phrase's colon may follow in the scan ("**New instructions**:");
#: brackets and backslashes stop it.
COLON_MAY_FOLLOW: Final = "*~`"
_HINT: Final = re.compile(r"<[!/A-Za-z]|&[#A-Za-z]")
# A link destination: <…> or a run without blanks, with balanced parentheses one level deep
# (a "(" inside a nested pair ends the run, so a failed tail reads at most to the next "(").
_DESTINATION: Final = (
    r"(?:<(?:[^<>\n\\]|\\.)*+>"
    r"|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*+\))*+)"
)
_TITLE: Final = r"""(?:"(?:[^"\\]|\\.)*+"|'(?:[^'\\]|\\.)*+'|\((?:[^()\\]|\\.)*+\))"""
# Comments, tags and character references (what ``splits_words`` looks for).
_SPLITTING: Final = (
    r"<!--"
    r"|</?(?P<tag>[A-Za-z][A-Za-z0-9-]{0,30}+)(?:[ \t\r\n/][^<>]{0,500}+)?>"
    r"|&(?:#[0-9]{1,8}+|#[xX][0-9A-Fa-f]{1,7}+|[A-Za-z][A-Za-z0-9]{1,31}+);"
)
# Each regex opens with a lookahead on its first characters: the engine then skips ahead to
# them (about five times faster than trying every alternative at every position).
_SPLITTERS: Final = re.compile(f"(?=[<&])(?:{_SPLITTING})")
_MARKUP: Final = re.compile(
    r"(?=[<&\]!])(?:" + _SPLITTING + rf"|(?P<link>\]\(\s*+{_DESTINATION}(?:\s++{_TITLE})?+\s*+\)"
    r"|\]\[(?:[^\[\]\\]|\\.){0,999}+\]"
    r"|!(?=\[)))"
)


@functools.lru_cache(maxsize=4096)
def _widths(span: int, produced: int) -> bytes:
    """The widths of a markup span's code points: the first produces ``produced`` characters."""
    return bytes([produced]) + bytes(span - 1)


@functools.lru_cache(maxsize=4096)
def _decoded(reference: str) -> str:
    """What a character reference shows, less emphasis characters (a reader skips a literal
    ``*`` inside a word as readily as an emphasis one); brackets stay."""
    return html.unescape(reference).translate(_DROP_SHOWN)


def has_markup(text: str) -> bool:
    """Whether ``unmarked`` could change ``text`` (a cheap necessary condition)."""
    if any(c in text for c in _EMPHASIS):
        return True
    return ("<" in text or "&" in text) and _HINT.search(text) is not None


def splits_words(text: str) -> bool:
    """Whether the phrase rules could read more in ``unmarked(text)`` than in ``text``: when
    it holds a tag, comment, character reference, escape or link destination, or emphasis
    that ``emphasis_in_word`` finds. Other emphasis stands next to a blank or punctuation,
    where a phrase already allows a separator."""
    return has_sites(text) or emphasis_in_word(text)


def emphasis_in_word(text: str) -> bool:
    """Whether a run of emphasis characters or brackets in ``text`` has a letter-like
    character on both sides (``ig**nore**``, ``ig[nore]``), or a bracket or backslash stands
    before a colon with only blanks and emphasis between (``new instructions [:``): a
    phrase's colon may follow blanks and ``COLON_MAY_FOLLOW`` only. A run next to a colon is
    otherwise clear (``**Severity**:``)."""
    if any(c in text and p.search(text) is not None for c, p in _INSIDE_WORD):
        return True
    if not any(c in text for c in _HARD):
        return False
    back = text[::-1]
    if ":" in text and _COLON_BACKWARDS.search(back) is not None:
        return True
    return not text.isascii() and _NON_ASCII_BACKWARDS.search(back) is not None


def has_sites(text: str) -> bool:
    """Whether ``unmarked`` finds markup other than emphasis characters in ``text``: a tag,
    comment, character reference, link destination or label, or an image."""
    if _after("]", "([", text) or _after("[", "!", text, before=True):
        return True
    return ("<" in text or "&" in text) and _SPLITTERS.search(text) is not None


#: Up to this many places of a character, ``_after`` visits each (a memchr apiece); past it,
#: a substring search is quicker.
_FEW: Final = 64


def _after(char: str, others: str, text: str, *, before: bool = False) -> bool:
    """Whether ``char`` stands right before (``before``: right after) one of ``others`` in
    ``text``: found from the places of ``char`` when it is rare (a pair's substring search
    reads every character, a single character's is a memchr)."""
    at = text.find(char)
    for _ in range(_FEW):
        if at < 0:
            return False
        near = text[at - 1 : at] if before else text[at + 1 : at + 2]
        if near and near in others:
            return True
        at = text.find(char, at + 1)
    return at >= 0 and any((o + char if before else char + o) in text for o in others)


def joins_ascii_words(text: str) -> bool:
    """Whether removing emphasis characters from ``text`` can join two runs of ASCII letters
    and digits of its skeleton: a run of them stands between two characters that are not
    ASCII punctuation or blanks (a non-ASCII character may read as a letter)."""
    return any(c in text and p.search(text) is not None for c, p in _JOINING)


# Blanks and ASCII punctuation: what no skeleton reads as a letter.
_CLEAR: Final = re.escape(string.whitespace + string.punctuation)
_RUN: Final = re.escape(_EMPHASIS)
# An emphasis run inside a word; each regex starts with its own character so that the
# engine skips ahead to it.
_INSIDE_WORD: Final = tuple(
    (c, re.compile(f"{re.escape(c)}(?<=[^{_CLEAR}]{re.escape(c)})[{_RUN}]*+(?=[^{_CLEAR}])"))
    for c in _EMPHASIS
)
# Read backwards from a colon, or from a character whose skeleton may be one (any non-ASCII
# character; no ASCII one reads as a colon): blanks and the emphasis a colon may follow, then
# a bracket or backslash. Backwards, each run of blanks and emphasis is read once, from the
# one character after it; forwards, from every bracket in it (quadratic on "[[[["). The colon
# regex opens with its literal, so the engine skips ahead to each colon.
_HARD: Final = "".join(c for c in _EMPHASIS if c not in COLON_MAY_FOLLOW)
_PAST_COLON: Final = f"[\\s{re.escape(COLON_MAY_FOLLOW)}]*+[{re.escape(_HARD)}]"
_COLON_BACKWARDS: Final = re.compile(":" + _PAST_COLON)
_NON_ASCII_BACKWARDS: Final = re.compile("[^\\x00-\\x7f]" + _PAST_COLON)


_APART: Final = re.escape("".join(chr(i) for i in range(128) if not chr(i).isalnum()))
_JOINING: Final = tuple(
    (c, re.compile(f"{re.escape(c)}(?<=[^{_APART}]{re.escape(c)})[{_RUN}]*+(?=[^{_APART}])"))
    for c in _EMPHASIS
)


@attrs.frozen
class Unmarked:
    """The text without hiding markup, and the way back to the original.

    ``_original`` and ``_sites`` (each markup span and the length of what replaced it) are
    enough to map positions back; the map is built when ``spans`` first needs it.
    """

    text: str
    _original: str | None = attrs.field(repr=False)
    _sites: tuple[tuple[int, int, int], ...] = attrs.field(repr=False, default=())

    @property
    def changed(self) -> bool:
        return self._original is not None

    def _ends(self) -> array[int]:
        """``ends[i]``: the length of ``text`` produced by the original's first ``i + 1``
        code points."""
        original = self._original
        assert original is not None
        # One byte per code point (a non-ASCII one reads as "?", not emphasis): 0 for an
        # emphasis character, else 1.
        base = original.encode("ascii", "replace").translate(_EMPHASIS_ZERO)
        widths: list[bytes] = []
        kept = 0
        for start, end, produced in self._sites:
            widths.append(base[kept:start])
            widths.append(_widths(end - start, produced))
            kept = end
        widths.append(base[kept:])
        return array("q", accumulate(b"".join(widths)))

    def spans(self, ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        """Map ``[start, end)`` ranges of ``text`` (non-empty) to the original: from the code
        point that produced the first character through the markup that follows the last."""
        items = list(ranges)
        if self._original is None or not items:
            return items
        ends = self._ends()
        out = []
        for start, end in items:
            first = bisect_right(ends, start)
            last = bisect_right(ends, end - 1)
            out.append((first, bisect_right(ends, ends[last])))
        return out


def unmarked(text: str) -> Unmarked:
    """``text`` with hiding markup removed (see the module docstring)."""
    if not has_markup(text):
        return Unmarked(text, None)
    gaps: list[str] = []  # the text between markup spans
    shown: list[str] = []  # what each markup span shows
    sites: list[tuple[int, int, int]] = []
    kept = 0
    search = _MARKUP.search
    while (match := search(text, kept)) is not None:
        start, end = match.span()
        kind = match.lastgroup
        if kind == "link":
            replacement = ""
        elif kind == "tag":
            replacement = " " if match.group("tag").lower() in BLOCK_TAGS else ""
        elif end - start == 4 and text.startswith("<!--", start):
            close = text.find("-->", end)
            end = len(text) if close < 0 else close + 3
            replacement = ""
        else:
            replacement = _decoded(match.group(0))
        gaps.append(text[kept:start])
        shown.append(replacement)
        sites.append((start, end, len(replacement)))
        kept = end
    gaps.append(text[kept:])
    shown.append("")
    # What markup produced (a decoded "*" or "[") stays: the gaps alone lose their emphasis
    # characters, in one call when a separator is free.
    if "\x00" not in text:
        gaps = _dropped("\x00".join(gaps)).split("\x00")
    else:
        gaps = [_dropped(gap) for gap in gaps]
    body = "".join(itertools.chain.from_iterable(zip(gaps, shown, strict=True)))
    if body == text:
        return Unmarked(text, None)
    return Unmarked(body, text, tuple(sites))


def unmarked_emphasis(text: str) -> Unmarked:
    """``unmarked(text)`` for a text without ``has_sites``: only its emphasis characters go
    (one translation, no markup search)."""
    body = _dropped(text)
    return Unmarked(text, None) if body == text else Unmarked(body, text)


_DROP_SHOWN: Final = {ord(c): None for c in _EMPHASIS if c not in "[]"}
_EMPHASIS_BYTES: Final = _EMPHASIS.encode("ascii")
#: bytes.translate table: an emphasis character to 0, every other byte to 1.
_EMPHASIS_ZERO: Final = bytes(0 if chr(b) in _EMPHASIS else 1 for b in range(256))


def _dropped(piece: str) -> str:
    """``piece`` without emphasis characters (bytes.translate on ASCII: ~10x faster)."""
    if not any(c in piece for c in _EMPHASIS):
        return piece
    if piece.isascii():
        return piece.encode("ascii").translate(None, _EMPHASIS_BYTES).decode("ascii")
    # Every emphasis character is ASCII, and no byte of a non-ASCII character's UTF-8 is:
    # deleting bytes is exact, and C-fast where str.translate looks each character up.
    return (
        piece.encode("utf-8", "surrogatepass")
        .translate(None, _EMPHASIS_BYTES)
        .decode("utf-8", "surrogatepass")
    )
