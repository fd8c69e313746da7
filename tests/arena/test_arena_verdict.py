"""kernel.arena.parse_verdict (§7.3, companions.md §A): corpus and a differential oracle."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.arena import (
    PARSER_ERROR_MISSING_VERDICT,
    PARSER_WARNING_MULTIPLE_VERDICTS,
    parse_verdict,
)
from kernel.errors import KernelError

W = (PARSER_WARNING_MULTIPLE_VERDICTS,)
E = (PARSER_ERROR_MISSING_VERDICT,)

CORPUS: list[tuple[str, str | None, tuple[str, ...]]] = [
    ("VERDICT: APPROVED", "APPROVED", ()),
    ("VERDICT: REVISE", "REVISE", ()),
    ("verdict: approved", "APPROVED", ()),
    ("Verdict: Revise", "REVISE", ()),
    ("vErDiCt:rEvIsE", "REVISE", ()),
    ("VERDICT:APPROVED", "APPROVED", ()),
    ("   VERDICT:    APPROVED   ", "APPROVED", ()),
    ("\tVERDICT:\tREVISE\t", "REVISE", ()),
    ("\fVERDICT:\vREVISE\f", "REVISE", ()),
    ("Looks good.\n\nVERDICT: APPROVED\n", "APPROVED", ()),
    ("Looks good.\r\nVERDICT: APPROVED\r\n", "APPROVED", ()),
    ("Looks good.\r\nVERDICT: REVISE\r", "REVISE", ()),
    ("VERDICT: APPROVED\nmore prose after", "APPROVED", ()),
    ("VERDICT: REVISE\nVERDICT: APPROVED", "APPROVED", W),
    ("VERDICT: APPROVED\nprose\nverdict: revise\n", "REVISE", W),
    ("VERDICT: APPROVED\nVERDICT: APPROVED\nVERDICT: APPROVED", "APPROVED", W),
    # near misses
    ("VERDICT: APPROVED.", None, E),
    ("VERDICT: APPROVE", None, E),
    ("VERDICT: REVISED", None, E),
    ("VERDICT APPROVED", None, E),
    ("VERDICT - APPROVED", None, E),
    ("VERDICT : APPROVED", None, E),
    ("**VERDICT: APPROVED**", None, E),
    ("> VERDICT: APPROVED", None, E),
    ("- VERDICT: REVISE", None, E),
    ("`VERDICT: APPROVED`", None, E),
    ("VERDICT: APPROVED OR REVISE", None, E),
    ("VERDICT: APPROVED/REVISE", None, E),
    ("FINAL VERDICT: APPROVED", None, E),
    ("The VERDICT: APPROVED line is what I would write if it were good.", None, E),
    ("I'd say VERDICT: APPROVED but not yet", None, E),
    ("Overall this is approved.", None, E),
    ("", None, E),
    ("\n\n", None, E),
    # carriage returns only count as one trailing CR per LF-line
    ("VERDICT: APPROVED\r\r\n", None, E),
    ("VERDICT: APPROVED\rVERDICT: REVISE", None, E),
    ("VERDICT: REVISE\r", "REVISE", ()),
    # Unicode is not whitespace or case folding here
    ("VERDICT: APPROVED\u2028", None, E),
    ("VERDICT:\u2028APPROVED", None, E),
    ("prose\u2028VERDICT: APPROVED", None, E),
    ("VERDICT:\u00a0APPROVED", None, E),
    ("\u3000VERDICT: APPROVED", None, E),
    ("VERD\u0130CT: APPROVED", None, E),
    ("verd\u0131ct: approved", None, E),
    ("VERDICT: REVI\u017fE", None, E),
    ("\uff36ERDICT: APPROVED", None, E),
    ("VERDICT: APPROVED\u200b", None, E),
    ("\ufeffVERDICT: APPROVED", None, E),
    ("VERDICT: APPROVED\x00", None, E),
]


@pytest.mark.parametrize(("text", "verdict", "codes"), CORPUS)
def test_corpus(text: str, verdict: str | None, codes: tuple[str, ...]) -> None:
    result = parse_verdict(text)
    assert (result.verdict, result.codes) == (verdict, codes)


def test_line_numbers_point_at_every_verdict_and_the_last_counts() -> None:
    result = parse_verdict("a\nVERDICT: REVISE\nb\r\nverdict: approved\nc")
    assert result.lines == (2, 4)
    assert result.line == 4
    assert result.to_dict() == {
        "verdict": "APPROVED",
        "codes": [PARSER_WARNING_MULTIPLE_VERDICTS],
        "line": 4,
        "verdict_lines": [2, 4],
    }


@pytest.mark.parametrize("bad", [None, b"VERDICT: APPROVED", 3, ["VERDICT: APPROVED"]])
def test_non_text_is_a_kernel_error(bad: object) -> None:
    with pytest.raises(KernelError, match="must be a string"):
        parse_verdict(bad)  # type: ignore[arg-type]


def test_oversize_text_is_refused() -> None:
    with pytest.raises(KernelError, match="limit"):
        parse_verdict("x" * (1 << 20) + "\nVERDICT: APPROVED")


# ---- differential oracle: a character-by-character reading of §7.3 -----------------------

_SPACE = " \t\f\v"


def _upper_ascii(ch: str) -> str:
    return chr(ord(ch) - 32) if "a" <= ch <= "z" else ch


def _eat(line: str, pos: int, word: str) -> int | None:
    end = pos + len(word)
    if end > len(line):
        return None
    if all(_upper_ascii(c) == w for c, w in zip(line[pos:end], word, strict=True)):
        return end
    return None


def _skip_space(line: str, pos: int) -> int:
    while pos < len(line) and line[pos] in _SPACE:
        pos += 1
    return pos


def _line_verdict(line: str) -> str | None:
    pos = _eat(line, _skip_space(line, 0), "VERDICT:")
    if pos is None:
        return None
    pos = _skip_space(line, pos)
    for word in ("APPROVED", "REVISE"):
        end = _eat(line, pos, word)
        if end is not None and _skip_space(line, end) == len(line):
            return word
    return None


def reference_parse(text: str) -> tuple[str | None, tuple[str, ...]]:
    found: list[str] = []
    start = 0
    while True:
        nl = text.find("\n", start)
        line = text[start:] if nl < 0 else text[start:nl]
        if line[-1:] == "\r":
            line = line[:-1]
        verdict = _line_verdict(line)
        if verdict:
            found.append(verdict)
        if nl < 0:
            break
        start = nl + 1
    if not found:
        return None, (PARSER_ERROR_MISSING_VERDICT,)
    return found[-1], ((PARSER_WARNING_MULTIPLE_VERDICTS,) if len(found) > 1 else ())


_PIECES = st.sampled_from(
    [
        "VERDICT",
        "verdict",
        "Verdict",
        ":",
        " ",
        "\t",
        "\f",
        "\v",
        "\r",
        "\n",
        "\r\n",
        "APPROVED",
        "approved",
        "REVISE",
        "revise",
        "Revised",
        ".",
        "\u2028",
        "\u00a0",
        "\u0130",
        "\u0131",
        "\u017f",
        "x",
        "VERDICT: APPROVED",
        "VERDICT: REVISE",
    ]
)
texts = st.one_of(
    st.text(),
    st.lists(_PIECES, max_size=25).map("".join),
    st.lists(st.one_of(_PIECES, st.text(max_size=3)), max_size=25).map("".join),
)

OUTCOMES = {
    ("APPROVED", ()),
    ("REVISE", ()),
    ("APPROVED", (PARSER_WARNING_MULTIPLE_VERDICTS,)),
    ("REVISE", (PARSER_WARNING_MULTIPLE_VERDICTS,)),
    (None, (PARSER_ERROR_MISSING_VERDICT,)),
}


@given(texts)
@example("VERDICT: APPROVED\u2028")
@example("verd\u0131ct: approved")
@example("VERDICT: REVISE\r\r")
@example("x\r\nVERDICT:REVISE\r\nVERDICT: approved")
def test_agrees_with_reference_and_has_one_of_three_outcomes(text: str) -> None:
    result = parse_verdict(text)
    assert (result.verdict, result.codes) in OUTCOMES
    assert (result.verdict, result.codes) == reference_parse(text)


@given(texts, texts)
def test_prose_without_verdict_lines_is_ignored(before: str, after: str) -> None:
    """Appending a verdict line after any prose yields that verdict (maybe with a warning)."""
    text = before + "\nVERDICT: REVISE\n" + after
    result = parse_verdict(text)
    if reference_parse(after)[0] is None:
        assert result.verdict == "REVISE"
    assert result.verdict is not None
