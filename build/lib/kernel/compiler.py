"""Compile an expression into a predicate over one reviewer's column (R3).

A column is a sequence of score ranks (``pass`` 0, ``warn`` 1, ``block`` 2), one per contract
dimension in contract order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from kernel.ast import (
    SCORE_RANK,
    AnyScores,
    Atom,
    DimensionScores,
    EveryScores,
    Expression,
    TwoOrMore,
)
from kernel.errors import ExpressionUnrecognised

__all__ = ["Predicate", "compile_expression"]

Column = Sequence[int]
_Test = Callable[[Column], bool]


@attrs.frozen
class Predicate:
    """A compiled expression: ``holds(column)`` for one reviewer's column of score ranks."""

    expression: Expression
    #: Positions of the dimensions the expression reads (by id or through a priority scope).
    reads: frozenset[int]
    _tests: tuple[_Test, ...] = attrs.field(repr=False, alias="tests")

    def holds(self, column: Column) -> bool:
        return all(test(column) for test in self._tests)


def _atom_test(atom: Atom, positions: tuple[int, ...]) -> _Test:
    rank = SCORE_RANK[atom.score]
    if isinstance(atom, AnyScores | DimensionScores):
        return lambda col: any(col[i] == rank for i in positions)
    if isinstance(atom, TwoOrMore):
        return lambda col: sum(1 for i in positions if col[i] >= rank) >= 2
    assert isinstance(atom, EveryScores)
    return lambda col: all(col[i] == rank for i in positions)


def compile_expression(expression: Expression, dimensions: Sequence[tuple[str, str]]) -> Predicate:
    """Compile against the contract's ``(id, priority)`` pairs, in contract order.

    A dimension id the contract lacks is an error here, not a silent false (R4).
    """
    index = {dim_id: i for i, (dim_id, _) in enumerate(dimensions)}
    tests: list[_Test] = []
    reads: set[int] = set()
    for atom in expression.atoms:
        if isinstance(atom, DimensionScores):
            if atom.dimension not in index:
                raise ExpressionUnrecognised(
                    f"{atom.dimension} names no dimension of the contract "
                    f"(dimensions: {', '.join(index) or 'none'})",
                    expression=str(expression),
                )
            positions: tuple[int, ...] = (index[atom.dimension],)
        else:
            positions = tuple(i for i, (_, prio) in enumerate(dimensions) if prio == atom.priority)
        reads.update(positions)
        tests.append(_atom_test(atom, positions))
    return Predicate(expression, frozenset(reads), tuple(tests))
