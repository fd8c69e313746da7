"""Evidence anchors of 13.2 Review Body findings and DA rows (13.2 §F11.2)."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["ANCHOR_TYPES", "anchor_problem"]

ANCHOR_TYPES: Final = ("text", "table", "figure", "equation", "dataset", "absence")
_TYPED: Final = re.compile(
    r"(?P<type>" + "|".join(ANCHOR_TYPES) + r"):\s*(?P<tail>\S.*)", re.IGNORECASE | re.DOTALL
)
_MAX_EXCERPT_WORDS: Final = 25
_ABSENCE: Final = "absence anchor needs <where> — expected <item>; checked <surfaces>"
_TEXT: Final = "text anchor needs balanced quoted excerpts of at most 25 words"


def _unwrap(value: str, opener: str, closer: str, name: str) -> tuple[str, str | None]:
    if not value.startswith(opener):
        return value, None
    if len(value) < 2 or not value.endswith(closer):
        return value, f"unpaired {name} wrapper"
    inner = value[1:-1]
    if inner != inner.strip():
        return value, f"padded {name} wrapper"
    return inner, None


def anchor_problem(value: str) -> tuple[str, str] | None:
    """``None`` for a valid anchor, else (tag, reason): tag ``ANCHOR-MISSING`` or
    ``ANCHOR-INVALID``."""
    value = value.strip()
    for opener, closer, name in (("[", "]", "square"), ("`", "`", "backtick")):
        value, problem = _unwrap(value, opener, closer, name)
        if problem is not None:
            return "ANCHOR-INVALID", problem
    m = _TYPED.fullmatch(value)
    if m is None:
        return ("ANCHOR-MISSING" if not value else "ANCHOR-INVALID"), "expected typed anchor"
    tail = m.group("tail")
    if not _balanced(tail):
        return "ANCHOR-INVALID", "locator delimiters must be balanced"
    kind = m.group("type").lower()
    if kind == "text" and not _quoted_excerpts_ok(tail):
        return "ANCHOR-INVALID", _TEXT
    if kind == "absence" and not _absence_ok(tail):
        return "ANCHOR-INVALID", _ABSENCE
    return None


def _balanced(tail: str) -> bool:
    depth = 0
    for c in tail:
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0 and tail.count("`") % 2 == 0


def _quoted_excerpts_ok(tail: str) -> bool:
    """Quotes scanned left to right with a stack: ``“`` opens, ``”`` closes a curly one,
    ``"`` closes a straight one on top or opens one. Every excerpt (nested ones too)
    non-blank and at most 25 words; at least one."""
    stack: list[tuple[str, int]] = []
    excerpts: list[str] = []
    for i, c in enumerate(tail):
        if c == "\u201c":
            stack.append(("curly", i))
        elif c == "\u201d":
            if not stack or stack[-1][0] != "curly":
                return False
            excerpts.append(tail[stack.pop()[1] + 1 : i])
        elif c == '"':
            if stack and stack[-1][0] == "straight":
                excerpts.append(tail[stack.pop()[1] + 1 : i])
            else:
                stack.append(("straight", i))
    if stack or not excerpts:
        return False
    return all(e.strip() and len(e.split()) <= _MAX_EXCERPT_WORDS for e in excerpts)


def _absence_ok(tail: str) -> bool:
    if tail.count(" \u2014 expected ") != 1 or tail.count("; checked ") != 1:
        return False
    where, _, rest = tail.partition(" \u2014 expected ")
    item, sep, checked = rest.partition("; checked ")
    return bool(sep) and all(part.strip() for part in (where, item, checked))
