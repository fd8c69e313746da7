"""Display forms of a 13.2 document's lines, as upstream main reads them (ars-main §1).

* **Fenced content** (13.2 §E0.2 fences: backtick or tilde, any info string, opener
  indented 0-3 spaces, unclosed to the end): each content line loses up to as many leading
  spaces as its opener had (spaces only); the fence lines themselves are dropped.
* **Whole-line code span**: an unfenced line of up to 3 spaces, a run of n backticks, a
  body of one or more characters without a backtick, exactly n backticks, then only spaces
  or tabs. Its body is displayed, less one space at each end when it starts and ends with
  one and is not all spaces.

No regular expression: each line is read with string methods, in time linear in its length.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from kernel.reviewer.lint.readings import line_fences
from kernel.text.markdown import Document

__all__ = ["Displayed", "block_fence_content", "code_span_body", "displayed", "fence_content"]


@attrs.frozen
class Displayed:
    #: The 1-based source line.
    line: int
    #: What main reads there: the line as written, a code span's body, or fenced content in
    #: display form.
    text: str
    #: Whether ``text`` is fenced content (else the line or a code span on it).
    fenced: bool


def _run(text: str, char: str) -> int:
    return len(text) - len(text.lstrip(char))


def _closes(line: str, char: str, run: int) -> bool:
    body = line.lstrip(" ")
    if len(line) - len(body) > 3:
        return False
    found = _run(body, char)
    return found >= 3 and found >= run and not body[found:].strip(" \t")


def fence_content(lines: tuple[str, ...]) -> dict[int, int]:
    """Each fenced content line of the line reading (13.2 §E0.2) → the indentation of its
    fence's opener (0-3)."""
    out: dict[int, int] = {}
    for opener, end in line_fences(lines).items():
        text = lines[opener - 1]
        body = text.lstrip(" ")
        indent = len(text) - len(body)
        char = body[0]
        last = end
        if end > opener and _closes(lines[end - 1], char, _run(body, char)):
            last = end - 1
        for n in range(opener + 1, last + 1):
            out[n] = indent
    return out


def block_fence_content(doc: Document) -> frozenset[int]:
    """The content lines of the fenced code blocks of the CommonMark reading."""
    return frozenset(
        n
        for b in doc.blocks
        if b.fenced
        for n in range(b.line + 1, b.line + 1 + b.text.count("\n"))
    )


def code_span_body(line: str) -> str | None:
    """The displayed body of a whole-line code span, or ``None`` when ``line`` is none."""
    body = line.lstrip(" ")
    if len(line) - len(body) > 3 or not body.startswith("`"):
        return None
    run = _run(body, "`")
    rest = body[run:].rstrip(" \t")
    core = rest[:-run]
    if len(rest) <= run or rest[-run:] != "`" * run or "`" in core:
        return None
    if len(core) >= 2 and core[0] == " " and core[-1] == " " and core.strip(" "):
        return core[1:-1]
    return core


def displayed(doc: Document, content: Mapping[int, int] | None = None) -> list[Displayed]:
    """What main reads on each line, in file order: every unfenced line as written (and a
    whole-line code span's body after it), every fenced content line in display form.
    ``content``: :func:`fence_content` of the document, when already known."""
    fenced = fence_content(doc.lines) if content is None else content
    fence_lines = {n for a, b in line_fences(doc.lines).items() for n in range(a, b + 1)}
    out: list[Displayed] = []
    for n, text in enumerate(doc.lines, start=1):
        indent = fenced.get(n)
        if indent is not None:
            stripped = text.lstrip(" ")
            cut = min(indent, len(text) - len(stripped))
            out.append(Displayed(n, text[cut:], True))
            continue
        if n in fence_lines:
            continue  # an opener or a closer
        out.append(Displayed(n, text, False))
        if "`" in text:
            span = code_span_body(text)
            if span is not None:
                out.append(Displayed(n, span, False))
    return out
