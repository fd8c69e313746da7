"""Later upstream main's two dissent aborts (ars-main §5.2, §5.3), on the span of
``## Scoring Plan Dissent`` (from its heading to the next unfenced ``##``).

* ``DISSENT-RAW-HTML`` (checked first): a line whose text, code spans blanked, holds a
  raw-HTML opener: ``<`` or ``</`` and a tag name (a letter, then letters, digits, ``-``)
  followed by whitespace, ``/``, ``>`` or the end of the line; ``<!`` and a letter;
  ``<![CDATA[``; ``<?``. Comments are left to the next rule; ``<https://…>`` is no opener.
* ``DISSENT-HIDDEN``: a bare ``<!--`` outside code spans opens a comment wherever it stands
  (mid-line, indented) and the next ``-->`` closes it; a line shaped as a dissent field
  that a comment covers, even in part, aborts. A field line the page hides (the block
  model of 13.2 §F10.3) aborts too.

Code spans: a backtick run pairs with the next run of the same length; a backslash before a
backtick makes it literal; after a line with an odd number of runs nothing more is blanked
up to the end of its paragraph. No regular expression: string scans, linear in the text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kernel.reviewer.lint.readings import comment_open_after

__all__ = ["blank_code_spans", "raw_html_at", "scan"]


def _runs(line: str) -> list[tuple[int, int]]:
    """(start, length) of each backtick run not escaped by a backslash."""
    out: list[tuple[int, int]] = []
    i, count = 0, len(line)
    while (i := line.find("`", i)) >= 0:
        j = i
        while j < count and line[j] == "`":
            j += 1
        if i == 0 or line[i - 1] != "\\":
            out.append((i, j - i))
        i = j
    return out


def blank_code_spans(line: str) -> tuple[str, int]:
    """``line`` with each code span (delimiters included) turned into spaces, and the
    number of backtick runs it holds."""
    runs = _runs(line)
    if len(runs) < 2:
        return line, len(runs)
    following: list[int | None] = [None] * len(runs)  # the next run of the same length
    seen: dict[int, int] = {}
    for k in range(len(runs) - 1, -1, -1):
        following[k] = seen.get(runs[k][1])
        seen[runs[k][1]] = k
    out = list(line)
    i = 0
    while i < len(runs):
        start, length = runs[i]
        match = following[i]
        if match is None:
            i += 1
            continue
        stop = runs[match][0] + length
        out[start:stop] = " " * (stop - start)
        i = match + 1
    return "".join(out), len(runs)


def _name_end(text: str, start: int) -> int:
    """The end of a tag name at ``start`` (a letter, then letters, digits, ``-``), or
    ``start`` when there is none."""
    if start >= len(text) or not (text[start].isascii() and text[start].isalpha()):
        return start
    end = start + 1
    while end < len(text) and ((text[end].isascii() and text[end].isalnum()) or text[end] == "-"):
        end += 1
    return end


def raw_html_at(text: str) -> int | None:
    """The column of the first raw-HTML opener of ``text`` (ars-main §5.3), or ``None``."""
    pos = 0
    while (i := text.find("<", pos)) >= 0:
        pos = i + 1
        after = text[i + 1 : i + 2]
        if after == "?":
            return i
        if after == "!":
            if text.startswith("![CDATA[", i + 1) or _name_end(text, i + 2) > i + 2:
                return i
            continue
        start = i + 2 if after == "/" else i + 1
        end = _name_end(text, start)
        if end > start and (end == len(text) or text[end].isspace() or text[end] in "/>"):
            return i
    return None


def scan(
    lines: Iterable[tuple[int, str]],
    shaped: Callable[[int], bool],
) -> tuple[str, int] | None:
    """Over the span's (line number, text) pairs (fenced lines left out): the first
    ``("raw_html", line)`` abort, else the first ``("hidden", line)`` one (a field-shaped
    line that a comment covers, at least in part), else ``None``."""
    open_ = False
    plain = False  # a line with an odd number of runs: no blanking to the paragraph's end
    hidden: int | None = None
    for n, text in lines:
        if not text.strip(" \t"):
            plain = False
        blanked, runs = (text, 0) if plain else blank_code_spans(text)
        if runs % 2:
            plain = True
        if raw_html_at(blanked) is not None:
            return ("raw_html", n)
        touched = open_ or "<!--" in blanked
        open_ = comment_open_after(blanked, open_)
        if touched and hidden is None and shaped(n):
            hidden = n
    return ("hidden", hidden) if hidden is not None else None
