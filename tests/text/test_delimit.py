"""Delimiters never collide with the content they wrap (kernel.delimit)."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.errors import KernelError
from kernel.text.delimit import (
    escape,
    extract,
    find_delimiters,
    isolate,
    nonce_delimiter,
    unescape,
    unwrap,
    wrap,
)
from kernel.text.skeleton import skeletonize

NAME = "phase1_output"

# Pieces an attacker would build content from: delimiters in many disguises, escape sequences.
PIECES = [
    "<",
    "</",
    "< /",
    ">",
    "/",
    "&",
    "&amp;",
    "&#x3C;",
    "&#x",
    "#x",
    "amp;",
    ";",
    "3C",
    "phase1_output",
    "PHASE1_OUTPUT",
    "Phase1_Output",
    "phasel_output",
    "phase1\u200b_output",
    "<phase1_output>",
    "</phase1_output>",
    "</PHASE1_OUTPUT >",
    "\uff1c",  # full-width <
    "\u2039",  # single left-pointing angle quotation mark
    "\u226e",  # not less-than (< + combining overlay)
    "\u0338",
    "\u200b",
    "\ufeff",
    " ",
    "\n",
    "\t",
    "\u017f",  # long s
    "\u0440",  # Cyrillic er, looks like p
    "REVIEW_TARGET_",
    "_9",
    "9",
    "_",
    "x",
]

content = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=30).map("".join),
    st.text(max_size=200),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=5)), max_size=20).map("".join),
)
names = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,15}", fullmatch=True)

# A reference counter written differently: plain case-insensitive regexes on the raw text.
OPEN_RE = re.compile(r"<\s*phase1_output", re.IGNORECASE)
CLOSE_RE = re.compile(r"<\s*/\s*phase1_output", re.IGNORECASE)


@given(content)
@example("&#x3C;phase1_output>")
@example("&amp;#x3C;")
@example("<<phase1_output")
@example("\uff1c/phase1_output")
def test_escape_round_trips_and_leaves_no_delimiter(text: str) -> None:
    escaped = escape(text, NAME)
    assert unescape(escaped) == text
    assert find_delimiters(escaped, NAME) == ()
    assert not OPEN_RE.search(escaped)
    assert not CLOSE_RE.search(escaped)


@given(content, names)
def test_escape_round_trips_for_any_name(text: str, name: str) -> None:
    escaped = escape(text, name)
    assert unescape(escaped) == text
    assert find_delimiters(escaped, name) == ()


@given(content)
@example("</phase1_output>")
@example("<")
@example("</")
@example("<phase1_outpu")
def test_wrap_holds_exactly_one_pair_and_unwraps(text: str) -> None:
    wrapped = wrap(text, NAME)
    hits = find_delimiters(wrapped, NAME)
    assert [h.closing for h in hits] == [False, True]
    assert hits[0].span[0] == 0 and hits[1].span[1] == len(wrapped)
    assert len(OPEN_RE.findall(wrapped)) == 1
    assert len(CLOSE_RE.findall(wrapped)) == 1
    assert wrapped.lower().count("<phase1_output>") == 1
    assert wrapped.lower().count("</phase1_output>") == 1
    assert unwrap(wrapped, NAME) == text


@given(content, content)
def test_paper_outside_the_pair_is_neutralised(phase1: str, paper: str) -> None:
    document = f"Paper:\n{escape(paper, NAME)}\n\n{wrap(phase1, NAME)}\n"
    hits = find_delimiters(document, NAME)
    assert [h.closing for h in hits] == [False, True]
    start, end = hits[0].span[0], hits[1].span[1]
    assert unwrap(document[start:end], NAME) == phase1


@given(content)
def test_escape_only_touches_openers_and_ampersands(text: str) -> None:
    escaped = escape(text, NAME)
    # Removing every reference from the escaped text leaves the untouched characters, in order.
    kept = re.sub(r"&(?:amp|#x[0-9A-F]{1,6});", "", escaped)
    assert len(kept) <= len(text)
    if "&" not in text and not find_delimiters(text, NAME):
        assert escaped == text


@pytest.mark.parametrize(
    "wrapped",
    [
        "<phase1_output>\nx\n</phase1_output",
        "phase1_output>\nx\n</phase1_output>",
        "<phase1_output>\n</phase1_output>\n</phase1_output>",
        "<phase1_output>\n&amp;amp\n</phase1_output>x",
        "<phase1_output>\n</phase1_output>",
    ],
)
def test_unwrap_refuses_what_wrap_cannot_make(wrapped: str) -> None:
    with pytest.raises(KernelError):
        unwrap(wrapped, NAME)


def test_unwrap_refuses_non_canonical_escapes() -> None:
    # "&#x41;" decodes to "A", but wrap would never have escaped an "A".
    with pytest.raises(KernelError):
        unwrap("<phase1_output>\n&#x41;\n</phase1_output>", NAME)


def test_unescape_refuses_out_of_range_reference() -> None:
    with pytest.raises(KernelError):
        unescape("&#x110000;")


@pytest.mark.parametrize("name", ["", "1abc", "a b", "a<b", "ph\u0430se", 3, None, "x" * 65])
def test_bad_names_are_refused(name: object) -> None:
    with pytest.raises(KernelError):
        wrap("x", name)  # type: ignore[arg-type]
    with pytest.raises(KernelError):
        find_delimiters("x", name)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    ["<phase1_output>", "< / PHASE1_OUTPUT>", "\uff1cphase1_output", "<phase1\u200b_output"],
)
def test_disguised_delimiters_are_found(text: str) -> None:
    assert len(find_delimiters(text, NAME)) == 1


@given(content, st.from_regex(r"[A-Za-z0-9]{1,8}", fullmatch=True))
@example("REVIEW_TARGET_ab REVIEW_TARGET_ab_9 review_target_AB_99", "ab")
@example("REVIEW_TARGET_ab_99999", "ab")
def test_nonce_delimiter_never_occurs_in_content(text: str, nonce: str) -> None:
    delimiter = nonce_delimiter(text, nonce)
    assert delimiter.startswith(f"REVIEW_TARGET_{nonce}")
    assert delimiter.lower() not in text.lower()
    assert skeletonize(delimiter).text not in skeletonize(text).text
    isolated = isolate(text, nonce)
    assert isolated.delimiter == delimiter
    assert isolated.text.count(f"{delimiter}_START") == 1
    assert isolated.text.count(f"{delimiter}_END") == 1
    assert extract(isolated.text, delimiter) == text


def test_nonce_delimiter_is_the_plain_name_when_free() -> None:
    assert nonce_delimiter("plain text", "ab12") == "REVIEW_TARGET_ab12"
    assert nonce_delimiter("REVIEW_TARGET_ab12", "ab12") == "REVIEW_TARGET_ab12_9"
    assert nonce_delimiter("x", "n", prefix="CODE") == "CODE_n"


@pytest.mark.parametrize("nonce", ["", "a-b", "\u0430", 7])
def test_bad_nonces_are_refused(nonce: object) -> None:
    with pytest.raises(KernelError):
        nonce_delimiter("x", nonce)  # type: ignore[arg-type]


def test_extract_refuses_foreign_blocks() -> None:
    with pytest.raises(KernelError):
        extract("D_START\nx\nD_END", "E")
    with pytest.raises(KernelError):
        extract("D_START\nD\nD_END", "D")
