"""The one reading of 13.2 documents (13.2 §E0), on the CommonMark blocks of the 13 lints.

* Sections: ATX ``##`` headings outside block quotes and list items open them; each runs to
  the next such heading. ``###`` subsections split a section the same way.
* Field lines: the ``key: value`` lines of unquoted paragraphs, found as the 13 lints find
  them (so fences, indented code, HTML blocks and comments hide them). A field line of a
  known field counts only when it is *canonical*: at column 0 of its source line, not in a
  list item, the bare key, one space, the value (the field's own pattern). A known field
  written any other way (bulleted, bold, in backticks, indented) is a finding, not a
  silently ignored line; a line the other readings take for a field (in a quote, a fence,
  an HTML block or comment, hidden on the rendered page) fails too
  (:mod:`kernel.reviewer.lint.readings`, R20).
* Text comparisons (13.2 §E0.4): case-folded, split on Unicode whitespace, re-joined with
  one space; no NFKC.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate

import attrs

from kernel.text.markdown import Block, Document, Section

__all__ = [
    "FieldLine",
    "decorated",
    "fenced_lines",
    "field_lines",
    "h2_sections",
    "h3_sections",
    "match_lines",
    "normalise",
    "unfenced_lines",
]


@attrs.frozen
class FieldLine:
    key: str
    #: The value as the field's pattern reads it (``None`` for a decorated line).
    value: str | None
    line: int
    raw: str

    @property
    def canonical(self) -> bool:
        return self.value is not None


def normalise(text: str) -> str:
    """Case-folded, Unicode whitespace collapsed to one space (13.2 §E0.4)."""
    return " ".join(text.casefold().split())


def _split(blocks: Sequence[Block], level: int) -> tuple[tuple[Block, ...], list[Section]]:
    head: list[Block] = []
    out: list[Section] = []
    current = head
    heading: Block | None = None
    for block in blocks:
        if block.kind == "heading" and block.level == level and block.atx and block.structural:
            if heading is not None:
                out.append(Section(heading, tuple(current)))
            heading, current = block, []
        else:
            current.append(block)
    if heading is not None:
        out.append(Section(heading, tuple(current)))
    return tuple(head), out


def h2_sections(doc: Document) -> tuple[tuple[Block, ...], list[Section]]:
    """The blocks before the first ``##`` section, and the sections."""
    return _split(doc.blocks, 2)


def h3_sections(section: Section) -> tuple[tuple[Block, ...], list[Section]]:
    return _split(section.blocks, 3)


def field_lines(
    doc: Document, blocks: Iterable[Block], patterns: Mapping[str, re.Pattern[str]]
) -> list[FieldLine]:
    """The lines of ``blocks`` whose key is one of ``patterns``' keys, in order. A pattern
    fullmatches the whole source line and names the value ``value``."""
    found: list[FieldLine] = []
    for block in blocks:
        for kv in block.keys:  # only unquoted paragraphs have key lines
            pattern = patterns.get(kv.key)
            if pattern is None:
                continue
            raw = doc.lines[kv.line - 1]
            m = None if block.listed else pattern.fullmatch(raw)
            found.append(FieldLine(kv.key, m.group("value") if m else None, kv.line, raw))
    return found


def decorated(lines: Iterable[FieldLine]) -> list[FieldLine]:
    return [f for f in lines if not f.canonical]


def fenced_lines(doc: Document) -> set[int]:
    """The line numbers fenced code blocks cover, fences included."""
    hidden: set[int] = set()
    for b in doc.blocks:
        if b.fenced:
            hidden.update(range(b.line, b.end + 1))
    return hidden


def unfenced_lines(doc: Document) -> Iterable[tuple[int, str]]:
    """(line number, text) of every line outside fenced code blocks (fences included)."""
    hidden = fenced_lines(doc)
    return ((i, t) for i, t in enumerate(doc.lines, start=1) if i not in hidden)


def match_lines(doc: Document, pattern: re.Pattern[str]) -> list[int]:
    """The line of each match of ``pattern`` (one that never spans a line break) in the
    document, in order, found in one pass over its text."""
    starts = [0]
    found: list[int] = []
    text = doc.source
    for m in pattern.finditer(text):
        found.append(text.count("\n", starts[-1], m.start()))
        starts.append(m.start())
    return list(accumulate(found, initial=1))[1:]
