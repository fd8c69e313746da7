"""R20: the readings of a 13.2 document, held together.

A 13.2 document is read three ways, and the kernel never takes the more lenient one:

* the **block reading** (the kernel's): CommonMark blocks (:mod:`kernel.text.markdown`);
* the **line reading** (upstream's, 13.2 §E0): line by line at column 0, after dropping the
  fenced blocks of §E0.2, with ``## ``/``### ``/``#### `` headings at column 0 (§E0.3);
* the **rendered page** a person reads: the document rendered by markdown-it and read by an
  HTML parser as a browser shows it (:mod:`kernel.text.rendered`): character references
  decoded, the content of ``<template>``, ``hidden`` elements, comments (one left open hides
  the rest) and the like dropped, each piece of text mapped back to its source line.

Where they differ on a heading (levels 2 to 4) or a field line, the document fails with a
finding; a field written any other way where a field belongs (field-shaped, §F10.3) fails
too (as written, or as the page shows it); raw HTML other than the few of
:data:`~kernel.text.rendered.ALLOWED_TAGS` (and comments) in a field's section fails; and a
field line outside its own place fails (dialect 13's check 8, for 13.2). Every
``Default_Ignorable_Code_Point`` is removed and every confusable look-alike mapped to its
ASCII prototype before a line's field shape is read, so neither can disguise a field.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from typing import Final

import attrs

from kernel.text.markdown import Block, Document
from kernel.text.rendered import ALLOWED_TAGS, Rendered, rendered
from kernel.text.skeleton import fold_table

__all__ = [
    "MARKUP",
    "Disagreement",
    "Owner",
    "Readings",
    "comment_open_after",
    "disagreements",
    "field_shapes",
    "hidden_lines",
    "letters",
    "line_shapes",
    "misplaced",
    "readings",
    "visible",
    "without_tags",
]

#: (``##`` title, ``###`` title) a line belongs to; ``None`` where there is none.
Owner = tuple[str | None, str | None]

#: Markup removed before a line's field shape is read (13.2 §F10.3), after tags
#: (:func:`without_tags`): link targets, reference labels, task boxes.
MARKUP: Final = re.compile(r"\]\((?:[^()\n]|\([^()\n]*\))*\)|\]\[[^\]\n]*\]|\[[ xX]\]")
_PREFIXES: Final = ((2, "## "), (3, "### "), (4, "#### "))


@attrs.frozen
class Readings:
    doc: Document
    #: Fenced blocks, first line → last line (1-based, inclusive): §E0.2 and CommonMark.
    line_fences: Mapping[int, int]
    block_fences: Mapping[int, int]
    line_fenced: frozenset[int]
    block_fenced: frozenset[int]
    #: line → (level, title) of each heading of level 2 to 4, per reading.
    line_headings: Mapping[int, tuple[int, str]]
    block_headings: Mapping[int, tuple[int, str]]
    #: Lines of paragraphs and headings the rendered page does not show as written (hidden
    #: by HTML or a comment left open, changed by a character reference or inline HTML).
    hidden: frozenset[int]
    #: Per line (index = line - 1), its owner by each reading.
    line_owners: tuple[Owner, ...]
    block_owners: tuple[Owner, ...]
    #: The rendered page.
    page: Rendered

    def fenced_by_both(self, n: int) -> bool:
        return n in self.line_fenced and n in self.block_fenced


def _fence_run(line: str, chars: str) -> tuple[str, int, str] | None:
    """(fence character, run length, rest) when ``line`` holds at most three spaces and then
    a run of three or more of one of ``chars``."""
    body = line.lstrip(" ")
    if len(line) - len(body) > 3 or body[:1] not in chars or not body:
        return None
    char = body[0]
    rest = body.lstrip(char)
    run = len(body) - len(rest)
    return (char, run, rest) if run >= 3 else None


def line_fences(lines: tuple[str, ...]) -> dict[int, int]:
    """The fenced blocks of 13.2 §E0.2: an opener (a backtick run whose info string holds a
    backtick is no opener) runs to a closer of the same character, at least as long, with
    only spaces and tabs after it, or to the end."""
    out: dict[int, int] = {}
    i, count = 0, len(lines)
    while i < count:
        opener = _fence_run(lines[i], "`~")
        if opener is None or (opener[0] == "`" and "`" in opener[2]):
            i += 1
            continue
        char, run, _ = opener
        j = i + 1
        while j < count:
            closer = _fence_run(lines[j], char)
            if closer is not None and closer[1] >= run and not closer[2].strip(" \t"):
                break
            j += 1
        end = min(j, count - 1)
        out[i + 1] = end + 1
        i = end + 1
    return out


def _spread(fences: Mapping[int, int]) -> frozenset[int]:
    return frozenset(n for a, b in fences.items() for n in range(a, b + 1))


def _line_headings(lines: tuple[str, ...], fenced: frozenset[int]) -> dict[int, tuple[int, str]]:
    """``^## (.+?)\\s*$`` and its ``###``/``####`` siblings on unfenced lines (§E0.3)."""
    out: dict[int, tuple[int, str]] = {}
    for n, text in enumerate(lines, start=1):
        if not text.startswith("##") or n in fenced:
            continue
        for level, prefix in _PREFIXES:
            if text.startswith(prefix):
                rest = text[len(prefix) :]
                if rest:
                    out[n] = (level, rest.rstrip() or rest[0])
                break
    return out


def _block_headings(blocks: Iterable[Block]) -> dict[int, tuple[int, str]]:
    return {
        b.line: (b.level, b.title)
        for b in blocks
        if b.kind == "heading" and b.atx and b.structural and 2 <= b.level <= 4
    }


def comment_open_after(text: str, open_: bool) -> bool:
    """Whether a comment is open after raw HTML ``text`` (``open_``: one was open before it),
    as a browser reads comments: ``<!--`` opens (``<!-->`` and ``<!--->`` close at once),
    the next ``-->`` closes."""
    pos = 0
    while True:
        if open_:
            k = text.find("-->", pos)
            if k < 0:
                return True
            pos, open_ = k + 3, False
        else:
            k = text.find("<!--", pos)
            if k < 0:
                return False
            pos = k + 4
            if text.startswith(">", pos):
                pos += 1
            elif text.startswith("->", pos):
                pos += 2
            else:
                open_ = True


def hidden_lines(blocks: Iterable[Block]) -> frozenset[int]:
    """The lines of ``blocks`` a rendered page hides behind a ``<!--`` an HTML block leaves
    open (up to the next HTML block holding ``-->``)."""
    hidden: set[int] = set()
    open_ = False
    for b in blocks:
        if open_:
            hidden.update(range(b.line, b.end + 1))
        if b.kind == "html":
            open_ = comment_open_after(b.text, open_)
    return frozenset(hidden)


def _owners(count: int, headings: Mapping[int, tuple[int, str]]) -> tuple[Owner, ...]:
    out: list[Owner] = []
    h2: str | None = None
    h3: str | None = None
    for n in range(1, count + 1):
        heading = headings.get(n)
        if heading is not None:
            level, title = heading
            if level == 2:
                h2, h3 = title, None
            elif level == 3:
                h3 = title
        out.append((h2, h3))
    return tuple(out)


#: The last documents read, by identity: hashing a document (every block) cost more than
#: looking it up; the parser hands the same value back for the same text.
_READ: dict[int, Readings] = {}
_KEPT = 2


def readings(doc: Document) -> Readings:
    """Every reading of ``doc``, computed once (linear in its size)."""
    held = _READ.get(id(doc))
    if held is not None and held.doc is doc:
        return held
    made = _readings(doc)
    _READ.pop(id(doc), None)
    _READ[id(doc)] = made
    while len(_READ) > _KEPT:
        del _READ[next(iter(_READ))]
    return made


def forget_readings() -> None:
    """Drop the documents kept (a benchmark timing a first reading calls it)."""
    _READ.clear()


def _readings(doc: Document) -> Readings:
    fences = line_fences(doc.lines)
    line_fenced = _spread(fences)
    blocks = {b.line: b.end for b in doc.blocks if b.fenced}
    line_headings = _line_headings(doc.lines, line_fenced)
    block_headings = _block_headings(doc.blocks)
    count = len(doc.lines)
    page = rendered(doc)
    return Readings(
        doc,
        fences,
        blocks,
        line_fenced,
        _spread(blocks),
        line_headings,
        block_headings,
        hidden_lines(doc.blocks) | page.altered,
        _owners(count, line_headings),
        _owners(count, block_headings),
        page,
    )


def field_shapes(line: str) -> set[str]:
    """The letters before the first colon of ``line`` as a reader may take it: with comment
    markers blanked (a commented field) and with comments removed (text beside a comment),
    each after NFKC, case folding, removal of every default-ignorable code point and of
    markup spans (13.2 §F10.3, R20), with confusable look-alikes mapped to ASCII
    (:func:`~kernel.text.skeleton.fold_table`). Empty when the line has no colon."""
    if line.isascii():
        if ":" not in line:
            return set()
        if "<" not in line and ">" not in line and "]" not in line:
            # No comment, tag or markup span: both readings are the line, lower-cased.
            return {letters(line.partition(":")[0].lower())}
    blanked = line.replace("<!--", "    ").replace("-->", "   ")
    shapes: set[str] = set()
    for text in (blanked, _without_comments(line)):
        folded = unicodedata.normalize("NFKC", text).casefold()
        if not folded.isascii():
            folded = folded.translate(fold_table()).lower()
        head, colon, _ = MARKUP.sub("", without_tags(folded)).partition(":")
        if colon:
            shapes.add(letters(head))
    return shapes


def line_shapes(r: Readings, n: int) -> set[str]:
    """:func:`field_shapes` of line ``n`` as written and as the rendered page shows it."""
    text = r.doc.lines[n - 1]
    shapes = field_shapes(text)
    shown = r.page.shown.get(n)
    if shown is not None and shown.strip() != text.strip():
        shapes |= field_shapes(shown)
    return shapes


#: ``bytes.translate`` deletion set: every ASCII character that is not a letter.
_ASCII_NON_LETTERS: Final = bytes(b for b in range(128) if not chr(b).isalpha())


def letters(text: str) -> str:
    """The letters (``str.isalpha``) of ``text``, in order."""
    if text.isascii():
        return text.encode("ascii").translate(None, _ASCII_NON_LETTERS).decode("ascii")
    return "".join(filter(str.isalpha, text))


def without_tags(text: str) -> str:
    """``text`` without its ``<…>`` spans (``<[^>\n]*>``, leftmost first), in one pass: once
    no ``>`` follows a ``<``, none follows a later one either."""
    if "<" not in text:
        return text
    out: list[str] = []
    pos = 0
    while (start := text.find("<", pos)) >= 0:
        stop = text.find(">", start + 1)
        if stop < 0:
            break
        newline = text.find("\n", start + 1, stop)
        if newline >= 0:  # a span never crosses a line break
            out.append(text[pos:newline])
            pos = newline
            continue
        out.append(text[pos:start])
        pos = stop + 1
    out.append(text[pos:])
    return "".join(out)


def _without_comments(line: str) -> str:
    """``line`` with each ``<!-- … -->`` (and an unclosed ``<!--`` to its end) removed; a
    ``-->`` with no opener before it is removed too."""
    if "<!--" not in line and "-->" not in line:
        return line
    out: list[str] = []
    pos = 0
    opener = line.find("<!--")
    while True:
        closer = line.find("-->", pos)
        if opener < 0 or (0 <= closer < opener):
            if closer < 0:
                out.append(line[pos:])
                break
            out.append(line[pos:closer])  # a closer with no opener
            pos = closer + 3
            continue
        out.append(line[pos:opener])
        closer = line.find("-->", opener + 4)
        if closer < 0:
            break
        pos = closer + 3
        opener = line.find("<!--", pos)
    return " ".join(out)


@attrs.frozen
class Disagreement:
    line: int
    #: The field's key, or ``None`` for a heading.
    key: str | None
    why: str


def _where(doc: Document, starts: list[int], n: int) -> str:
    i = bisect_right(starts, n) - 1
    block = doc.blocks[i] if i >= 0 and doc.blocks[i].end >= n else None
    if block is None:
        return "no block"
    if block.quoted:
        return "a block quote (a line continuing a quote is part of it)"
    if block.fenced:
        return "fenced code"
    if block.kind == "html":
        return "an HTML block or comment"
    if block.kind == "heading":
        return "a heading (a setext underline follows it)"
    if block.kind == "code":
        return "indented code"
    if block.listed:
        return "a list item (a line continuing a list item is part of it)"
    return "no paragraph"


def _pattern_key(text: str, patterns: Mapping[str, re.Pattern[str]]) -> str | None:
    key = text.partition(":")[0]
    pattern = patterns.get(key)
    return key if pattern is not None and pattern.fullmatch(text) else None


def disagreements(
    r: Readings,
    patterns: Mapping[str, re.Pattern[str]],
    shaped: Mapping[str, Callable[[Owner], bool]],
    strict: Callable[[Owner], bool] | None = None,
) -> list[Disagreement]:
    """Where the readings differ (R20), in line order, at most one per line:

    * a heading of level 2 to 4 that one reading has and the other has not, or with
      another level or title;
    * a canonical field line (a key of ``patterns``) that one reading counts and the other
      does not, or that the rendered page hides;
    * a line shaped as a field of ``shaped``'s keys (letters before the colon, see
      :func:`field_shapes`) where that key's region (``shaped[key](owner)`` under either
      reading) holds it, outside code both readings fence, that is not a canonical field
      line under every reading. Lines the block reading takes for a decorated key line
      (``- score: x``, ``**score**: x``) are left to the caller's own finding. The line
      is read as written and as the rendered page shows it (``score&#58; x``);
    * with ``strict``, and no field line found above, the first line of a region
      ``strict`` holds (under either reading) with raw HTML other than comments and
      attribute-free :data:`~kernel.text.rendered.ALLOWED_TAGS`: CSS can hide or move text
      the parser reads as shown.
    """
    doc = r.doc
    found: dict[int, Disagreement] = {}
    if r.page.over is not None:
        found[1] = Disagreement(
            1, None, f"cannot be compared with the rendered page: {r.page.over}"
        )
    for n in sorted(set(r.line_headings) | set(r.block_headings)):
        line_heading, block_heading = r.line_headings.get(n), r.block_headings.get(n)
        if line_heading != block_heading and n not in found:
            found[n] = Disagreement(n, None, _heading_why(line_heading, block_heading))
    keyed: set[int] = set()
    block_fields: dict[int, str] = {}
    for b in doc.blocks:
        for kv in b.keys:
            if kv.key in patterns or kv.key in shaped:
                keyed.add(kv.line)
                key = _pattern_key(doc.lines[kv.line - 1], patterns)
                if key is not None and not b.listed:
                    block_fields[kv.line] = key
    line_fields: dict[int, str] = {}
    for n, text in enumerate(doc.lines, start=1):
        if ":" in text and n not in r.line_fenced:
            key = _pattern_key(text, patterns)
            if key is not None:
                line_fields[n] = key
    starts = [b.line for b in doc.blocks]
    for n, key in line_fields.items():
        if n not in block_fields and n not in keyed and n not in found:
            found[n] = Disagreement(
                n,
                key,
                f"is a field line at column 0 for the line reading (13.2 §E0) but sits in "
                f"{_where(doc, starts, n)} for CommonMark",
            )
    for n, key in block_fields.items():
        if n in found:
            continue
        if n not in line_fields:
            found[n] = Disagreement(
                n, key, "is inside a fence for the line reading (13.2 §E0.2) but not for CommonMark"
            )
        elif n in r.hidden:
            found[n] = Disagreement(
                n,
                key,
                "is not shown as written on the rendered page: HTML hides or changes it (a "
                "comment left open before it, '<template>', a 'hidden' element, inline HTML "
                "or a character reference)",
            )
    if shaped:
        letters = {k.replace("_", ""): k for k in shaped}
        wanted_by: dict[tuple[Owner, Owner], set[str]] = {}
        for n in range(1, len(doc.lines) + 1):
            if n in found or n in keyed or r.fenced_by_both(n):
                continue
            owners = (r.block_owners[n - 1], r.line_owners[n - 1])
            wanted = wanted_by.get(owners)
            if wanted is None:
                wanted = {s for s, k in letters.items() if any(map(shaped[k], owners))}
                wanted_by[owners] = wanted
            if not wanted:
                continue
            for shape in line_shapes(r, n) & wanted:
                key = letters[shape]
                if block_fields.get(n) == key and line_fields.get(n) == key:
                    continue
                found[n] = Disagreement(
                    n,
                    key,
                    "is written as a field but is no canonical field line for every reading "
                    "(bulleted, quoted, decorated, commented, spelled with other case, "
                    "spacing, look-alike or invisible characters, or shown by a character "
                    "reference or escape)",
                )
                break
    if strict is not None and not any(d.key is not None for d in found.values()):
        for n, tags in sorted(r.page.tags.items()):
            if n in found or n > len(r.block_owners):
                continue
            if not (strict(r.block_owners[n - 1]) or strict(r.line_owners[n - 1])):
                continue
            other = [t for t, attrs in tags if t != "!--" and (attrs or t not in ALLOWED_TAGS)]
            if other:
                found[n] = Disagreement(
                    n,
                    None,
                    f"holds raw HTML ('<{other[0]}>') in a field's section: the rendered page "
                    "may show other text than the readings; only comments and "
                    f"{', '.join(f'<{t}>' for t in sorted(ALLOWED_TAGS))} without attributes "
                    "may stand there",
                )
                break
    return [found[n] for n in sorted(found)]


def _heading_why(line: tuple[int, str] | None, block: tuple[int, str] | None) -> str:
    def shown(h: tuple[int, str] | None) -> str:
        return "no heading" if h is None else f"the heading '{'#' * h[0]} {h[1]}'"

    return (
        f"reads as {shown(block)} for CommonMark and as {shown(line)} for the line reading "
        "(13.2 §E0.3: '## ', '### ' or '#### ' at column 0, outside fences)"
    )


def misplaced(
    r: Readings,
    patterns: Mapping[str, re.Pattern[str]],
    places: Mapping[str, Callable[[Owner], bool]],
    skip: Iterable[int] = (),
) -> list[tuple[int, str]]:
    """(line, key) of each field line of ``places``' keys, canonical for either reading or
    a decorated key line of the block reading, that is not in its place
    (``places[key](owner)`` false under either reading); ``skip``: lines already reported."""
    doc = r.doc
    skipped = set(skip)
    lines: dict[int, str] = {}
    for b in doc.blocks:
        for kv in b.keys:
            if kv.key in places and not b.quoted:
                lines[kv.line] = kv.key
    for n, text in enumerate(doc.lines, start=1):
        if ":" in text and n not in r.line_fenced:
            key = _pattern_key(text, patterns)
            if key is not None and key in places:
                lines[n] = key
    return [
        (n, key)
        for n, key in sorted(lines.items())
        if n not in skipped
        and not (places[key](r.block_owners[n - 1]) and places[key](r.line_owners[n - 1]))
    ]


def visible(r: Readings, n: int) -> bool:
    """Whether every reading sees line ``n`` as written (the caller knows the block reading
    does)."""
    return n not in r.line_fenced and n not in r.hidden
