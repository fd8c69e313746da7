"""Phase 2 check 8 (wire-format.md): key lines live only in their own place.

A *score line* is a line that, after any block-quote, list, heading or table markers, HTML
tags or comment openers and any white space, starts with ``score`` (optionally wrapped in
``*``, ``_``, a backtick or ``~``) followed by optional white space and ``:``; a *fired line*
likewise with ``fired``. A *decision statement* is ``editorial_decision`` followed by optional
white space and ``=`` (or ``:``), anywhere on a line. Line starts are counted generously
here: besides LF, every character that some reader takes for a line break (VT, FF,
U+001C-U+001E, U+0085, U+2028, U+2029) starts a line, because the check looks for
statements a reader could see.

Outside fenced code, each of them must be where the document states it:

* a score line must be a ``score`` key line (check 2's reading: an unquoted paragraph line,
  only spaces and tabs around it) in a ``###`` subsection of ``## Dimension Scores``;
* a fired line must be a ``fired`` key line in a ``###`` subsection of
  ``## Failure Condition Checks``;
* a decision statement must be inside ``## Editorial Decision`` (check 6 then wants exactly
  one, alone on its line).

Anything else is a finding, ``P2-060``: a document that states two decisions, or a score
where none belongs, is ambiguous, and ambiguity fails closed. At most
:data:`MAX_REPORTED` lines are reported one by one; one more finding counts the rest.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from typing import Final

from kernel.reviewer.lint._structure import Outline
from kernel.reviewer.lint.readings import hidden_lines
from kernel.reviewer.lint.report import Finding
from kernel.text.markdown import Block, Document, key_values, sections
from kernel.text.skeleton import without_ignorables

__all__ = ["CHECK", "CODE", "MAX_REPORTED", "misplaced_key_lines"]

CODE: Final = "P2-060"
CHECK: Final = "key_lines"
MAX_REPORTED: Final = 20

_BREAKS: Final = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_BREAK: Final = re.compile(f"[{_BREAKS}]")
#: The words a statement starts with.
_WORDS: Final = ("score", "fired", "editorial_decision")
#: A key line, matched at the start of a line or of a piece after another break character.
_KEY_LINE: Final = re.compile(
    r"[^\S\n]*+(?:(?:[>#|*+\-_`~]|[0-9]{1,9}[.)]|<!--|<[A-Za-z/][^>\n]{0,200}+>)[^\S\n]*+)*+"
    r"(score|fired)[*_`~]*+[^\S\n]*+:"
)
_DECISION: Final = re.compile(r"editorial_decision[*_`~]*+[^\S\n]*+[=:]")
_NAMES: Final = ("Dimension Scores", "Failure Condition Checks", "Editorial Decision")
_PLACES: Final = {
    "score": ("Dimension Scores", "a '### <Dn>: <name>' subsection of '## Dimension Scores'"),
    "fired": (
        "Failure Condition Checks",
        "a '### <Fn>' subsection of '## Failure Condition Checks'",
    ),
}


def _candidates(doc: Document) -> Iterator[tuple[int, str]]:
    """(line, text as read) of every line holding one of the words, in order; a line with
    default-ignorable characters is read without them (R20), so they cannot hide a word."""
    source = doc.source
    offsets: list[int] = []
    for word in _WORDS:
        at = source.find(word)
        while at >= 0:
            offsets.append(at)
            at = source.find(word, at + len(word))
    lines: set[int] = set()
    line = 1
    previous = 0
    for offset in sorted(offsets):
        line += source.count("\n", previous, offset)
        previous = offset
        lines.add(line)
    invisible: dict[int, str] = {}
    if not source.isascii():
        for n, text in enumerate(doc.lines, start=1):
            seen = without_ignorables(text)
            if seen != text and any(word in seen for word in _WORDS):
                invisible[n] = seen
    for n in sorted(lines | invisible.keys()):
        yield n, invisible.get(n, doc.lines[n - 1])


def _statements(doc: Document) -> Iterator[tuple[int, str, bool]]:
    """(line, what, at the real line start) of every key line and decision statement, in
    document order: only the lines holding one of the words are matched."""
    for line, text in _candidates(doc):
        pieces = _BREAK.split(text) if _BREAK.search(text) is not None else (text,)
        for i, piece in enumerate(pieces):
            m = _KEY_LINE.match(piece)
            if m is not None:
                yield line, m.group(1), i == 0
        if "editorial_decision" in text:
            for _ in _DECISION.finditer(text):
                yield line, "editorial_decision", False


def misplaced_key_lines(doc: Document, out: Outline) -> list[Finding]:
    """Check 8 over ``doc`` (whose sections ``out`` holds)."""
    found = list(_statements(doc))
    if not found:
        return []
    fences = [(b.line, b.end) for b in doc.blocks if b.kind == "code" and b.fenced]
    fence_starts = [start for start, _ in fences]
    heads = [
        b
        for b in doc.blocks
        if b.kind == "heading" and b.level <= 2 and not b.quoted and not b.listed
    ]
    head_lines = [b.line for b in heads]
    known = {name: {s.line for s in out.found.get(name, ())} for name in _NAMES}
    valid: dict[str, frozenset[int]] = {}
    hidden: frozenset[int] | None = None
    findings: list[Finding] = []
    extra = 0
    for line, what, line_start in found:
        i = bisect_right(fence_starts, line) - 1
        if i >= 0 and fences[i][0] <= line <= fences[i][1]:
            continue
        k = bisect_right(head_lines, line) - 1
        section = heads[k] if k >= 0 else None
        head_line = section.line if section is not None else 0
        if what == "editorial_decision":
            if head_line in known["Editorial Decision"]:
                continue
            problem = "decision"
        elif not line_start:
            problem = "break"
        else:
            name = _PLACES[what][0]
            if what not in valid:
                valid[what] = _key_lines(out, name, what)
            if line in valid[what]:
                if hidden is None:
                    hidden = hidden_lines(doc.blocks)
                if line not in hidden:
                    continue
                problem = "hidden"
            else:
                problem = "look-alike" if head_line in known[name] else "place"
        if len(findings) < MAX_REPORTED:
            findings.append(Finding(CODE, _message(problem, what, section), line, CHECK))
        else:
            extra += 1
    if extra:
        findings.append(
            Finding(
                CODE,
                f"{extra} more key line(s) or decision statement(s) out of place (only the "
                f"first {MAX_REPORTED} are listed)",
                None,
                CHECK,
            )
        )
    return findings


def _message(problem: str, what: str, section: Block | None) -> str:
    where = _where(section)
    if problem == "decision":
        return (
            f"'editorial_decision=' {where}: a document states its decision once, in "
            "'## Editorial Decision'; quote examples in fenced code"
        )
    if problem == "break":
        return (
            f"'{what}:' after a character that is no CommonMark line break (VT, FF, U+0085, "
            f"U+2028 …) {where}: a reader may see a new line there, so the line states a "
            f"second '{what}:'; keep one statement per line"
        )
    if problem == "hidden":
        return (
            f"the '{what}:' line {where} is hidden on the rendered page by an HTML comment left "
            "open before it (a '<!--' behind a list or quote marker, or after a closed comment "
            "on its line): a reader never sees it, so it counts for no one (R20); close the "
            "comment or remove it"
        )
    if problem == "look-alike":
        return (
            f"a line that reads as a '{what}:' line {where} is not a '{what}:' key line (a key "
            "line is an unquoted paragraph line in a '###' subsection, with only spaces and "
            "tabs around it); write it as one or remove it"
        )
    return (
        f"a '{what}:' line {where}: it belongs only in {_PLACES[what][1]}; quote examples in "
        "fenced code"
    )


def _where(section: Block | None) -> str:
    if section is None:
        return "before the first section"
    return f"in '{'#' * section.level} {section.title}'"


def _key_lines(out: Outline, name: str, key: str) -> frozenset[int]:
    """Lines of the ``key`` key lines in the ``###`` subsections of every ``## name``."""
    lines: set[int] = set()
    for section in out.found.get(name, ()):
        _, subs = sections(section.blocks, 3)
        lines.update(kv.line for sub in subs for kv in key_values(sub.blocks) if kv.key == key)
    return frozenset(lines)
