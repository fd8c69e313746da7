"""Markup spans removed in linear time.

A pattern such as ``<[^>]*>`` fails at a ``<`` that no ``>`` follows only after reading the
rest of the text, so a long run of such openers costs time quadratic in its length. No match
can begin with such an opener: :func:`sub_closed` masks them while the pattern runs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["sub_closed"]

#: Private-use planes and beyond: a text of at most 1 MiB cannot hold all of them.
_MASKS = range(0xE000, 0x110000)


def sub_closed(pattern: re.Pattern[str], repl: str, text: str, pairs: Mapping[str, str]) -> str:
    """``pattern.sub(repl, text)``, with each opener of ``pairs`` (opener → closer) that no
    closer follows masked by a character the text lacks while the pattern runs. Exact for a
    pattern that takes an opener literally only where its closer must follow, and whose
    other parts read the mask as they read the opener (a negated class naming neither)."""
    cut = {o: text.rfind(c) + 1 for o, c in pairs.items()}
    unclosed = [o for o, at in cut.items() if o in text[at:]]
    if not unclosed:
        return pattern.sub(repl, text)
    present = set(text)
    masks = (chr(c) for c in _MASKS if chr(c) not in present)
    undo: dict[int, str] = {}
    for opener in unclosed:
        mask = next(masks)
        at = cut[opener]
        text = text[:at] + text[at:].replace(opener, mask)
        undo[ord(mask)] = opener
    return pattern.sub(repl, text).translate(undo)
