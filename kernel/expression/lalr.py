"""The Lark LALR parser of ``grammar/expression.lark``, with its precomputed tables.

Imported only when an expression text is not among the precompiled ones
(:mod:`kernel.expression.parser`): lark takes a command line tens of milliseconds to import.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
from typing import Any

import lark
from lark import Lark, Token, Transformer
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.grammar import Rule
from lark.lexer import TerminalDef

from kernel.errors import ExpressionUnrecognised
from kernel.expression.ast import (
    PRIORITIES,
    AnyScores,
    AnyWorse,
    Atom,
    DimensionScores,
    DimensionWorse,
    EveryDimension,
    EveryScores,
    Expression,
    FatalDimension,
    FatalPriority,
    Priority,
    Score,
    TwoOrMore,
)
from kernel.expression.forms import closest_form, grammar_text
from kernel.io import package_data

__all__ = ["PARSER_CACHE", "cache_matches_grammar", "grammar_digest", "parse", "parser_cache_bytes"]


class _ToAst(Transformer[Token, Expression]):
    def start(self, children: list[Expression]) -> Expression:
        return children[0]

    def expression(self, atoms: list[Atom]) -> Expression:
        return Expression(tuple(atoms))

    def priority(self, children: list[Token]) -> Priority:
        word = str(children[0]).removesuffix("-priority")
        return word  # type: ignore[return-value]

    def scope_one(self, children: list[Any]) -> Priority:
        return str(children[0]).removesuffix("-priority")  # type: ignore[return-value]

    scope_many = scope_one

    @staticmethod
    def _score(token: Token) -> Score:
        return str(token).strip("'")  # type: ignore[return-value]

    def any_scores(self, children: list[Any]) -> AnyScores:
        return AnyScores(children[0], self._score(children[1]))

    def two_or_more(self, children: list[Any]) -> TwoOrMore:
        return TwoOrMore(children[0], self._score(children[1]))

    def every_scores(self, children: list[Any]) -> EveryScores:
        return EveryScores(children[0], self._score(children[1]))

    def dimension_scores(self, children: list[Token]) -> DimensionScores:
        return DimensionScores(str(children[0]), self._score(children[1]))

    # Dialect 13.2: a priority is any word and a dimension any D<digits> to the grammar;
    # a word that is no priority, or an id no dimension can have, is refused here.

    def start_13_2(self, atoms: list[Atom]) -> Expression:
        return Expression(tuple(atoms))

    @staticmethod
    def _priority(token: Token) -> Priority:
        word = str(token).removesuffix("-priority")
        if word not in PRIORITIES:
            raise ExpressionUnrecognised(
                f"priority {word!r} matches no dimension (priorities: {', '.join(PRIORITIES)})",
                expression="",
                column=token.column,
            )
        return word

    @staticmethod
    def _dimension(token: Token) -> str:
        text = str(token)
        if not (text[1:2] != "0" and len(text) <= 3):
            raise ExpressionUnrecognised(
                f"{text} names no dimension (ids are D1…D99)", expression="", column=token.column
            )
        return text

    def any_scores_13_2(self, children: list[Token]) -> AnyScores:
        return AnyScores(self._priority(children[0]), self._score(children[1]))

    def two_or_more_13_2(self, children: list[Token]) -> TwoOrMore:
        return TwoOrMore(self._priority(children[0]), self._score(children[1]))

    def every_scores_13_2(self, children: list[Token]) -> EveryScores:
        return EveryScores(self._priority(children[0]), self._score(children[1]))

    def dimension_scores_13_2(self, children: list[Token]) -> DimensionScores:
        return DimensionScores(self._dimension(children[0]), self._score(children[1]))

    def fatal_priority(self, children: list[Token]) -> FatalPriority:
        return FatalPriority(self._priority(children[0]))

    def fatal_dimension(self, children: list[Token]) -> FatalDimension:
        return FatalDimension(self._dimension(children[0]))

    def any_worse(self, children: list[Token]) -> AnyWorse:
        return AnyWorse(self._score(children[0]))

    def dimension_worse(self, children: list[Token]) -> DimensionWorse:
        return DimensionWorse(self._dimension(children[0]), self._score(children[1]))

    def every_dimension(self, children: list[Token]) -> EveryDimension:
        return EveryDimension(self._score(children[0]))


#: The LALR tables of the ``basic`` parser, precomputed from the grammar (package data):
#: loading them takes about 1 ms, building them about 30 ms of every CLI start. They are used
#: only when their grammar digest and lark version match; otherwise the parser is built from
#: the grammar as usual. Regenerate with ``python -m kernel.expression.parser --write-cache``.
PARSER_CACHE = "data/expression.lalr.pickle"


def grammar_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parser_cache_bytes() -> bytes:
    """The content of :data:`PARSER_CACHE` for the current grammar and lark version."""
    parser = Lark(grammar_text(), parser="lalr", lexer="basic")
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    cache = {
        "grammar_sha256": grammar_digest(grammar_text()),
        "lark_version": lark.__version__,
        "data": data,
        "memo": memo,
    }
    return pickle.dumps(cache, protocol=4)


def cache_matches_grammar() -> bool:
    """Whether the shipped LALR tables were built from the current grammar."""
    try:
        cache = pickle.loads(package_data("kernel", PARSER_CACHE))  # package data
    except Exception:
        return False
    return bool(cache.get("grammar_sha256") == grammar_digest(grammar_text()))


def _cached_parser(text: str) -> Lark | None:
    try:
        raw = package_data("kernel", PARSER_CACHE)
        cache = pickle.loads(raw)  # package data, as trusted as this module
        if (cache["grammar_sha256"], cache["lark_version"]) != (
            grammar_digest(text),
            lark.__version__,
        ):
            return None
        load: Any = Lark._load_from_dict  # the loader of lark's own standalone parsers
        parser: Lark = load(cache["data"], cache["memo"], transformer=_ToAst())
    except Exception:  # any problem with the cache: build from the grammar instead
        return None
    return parser


#: The grammar's start rule of each dialect's vocabulary.
START_RULES: dict[str, str] = {"13": "start", "13.2": "start_13_2"}


@functools.cache
def _parser(lexer: str = "basic", start: str = "start") -> Lark:
    """The LALR parser of one start rule. The ``basic`` lexer is fast to set up (it matters
    for CLI start-up); the ``contextual`` one knows what each position expects, so it
    diagnoses errors. Both accept the same language (tests/test_grammar.py checks it)."""
    text = grammar_text()
    if lexer == "basic" and start == "start":
        cached = _cached_parser(text)
        if cached is not None:
            return cached
    return Lark(text, parser="lalr", transformer=_ToAst(), lexer=lexer, start=start)


def parse(text: str, dialect: str = "13") -> Expression:
    """Parse ``text`` with the grammar's start rule for ``dialect``, or raise
    :class:`ExpressionUnrecognised` saying at which column parsing failed, what was expected
    there, and the closest recognised form of that dialect."""
    start = START_RULES[dialect]
    try:
        try:
            result = _parser("basic", start).parse(text)
        except UnexpectedInput:
            try:
                result = _parser("contextual", start).parse(text)
            except UnexpectedInput as exc:
                raise _unrecognised(text, exc, dialect) from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, ExpressionUnrecognised):
            said = exc.orig_exc
            raise ExpressionUnrecognised(
                said.message, expression=text, column=said.column
            ) from None
        raise ExpressionUnrecognised(  # pragma: no cover - defensive
            f"unrecognised expression: {exc.orig_exc}", expression=text
        ) from None
    except (LarkError, ValueError) as exc:  # pragma: no cover - defensive
        raise ExpressionUnrecognised(f"unrecognised expression: {exc}", expression=text) from None
    assert isinstance(result, Expression)
    return result


_TERMINALS = {
    "_ANY": "'any'",
    "_TWO": "'two'",
    "_OR": "'or'",
    "_MORE": "'more'",
    "_EVERY": "'every'",
    "_SCORES": "'scores'",
    "_SCORE": "'score'",
    "_WORSE": "'worse'",
    "_DIMENSION": "'dimension'",
    "_DIMENSIONS": "'dimensions'",
    "_WITH": "'with'",
    "_PRIORITY_EQ": "'priority='",
    "_AND": "' AND '",
    "_AND_13_2": "' AND '",
    "_SEP": "a space",
    "_SP": "one space",
    "_HAS": "'has'",
    "_A": "'a'",
    "_FATAL": "'fatal'",
    "_BLOCK": "'block'",
    "_PRIORITY_EQ_13_2": "'priority='",
    "WORD": "a priority word (mandatory, high, normal)",
    "WORD_PRIORITY": "a priority (mandatory-priority, high-priority, normal-priority)",
    "DIMENSION_WORD": "a dimension id (D1…D99)",
    "PRIORITY": "a priority (mandatory, high, normal)",
    "PRIORITY_SUFFIXED": "a priority (mandatory-priority, high-priority, normal-priority)",
    "SCORE": "a score in single quotes ('block', 'warn', 'pass')",
    "DIMENSION_ID": "a dimension id (D1…D99)",
    "$END": "the end of the expression",
    "<END-OF-FILE>": "the end of the expression",
}


def _describe(names: set[str] | frozenset[str]) -> str:
    described = sorted({_TERMINALS.get(n, n) for n in names})
    if not described:
        return "nothing more"
    return (
        described[0] if len(described) == 1 else ", ".join(described[:-1]) + " or " + described[-1]
    )


def _unrecognised(text: str, exc: UnexpectedInput, dialect: str) -> ExpressionUnrecognised:
    if isinstance(exc, UnexpectedCharacters):
        column = exc.column
        expected = _describe(exc.allowed or set())
        found = repr(text[exc.pos_in_stream]) if exc.pos_in_stream is not None else "?"
    elif isinstance(exc, UnexpectedToken):
        at_end = exc.token.type == "$END"  # lark gives the end token the last token's column
        column = exc.column if not at_end and isinstance(exc.column, int) else len(text) + 1
        expected = _describe(exc.accepts or exc.expected)
        found = "the end" if at_end else repr(str(exc.token))
    elif isinstance(exc, UnexpectedEOF):
        column = len(text) + 1
        expected = _describe(set(exc.expected))
        found = "the end"
    else:  # pragma: no cover - lark has no other UnexpectedInput kinds
        column, expected, found = 1, "a recognised form", "?"
    closest = closest_form(text, column, dialect)
    return ExpressionUnrecognised(
        f"unrecognised expression at column {column}: expected {expected}, found {found}; "
        f"closest recognised form: {closest}",
        expression=text,
        column=column,
    )
