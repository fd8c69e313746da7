"""Parse expression text into the AST with the Lark grammar in ``grammar/expression.lark``."""

from __future__ import annotations

import difflib
import functools
import hashlib
import pickle
import re
import sys
from importlib import resources
from pathlib import Path
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
    AnyScores,
    Atom,
    DimensionScores,
    EveryScores,
    Expression,
    Priority,
    Score,
    TwoOrMore,
)

__all__ = ["grammar_text", "parse_expression"]

#: The grammar file: ``grammar/`` at the top of the repository, installed as package data
#: ``kernel/expression/grammar/`` (see ``pyproject.toml``).
GRAMMAR_FILE = "expression.lark"

#: Longest expression text accepted; anything longer is not a plausible condition.
MAX_EXPRESSION_CHARS = 10_000


def grammar_text() -> str:
    """The grammar that defines the vocabulary (shipped inside the package)."""
    try:
        grammar = resources.files("kernel.expression.grammar")
    except ModuleNotFoundError:  # a source tree that was never built: the top-level folder
        return (Path(__file__).resolve().parents[2] / "grammar" / GRAMMAR_FILE).read_text("utf-8")
    return grammar.joinpath(GRAMMAR_FILE).read_text("utf-8")


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


def _cached_parser(text: str) -> Lark | None:
    try:
        raw = resources.files("kernel").joinpath(PARSER_CACHE).read_bytes()
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


@functools.cache
def _parser(lexer: str = "basic") -> Lark:
    """The LALR parser. The ``basic`` lexer is fast to set up (it matters for CLI start-up);
    the ``contextual`` one knows what each position expects, so it diagnoses errors. Both
    accept the same language (tests/test_grammar.py checks it)."""
    text = grammar_text()
    if lexer == "basic":
        cached = _cached_parser(text)
        if cached is not None:
            return cached
    return Lark(text, parser="lalr", transformer=_ToAst(), lexer=lexer)


def parse_expression(text: str) -> Expression:
    """Parse ``text`` into an :class:`Expression`, or raise :class:`ExpressionUnrecognised`.

    The error says at which column parsing failed, what was expected there, and the closest
    recognised form.
    """
    if not isinstance(text, str):
        raise ExpressionUnrecognised(
            f"an expression must be a string, got {type(text).__name__}", expression=repr(text)
        )
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ExpressionUnrecognised(
            f"expression is {len(text)} characters, over the {MAX_EXPRESSION_CHARS} limit",
            expression=text[:80] + "…",
        )
    try:
        result = _parser().parse(text)
    except UnexpectedInput:
        try:
            result = _parser("contextual").parse(text)
        except UnexpectedInput as exc:
            raise _unrecognised(text, exc) from None
    except (LarkError, VisitError, ValueError) as exc:  # pragma: no cover - defensive
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
    "_SEP": "a space",
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


def _unrecognised(text: str, exc: UnexpectedInput) -> ExpressionUnrecognised:
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
    closest = closest_form(text, column)
    return ExpressionUnrecognised(
        f"unrecognised expression at column {column}: expected {expected}, found {found}; "
        f"closest recognised form: {closest}",
        expression=text,
        column=column,
    )


_FORMS = (
    "any <P> dimension scores '<S>'",
    "any dimension with priority=<p> scores '<S>'",
    "two or more <P> dimensions score '<S>' or worse",
    "two or more dimensions with priority=<p> score '<S>' or worse",
    "every <P> dimension scores '<S>'",
    "every dimension with priority=<p> scores '<S>'",
    "<Dn> scores '<S>'",
)
_AND_SPLIT = re.compile(r"[ \t]+(?:AND|and)[ \t]+")
_QUOTED = re.compile(r"'([^']*)'")
_PRIO = re.compile(r"\b(mandatory|high|normal)(?:-priority)?\b", re.IGNORECASE)
_DIM = re.compile(r"\b[Dd]\d+\b")


def closest_form(text: str, column: int = 1) -> str:
    """The recognised form nearest the part of ``text`` around ``column``, filled in where
    the text says which priority, score or dimension it meant (used for error messages)."""
    start = 0
    for separator in [*_AND_SPLIT.finditer(text), None]:
        end = len(text) if separator is None else separator.start()
        if column - 1 <= end or separator is None:  # a column inside " AND " goes right
            break
        start = separator.end()
    segment = text[start:end].strip()
    shape = _DIM.sub("<Dn>", _PRIO.sub("<P>", _QUOTED.sub("'<S>'", segment)))
    shape = shape.replace("priority=<P>", "priority=<p>")
    first = shape.split(" ", 1)[0]

    def likeness(form: str) -> float:
        bonus = 0.25 if form.split(" ", 1)[0] == first else 0.0
        return difflib.SequenceMatcher(None, shape, form).ratio() + bonus

    best = max(_FORMS, key=likeness)
    quoted = [q.lower() for q in _QUOTED.findall(segment)]
    score = next((q for q in quoted if q in ("block", "warn", "pass")), None)
    prio_match = _PRIO.search(segment)
    prio = prio_match.group(1).lower() if prio_match else None
    dim_match = _DIM.search(segment)
    filled = best
    if score:
        filled = filled.replace("<S>", score)
    if prio:
        filled = filled.replace("<p>", prio)
        filled = filled.replace("<P>", prio if prio == "mandatory" else f"{prio}-priority")
    if dim_match and re.fullmatch(r"D[1-9][0-9]?", dim_match.group(0)):
        filled = filled.replace("<Dn>", dim_match.group(0))
    for placeholder, meaning in (("<P>", "<priority>"), ("<p>", "<priority>"), ("<S>", "<score>")):
        filled = filled.replace(placeholder, meaning)
    return filled


def _write_cache(argv: list[str]) -> int:
    if argv != ["--write-cache"]:
        print("usage: python -m kernel.expression.parser --write-cache", file=sys.stderr)
        return 2
    target = Path(__file__).resolve().parents[1] / PARSER_CACHE
    target.write_bytes(parser_cache_bytes())
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(_write_cache(sys.argv[1:]))
