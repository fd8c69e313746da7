"""Seat labels from a roadmap's free-text ``reviewer`` (design §2.4, label normalization)."""

from __future__ import annotations

import re
import unicodedata
from typing import Final

import attrs

from kernel.errors import KernelError
from kernel.strict import shown

__all__ = ["ReviewerLabels", "normalize_reviewer_labels"]

_SPLIT: Final = re.compile(r",|/|;| and |&")
_SEAT: Final = re.compile(r"(?:(?:peer )?reviewer |r)([1-3])")
_NAMED: Final = {
    "eic": "EIC",
    "editor-in-chief": "EIC",
    "da": "DA",
    "devil's advocate": "DA",
    "devil\u2019s advocate": "DA",
}


@attrs.frozen
class ReviewerLabels:
    """The seat labels read from a ``reviewer`` string, in first-seen order, and whether a
    non-blank string gave none."""

    labels: tuple[str, ...]
    parse_failure: bool


def _without_groups(text: str) -> str:
    """``text`` with every balanced ``( … )`` group removed, as deleting innermost groups
    until none is left does (an unmatched parenthesis stays), in one pass."""
    opened: list[int] = []
    cut = [0] * (len(text) + 1)
    for i, ch in enumerate(text):
        if ch == "(":
            opened.append(i)
        elif ch == ")" and opened:
            start = opened.pop()
            cut[start] += 1
            cut[i + 1] -= 1
    out, depth = [], 0
    for i, ch in enumerate(text):
        depth += cut[i]
        if depth == 0:
            out.append(ch)
    return "".join(out)


def normalize_reviewer_labels(raw: str) -> ReviewerLabels:
    """Seat labels (``EIC``, ``R1`` to ``R3``, ``DA``) named by ``raw``: NFC, parenthesised
    groups dropped, cut at the first `` — ``, split on ``, / ; & `` and `` and ``, each piece
    stripped and case-folded and matched whole; duplicates dropped."""
    if not isinstance(raw, str):
        raise KernelError(f"reviewer must be a string, got {shown(raw)}")
    text = _without_groups(unicodedata.normalize("NFC", raw))
    text = text.split(" \u2014 ", 1)[0]
    labels: list[str] = []
    for piece in _SPLIT.split(text):
        word = piece.strip().casefold()
        if not word:
            continue
        seat = _SEAT.fullmatch(word)
        label = f"R{seat.group(1)}" if seat else _NAMED.get(word)
        if label is not None and label not in labels:
            labels.append(label)
    return ReviewerLabels(tuple(labels), bool(raw.strip()) and not labels)
