"""The consistency tokeniser (wire-format.md Phase 2 check 5).

Rule, exactly:

* A *word* is a maximal run of characters for which ``str.isalnum()`` is true (Unicode
  letters and digits). Everything else separates words: spaces, punctuation, ``_``, ``-``,
  apostrophes, markdown syntax, zero-width and format characters.
* Words are compared after ``str.casefold()``; there is no other normalisation, so a
  look-alike letter (Cyrillic U+0430 for Latin ``a``) makes a different word.
* A *token* of a trigger is a word of the trigger that is at least two characters long and
  not in :data:`STOP_WORDS`.
* A trigger is met when at least one of its tokens is a word of the Review Body (whole-word
  match: ``size`` does not match ``sizes`` or ``oversize``). A trigger without tokens can
  never be met.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["STOP_WORDS", "trigger_tokens", "words"]

#: English function words, negations and auxiliaries: they say nothing about *what* a
#: reviewer committed to look for.
STOP_WORDS: Final = frozenset(
    """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    either even ever every few for from further had has have having he her here hers him his
    how however i if in into is it its itself just least less may me might more most much
    must my neither never no nor not now of off on once only or other our ours out over own
    per quite rather same shall she should so some such than that the their theirs them then
    there these they this those through thus to too under until up upon us very via was we
    were what when where whether which while who whom whose why will with within without
    would yet you your yours
    """.split()  # noqa: SIM905
)


#: A word: a maximal run of characters for which ``str.isalnum()`` is true (``re``'s ``\w``
#: is exactly ``isalnum()`` or ``_``).
_WORD: Final = re.compile(r"[^\W_]+")
#: UTF-8 bytes with every ASCII character that is not a letter or digit turned into a space
#: (bytes of multi-byte characters are never ASCII, so they pass unchanged).
_ASCII_SEPARATORS: Final = bytes(b if b >= 0x80 or chr(b).isalnum() else 0x20 for b in range(256))


def words(text: str) -> set[str]:
    """The case-folded words of ``text``.

    The ASCII separators go in one C-speed pass; only the distinct pieces left that still
    hold a non-ASCII separator (an NBSP, a curly quote) are split by the word pattern.
    """
    found: set[str] = set()
    for raw in set(text.encode("utf-8", "surrogatepass").translate(_ASCII_SEPARATORS).split()):
        piece = raw.decode("utf-8", "surrogatepass")
        if piece.isalnum():
            found.add(piece.casefold())
        else:
            found.update(w.casefold() for w in _WORD.findall(piece))
    return found


class WordLookup:
    """Whether a text has any of some words (case-folded), answered without building the
    text's whole word set while only a few words have been asked about: in ASCII text each
    word is looked for, between separators, in one C-speed pass."""

    #: Words looked for one by one before the whole set is built instead.
    SINGLE_LOOKUPS: Final = 16

    def __init__(self, text: str) -> None:
        self._text = text
        self._all: set[str] | None = None
        self._padded: bytes | None = None
        self._asked = 0

    def has_any(self, wanted: frozenset[str]) -> bool:
        self._asked += len(wanted)
        if self._all is None and self._asked <= self.SINGLE_LOOKUPS and self._text.isascii():
            if self._padded is None:  # ASCII: case-folding is lower()
                self._padded = (
                    b" " + self._text.lower().encode().translate(_ASCII_SEPARATORS) + b" "
                )
            padded = self._padded
            return any(f" {w} ".encode("utf-8", "surrogatepass") in padded for w in wanted)
        if self._all is None:
            self._all = words(self._text)
        return not self._all.isdisjoint(wanted)


def trigger_tokens(trigger: str) -> frozenset[str]:
    """The tokens of a trigger: its words minus stop words and one-character words."""
    return frozenset(w for w in words(trigger) if len(w) >= 2 and w not in STOP_WORDS)
