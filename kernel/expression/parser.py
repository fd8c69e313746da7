"""Parse expression text into the AST with the Lark grammar in ``grammar/expression.lark``.

The expressions of the shipped templates are precompiled (``kernel/data/precompiled.json``,
written by ``python -m kernel.contract.precompiled``): their ASTs are read from that file, so
loading a shipped template does not import lark. Any other text goes to the LALR parser
(:mod:`kernel.expression.lalr`).
"""

from __future__ import annotations

import functools
import json
import re
import sys
from typing import Any

from kernel.errors import ExpressionUnrecognised
from kernel.expression.ast import (
    AnyScores,
    Atom,
    DimensionScores,
    EveryScores,
    Expression,
    TwoOrMore,
)
from kernel.io import package_data

__all__ = ["atom_from_data", "atom_to_data", "closest_form", "grammar_text", "parse_expression"]

#: The grammar file: ``grammar/`` at the top of the repository, installed as package data
#: ``kernel/expression/grammar/`` (see ``pyproject.toml``).
GRAMMAR_FILE = "expression.lark"

#: Longest expression text accepted; anything longer is not a plausible condition.
MAX_EXPRESSION_CHARS = 10_000

#: The precompiled data file, relative to the ``kernel`` package.
PRECOMPILED = "data/precompiled.json"


def grammar_text() -> str:
    """The grammar that defines the vocabulary (shipped inside the package)."""
    try:
        return package_data("kernel.expression.grammar", GRAMMAR_FILE).decode("utf-8")
    except (ModuleNotFoundError, OSError):  # a source tree that was never built
        from pathlib import Path

        return (Path(__file__).resolve().parents[2] / "grammar" / GRAMMAR_FILE).read_text("utf-8")


#: An atom as data: ``[form, priority or dimension id, score]``.
_ATOM_FORMS: dict[str, type[Atom]] = {
    "any": AnyScores,
    "two_or_more": TwoOrMore,
    "every": EveryScores,
    "dimension": DimensionScores,
}


def atom_to_data(atom: Atom) -> list[str]:
    """``[form, priority or dimension id, score]``, as the precompiled file holds atoms."""
    form = next(name for name, cls in _ATOM_FORMS.items() if type(atom) is cls)
    scope = atom.dimension if isinstance(atom, DimensionScores) else atom.priority
    return [form, scope, atom.score]


def atom_from_data(data: Any) -> Atom:
    form, scope, score = data
    return _ATOM_FORMS[form](scope, score)


@functools.cache
def _precompiled() -> dict[str, Any]:
    """Expression text → its atoms as data, for the texts of the shipped templates."""
    try:
        table = json.loads(package_data("kernel", PRECOMPILED))["expressions"]
    except (OSError, ValueError, KeyError, TypeError):  # no usable file: parse everything
        return {}
    return table if isinstance(table, dict) else {}


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
    known = _precompiled().get(text)
    if known is not None:
        return Expression(tuple(atom_from_data(atom) for atom in known))
    from kernel.expression import lalr

    return lalr.parse(text)


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

    import difflib  # only error messages need it

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
    from pathlib import Path

    from kernel.expression.lalr import PARSER_CACHE, parser_cache_bytes

    target = Path(__file__).resolve().parents[1] / PARSER_CACHE
    target.write_bytes(parser_cache_bytes())
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(_write_cache(sys.argv[1:]))
