"""The rendered page of a reviewer document, read from a real render (R20).

The tokens of the document's one block parse (:attr:`Document.tokens`) are rendered to HTML
as markdown-it's renderer does (each block token's tag, text escaped, raw HTML passed
through), each inline token parsed inline once (links, images and emphasis left as text:
they hide no letter but a link's destination, which the field-shape reading removes too;
code spans note the line breaks they cover), and the HTML is read with the standard library's
:class:`html.parser.HTMLParser` as a browser shows it: character references decoded; the
content of ``<template>``, ``<script>``, ``<style>``, ``<noscript>``, ``<title>``,
comments, and of elements marked ``hidden``, ``aria-hidden="true"`` or with an inline
``display:none``/``visibility:hidden`` style dropped. Every piece of visible text is mapped
back to the source line it came from (block tokens carry ``.map`` line ranges; inside a
paragraph, its line breaks and the raw line breaks of inline HTML and code spans count the
lines).

A document with no markup that can change what is shown (``<`` before a letter, ``/``, ``!``
or ``?``; ``&`` before ``#`` or a letter; ``\\`` before punctuation) renders as it is
written, and is not rendered; a paragraph without any is not inline-parsed. Work bound
(R13): a document with more than :data:`MAX_RENDERED_MARKUP` such places is not rendered
either: its :attr:`Rendered.over` says so, and the lints refuse it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from html import escape, unescape
from html.parser import HTMLParser
from typing import Any, Final

import attrs
from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from kernel.text.markdown import Document, block_tokens

__all__ = ["ALLOWED_TAGS", "MAX_RENDERED_MARKUP", "Rendered", "as_written", "rendered"]

#: The most places of markup (:data:`_MARKUP`) a document may hold to be rendered.
MAX_RENDERED_MARKUP: Final = 50_000

#: Raw HTML tags a field's section may hold without failing, written without attributes.
ALLOWED_TAGS: Final = frozenset(
    {"br", "sub", "sup", "b", "i", "em", "strong", "code", "kbd", "u", "s", "p"}
)
#: Elements whose content a browser does not show.
_HIDING_TAGS: Final = frozenset({"template", "script", "style", "noscript", "title"})
_VOID: Final = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    }
)
#: Start tags that close an open ``<p>`` (HTML's implied end tags).
_CLOSES_P: Final = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "details",
        "dialog",
        "div",
        "dl",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "ul",
    ]
)
#: Characters that only markdown markup (code spans, escapes) removes from a line.
_MARKUP_CHARS: Final = str.maketrans("", "", "`\\")
#: The places where markup can make the page differ from the text as written: a tag, comment,
#: declaration or autolink; a character reference; a backslash escape.
_MARKUP: Final = re.compile(r"<[A-Za-z/!?]|&[#A-Za-z]|\\[!-/:-@\[-`{-~]")
_TRIGGERS: Final = ("<", "&", "\\")


@attrs.frozen
class Rendered:
    """The visible text of each source line (1-based), and where it differs from the text
    the block reading reads."""

    #: line → the text a browser shows on it (lines showing nothing are absent).
    shown: Mapping[int, str]
    #: Lines of paragraphs and headings whose visible text is not their markdown text (hidden
    #: by HTML, changed by a character reference, a backslash escape or inline HTML).
    altered: frozenset[int]
    #: line → the raw HTML tags on it (name, with attributes), for the strict rule.
    tags: Mapping[int, tuple[tuple[str, bool], ...]]
    #: Why the document was not rendered (over the work bound), else ``None``.
    over: str | None = None


_PLAIN: Final = Rendered({}, frozenset(), {})


def as_written(text: str) -> str:
    """``text`` as compared across readings: code-span backticks and escaping backslashes
    removed, runs of white space collapsed."""
    return " ".join(text.translate(_MARKUP_CHARS).split())


def _tracked_backticks(rule: Any) -> Any:
    """The code span rule, noting on each span how many line breaks it covered (markdown-it
    turns them into spaces)."""

    def backticks(state: StateInline, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        if not rule(state, silent):
            return False
        if not silent and len(state.tokens) > count:
            state.tokens[-1].meta["breaks"] = state.src.count("\n", start, state.pos)
        return True

    return backticks


@functools.cache
def _inline_md() -> MarkdownIt:
    md = MarkdownIt("commonmark").disable(["link", "image", "emphasis"])
    rule = next(r for r in md.inline.ruler.__rules__ if r.name == "backticks")
    md.inline.ruler.at("backticks", _tracked_backticks(rule.fn), {"alt": list(rule.alt)})
    return md


class _Page(HTMLParser):
    """Visible text by line of an HTML string whose line ``k`` comes from source line ``k``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.text: dict[int, list[str]] = {}
        self.stack: list[tuple[str, bool]] = []
        self.hiding = 0
        self.raw = False
        self.tags: dict[int, list[tuple[str, bool]]] = {}

    def _add(self, line: int, text: str) -> None:
        if not self.hiding and text:
            self.text.setdefault(line, []).append(text)

    def handle_data(self, data: str) -> None:
        if self.hiding:
            return
        line = self.getpos()[0]
        for i, piece in enumerate(data.split("\n")):
            self._add(line + i, piece)

    def handle_charref(self, name: str) -> None:
        self._add(self.getpos()[0], unescape(f"&#{name};").replace("\n", " "))

    def handle_entityref(self, name: str) -> None:
        self._add(self.getpos()[0], unescape(f"&{name};").replace("\n", " "))

    def _note(self, tag: str, attrs: Sequence[tuple[str, str | None]]) -> None:
        if self.raw:
            self.tags.setdefault(self.getpos()[0], []).append((tag, bool(attrs)))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._note(tag, attrs)
        if tag in _CLOSES_P:
            self._close("p")
        if tag in _VOID:
            return
        hides = tag in _HIDING_TAGS or _hides(attrs)
        self.stack.append((tag, hides))
        self.hiding += hides

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # HTML ignores the slash of a non-void start tag: <div hidden/> stays open
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self._note(tag, ())
        self._close(tag)

    def _close(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == "template" != tag:  # a template's content stays its own
                return
            if self.stack[i][0] == tag:
                self.hiding -= sum(h for _, h in self.stack[i:])
                del self.stack[i:]
                return

    def handle_comment(self, data: str) -> None:
        if self.raw:
            self.tags.setdefault(self.getpos()[0], []).append(("!--", False))


def _hides(attrs: Sequence[tuple[str, str | None]]) -> bool:
    for name, value in attrs:
        if name == "hidden":
            return True
        text = "".join((value or "").split()).lower()
        if name == "aria-hidden" and text == "true":
            return True
        if name == "style" and ("display:none" in text or "visibility:hidden" in text):
            return True
    return False


def _comments(raw: str) -> str:
    """Raw HTML with the comment forms a browser closes at once (``<!-->``, ``<!--->``)
    and the ``--!>`` closer written as the parser reads them."""
    if "<!--" not in raw and "--!>" not in raw:
        return raw
    return raw.replace("<!--->", "<!---->").replace("<!-->", "<!---->").replace("--!>", "-->")


def _inline_html(tok: Token) -> list[tuple[str, bool]]:
    """The pieces (HTML, raw?) of one inline token's content, with a line break for every
    source line break."""
    content = tok.content
    if not any(c in content for c in _TRIGGERS) or _MARKUP.search(content) is None:
        return [(escape(content, quote=False), False)]
    md = _inline_md()
    children: list[Token] = []
    md.inline.parse(content, md, {}, children)
    out: list[tuple[str, bool]] = []
    for child in children:
        kind = child.type
        if kind == "text" or kind == "text_special":  # text_special: a reference or escape
            out.append((escape(child.content.replace("\n", " "), quote=False), False))
        elif kind == "softbreak" or kind == "hardbreak":
            out.append(("\n", False))
        elif kind == "code_inline":
            code = escape(child.content, quote=False)
            out.append((f"<code>{code}</code>" + "\n" * child.meta.get("breaks", 0), False))
        elif kind == "html_inline":
            out.append((_comments(child.content), True))
        elif kind == "link_open" or kind == "link_close":  # an autolink
            out.append(("", False))
    return out


@functools.lru_cache(maxsize=2)
def rendered(doc: Document) -> Rendered:
    """The rendered page of ``doc`` (see the module docstring)."""
    source = doc.source or "\n".join(doc.lines)
    if not any(c in source for c in _TRIGGERS):
        return _PLAIN
    places = sum(1 for _ in _MARKUP.finditer(source))
    if not places:
        return _PLAIN
    if places > MAX_RENDERED_MARKUP:
        return Rendered(
            {},
            frozenset(),
            {},
            f"{places} places of markup (tags, character references, escapes), over the "
            f"limit of {MAX_RENDERED_MARKUP} the rendered page is read for (R13)",
        )
    tokens: Sequence[Token] = doc.tokens or block_tokens(source)
    page = _Page()
    line = 1
    written: dict[int, str] = {}

    def feed(html: str, raw: bool) -> None:
        nonlocal line
        page.raw = raw
        page.feed(html)
        line += html.count("\n")

    for tok in tokens:
        if tok.map is not None and tok.type != "inline":
            first = tok.map[0] + 1
            if line < first:
                feed("\n" * (first - line), False)
        kind = tok.type
        if kind == "inline" and tok.map is not None:
            start = tok.map[0] + 1
            for i, text in enumerate(tok.content.split("\n")):
                written[start + i] = text
            for html, raw in _inline_html(tok):
                feed(html, raw)
        elif kind == "html_block":
            feed(_comments(tok.content), True)
        elif kind == "fence" or kind == "code_block":
            opener = "<pre><code>\n" if kind == "fence" else "<pre><code>"
            feed(opener + escape(tok.content, quote=False) + "</code></pre>", False)
        elif tok.nesting != 0 and tok.tag:
            feed(f"<{'/' if tok.nesting < 0 else ''}{tok.tag}>", False)
    feed("\n-->", False)  # a comment left open hides the rest, as a browser reads it
    page.close()
    shown = {n: "".join(parts) for n, parts in page.text.items()}
    altered = frozenset(
        n for n, text in written.items() if as_written(shown.get(n, "")) != as_written(text)
    )
    return Rendered(shown, altered, {n: tuple(t) for n, t in page.tags.items()})
