"""The R4 vocabulary: parse/print round-trips, accepted variants, near misses, error reports."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support.strategies import expressions, spelled

from kernel import ExpressionUnrecognised, parse_expression
from kernel.expression.ast import AnyScores, DimensionScores, EveryScores, Expression, TwoOrMore


@given(expressions())
def test_canonical_text_round_trips(expression: Expression) -> None:
    text = str(expression)
    assert parse_expression(text) == expression
    assert str(parse_expression(text)) == text


@given(st.data(), expressions())
def test_every_accepted_spelling_gives_the_same_ast(data: st.DataObject, e: Expression) -> None:
    assert parse_expression(data.draw(spelled(e))) == e


@pytest.mark.parametrize(
    ("texts", "ast"),
    [
        (
            [
                "any mandatory dimension scores 'block'",
                "any mandatory-priority dimension scores 'block'",
                "any dimension with priority=mandatory scores 'block'",
                "  any\tmandatory   dimension scores 'block'\t",
            ],
            AnyScores("mandatory", "block"),
        ),
        (
            [
                "two or more high dimensions score 'warn' or worse",
                "two or more high-priority dimensions score 'warn' or worse",
                "two or more dimensions with priority=high score 'warn' or worse",
            ],
            TwoOrMore("high", "warn"),
        ),
        (
            [
                "every normal dimension scores 'pass'",
                "every normal-priority dimension scores 'pass'",
                "every dimension with priority=normal scores 'pass'",
            ],
            EveryScores("normal", "pass"),
        ),
        (["D1 scores 'pass'", "D1\tscores  'pass'"], DimensionScores("D1", "pass")),
    ],
)
def test_variants_map_to_one_ast(texts: list[str], ast: object) -> None:
    for text in texts:
        assert parse_expression(text) == Expression((ast,))  # type: ignore[arg-type]


def test_canonical_spelling() -> None:
    assert str(parse_expression("any dimension with priority=high scores 'block'")) == (
        "any high-priority dimension scores 'block'"
    )
    assert str(parse_expression("every mandatory-priority dimension scores 'pass'")) == (
        "every mandatory dimension scores 'pass'"
    )
    assert str(parse_expression("D1 scores 'block'   AND\tD2 scores 'warn'")) == (
        "D1 scores 'block' AND D2 scores 'warn'"
    )


NEAR_MISSES = [
    "any reviewer scores any mandatory dimension as 'block'",  # the §3.2 prose example
    "any mandatory dimension scores 'Block'",
    'any mandatory dimension scores "block"',
    "any mandatory dimension scores block",
    "Any mandatory dimension scores 'block'",
    "any Mandatory dimension scores 'block'",
    "any mandatory dimension score 'block'",
    "any mandatory dimensions scores 'block'",
    "anymandatory dimension scores 'block'",
    "any critical dimension scores 'block'",
    "any dimension with priority = high scores 'block'",
    "any dimension with priority=high-priority scores 'block'",
    "any dimension with priority='high' scores 'block'",
    "two or more mandatory dimension score 'warn' or worse",
    "two or more mandatory dimensions scores 'warn' or worse",
    "two or more mandatory dimensions score 'warn'",
    "2 or more mandatory dimensions score 'warn' or worse",
    "two or more mandatory dimensions score 'warn' or better",
    "every mandatory dimension score 'pass'",
    "all mandatory dimensions score 'pass'",
    "D0 scores 'pass'",
    "D01 scores 'pass'",
    "D100 scores 'pass'",
    "d1 scores 'pass'",
    "D1 scores 'fail'",
    "D1 is 'pass'",
    "D1 scores 'pass' and D2 scores 'pass'",
    "D1 scores 'pass' AND",
    "AND D1 scores 'pass'",
    "D1 scores 'pass' AND AND D2 scores 'pass'",
    "D1 scores 'pass' OR D2 scores 'pass'",
    "D1 scores 'pass'\n",
    "D1 scores\n'pass'",
    "D1 scores\u00a0'pass'",
    "D1 scores\u2028'pass'",
    "D1 scores 'pass'.",
    "(D1 scores 'pass')",
    "",
    "   ",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_are_unrecognised(text: str) -> None:
    with pytest.raises(ExpressionUnrecognised) as info:
        parse_expression(text)
    assert info.value.column is not None and info.value.column >= 1
    assert "closest recognised form:" in info.value.message
    assert info.value.tag is None  # no condition id on its own


def test_error_points_at_the_column_and_suggests_the_closest_form() -> None:
    with pytest.raises(ExpressionUnrecognised) as info:
        parse_expression("any reviewer scores any mandatory dimension as 'block'")
    err = info.value
    assert err.column == 5
    assert "expected 'dimension'" in err.message
    assert err.message.endswith("closest recognised form: any mandatory dimension scores 'block'")


def test_error_column_counts_leading_white_space() -> None:
    with pytest.raises(ExpressionUnrecognised) as info:
        parse_expression("  D1 scores 'Pass'")
    assert info.value.column == 13


@given(st.text(max_size=80))
@example("\x00")
@example("D1 scores 'pass'\r")
def test_arbitrary_text_parses_or_is_unrecognised(text: str) -> None:
    try:
        expression = parse_expression(text)
    except ExpressionUnrecognised:
        return
    assert parse_expression(str(expression)) == expression


def test_non_string_is_unrecognised() -> None:
    for value in (None, 3, b"D1 scores 'pass'", ["D1 scores 'pass'"]):
        with pytest.raises(ExpressionUnrecognised):
            parse_expression(value)  # type: ignore[arg-type]


def _built_basic() -> Any:
    from lark import Lark

    from kernel.expression.lalr import _ToAst
    from kernel.expression.parser import grammar_text

    return Lark(grammar_text(), parser="lalr", transformer=_ToAst(), lexer="basic")


def test_parser_cache_is_current() -> None:
    """The shipped LALR tables match the grammar; after editing grammar/expression.lark run
    ``python -m kernel.contract.precompiled --write``."""
    import pickle
    from importlib import resources

    import lark

    from kernel.expression.lalr import PARSER_CACHE, _cached_parser, grammar_digest
    from kernel.expression.parser import grammar_text

    cache = pickle.loads(resources.files("kernel").joinpath(PARSER_CACHE).read_bytes())
    assert cache["grammar_sha256"] == grammar_digest(grammar_text()), (
        "run: python -m kernel.contract.precompiled --write"
    )
    if cache["lark_version"] == lark.__version__:  # another lark rebuilds; that is correct too
        assert _cached_parser(grammar_text()) is not None


def test_a_stale_cache_is_ignored() -> None:
    from kernel.expression.lalr import _cached_parser

    assert _cached_parser('start: "x"') is None


@st.composite
def near_valid_texts(draw: st.DrawFn) -> str:
    """A spelling of a valid expression with one character inserted, deleted or replaced."""
    text = draw(spelled(draw(expressions())))
    i = draw(st.integers(0, len(text)))
    edit = draw(st.sampled_from(["insert", "delete", "replace"]))
    ch = draw(st.sampled_from(list(" \t'-=ADdsworyx0129\n")))
    if edit == "insert":
        return text[:i] + ch + text[i:]
    if edit == "delete":
        return text[:i] + text[i + 1 :]
    return text[:i] + ch + text[i + 1 :]


@given(st.one_of(st.text(max_size=60), near_valid_texts()))
@example("any mandatory dimension scores 'block'")
@example("any dimension with priority=high-priority scores 'warn'")
@example("D1 scores 'pass'  AND D2 scores 'warn'")
def test_fast_and_diagnosing_lexers_accept_the_same_language(text: str) -> None:
    from lark.exceptions import UnexpectedInput

    from kernel.expression.lalr import _parser

    results: list[object] = []
    for parser in (_parser("basic"), _built_basic(), _parser("contextual")):
        try:
            results.append(parser.parse(text))
        except UnexpectedInput:
            results.append(None)
    assert results[0] == results[1] == results[2]


@given(st.data(), expressions())
def test_both_lexers_parse_every_spelling(data: st.DataObject, e: Expression) -> None:
    from kernel.expression.lalr import _parser

    text = data.draw(spelled(e))
    assert _parser("basic").parse(text) == _parser("contextual").parse(text) == e
