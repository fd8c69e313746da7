"""kernel.markdown: CommonMark lines, structural headings, key: value lines."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from kernel.text.markdown import (
    collapse,
    key_values,
    parse_document,
    plain_words_text,
    split_lines,
)

SEPARATORS = ("\n", "\r\n", "\r", "\u2028", "\u2029", "\u0085", "\x0b", "\x0c", "\x1c", "\x1e")


def _oracle_lines(text: str) -> list[str]:
    """CommonMark line splitting written as a character loop."""
    lines: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\r":
            lines.append("".join(current))
            current = []
            i += 2 if text[i + 1 : i + 2] == "\n" else 1
            continue
        if ch == "\n":
            lines.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    lines.append("".join(current))
    return lines


@given(st.lists(st.one_of(st.sampled_from(SEPARATORS), st.text(max_size=5))).map("".join))
def test_split_lines_matches_oracle(text: str) -> None:
    assert split_lines(text) == _oracle_lines(text)


def test_only_commonmark_line_endings() -> None:
    for sep in ("\u2028", "\u2029", "\u0085", "\x0b", "\x0c", "\x1c"):
        assert split_lines(f"a{sep}b") == [f"a{sep}b"]
    assert split_lines("a\r\nb\rc\nd") == ["a", "b", "c", "d"]


def _oracle_headings(text: str) -> list[tuple[int, int, str, bool]]:
    """(line, level, title, structural) from a full parse, nesting read from token levels."""
    if text.startswith("\ufeff"):
        text = text[1:]
    tokens = MarkdownIt("commonmark").parse(text)
    out = []
    stack: list[str] = []
    for i, tok in enumerate(tokens):
        if tok.nesting == 1 and tok.type != "heading_open" and tok.type != "paragraph_open":
            stack.append(tok.type)
        elif tok.nesting == -1 and tok.type not in ("heading_close", "paragraph_close"):
            stack.pop()
        if tok.type == "heading_open":
            assert tok.map is not None
            structural = not any(t in ("blockquote_open", "list_item_open") for t in stack)
            title = " ".join(tokens[i + 1].content.replace("\t", " ").split(" "))
            out.append((tok.map[0] + 1, int(tok.tag[1]), " ".join(title.split(" ")), structural))
    return out


FRAGMENTS = (
    "## A",
    "### B c",
    "# T",
    "```",
    "~~~",
    "    ## code",
    "> ## quoted",
    "- ## listed",
    "<!--",
    "-->",
    "<div>",
    "</div>",
    "",
    "text",
    "---",
    "===",
    "1. item",
    "  ## indented two",
)


@given(st.lists(st.sampled_from(FRAGMENTS), max_size=25).map("\n".join))
def test_headings_match_full_parse(text: str) -> None:
    doc = parse_document(text)
    mine = [(b.line, b.level, b.title, b.structural) for b in doc.blocks if b.kind == "heading"]
    oracle = [(line, level, collapse(t), s) for line, level, t, s in _oracle_headings(text)]
    assert mine == oracle


def test_headings_in_code_html_and_quotes_are_text() -> None:
    text = "```\n## A\n```\n\n    ## B\n\n<!--\n## C\n-->\n\n> ## D\n\n## E\n"
    doc = parse_document(text)
    structural = [(b.line, b.title) for b in doc.blocks if b.structural]
    assert structural == [(13, "E")]


def test_bom_and_crlf_line_numbers() -> None:
    doc = parse_document("\ufeff## A\r\n\r\nkey: v\r\n")
    assert [(b.kind, b.line) for b in doc.blocks] == [("heading", 1), ("paragraph", 3)]
    assert doc.blocks[0].title == "A"


def test_collapse_only_spaces_and_tabs() -> None:
    assert collapse("  Review \t  Body ") == "Review Body"
    assert collapse("Review\u00a0Body") == "Review\u00a0Body"
    assert collapse("Review\u2003Body") == "Review\u2003Body"


@given(st.text(alphabet=st.sampled_from(" \tab\u00a0\n"), max_size=20))
def test_collapse_equals_its_general_path(text: str) -> None:
    import re

    assert collapse(text) == re.sub(r"[ \t]+", " ", text).strip(" \t")


def test_key_values() -> None:
    text = (
        "- dimension_id: D1\n- **what_to_look_for**: a\n1. `what_triggers_block`:  b c  \n"
        "+ empty:\n\nscore: block\nlazy: x\n\n> quoted: no\n\n```\nfenced: no\n```\n"
        "**bold:** not a key\nnot a key line\n"
    )
    kvs = [(kv.key, kv.value, kv.line) for kv in key_values(parse_document(text).blocks)]
    assert kvs == [
        ("dimension_id", "D1", 1),
        ("what_to_look_for", "a", 2),
        ("what_triggers_block", "b c", 3),
        ("empty", "", 4),
        ("score", "block", 6),
        ("lazy", "x", 7),
    ]


def test_plain_words_skip_inline_html_and_code_blocks() -> None:
    doc = parse_document(
        "Seen *word* `code`\n\n<!-- hidden -->\n\n```\nfenced\n```\n\nx <!-- gone --> y\n"
    )
    text = plain_words_text(doc.blocks)
    assert "word" in text and "code" in text and "x" in text
    assert "hidden" not in text and "fenced" not in text and "gone" not in text


_MARKDOWNISH = st.text(alphabet=st.sampled_from("#>-*1. \t\nab`~|"), max_size=60)


@given(st.one_of(_MARKDOWNISH, st.text(max_size=40).filter(str.isascii)))
def test_ascii_without_other_blanks_reads_the_same_with_either_parser(text: str) -> None:
    # block_tokens skips its space-and-tab trimming rules when markdown-it would trim
    # nothing else; both parsers must then give the same tokens.
    from kernel.text.markdown import _ASCII_OTHER_BLANKS, _BLOCK_MD, _PLAIN_BLOCK_MD

    text = text.replace("\r", "\n")
    if any(c in text for c in _ASCII_OTHER_BLANKS):
        text = text.translate({ord(c): "x" for c in _ASCII_OTHER_BLANKS})
    plain = [(t.type, t.map, t.content, t.markup) for t in _PLAIN_BLOCK_MD().parse(text)]
    wrapped = [(t.type, t.map, t.content, t.markup) for t in _BLOCK_MD().parse(text)]
    assert plain == wrapped


def test_the_other_blanks_are_every_white_space_character_but_space_and_tab() -> None:
    import sys

    from kernel.text.markdown import _OTHER_BLANKS

    every = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()}
    assert every - {" ", "\t"} == _OTHER_BLANKS


def test_code_and_html_blocks_are_quoted_only_inside_a_quote() -> None:
    text = "```\ncode\n```\n\n<div>\nx\n</div>\n\n> ```\n> q\n> ```\n\n---\n\n> <div>\n"
    blocks = parse_document(text).blocks
    assert [(b.kind, b.line, b.quoted) for b in blocks] == [
        ("code", 1, False),
        ("html", 5, False),
        ("code", 9, True),
        ("hr", 13, False),
        ("html", 15, True),
    ]


def test_a_no_break_space_before_trailing_blanks_stays_in_the_paragraph() -> None:
    assert [b.text for b in parse_document("a\u00a0 \n\nx \u00a0\t").blocks] == [
        "a\u00a0",
        "x \u00a0",
    ]


_WITH_LINE_ENDS = st.text(
    alphabet=st.sampled_from("#>-*1. \t\n\r\x00ab`~|\u00a0\u2028<[]:/!"), max_size=60
)
# Whole blocks of every kind whose rule ``_idle`` may leave out, in any order.
_BLOCKS = st.lists(
    st.sampled_from(
        ["<div>\nx\n</div>", "[a]: /u", "[a]", "> q\n> r", "```\ncode\n```", "~~~\nx\n~~~",
         "- a\n  > b", "para\ngraph", "# h", "    code", "<!-- c -->", "a\n===", "* * *", "``x``"]
    ),
    max_size=6,
).map("\n".join)  # fmt: skip


@given(st.one_of(_WITH_LINE_ENDS, _MARKDOWNISH, _BLOCKS, st.text(max_size=40)))
@example("a\r\nb\rc\x00d")
@example("# x\u00a0\r\n\r\n- \x00")
@example("para\n<div>\nx\n</div>\n> q\n[a]: /u\n```\nc\n```\n~~~\nx")
@example("para\n``` and ~~ ~ `` `")
def test_block_tokens_equal_a_parse_with_markdown_its_own_normalize_step(text: str) -> None:
    # block_tokens does markdown-it's normalize step itself, and only when it changes the
    # text; the tokens must be those of the parsers that normalize.
    from kernel.text.markdown import _block_parser, block_tokens

    reference = _block_parser()
    reference.enable("normalize")
    ours = [t.as_dict() for t in block_tokens(text)]
    theirs = [t.as_dict() for t in reference.parse(text)]
    assert ours == theirs
    if text.isascii() and not any(c in text for c in "\x0b\x0c\x1c\x1d\x1e\x1f"):
        plain = MarkdownIt("commonmark").disable("inline")  # the benchmark's peer
        assert ours == [t.as_dict() for t in plain.parse(text)]


@given(st.text(alphabet=st.sampled_from("#>-+*.)[ab\n\u00e9"), max_size=80), st.integers(1, 40))
@example("- a\n- b\n> c", 5)
def test_check_structure_counts_markers_the_same_way_for_ascii_and_other_text(
    text: str, limit: int
) -> None:
    from kernel.text.markdown import _MARKER_UNITS, _MARKS, check_structure, structure_units

    bound = text.count("\n") + 1 + _MARKER_UNITS * sum(map(text.count, _MARKS))
    problem = check_structure(text, limit=limit)
    if bound <= limit:
        assert problem is None
    else:
        assert (problem is None) == (structure_units(text, limit=limit) <= limit)


@given(st.one_of(_WITH_LINE_ENDS, _MARKDOWNISH, _BLOCKS, st.text(max_size=40)))
@example("# x\n\npara\n\n> q")
def test_the_tokens_without_text_join_differ_only_in_empty_children(text: str) -> None:
    from kernel.text.markdown import _tokens

    def shown(tokens: list[Token]) -> list[dict[str, object]]:
        out: list[dict[str, object]] = []
        for t in tokens:
            d = dict(t.as_dict())
            assert not d.get("children")
            d.pop("children", None)
            out.append(d)
        return out

    assert shown(_tokens(text, joined=False)) == shown(_tokens(text, joined=True))
