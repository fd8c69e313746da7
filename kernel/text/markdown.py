"""Reviewer markdown read as CommonMark (wire-format.md, "Reading markdown").

One block-level markdown-it-py parse per document gives a flat list of :class:`Block` values
with 1-based line numbers, plus which of them are *structure*: ATX headings outside block
quotes and list items. Headings inside fenced or indented code, HTML blocks or comments and
block quotes are text, because CommonMark says so, not because of a regex. Only CommonMark
line endings (LF, CRLF, CR) end a line; U+2028, U+0085, VT, FF and the like are characters.

Trimming: CommonMark trims paragraph and heading text, and markdown-it trims more than spaces
and tabs (VT, FF, NBSP, U+2028 and other Unicode spaces, depending on its version). Here the
text of a paragraph or ATX heading is trimmed of **spaces and tabs only**: any other character
at its edges stays, so ``\u00a0score: block`` is not a key line and ``### D1: x\u00a0`` is not
the heading ``D1: x``.

Work bound: the block parse costs time per line and per container marker, so before parsing,
:func:`structure_units` counts them and :func:`check_structure` refuses a document over
:data:`MAX_STRUCTURE_UNITS` (R13: every input the size limit admits is read quickly or refused
at once).

Inline parsing is skipped for the whole document (it is the slow part of markdown-it and the
lints only need line text); :func:`prose_word_text` gives the words of prose, parsing inline
markup only where it can change them.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import Any, Final, Literal

import attrs
from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from kernel.errors import KernelError
from kernel.io import MAX_INPUT_BYTES, check_size, require_utf8

__all__ = [
    "MAX_BACKTICKS",
    "MAX_INLINE_MARKUP",
    "MAX_STRUCTURE_UNITS",
    "Block",
    "Document",
    "KeyValue",
    "Section",
    "block_tokens",
    "check_structure",
    "collapse",
    "fenced_ranges",
    "key_values",
    "parse_document",
    "plain_words_text",
    "prose_word_text",
    "sections",
    "split_lines",
    "structure_units",
]

BlockKind = Literal["heading", "paragraph", "code", "html", "hr"]

#: Characters markdown-it may trim from the edges of a paragraph or heading besides spaces
#: and tabs: every other character for which ``str.isspace()`` holds (a test keeps the list
#: complete).
_OTHER_BLANKS: Final = frozenset(
    "\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def _space_tab_trimmed_paragraph(rule: Any) -> Any:
    """The paragraph rule, but the content keeps every edge character except spaces and tabs."""

    def paragraph(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        first = len(state.tokens)
        if not rule(state, start, end, silent):
            return False
        if silent:
            return True
        src = state.src
        head = state.bMarks[start] + state.tShift[start]
        while src[head] in " \t":
            head += 1
        tail = state.eMarks[state.line - 1]
        while src[tail - 1] in " \t":
            tail -= 1
        if src[head] in _OTHER_BLANKS or src[tail - 1] in _OTHER_BLANKS:
            raw = state.getLines(start, state.line, state.blkIndent, False)
            state.tokens[first + 1].content = raw.strip(" \t")
        return True

    return paragraph


def _space_tab_trimmed_heading(rule: Any) -> Any:
    """The ATX heading rule, but the content keeps every edge character except spaces and
    tabs (the optional closing ``#`` sequence is still removed, as CommonMark says)."""

    def heading(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        first = len(state.tokens)
        if not rule(state, start, end, silent):
            return False
        if silent:
            return True
        src = state.src
        pos = state.bMarks[start] + state.tShift[start] + len(state.tokens[first].markup)
        stop = state.eMarks[start]
        while stop > pos and src[stop - 1] in " \t":
            stop -= 1
        hashes = stop
        while hashes > pos and src[hashes - 1] == "#":
            hashes -= 1
        if hashes > pos and src[hashes - 1] in " \t":
            stop = hashes
        state.tokens[first + 1].content = src[pos:stop].strip(" \t")
        return True

    return heading


def _block_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark").disable(["inline", "normalize"])
    ruler = md.block.ruler
    for name, wrap in (
        ("paragraph", _space_tab_trimmed_paragraph),
        ("heading", _space_tab_trimmed_heading),
    ):
        rule = next(r for r in ruler.__rules__ if r.name == name)
        ruler.at(name, wrap(rule.fn), {"alt": list(rule.alt)})
    return md


@functools.cache
def _parser(plain: bool, joined: bool, idle: frozenset[str]) -> MarkdownIt:
    """The block parser: ``plain`` without the space-and-tab trimming rules, ``joined`` with
    markdown-it's text_join step, without the ``idle`` block rules (see ``_idle``)."""
    md = MarkdownIt("commonmark").disable(["inline", "normalize"]) if plain else _block_parser()
    return md.disable([*([] if joined else ["text_join"]), *sorted(idle)])


def _idle(text: str) -> frozenset[str]:
    """The block rules that cannot fire on ``text``: each needs a character (or run) at a
    line start that ``text`` does not hold anywhere, and one that never fires changes no
    token (it only tells another rule where a paragraph may end)."""
    idle = []
    if "<" not in text:
        idle.append("html_block")
    if "[" not in text:
        idle.append("reference")
    if ">" not in text:
        idle.append("blockquote")
    if ("`" not in text or "```" not in text) and ("~" not in text or "~~~" not in text):
        idle.append("fence")
    return frozenset(idle)


_BLOCK_MD: Final = functools.partial(_parser, False, True, frozenset())
#: Inline parsing for words only: links, images and emphasis are left as text (their
#: delimiters are punctuation to the tokeniser, and skipping them keeps pathological input
#: such as 100k ``[`` fast); code spans, escapes, autolinks and inline HTML are still parsed.
_INLINE_MD: Final = functools.cache(
    lambda: MarkdownIt("commonmark").disable(["link", "image", "emphasis"])
)
#: CommonMark line endings and nothing else.
_LINE_END: Final = re.compile(r"\r\n|\r|\n")
_SPACE: Final = re.compile(r"[ \t]+")
#: ``key: value`` after the list marker is gone: key bare, in backticks or in bold.
_KEY_VALUE: Final = re.compile(
    r"(?:`(?P<k1>[A-Za-z_][A-Za-z0-9_-]*)`|\*\*(?P<k2>[A-Za-z_][A-Za-z0-9_-]*)\*\*"
    r"|(?P<k3>[A-Za-z_][A-Za-z0-9_-]*))[ \t]*:[ \t]*(?P<value>.*)"
)


@attrs.frozen
class KeyValue:
    key: str
    value: str
    line: int


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
    #: A fenced (not indented) code block.
    fenced: bool = False
    #: The ``key: value`` lines of an unquoted paragraph, found by the one walk that builds
    #: the blocks (:func:`key_values` reads them).
    keys: tuple[KeyValue, ...] = ()

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
    #: The text as parsed: BOM dropped, every line ending turned into LF.
    source: str = ""
    #: The block tokens of the one parse (the rendered page is rendered from them).
    tokens: tuple[Token, ...] = attrs.field(default=(), eq=False, repr=False)

    def fenced_ranges(self) -> list[tuple[int, int]]:
        """The character ranges of ``source`` that fenced code blocks cover, fences
        included, in order."""
        return _line_ranges(self.source, [(b.line, b.end) for b in self.blocks if b.fenced])

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


def split_lines(text: str) -> list[str]:
    """Lines by CommonMark's rule (LF, CRLF, CR); never ``str.splitlines``."""
    return _LINE_END.split(text)


def collapse(text: str) -> str:
    """Trim and collapse runs of spaces and tabs (only those: NBSP and friends are text)."""
    if "\t" not in text and "  " not in text:  # every run is one space already
        return text.strip(" ")
    return _SPACE.sub(" ", text).strip(" \t")


def block_tokens(text: str) -> list[Token]:
    """CommonMark block tokens of ``text`` (inline parsing off): the one Markdown reader that
    the lints and the consensus parser share."""
    return _tokens(text, joined=True)


def _tokens(text: str, *, joined: bool) -> list[Token]:
    """``block_tokens``; without ``joined`` markdown-it's text_join step is left out, which
    with inline parsing off only turns each inline token's ``children`` from ``None`` into
    ``[]`` (what :func:`parse_normalised` never reads)."""
    # markdown-it's own normalize step (line endings to LF, NUL to U+FFFD) is done here, and
    # only when it changes something: the parsers below skip it.
    if "\r" in text or "\0" in text:
        text = _LINE_END.sub("\n", text).replace("\0", "\ufffd")
    if text.isascii() and not any(c in text for c in _ASCII_OTHER_BLANKS):
        # markdown-it trims nothing but spaces and tabs
        return _parser(True, joined, _idle(text)).parse(text)
    return _parser(False, joined, _idle(text)).parse(text)


#: The ASCII characters of ``_OTHER_BLANKS`` that can stand at the edge of a paragraph or
#: heading (line breaks cannot).
_ASCII_OTHER_BLANKS: Final = "".join(
    sorted({c for c in _OTHER_BLANKS if c.isascii()} - {"\n", "\r"})
)
_PLAIN_BLOCK_MD: Final = functools.partial(_parser, True, True, frozenset())


#: The most :func:`structure_units` a document may have (R13 work bound).
MAX_STRUCTURE_UNITS: Final = 20_000
#: Units per container or block marker at a line start.
_MARKER_UNITS: Final = 3
#: The run of block markers that starts a line: block quote ``>``, list bullets and ordered
#: markers (each followed by a space, a tab or the line end), then an ATX ``#`` or a ``[``
#: (a link reference definition). It starts with the line's LF, a literal the regex engine
#: finds fast; the caller puts an LF before the first line.
_LINE_MARKERS: Final = re.compile(
    r"\n[ \t]*+(?:(?:>|[-+*](?=[ \t\n]|\Z)|[0-9]{1,9}[.)](?=[ \t\n]|\Z))[ \t]*+)*+[#\[]?"
)


def normalise(text: str) -> str:
    """``text`` as the parser reads it: a leading BOM dropped, CRLF and CR turned into LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return _LINE_END.sub("\n", text) if "\r" in text else text


def structure_units(text: str, *, limit: int | None = None) -> int:
    """The work a block parse of ``text`` (normalised) costs, in lines plus
    ``3`` per block marker at a line start (``>``, a list marker, ``#``, ``[``): a heading or
    list line costs about four plain lines. With ``limit``, counting stops early once the
    total is known to exceed it (the result is then some number over ``limit``)."""
    lines = text.count("\n") + 1
    if limit is not None and lines > limit:
        return lines
    # A prefix holds only markers, digits, spaces and tabs, and one ``.`` or ``)`` ends each
    # ordered marker: counting these characters counts the markers.
    prefixes = "".join(_LINE_MARKERS.findall("\n" + text))
    markers = sum(prefixes.count(c) for c in ">-+*.)#[")
    return lines + _MARKER_UNITS * markers


_MARKS: Final = ">-+*.)#["
_MARK_BYTES: Final = _MARKS.encode("ascii")


def check_structure(text: str, *, limit: int = MAX_STRUCTURE_UNITS) -> str | None:
    """``None`` when ``text`` (normalised) is within the work bound, else what is over it."""
    # Every marker holds one of these characters: counting them all bounds the units.
    if text.isascii():  # one deleting pass over the bytes counts them all
        marks = len(text) - len(text.encode("ascii").translate(None, _MARK_BYTES))
    else:
        marks = sum(map(text.count, _MARKS))
    if text.count("\n") + 1 + _MARKER_UNITS * marks <= limit:
        return None
    units = structure_units(text, limit=limit)
    if units <= limit:
        return None
    lines = text.count("\n") + 1
    if lines > limit:
        return f"{lines} lines, over the limit of {limit}"
    return (
        f"{lines} lines and {(units - lines) // _MARKER_UNITS} block markers at line starts "
        f"(list, quote, heading or reference markers) cost {units} units, over the limit of "
        f"{limit} (a line is 1 unit, a marker {_MARKER_UNITS})"
    )


def fenced_ranges(text: str) -> list[tuple[int, int]] | None:
    """The character ranges of ``text`` (offsets into ``text`` itself, any line endings)
    that fenced code blocks cover, fences included; ``None`` when ``text`` is over the work
    bound (:func:`check_structure`) and was not parsed."""
    body = normalise(text)
    if check_structure(body) is not None:
        return None
    blocks = parse_normalised(body).blocks
    return _line_ranges(text, [(b.line, b.end) for b in blocks if b.fenced])


def _line_ranges(text: str, lines: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """1-based inclusive line ranges of ``text`` (CommonMark line endings) as character
    ranges, each through the end of its last line."""
    if not lines:
        return []
    starts = [0, *(m.end() for m in _LINE_END.finditer(text))]
    return [(starts[a - 1], starts[b] if b < len(starts) else len(text)) for a, b in lines]


def parse_document(
    text: str, *, source: str = "<document>", max_bytes: int = MAX_INPUT_BYTES
) -> Document:
    """Parse ``text`` once; a leading BOM is dropped. Not a str, over ``max_bytes``, not
    encodable as UTF-8 or over the work bound (:func:`check_structure`) →
    :class:`KernelError`."""
    text = readable(text, source=source, max_bytes=max_bytes)
    problem = check_structure(text)
    if problem is not None:
        raise KernelError(f"{source}: too large to read: {problem}")
    return parse_normalised(text)


def readable(text: object, *, source: str, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """``text`` normalised (:func:`normalise`) after the checks every document passes: a
    str, at most ``max_bytes`` of UTF-8, no unpaired surrogate."""
    if not isinstance(text, str):
        raise KernelError(f"{source}: a document must be a str, got {type(text).__name__}")
    check_size(text, source=source, max_bytes=max_bytes)
    require_utf8(text, source)
    return normalise(text)


@functools.lru_cache(maxsize=2)
def parse_normalised(text: str) -> Document:
    """Parse text already :func:`normalise`-d and within the work bound. The last two
    documents are kept (a frozen value): a command line that detects a document's phase and
    then lints it, or lints a Phase 2 document against its Phase 1, parses each once."""
    try:
        tokens = _tokens(text, joined=False)
    except RecursionError:  # pragma: no cover - markdown-it bounds nesting itself
        raise KernelError("markdown nested too deeply") from None
    return Document(tuple(text.split("\n")), tuple(_blocks(tokens)), text, tuple(tokens))


#: Container tokens: (quote depth change, list item depth change).
_NESTING: Final = {
    "blockquote_open": (1, 0),
    "blockquote_close": (-1, 0),
    "list_item_open": (0, 1),
    "list_item_close": (0, -1),
}
#: Leaf blocks without inline content, by token type.
_LEAVES: Final[dict[str, BlockKind]] = {
    "fence": "code",
    "code_block": "code",
    "html_block": "html",
    "hr": "hr",
}


def _blocks(tokens: Sequence[object]) -> Iterator[Block]:
    quoted = 0
    listed = 0
    pending: tuple[BlockKind, int, bool, int, int] | None = None
    for tok in tokens:
        ttype: str = tok.type  # type: ignore[attr-defined]
        # the most frequent types first: inline, then the openers of paragraphs and headings
        if ttype == "inline":
            if pending is not None:
                kind, level, atx, start, stop = pending
                pending = None
                content: str = tok.content  # type: ignore[attr-defined]
                keys = _keys(content, start + 1) if kind == "paragraph" and not quoted else ()
                yield Block(
                    kind, level, content, start + 1, stop, quoted > 0, listed > 0, atx, False, keys
                )
            continue
        tmap: list[int] | None = tok.map  # type: ignore[attr-defined]
        if ttype == "paragraph_open":
            if tmap is not None:
                pending = ("paragraph", 0, False, tmap[0], tmap[1])
        elif ttype == "heading_open":
            if tmap is not None:
                markup: str = tok.markup  # type: ignore[attr-defined]
                tag: str = tok.tag  # type: ignore[attr-defined]
                pending = ("heading", int(tag[1:]), markup.startswith("#"), tmap[0], tmap[1])
        elif ttype in _NESTING:
            dq, dl = _NESTING[ttype]
            quoted += dq
            listed += dl
        elif ttype in _LEAVES and tmap is not None:
            content = tok.content  # type: ignore[attr-defined]
            end = max(tmap[1], tmap[0] + 1)
            yield Block(
                _LEAVES[ttype],
                0,
                content,
                tmap[0] + 1,
                end,
                quoted > 0,
                listed > 0,
                False,
                ttype == "fence",
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
        if block.kind == "heading" and block.level == level and block.structural:
            if heading is not None:
                out.append(Section(heading, tuple(current)))
            heading = block
            current = []
        else:
            current.append(block)
    if heading is not None:
        out.append(Section(heading, tuple(current)))
    return tuple(head), out


def _keys(text: str, line: int) -> tuple[KeyValue, ...]:
    """The ``key: value`` lines of one paragraph whose first line is ``line``."""
    if ":" not in text:
        return ()
    found: list[KeyValue] = []
    match = _KEY_VALUE.fullmatch
    for i, raw in enumerate(text.split("\n")):
        if ":" not in raw:
            continue
        m = match(raw.strip(" \t"))
        if m is not None:
            k1, k2, k3, value = m.groups()
            found.append(KeyValue(k1 or k2 or k3, value.strip(" \t"), line + i))
    return tuple(found)


def key_values(blocks: Sequence[Block]) -> list[KeyValue]:
    """Every ``key: value`` line of the unquoted paragraphs (list items included), in order.

    A line is one CommonMark line of a paragraph; the list marker has already been taken off
    by the parser. Key and value are trimmed of spaces and tabs (nothing else).
    """
    return [kv for block in blocks if not block.quoted for kv in block.keys]


def plain_words_text(blocks: Sequence[Block]) -> str:
    """The readable text of headings and paragraphs (quoted ones too): inline-parsed, with
    inline HTML (comments included) left out; link text and destinations stay text. Code and
    HTML blocks are not prose."""
    parts: list[str] = []
    for block in blocks:
        if block.kind not in ("heading", "paragraph"):
            continue
        for tok in _INLINE_MD().parseInline(block.text):
            for child in tok.children or ():
                if child.type in ("text", "code_inline"):
                    parts.append(child.content)
                elif child.type in ("softbreak", "hardbreak"):
                    parts.append("\n")
        parts.append("\n")
    return "".join(parts)


#: At most this many ``&`` and ``<`` characters (entities, inline HTML, autolinks: the inline
#: parser's slow paths) in the prose read by :func:`prose_word_text` (R13 work bound) ...
MAX_INLINE_MARKUP: Final = 2_000
#: ... and at most this many backticks (code spans).
MAX_BACKTICKS: Final = 10_000
_BACKTICKS: Final = re.compile(r"`+")
_ESCAPE_OR_TICKS: Final = re.compile(r"\\[\s\S]|`+")


def prose_word_text(blocks: Sequence[Block]) -> str | None:
    """Text with exactly the words (maximal runs of letters and digits) of
    :func:`plain_words_text` of the same blocks, computed without the inline parser where it
    cannot change them.

    Without ``&`` or ``<`` only code spans change which characters are adjacent (their
    backtick delimiters go, so ``sam`ple``` reads ``sample``), and that is done here; a block
    with ``&`` or ``<`` goes through the inline parser. ``None`` when the blocks hold more
    than :data:`MAX_INLINE_MARKUP` ``&`` and ``<`` or more than :data:`MAX_BACKTICKS`
    backticks (the words cannot be read within the bound).
    """
    parts: list[str] = []
    markup = ticks = 0
    for block in blocks:
        if block.kind not in ("heading", "paragraph"):
            continue
        text = block.text
        here = text.count("`")
        ticks += here
        if "&" in text or "<" in text:
            markup += text.count("&") + text.count("<")
            if markup > MAX_INLINE_MARKUP or ticks > MAX_BACKTICKS:
                return None
            parts.append(plain_words_text((block,)))
        else:
            if ticks > MAX_BACKTICKS:
                return None
            parts += (_without_code_span_marks(text) if here else text, "\n")
    return "".join(parts)


def _without_code_span_marks(text: str) -> str:
    """``text`` (no ``&`` or ``<``) with the backtick runs that open and close CommonMark code
    spans removed and each span's content as markdown-it gives it: a backslash escapes the
    next character outside code spans; an opening run closes at the next run of exactly its
    length, else is text; a span's line breaks become spaces, and one space goes from each
    side when both sides have one. ``text`` itself when no span joins two words."""
    if "``" not in text and "\\" not in text:
        return _without_single_backticks(text)
    spans = _code_spans(text)
    if not any(_joins(text, *span) for span in spans):
        return text
    out: list[str] = []
    keep = 0
    for opener, first, last, closer in spans:
        out += (text[keep:opener], _span_content(text, first, last))
        keep = closer
    out.append(text[keep:])
    return "".join(out)


def _without_single_backticks(text: str) -> str:
    """``_without_code_span_marks`` when every backtick run is one backtick and there is no
    backslash: the runs pair up in order, a last unpaired one is text."""
    pieces = text.split("`")
    spans = range(1, len(pieces) - 1, 2)
    for i in spans:
        content = pieces[i]
        before = pieces[i - 1][-1:].isalnum()
        after = pieces[i + 1][:1].isalnum()
        if before or after:
            content = _span_content(content, 0, len(content))
            if (before and content[:1].isalnum()) or (after and content[-1:].isalnum()):
                break
    else:
        return text
    out = [pieces[0]]
    for i in spans:
        out += (_span_content(pieces[i], 0, len(pieces[i])), pieces[i + 1])
    if len(pieces) % 2 == 0:  # an odd number of backticks: the last one is text
        out += ("`", pieces[-1])
    return "".join(out)


def _code_spans(text: str) -> list[tuple[int, int, int, int]]:
    """(opener start, content start, content end, closer end) of each code span."""
    found: list[tuple[int, int]] = []
    runs: dict[int, list[int]] = {}
    at = text.find("`")
    while at >= 0:
        end = at + 1
        while end < len(text) and text[end] == "`":
            end += 1
        found.append((at, end))
        runs.setdefault(end - at, []).append(at)
        at = text.find("`", end)
    spans: list[tuple[int, int, int, int]] = []
    if "\\" in text:  # escapes decide where an opener starts: read on from each span's end
        pos = 0
        while (m := _ESCAPE_OR_TICKS.search(text, pos)) is not None:
            start, end = m.span()
            pos = end
            if text[start] == "`":
                closer = _closer(runs, start, end)
                if closer is not None:
                    pos = closer + end - start
                    spans.append((start, end, closer, pos))
        return spans
    pos = 0
    for start, end in found:
        if start >= pos:
            closer = _closer(runs, start, end)
            if closer is not None:
                pos = closer + end - start
                spans.append((start, end, closer, pos))
    return spans


def _closer(runs: dict[int, list[int]], start: int, end: int) -> int | None:
    """Where the next run as long as ``start:end`` starts, after it."""
    starts = runs.get(end - start, [])
    i = bisect_left(starts, end)
    return starts[i] if i < len(starts) else None


def _span_content(text: str, first: int, last: int) -> str:
    content = text[first:last].replace("\n", " ")
    if content.startswith(" ") and content.endswith(" ") and content.strip(" "):
        return content[1:-1]
    return content


def _joins(text: str, opener: int, first: int, last: int, closer: int) -> bool:
    """Whether dropping this span's backticks puts a letter or digit next to another."""
    before = opener > 0 and text[opener - 1].isalnum()
    after = closer < len(text) and text[closer].isalnum()
    if not (before or after) or first == last:
        return False
    if text[first] in " \n":  # the content may lose a space at each side
        content = _span_content(text, first, last)
        head, tail = content[0], content[-1]
    else:
        head, tail = text[first], text[last - 1]
    return (before and head.isalnum()) or (after and tail.isalnum())
