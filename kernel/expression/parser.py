"""Parse expression text into the AST with the Lark grammar in ``grammar/expression.lark``.

The expressions of the shipped templates are precompiled (``kernel/data/precompiled.json``,
written by ``python -m kernel.contract.precompiled``): their ASTs are read from that file, so
loading a shipped template does not import lark. Any other text goes to the LALR parser
(:mod:`kernel.expression.lalr`).
"""

from __future__ import annotations

import functools
import json
import sys
from typing import TYPE_CHECKING, Any

import attrs

from kernel.errors import ExpressionUnrecognised
from kernel.expression.ast import (
    AnyAtom,
    AnyScores,
    AnyWorse,
    DimensionScores,
    DimensionWorse,
    EveryDimension,
    EveryScores,
    Expression,
    FatalDimension,
    FatalPriority,
    TwoOrMore,
)
from kernel.io import package_data
from kernel.strict import shown

__all__ = ["atom_from_data", "atom_to_data", "closest_form", "grammar_text", "parse_expression"]

if TYPE_CHECKING:
    from kernel.expression.forms import closest_form, grammar_text


def __getattr__(name: str) -> Any:
    # Re-exported from kernel.expression.forms, loaded when asked for: a precompiled
    # expression needs neither the grammar's text nor the list of forms.
    if name in ("closest_form", "grammar_text"):
        from kernel.expression import forms

        return getattr(forms, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Longest expression text accepted; anything longer is not a plausible condition.
MAX_EXPRESSION_CHARS = 10_000

#: The precompiled data file, relative to the ``kernel`` package.
PRECOMPILED = "data/precompiled.json"


#: An atom as data: ``[form, its fields…]`` (priority or dimension id, then score).
_ATOM_FORMS: dict[str, type[AnyAtom]] = {
    "any": AnyScores,
    "two_or_more": TwoOrMore,
    "every": EveryScores,
    "dimension": DimensionScores,
    "fatal_priority": FatalPriority,
    "fatal_dimension": FatalDimension,
    "any_worse": AnyWorse,
    "dimension_worse": DimensionWorse,
    "every_dimension": EveryDimension,
}

#: The precompiled table of each dialect's expressions.
_PRECOMPILED_TABLES = {"13": "expressions", "13.2": "expressions_13_2"}


def atom_to_data(atom: AnyAtom) -> list[str]:
    """``[form, fields…]``, as the precompiled file holds atoms."""
    form = next(name for name, cls in _ATOM_FORMS.items() if type(atom) is cls)
    return [form, *(getattr(atom, f.name) for f in attrs.fields(type(atom)))]


def atom_from_data(data: Any) -> AnyAtom:
    form, *fields = data
    return _ATOM_FORMS[form](*fields)


@functools.cache
def _precompiled(dialect: str = "13") -> dict[str, Any]:
    """Expression text → its atoms as data, for the texts of the shipped templates."""
    try:
        table = json.loads(package_data("kernel", PRECOMPILED))[_PRECOMPILED_TABLES[dialect]]
    except (OSError, ValueError, KeyError, TypeError):  # no usable file: parse everything
        return {}
    return table if isinstance(table, dict) else {}


def parse_expression(text: str, *, dialect: str = "13") -> Expression:
    """Parse ``text`` into an :class:`Expression`, or raise :class:`ExpressionUnrecognised`.

    ``dialect`` (``"13"`` or ``"13.2"``) picks the vocabulary. The error says at which column
    parsing failed, what was expected there, and the closest recognised form.
    """
    if not isinstance(dialect, str) or dialect not in _PRECOMPILED_TABLES:
        raise ExpressionUnrecognised(
            f"unknown dialect {shown(dialect)}; expected 13 or 13.2", expression=shown(text)
        )
    if not isinstance(text, str):
        raise ExpressionUnrecognised(
            f"an expression must be a string, got {type(text).__name__}", expression=shown(text)
        )
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ExpressionUnrecognised(
            f"expression is {len(text)} characters, over the {MAX_EXPRESSION_CHARS} limit",
            expression=text[:80] + "…",
        )
    known = _precompiled(dialect).get(text)
    if known is not None:
        return Expression(tuple(atom_from_data(atom) for atom in known))
    from kernel.expression import lalr

    return lalr.parse(text, dialect)


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
