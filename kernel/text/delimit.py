"""Delimiters that never collide with the content they wrap (shared).

Two tools, for two situations:

* **Fixed names** (the sprint contract's ``<phase1_output>`` … ``</phase1_output>``):
  ``wrap(content, name)`` escapes the content reversibly so that it holds no opening or
  closing delimiter of that name in any disguise, and ``unwrap`` is its exact inverse.
  ``escape(text, name)`` is the same escaping for text placed *outside* the pair (a paper),
  so that the whole document holds exactly one pair.
* **Nonce names** (the review panel's isolation blocks, companions.md §C):
  ``nonce_delimiter(content, nonce)`` returns a delimiter that does not occur in the content,
  and ``isolate`` / ``extract`` wrap and recover content between its START and END lines
  without touching the content at all.

A *delimiter occurrence* of ``name`` is an opener (``<``, or any character whose skeleton is
``<``: U+FF1C, U+2039, U+226E ...) followed by any run of whitespace and ``/`` and then the
name, all compared on skeletons (``kernel.skeleton``: NFKC, case-folded, zero-width and
other default-ignorable characters and combining marks removed, confusables mapped). This is
a superset of every case-insensitive spelling, so ``<PHASE1_OUTPUT``, ``< / phase1_output``
and ``<phase1\u200b_output`` all count.

Escaping replaces the opener of every occurrence by a character reference ``&#xHEX;`` and
every ``&`` that starts ``amp;`` or ``#x`` by ``&amp;``; nothing else changes.
"""

from __future__ import annotations

import functools
import re

import attrs

from kernel.errors import KernelError
from kernel.strict import shown
from kernel.text.skeleton import Skeleton, char_skeleton, skeletonize

__all__ = [
    "DelimiterHit",
    "Isolated",
    "delimiters_in",
    "escape",
    "extract",
    "find_delimiters",
    "isolate",
    "nonce_delimiter",
    "unescape",
    "unwrap",
    "wrap",
]

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
_NONCE = re.compile(r"[A-Za-z0-9]{1,64}")
_AMP = re.compile(r"&(?=amp;|#x)")
_REF = re.compile(r"&(?:amp|#x([0-9A-F]{1,6}));")


@attrs.frozen
class DelimiterHit:
    """One delimiter occurrence: ``span`` in the original text, ``closing`` if a ``/`` came
    between the opener and the name."""

    span: tuple[int, int]
    closing: bool


def _check_name(name: object) -> str:
    if not isinstance(name, str) or _NAME.fullmatch(name) is None:
        raise KernelError(
            f"delimiter name must be 1-64 ASCII letters, digits, '_' or '-' starting with a "
            f"letter, got {shown(name)}"
        )
    return name


@functools.lru_cache(maxsize=64)
def _pattern(name: str) -> re.Pattern[str]:
    sk = "".join(char_skeleton(c) for c in name)
    return re.compile(r"<([\s/]*+)" + re.escape(sk) + r"(?:\s*+>)?+")


def delimiters_in(sk: Skeleton, name: str) -> tuple[DelimiterHit, ...]:
    """``find_delimiters`` on an already computed skeleton (spans in its original text)."""
    _check_name(name)
    matches = list(_pattern(name).finditer(sk.text))
    spans = sk.spans((m.start(), m.end()) for m in matches)
    return tuple(
        DelimiterHit(span=span, closing="/" in m.group(1))
        for m, span in zip(matches, spans, strict=True)
    )


def find_delimiters(text: str, name: str) -> tuple[DelimiterHit, ...]:
    """Every occurrence of the delimiter ``name`` (opening or closing) in ``text``, in order.

    The span starts at the opener and ends after the name (and a directly following ``>``).
    """
    _check_name(name)
    if not isinstance(text, str):
        raise KernelError(f"text must be a string, got {type(text).__name__}")
    return delimiters_in(skeletonize(text), name)


def escape(text: str, name: str) -> str:
    """``text`` with every occurrence of delimiter ``name`` neutralised, reversibly.

    ``unescape(escape(t, name)) == t`` for every string ``t``, and
    ``find_delimiters(escape(t, name), name) == ()``. Use it for the wrapped content (``wrap``
    does) and for any other text placed in the same document.
    """
    hits = find_delimiters(text, name)
    replace = {hit.span[0] for hit in hits}
    replace.update(m.start() for m in _AMP.finditer(text))
    if not replace:
        return text
    out: list[str] = []
    last = 0
    for pos in sorted(replace):
        out.append(text[last:pos])
        out.append("&amp;" if text[pos] == "&" else f"&#x{ord(text[pos]):X};")
        last = pos + 1
    out.append(text[last:])
    return "".join(out)


def _unref(match: re.Match[str]) -> str:
    code = match.group(1)
    if code is None:
        return "&"
    value = int(code, 16)
    if value > 0x10FFFF:
        raise KernelError(
            f"bad character reference {shown(match.group(0))} at offset {match.start()}"
        )
    return chr(value)


def unescape(text: str) -> str:
    """The inverse of ``escape`` (for any delimiter name)."""
    if not isinstance(text, str):
        raise KernelError(f"text must be a string, got {type(text).__name__}")
    return _REF.sub(_unref, text)


def wrap(content: str, name: str) -> str:
    """``<name>``, a newline, the escaped content, a newline, ``</name>``.

    The result holds exactly one opening and one closing delimiter of ``name`` (in the sense
    of ``find_delimiters``), in that order, and ``unwrap(wrap(c, name), name) == c``.
    """
    _check_name(name)
    if not isinstance(content, str):
        raise KernelError(f"content must be a string, got {type(content).__name__}")
    return f"<{name}>\n{escape(content, name)}\n</{name}>"


def unwrap(wrapped: str, name: str) -> str:
    """The content of a ``wrap`` result; a ``KernelError`` for anything ``wrap`` cannot make."""
    _check_name(name)
    if not isinstance(wrapped, str):
        raise KernelError(f"wrapped text must be a string, got {type(wrapped).__name__}")
    head, tail = f"<{name}>\n", f"\n</{name}>"
    if not (wrapped.startswith(head) and wrapped.endswith(tail)) or len(wrapped) < len(head + tail):
        raise KernelError(f"not a <{name}> block: must start with {head!r} and end with {tail!r}")
    inner = wrapped[len(head) : len(wrapped) - len(tail)]
    stray = find_delimiters(inner, name)
    if stray:
        raise KernelError(f"unescaped <{name}> delimiter at offset {len(head) + stray[0].span[0]}")
    content = unescape(inner)
    if escape(content, name) != inner:
        raise KernelError(f"<{name}> block content is not in escaped form")
    return content


def nonce_delimiter(content: str, nonce: str, *, prefix: str = "REVIEW_TARGET") -> str:
    """A delimiter ``PREFIX_NONCE`` (plus a ``_99…`` suffix when needed) absent from content.

    Absent means its skeleton (see ``kernel.skeleton``) is not a substring of the content's
    skeleton, so no case, width, zero-width or look-alike variant of it occurs either. The
    nonce comes from the caller (the kernel draws no randomness).
    """
    if not isinstance(content, str):
        raise KernelError(f"content must be a string, got {type(content).__name__}")
    if not isinstance(nonce, str) or _NONCE.fullmatch(nonce) is None:
        raise KernelError(f"nonce must be 1-64 ASCII letters or digits, got {shown(nonce)}")
    _check_name(prefix)
    base = f"{prefix}_{nonce}"
    haystack = skeletonize(content).text
    needle = "".join(char_skeleton(c) for c in base)
    longest = -1
    pos = haystack.find(needle)
    while pos >= 0:
        after = pos + len(needle)
        run = 0
        if haystack.startswith("_", after):
            while haystack.startswith("9", after + 1 + run):
                run += 1
        longest = max(longest, run)
        pos = haystack.find(needle, pos + 1)
    if longest < 0:
        return base
    return f"{base}_{'9' * (longest + 1)}"


@attrs.frozen
class Isolated:
    """Content isolated between ``<delimiter>_START`` and ``<delimiter>_END`` lines."""

    delimiter: str
    text: str


def isolate(content: str, nonce: str, *, prefix: str = "REVIEW_TARGET") -> Isolated:
    """Wrap ``content`` unchanged between START/END lines of a fresh nonce delimiter."""
    delimiter = nonce_delimiter(content, nonce, prefix=prefix)
    return Isolated(delimiter, f"{delimiter}_START\n{content}\n{delimiter}_END")


def extract(text: str, delimiter: str) -> str:
    """The content of an ``isolate`` result, given its delimiter."""
    if not isinstance(text, str) or not isinstance(delimiter, str):
        raise KernelError("text and delimiter must be strings")
    head, tail = f"{delimiter}_START\n", f"\n{delimiter}_END"
    if len(text) < len(head + tail) or not (text.startswith(head) and text.endswith(tail)):
        raise KernelError(f"not an isolated block for delimiter {shown(delimiter)}")
    inner = text[len(head) : len(text) - len(tail)]
    if delimiter in inner:
        raise KernelError(f"delimiter {shown(delimiter)} occurs inside the isolated content")
    return inner
