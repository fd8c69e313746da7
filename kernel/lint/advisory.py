"""Advisory scan of reviewer output for instruction-override text (wire-format.md Phase 1
check 6). Warnings only: it never fails a lint.

A small, local stand-in for the panel's ``scan_injection``: it looks, case-insensitively and
across any run of white space, for imperative override phrases ("ignore previous
instructions", "disregard the above rules", "you are now", "new instructions:") and for any
opening or closing ``phase1_output`` delimiter, including ones with spaces, a ``/`` or
zero-width characters inside.
"""

from __future__ import annotations

import re
from typing import Final

import attrs

__all__ = ["AdvisoryHit", "scan"]

_IGNORABLE: Final = "\u00ad\u034f\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff"
_Z: Final = f"[{_IGNORABLE}]*"
_W: Final = r"[\s" + _IGNORABLE + r"]+"

_PATTERNS: Final = (
    (
        "instruction_override",
        r"\b(?:ignore|disregard|forget|override|bypass)"
        + _W
        + r"(?:(?:all|any|the|of|your|my)"
        + _W
        + r"){0,3}(?:previous|prior|above|earlier|preceding|system|original)"
        + _W
        + r"(?:instructions?|prompts?|rules?|directions?|guidelines?|commitments?)\b",
    ),
    ("role_override", r"\byou" + _W + r"are" + _W + r"now\b"),
    ("instruction_override", r"\bnew" + _W + r"instructions?" + _W.replace("+", "*") + ":"),
    (
        "forged_delimiter",
        "[<\uff1c\u2039\u27e8\u3008\ufe64]"
        + r"[\s/"
        + _IGNORABLE
        + r"]*"
        + _Z.join("phase1")
        + _Z
        + r"[_\-\s]?"
        + _Z
        + _Z.join("output"),
    ),
)
_SCAN: Final = re.compile(
    "|".join(f"(?P<g{i}>{p})" for i, (_, p) in enumerate(_PATTERNS)), re.IGNORECASE
)
_LINE_END: Final = re.compile(r"\r\n|\r|\n")


@attrs.frozen
class AdvisoryHit:
    category: str
    #: Character offsets in the scanned text.
    span: tuple[int, int]
    line: int
    excerpt: str


def scan(text: str) -> list[AdvisoryHit]:
    """Every advisory hit in ``text``, in order (line numbers by CommonMark line endings)."""
    hits: list[AdvisoryHit] = []
    line = 1
    pos = 0
    for m in _SCAN.finditer(text):
        line += len(_LINE_END.findall(text, pos, m.start()))
        pos = m.start()
        category = next(_PATTERNS[i][0] for i in range(len(_PATTERNS)) if m.group(f"g{i}"))
        excerpt = " ".join(m.group(0).split())
        hits.append(AdvisoryHit(category, m.span(), line, excerpt[:80]))
    return hits
