"""Reviewer markdown read as CommonMark (wire-format.md, "Reading markdown").

One block-level markdown-it-py parse per document gives a flat list of :class:`Block` values
with 1-based line numbers, plus which of them are *structure*: ATX headings outside block
quotes and list items. Headings inside fenced or indented code, HTML blocks or comments and
block quotes are text, because CommonMark says so, not because of a regex. Only CommonMark
line endings (LF, CRLF, CR) end a line; U+2028, U+0085, VT, FF and the like are characters.

Inline parsing is skipped for the whole document (it is the slow part of markdown-it and the
lints only need line text); :func:`plain_words_text` runs it on demand for the prose whose
words the consistency check reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final, Literal

import attrs
from markdown_it import MarkdownIt
from markdown_it.token import Token

from kernel.errors import KernelError
from kernel.io import MAX_INPUT_BYTES, check_size

__all__ = [
    "Block",
    "Document",
    "KeyValue",
    "Section",
    "block_tokens",
    "collapse",
    "key_values",
    "parse_document",
    "plain_words_text",
    "sections",
    "split_lines",
]

BlockKind = Literal["heading", "paragraph", "code", "html", "hr"]

_BLOCK_MD: Final = MarkdownIt("commonmark").disable("inline")
#: Inline parsing for words only: links, images and emphasis are left as text (their
#: delimiters are punctuation to the tokeniser, and skipping them keeps pathological input
#: such as 100k ``[`` fast); code spans, escapes, autolinks and inline HTML are still parsed.
_INLINE_MD: Final = MarkdownIt("commonmark").disable(["link", "image", "emphasis"])
#: CommonMark line endings and nothing else.
_LINE_END: Final = re.compile(r"\r\n|\r|\n")
_SPACE: Final = re.compile(r"[ \t]+")
#: ``key: value`` after the list marker is gone: key bare, in backticks or in bold.
_KEY_VALUE: Final = re.compile(
    r"(?:`(?P<k1>[A-Za-z_][A-Za-z0-9_-]*)`|\*\*(?P<k2>[A-Za-z_][A-Za-z0-9_-]*)\*\*"
    r"|(?P<k3>[A-Za-z_][A-Za-z0-9_-]*))[ \t]*:[ \t]*(?P<value>.*)"
)


@attrs.frozen
class Block:
    """One CommonMark leaf block."""

    kind: BlockKind
    #: Heading level (1-6), else 0.
    level: int
    #: Raw text: heading or paragraph content (CommonMark lines joined by ``\n``), code or
    #: HTML content.
    text: str
    #: First and last source line, 1-based, inclusive.
    line: int
    end: int
    quoted: bool
    listed: bool
    #: ATX (``#``) rather than setext (underlined) heading.
    atx: bool = False

    @property
    def structural(self) -> bool:
        """A heading that can open a section or subsection."""
        return self.kind == "heading" and not self.quoted and not self.listed

    @property
    def title(self) -> str:
        return collapse(self.text)


@attrs.frozen
class Document:
    lines: tuple[str, ...]
    blocks: tuple[Block, ...]

    def last_nonblank(self) -> int | None:
        """1-based number of the last line holding anything but spaces and tabs."""
        for i in range(len(self.lines) - 1, -1, -1):
            if self.lines[i].strip(" \t"):
                return i + 1
        return None


@attrs.frozen
class Section:
    """A heading and the blocks up to the next heading of the same or a higher rank."""

    heading: Block | None
    blocks: tuple[Block, ...]

    @property
    def line(self) -> int:
        if self.heading is not None:
            return self.heading.line
        return self.blocks[0].line if self.blocks else 1


@attrs.frozen
class KeyValue:
    key: str
    value: str
    line: int


def split_lines(text: str) -> list[str]:
    """Lines by CommonMark's rule (LF, CRLF, CR); never ``str.splitlines``."""
    return _LINE_END.split(text)


def collapse(text: str) -> str:
    """Trim and collapse runs of spaces and tabs (only those: NBSP and friends are text)."""
    return _SPACE.sub(" ", text).strip(" \t")


def block_tokens(text: str) -> list[Token]:
    """CommonMark block tokens of ``text`` (inline parsing off): the one Markdown reader that
    the lints and the consensus parser share."""
    return _BLOCK_MD.parse(text)


def parse_document(
    text: str, *, source: str = "<document>", max_bytes: int = MAX_INPUT_BYTES
) -> Document:
    """Parse ``text`` once; a leading BOM is dropped. Over ``max_bytes`` → :class:`KernelError`."""
    if not isinstance(text, str):
        raise KernelError(f"{source}: a document must be a str, got {type(text).__name__}")
    check_size(text, source=source, max_bytes=max_bytes)
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        tokens = block_tokens(text)
    except RecursionError:  # pragma: no cover - markdown-it bounds nesting itself
        raise KernelError(f"{source}: markdown nested too deeply") from None
    return Document(tuple(split_lines(text)), tuple(_blocks(tokens)))


def _blocks(tokens: Sequence[object]) -> Iterator[Block]:
    quoted = 0
    listed = 0
    pending: tuple[BlockKind, int, bool, int, int] | None = None
    for tok in tokens:
        ttype: str = tok.type  # type: ignore[attr-defined]
        tmap: list[int] | None = tok.map  # type: ignore[attr-defined]
        if ttype == "blockquote_open":
            quoted += 1
        elif ttype == "blockquote_close":
            quoted -= 1
        elif ttype == "list_item_open":
            listed += 1
        elif ttype == "list_item_close":
            listed -= 1
        elif ttype == "heading_open" and tmap is not None:
            markup: str = tok.markup  # type: ignore[attr-defined]
            tag: str = tok.tag  # type: ignore[attr-defined]
            pending = ("heading", int(tag[1:]), markup.startswith("#"), tmap[0], tmap[1])
        elif ttype == "paragraph_open" and tmap is not None:
            pending = ("paragraph", 0, False, tmap[0], tmap[1])
        elif ttype == "inline" and pending is not None:
            kind, level, atx, start, stop = pending
            pending = None
            content: str = tok.content  # type: ignore[attr-defined]
            yield Block(kind, level, content, start + 1, stop, quoted > 0, listed > 0, atx)
        elif ttype in ("fence", "code_block", "html_block", "hr") and tmap is not None:
            kind = "hr" if ttype == "hr" else "html" if ttype == "html_block" else "code"
            content = tok.content  # type: ignore[attr-defined]
            yield Block(
                kind, 0, content, tmap[0] + 1, max(tmap[1], tmap[0] + 1), quoted > 0, listed > 0
            )


def sections(blocks: Sequence[Block], level: int) -> tuple[tuple[Block, ...], list[Section]]:
    """Split ``blocks`` at structural headings of exactly ``level`` (the caller has already
    split at higher ranks). Returns the blocks before the first such heading and the sections.
    """
    head: list[Block] = []
    out: list[Section] = []
    current: list[Block] = head
    heading: Block | None = None
    for block in blocks:
        if block.structural and block.level == level:
            if heading is not None:
                out.append(Section(heading, tuple(current)))
            heading = block
            current = []
        else:
            current.append(block)
    if heading is not None:
        out.append(Section(heading, tuple(current)))
    return tuple(head), out


def key_values(blocks: Sequence[Block]) -> list[KeyValue]:
    """Every ``key: value`` line of the unquoted paragraphs (list items included), in order.

    A line is one CommonMark line of a paragraph; the list marker has already been taken off
    by the parser. The value is trimmed of spaces and tabs and must not be empty.
    """
    found: list[KeyValue] = []
    for block in blocks:
        if block.kind != "paragraph" or block.quoted:
            continue
        for i, raw in enumerate(block.text.split("\n")):
            m = _KEY_VALUE.fullmatch(raw.strip(" \t"))
            if m is None:
                continue
            key = m.group("k1") or m.group("k2") or m.group("k3")
            found.append(KeyValue(key, m.group("value").strip(" \t"), block.line + i))
    return found


def plain_words_text(blocks: Sequence[Block]) -> str:
    """The readable text of headings and paragraphs (quoted ones too): inline-parsed, with
    inline HTML (comments included) left out; link text and destinations stay text. Code and
    HTML blocks are not prose."""
    parts: list[str] = []
    for block in blocks:
        if block.kind not in ("heading", "paragraph"):
            continue
        for tok in _INLINE_MD.parseInline(block.text):
            for child in tok.children or ():
                if child.type in ("text", "code_inline"):
                    parts.append(child.content)
                elif child.type in ("softbreak", "hardbreak"):
                    parts.append("\n")
        parts.append("\n")
    return "".join(parts)
