"""Pinned parser diagnostics: the exact error text, column and suggestion a user sees."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support.strategies import expressions, spelled

from kernel import ExpressionUnrecognised, parse_expression
from kernel.expression.parser import MAX_EXPRESSION_CHARS, closest_form


def _error(text: str) -> ExpressionUnrecognised:
    with pytest.raises(ExpressionUnrecognised) as info:
        parse_expression(text)
    return info.value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "",
            "unrecognised expression at column 1: expected 'any', 'every', 'two', a dimension id "
            "(D1…D99) or a space, found the end; closest recognised form: any <priority> "
            "dimension scores '<score>'",
        ),
        (
            "any mandatory dimension scores",
            "unrecognised expression at column 31: expected a space, found the end; "
            "closest recognised form: any mandatory dimension scores '<score>'",
        ),
        (
            "any mandatory dimension scores ",
            "unrecognised expression at column 32: expected a score in single quotes ('block', "
            "'warn', 'pass'), found the end; closest recognised form: any mandatory dimension "
            "scores '<score>'",
        ),
        (
            "any mandatory dimension scores 'bad'",
            "unrecognised expression at column 32: expected a score in single quotes ('block', "
            "'warn', 'pass'), found \"'\"; closest recognised form: any mandatory dimension "
            "scores '<score>'",
        ),
        (
            "D1 scores 'warn' x",
            "unrecognised expression at column 18: expected the end of the expression, "
            "found 'x'; closest recognised form: D1 scores 'warn'",
        ),
        (
            "any critical dimension scores 'block'",
            "unrecognised expression at column 5: expected 'dimension', a priority (mandatory, "
            "high, normal) or a priority (mandatory-priority, high-priority, normal-priority), "
            "found 'c'; closest recognised form: any <priority> dimension scores 'block'",
        ),
        (
            "D1 scores 'pass' AND AND D2 scores 'pass'",
            "unrecognised expression at column 22: expected 'any', 'every', 'two' or a dimension "
            "id (D1…D99), found 'A'; closest recognised form: D2 scores 'pass'",
        ),
        (
            "two or more high dimensions score 'warn' or better",
            "unrecognised expression at column 45: expected 'worse', found 'b'; closest "
            "recognised form: two or more high-priority dimensions score 'warn' or worse",
        ),
        (
            "dimension mandatory dimension AND scores",  # a whole token out of place
            "unrecognised expression at column 1: expected 'any', 'every', 'two', a dimension id "
            "(D1…D99) or a space, found 'dimension'; closest recognised form: any mandatory "
            "dimension scores '<score>'",
        ),
    ],
)
def test_exact_error_messages(text: str, message: str) -> None:
    err = _error(text)
    assert err.message == message
    assert str(err) == message
    assert err.expression == text
    assert err.column == int(message.split("column ", 1)[1].split(":", 1)[0])
    assert err.errors == [message]
    assert err.tag is None and err.condition_id is None


@pytest.mark.parametrize(
    "text",
    [
        "any",
        "D1 scores",
        "two or more high-priority dimensions score 'warn' or",
        "any mandatory dimension scores 'warn' AND any",
        "  any high-priority dimension scores 'block'   AND  D3 scores",
        "every dimension with priority=",
    ],
)
def test_text_cut_short_is_reported_at_the_column_after_its_end(text: str) -> None:
    err = _error(text)
    assert err.column == len(text) + 1
    assert ", found the end; " in err.message


@st.composite
def cut_short(draw: st.DrawFn) -> tuple[str, str]:
    """A valid spelling cut off right after one of its words, and the whole spelling."""
    text = draw(spelled(draw(expressions(max_atoms=2)))).rstrip(" \t")
    ends = [i for i in range(1, len(text)) if text[i] in " \t" and text[i - 1] not in " \t"]
    return text[: draw(st.sampled_from(ends))], text


@given(cut_short())
@example(("any mandatory dimension scores", "any mandatory dimension scores 'pass'"))
@example(("D1 scores 'pass' AND D2", "D1 scores 'pass' AND D2 scores 'warn'"))
@example(
    (
        "two or more high dimensions score 'warn' or worse",
        "two or more high dimensions score 'warn' or worse AND D1 scores 'pass'",
    )
)
def test_any_truncated_spelling_reports_the_end_column(cut: tuple[str, str]) -> None:
    text, whole = cut
    try:
        parse_expression(text)
    except ExpressionUnrecognised as err:
        if "found the end" in err.message:
            assert err.column == len(text) + 1
        assert err.message.startswith(f"unrecognised expression at column {err.column}: ")
    else:  # cut right after an atom of an AND chain (which may end in 'worse'): complete
        assert re.match(r"[ \t]+AND[ \t]", whole[len(text) :])


def test_non_string_message() -> None:
    for value, name in ((None, "NoneType"), (3, "int"), (b"D1", "bytes"), (["x"], "list")):
        with pytest.raises(ExpressionUnrecognised) as info:
            parse_expression(value)  # type: ignore[arg-type]
        assert info.value.message == f"an expression must be a string, got {name}"
        assert info.value.expression == repr(value)
        assert info.value.column is None


def test_length_limit_is_exact() -> None:
    at_limit = "D1 scores 'pass'" + " " * (MAX_EXPRESSION_CHARS - len("D1 scores 'pass'"))
    assert len(at_limit) == MAX_EXPRESSION_CHARS
    assert str(parse_expression(at_limit)) == "D1 scores 'pass'"
    over = at_limit + " "
    err = _error(over)
    assert err.message == (
        f"expression is {MAX_EXPRESSION_CHARS + 1} characters, over the "
        f"{MAX_EXPRESSION_CHARS} limit"
    )
    assert err.expression == over[:80] + "…"
    assert err.column is None


@pytest.mark.parametrize(
    ("text", "column", "closest"),
    [
        # the form is filled in with the priority, score and dimension the text names
        ("any high dimension scores 'Warn'", 1, "any high-priority dimension scores 'warn'"),
        ("any mandatory-priority dimension scores", 1, "any mandatory dimension scores '<score>'"),
        (
            "any dimension with priority=Normal scores 'pass'",
            1,
            "any dimension with priority=normal scores 'pass'",
        ),
        (
            "two or more dimensions with priority=high score 'block'",
            1,
            "two or more dimensions with priority=high score 'block' or worse",
        ),
        (
            "every normal dimensions scores 'pass'",
            1,
            "every normal-priority dimension scores 'pass'",
        ),
        ("d7 scores 'block'", 1, "<Dn> scores 'block'"),  # only D1…D99 fill <Dn>
        ("D7 scores 'x'", 1, "D7 scores '<score>'"),
        ("D100 scores 'pass'", 1, "<Dn> scores 'pass'"),
        ("D07 scores 'pass'", 1, "<Dn> scores 'pass'"),
        ("whatever", 1, "every <priority> dimension scores '<score>'"),
        ("two", 1, "two or more <priority> dimensions score '<score>' or worse"),
        ("every", 1, "every <priority> dimension scores '<score>'"),
        # the segment around the column is the one suggested
        ("D1 scores 'pass' AND every high dimension scores 'x'", 1, "D1 scores 'pass'"),
        ("D1 scores 'pass' AND every high dimension scores 'x'", 17, "D1 scores 'pass'"),
        (
            "D1 scores 'pass' AND every high dimension scores 'x'",
            18,
            "every high-priority dimension scores '<score>'",
        ),
        (
            "D1 scores 'pass' AND every high dimension scores 'x'",
            22,
            "every high-priority dimension scores '<score>'",
        ),
        (
            "D1 scores 'pass' AND every high dimension scores 'x'",
            60,
            "every high-priority dimension scores '<score>'",
        ),
        ("D1 scores 'pass' and D2 scores 'warn' AND D3", 26, "D2 scores 'warn'"),
        ("D1 scores 'pass' and D2 scores 'warn' AND D3", 45, "D3 scores '<score>'"),
        ("D1 scores 'pass'\tAND\tD2 scores 'warn'", 20, "D2 scores 'warn'"),
    ],
)
def test_closest_form_is_filled_from_the_text(text: str, column: int, closest: str) -> None:
    assert closest_form(text, column) == closest


def test_closest_form_defaults_to_the_first_segment() -> None:
    assert closest_form("D4 scores 'warn' AND any") == "D4 scores 'warn'"


@given(cut_short().map(lambda cut: cut[0]), st.integers(1, 200))
def test_closest_form_is_always_a_recognised_shape(text: str, column: int) -> None:
    form = closest_form(text, column)
    filled = form.replace("<priority>", "high").replace("<score>", "warn").replace("<Dn>", "D1")
    assert str(parse_expression(filled))


# --- the precomputed parser tables ---------------------------------------------------------


def test_parser_cache_bytes_describe_the_current_grammar() -> None:
    import pickle

    import lark

    from kernel.expression.lalr import _cached_parser, grammar_digest, parser_cache_bytes
    from kernel.expression.parser import grammar_text

    cache = pickle.loads(parser_cache_bytes())
    assert set(cache) == {"grammar_sha256", "lark_version", "data", "memo"}
    assert cache["grammar_sha256"] == grammar_digest(grammar_text())
    assert cache["lark_version"] == lark.__version__
    assert grammar_digest("x") == "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"
    assert "_AND.2: /[ \\t]+AND[ \\t]+/" in grammar_text()
    assert _cached_parser(grammar_text()) is not None
    # The tables are those of the fast-to-build basic lexer (the contextual one diagnoses).
    assert cache["data"]["options"]["lexer"] == "basic"


def test_the_shipped_tables_parse_like_the_grammar() -> None:
    from kernel.expression.lalr import _cached_parser
    from kernel.expression.parser import grammar_text

    cached = _cached_parser(grammar_text())
    assert cached is not None
    for text in (
        "any mandatory dimension scores 'block'",
        "D2 scores 'warn' AND two or more dimensions with priority=high score 'warn' or worse",
    ):
        assert cached.parse(text) == parse_expression(text)


def test_write_cache_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pickle

    from kernel.expression import lalr, parser

    assert parser._write_cache([]) == 2
    assert parser._write_cache(["--write-cache", "x"]) == 2
    assert capsys.readouterr().err == (
        "usage: python -m kernel.expression.parser --write-cache\n" * 2
    )
    (tmp_path / "kernel" / "data").mkdir(parents=True)
    (tmp_path / "grammar").mkdir()  # read when the package data is not installed
    (tmp_path / "grammar" / "expression.lark").write_text(parser.grammar_text(), "utf-8")
    monkeypatch.setattr(parser, "__file__", str(tmp_path / "kernel" / "expression" / "parser.py"))
    assert parser._write_cache(["--write-cache"]) == 0
    target = tmp_path / "kernel" / "data" / "expression.lalr.pickle"
    assert capsys.readouterr().out == f"wrote {target}\n"
    written = pickle.loads(target.read_bytes())
    assert set(written) == {"grammar_sha256", "lark_version", "data", "memo"}
    assert written["grammar_sha256"] == lalr.grammar_digest(parser.grammar_text())


@pytest.mark.parametrize("priority", ["mandatory", "high", "normal"])
def test_the_suffixed_priority_is_the_same_priority(priority: str) -> None:
    from kernel.expression import lalr
    from kernel.expression.ast import AnyScores, TwoOrMore

    assert lalr.parse(f"any {priority}-priority dimension scores 'warn'").atoms == (
        AnyScores(priority, "warn"),  # type: ignore[arg-type]
    )
    assert lalr.parse(f"two or more {priority}-priority dimensions score 'warn' or worse") == (
        lalr.parse(f"two or more {priority} dimensions score 'warn' or worse")
    )
    assert lalr.parse(
        f"two or more {priority}-priority dimensions score 'warn' or worse"
    ).atoms == (
        TwoOrMore(priority, "warn"),  # type: ignore[arg-type]
    )


def test_a_precompiled_expression_does_not_reach_the_parser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kernel import shipped_template
    from kernel.expression import lalr

    texts = [c["expression"] for c in shipped_template("reviewer/full")["failure_conditions"]]
    expected = [lalr.parse(text) for text in texts]

    def unreachable(text: str, dialect: str = "13") -> None:
        raise AssertionError(f"parsed with lark: {text!r}")

    monkeypatch.setattr(lalr, "parse", unreachable)
    assert [parse_expression(text) for text in texts] == expected
    with pytest.raises(AssertionError, match="parsed with lark"):
        parse_expression("D7 scores 'warn' AND D3 scores 'pass'")


def test_closest_form_reads_column_one_by_default() -> None:
    text = " AND D1 scores 'pass'"  # an empty first part: column 1 is in it, column 2 is not
    assert (
        closest_form(text) == closest_form(text, 1) == "any <priority> dimension scores '<score>'"
    )
    assert closest_form(text, 2) == "D1 scores 'pass'"
    assert closest_form("two worse 'block'") == (
        "two or more <priority> dimensions score 'block' or worse"
    )


def test_an_expected_terminal_without_a_description_is_named_as_is() -> None:
    from kernel.expression.lalr import _describe

    assert _describe({"_ANY", "NEW_TERMINAL"}) == "'any' or NEW_TERMINAL"
    assert _describe({"_ANY", "_TWO", "$END"}) == "'any', 'two' or the end of the expression"
    assert _describe(set()) == "nothing more"


def test_the_parser_module_lends_only_the_two_form_helpers() -> None:
    from kernel.expression import forms, parser

    assert parser.closest_form is forms.closest_form
    assert parser.grammar_text is forms.grammar_text
    with pytest.raises(
        AttributeError, match=r"^module 'kernel\.expression\.parser' has no attribute 'nope'$"
    ):
        parser.nope  # noqa: B018
    assert not hasattr(parser, "lalr_tables")
