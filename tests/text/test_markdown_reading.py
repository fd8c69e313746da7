"""kernel.text.markdown: the trimming rule (spaces and tabs only), the work bound counted
before parsing, and prose words read without a second inline parse."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kernel.contract.model import load_contract
from kernel.errors import KernelError
from kernel.reviewer.lint import lint_phase1, lint_phase2
from kernel.reviewer.lint.tokens import words
from kernel.reviewer.render import render_phase1, render_phase2
from kernel.text import markdown
from kernel.text.markdown import (
    MAX_BACKTICKS,
    MAX_INLINE_MARKUP,
    MAX_STRUCTURE_UNITS,
    check_structure,
    key_values,
    parse_document,
    plain_words_text,
    prose_word_text,
    structure_units,
)

#: Every character besides space and tab that markdown-it (in some version) trims from the
#: edges of a paragraph or heading: the ASCII controls VT, FF, FS-US, NEL, NBSP, the Unicode
#: spaces, the line and paragraph separators.
OTHER_BLANKS = tuple(c for c in map(chr, range(0x3001)) if c.isspace() and c not in " \t\n\r")
NAMED = ("\x0b", "\x0c", "\u2028", "\u00a0")

FULL = load_contract("reviewer/full")
PHASE1 = render_phase1(FULL)
PHASE2 = render_phase2(FULL, dict.fromkeys(FULL.dimension_ids, "pass"))


def _keys(text: str) -> list[tuple[str, str, int]]:
    return [(kv.key, kv.value, kv.line) for kv in key_values(parse_document(text).blocks)]


def test_the_named_characters_are_covered() -> None:
    assert set(NAMED) <= set(OTHER_BLANKS)
    assert len(OTHER_BLANKS) >= 20


@pytest.mark.parametrize("ch", OTHER_BLANKS, ids=lambda c: f"U+{ord(c):04X}")
def test_only_spaces_and_tabs_are_trimmed_from_key_lines(ch: str) -> None:
    # before the key: not a key line, wherever the line sits in its paragraph
    for text in (f"{ch}score: block\n", f"- {ch}score: block\n", f"{ch}score: block\nmore\n"):
        assert _keys(text) == [], repr(text)
    # after the value: part of the value, on the paragraph's last line as on any other
    for text, line in ((f"score: block{ch}\n", 1), (f"a\nscore: block{ch}\n", 2)):
        assert _keys(text) == [("score", f"block{ch}", line)], repr(text)
    assert _keys(f"score: block{ch}\nmore\n")[0][1] == f"block{ch}"
    # spaces and tabs around are trimmed
    assert _keys("  score: \t block \t\n") == [("score", "block", 1)]


@pytest.mark.parametrize("ch", OTHER_BLANKS, ids=lambda c: f"U+{ord(c):04X}")
def test_only_spaces_and_tabs_are_trimmed_from_headings(ch: str) -> None:
    for raw in (f"## Review Body{ch}\n", f"## {ch}Review Body\n", f"## Review Body{ch} ##\n"):
        [block] = parse_document(raw).blocks
        assert block.title != "Review Body", repr(raw)
    [block] = parse_document("##  \tReview \t Body \t## \n").blocks
    assert block.title == "Review Body"


@settings(max_examples=40)
@given(ch=st.sampled_from(OTHER_BLANKS), where=st.sampled_from(("before", "after")))
@example(ch="\u00a0", where="before")
@example(ch="\u2028", where="after")
@example(ch="\x0b", where="after")
@example(ch="\x0c", where="before")
def test_lints_fail_closed_on_other_blanks(ch: str, where: str) -> None:
    line = "score: pass"
    bad = f"{ch}{line}" if where == "before" else f"{line}{ch}"
    text = PHASE2.replace(f"{line}\n", f"{bad}\n", 1)
    report = lint_phase2(text, FULL)
    assert not report.ok
    assert report.scores is None
    field = "- dimension_id: D1"
    bad1 = f"- {ch}dimension_id: D1" if where == "before" else f"{field}{ch}"
    assert not lint_phase1(PHASE1.replace(field, bad1, 1), FULL).ok


def test_first_blank_only_line_keeps_line_numbers() -> None:
    assert _keys("\u00a0\nscore: block\n") == [("score", "block", 2)]


# -- the work bound -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("a", 1),
        ("a\nb\n", 3),
        ("- a\n", 2 + 3),
        ("- - a\n", 2 + 6),
        ("> - a", 1 + 6),
        ("1. a\n2) b", 2 + 6),
        ("### F1", 1 + 3),
        ("[a]: /b", 1 + 3),
        ("  > > ## x", 1 + 9),
        ("-a\n*b\n1.a\n12345678901. x", 4),
        ("a - b > c", 1),
        ("* * *", 1 + 9),
    ],
)
def test_structure_units(text: str, units: int) -> None:
    assert structure_units(text) == units


@settings(max_examples=30)
@given(st.lists(st.sampled_from(("a", "", "- a", "> a", "# a", "1. a", "[a]: b", "- > 2. x"))))
def test_structure_units_count_lines_and_markers(lines: list[str]) -> None:
    markers = {"a": 0, "": 0, "- a": 1, "> a": 1, "# a": 1, "1. a": 1, "[a]: b": 1, "- > 2. x": 3}
    text = "\n".join(lines)
    assert structure_units(text) == max(1, len(lines)) + 3 * sum(markers[x] for x in lines)


def test_over_the_bound_is_refused_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_parse(text: str, **_: object) -> object:
        raise AssertionError("parsed a document over the work bound")

    monkeypatch.setattr(markdown, "block_tokens", no_parse)
    monkeypatch.setattr(markdown, "_tokens", no_parse)
    many_lines = "## Review Body\n" + "a\n" * MAX_STRUCTURE_UNITS
    many_headings = "### F1\n" * (MAX_STRUCTURE_UNITS // 4 + 1)
    for text in (many_lines, many_headings, "a\n" * 500_000):
        assert check_structure(text) is not None
        r1 = lint_phase1(text, FULL)
        assert [(f.code, f.check, f.line) for f in r1.findings] == [("P1-015", "sections", None)]
        r2 = lint_phase2(text, FULL, PHASE1)
        assert [(f.code, f.check, f.line) for f in r2.findings] == [("P2-006", "sections", None)]
        assert "too large to lint" in r2.findings[0].message
        with pytest.raises(KernelError, match="too large"):
            parse_document(text)


def test_at_the_bound_is_read() -> None:
    text = "a\n" * (MAX_STRUCTURE_UNITS - 1)
    assert structure_units(text) == MAX_STRUCTURE_UNITS
    assert check_structure(text) is None
    assert parse_document(text).blocks[0].kind == "paragraph"


def test_phase1_over_the_bound_breaks_every_plan() -> None:
    scores = dict.fromkeys(FULL.dimension_ids, "pass") | {"D1": "block"}
    huge = "- x\n" * MAX_STRUCTURE_UNITS
    report = lint_phase2(render_phase2(FULL, scores), FULL, huge)
    assert [f.code for f in report.errors] == ["P2-042"]
    assert "too large to read" in report.errors[0].message
    passing = render_phase2(FULL, dict.fromkeys(FULL.dimension_ids, "pass"))
    assert lint_phase2(passing, FULL, huge).ok


# -- words of prose -------------------------------------------------------------------------


def _old_words(text: str) -> set[str]:
    """The original character loop (wire-format check 5 tokeniser)."""
    found: set[str] = set()
    current: list[str] = []
    for ch in text:
        if ch.isalnum():
            current.append(ch)
        elif current:
            found.add("".join(current).casefold())
            current = []
    if current:
        found.add("".join(current).casefold())
    return found


@given(st.text())
@example("İstanbul ß \u017fize x_y a-b 3.14 \u200bsize")
def test_words_match_the_character_loop(text: str) -> None:
    assert words(text) == _old_words(text)


PROSE = st.lists(
    st.sampled_from(
        [
            *"ab `\\\n*_[]()!#-é1İ&<>;",
            *("``", "```", "\\`", "  ", "\n\n", "- ", "> ", "&amp;", "<b>", "</b>", "<!--"),
            *("-->", "&#105;", "<http://x.y>", "sam", "ple", "size"),
        ]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=100)
@given(PROSE)
@example("sam`ple` size")
@example("a`b`c`d")
@example("\\``x` y")
@example("x\\\\`y` z")
@example("``a`b`` c")
@example("ig<b>nore</b> caf&eacute;")
@example("a` b `c")
@example("a`\nb\n`c d")
@example("a`  b `c")
@example("a` `b")
def test_prose_words_match_the_inline_parse(text: str) -> None:
    blocks = parse_document(text).blocks
    prose = prose_word_text(blocks)
    assert prose is not None
    assert words(prose) == words(plain_words_text(blocks))


@settings(max_examples=100)
@given(st.text(alphabet=st.sampled_from("ab1 `\n\\"), max_size=24))
def test_prose_words_match_on_dense_code_spans(text: str) -> None:
    blocks = parse_document(text).blocks
    assert words(prose_word_text(blocks) or "") == words(plain_words_text(blocks))


def test_code_spans_join_words() -> None:
    [block] = parse_document("the sam`ple` size").blocks
    assert words(prose_word_text([block]) or "") == {"the", "sample", "size"}


@pytest.mark.parametrize(
    ("unit", "limit"),
    [("&amp;x ", MAX_INLINE_MARKUP), ("<b>x</b> ", MAX_INLINE_MARKUP // 2), ("x` ", MAX_BACKTICKS)],
)
def test_inline_work_is_bounded(unit: str, limit: int) -> None:
    under = parse_document(unit * limit).blocks
    assert prose_word_text(under) is not None
    over = parse_document(unit * (limit + 1)).blocks
    assert prose_word_text(over) is None


def test_too_much_inline_markup_fails_consistency() -> None:
    scores = dict.fromkeys(FULL.dimension_ids, "pass") | {"D1": "block"}
    trigger = "serious methodology rigor failures"
    body = f"{trigger}\n\n" + "R&D " * (MAX_INLINE_MARKUP + 1)
    report = lint_phase2(render_phase2(FULL, scores, body=body), FULL, PHASE1)
    assert [f.code for f in report.errors] == ["P2-045"]
    ok = lint_phase2(render_phase2(FULL, scores, body=trigger), FULL, PHASE1)
    assert ok.ok


@given(st.text(alphabet=st.sampled_from("ab1 `\n.é"), max_size=24).filter(lambda t: "``" not in t))
@example("the `x` y")
@example("a` b `c`")
def test_single_backtick_spans_read_like_the_general_reader(text: str) -> None:
    # Without runs of two backticks or backslashes, spans pair up in order; the general
    # reader must give the very same text.
    from kernel.text.markdown import _code_spans, _joins, _span_content, _without_single_backticks

    spans = _code_spans(text)
    expected = text
    if any(_joins(text, *span) for span in spans):
        out: list[str] = []
        keep = 0
        for opener, first, last, closer in spans:
            out += (text[keep:opener], _span_content(text, first, last))
            keep = closer
        expected = "".join([*out, text[keep:]])
    assert _without_single_backticks(text) == expected


@given(
    st.lists(st.sampled_from(("a", "", "- a", "> a", "# a", "1. a", "a - b.", "- > 2. x"))),
    st.integers(1, 40),
)
def test_the_quick_bound_never_admits_a_document_over_the_limit(
    lines: list[str], limit: int
) -> None:
    # check_structure first bounds the units by counting marker characters anywhere; it
    # must say exactly what the full count says.
    text = "\n".join(lines)
    assert (check_structure(text, limit=limit) is None) == (structure_units(text) <= limit)
