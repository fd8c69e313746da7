"""Compile an expression into a predicate over one reviewer's column (R3).

A column is a sequence of score ranks (``pass`` 0, ``warn`` 1, ``block`` 2), one per contract
dimension in contract order. What each atom means lives on its AST class; this module only
resolves scopes against the contract once and keeps the result.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from kernel.errors import ContractError, ExpressionUnrecognised
from kernel.expression.ast import ColumnTest, Expression

__all__ = ["Predicate", "compile_dimensionwise", "compile_expression"]


@attrs.frozen
class Predicate:
    """A compiled expression: ``holds(column)`` for one reviewer's column of score ranks."""

    expression: Expression
    #: Per atom, the positions of the dimensions it reads (by id or through a priority scope).
    scopes: tuple[tuple[int, ...], ...]
    #: ``None`` for a dialect 13.2 expression, which reads dimensions, not one column.
    _tests: tuple[ColumnTest, ...] | None = attrs.field(repr=False, alias="tests")

    @property
    def reads(self) -> frozenset[int]:
        """Positions of every dimension the expression reads."""
        return frozenset(p for scope in self.scopes for p in scope)

    def holds(self, column: Sequence[int]) -> bool:
        if self._tests is None:
            raise ContractError(
                f"{self.expression}: a dialect 13.2 expression is decided per dimension; it "
                "has no reading over one reviewer's column"
            )
        return all(test(column) for test in self._tests)


def compile_expression(expression: Expression, dimensions: Sequence[tuple[str, str]]) -> Predicate:
    """Compile against the contract's ``(id, priority)`` pairs, in contract order.

    A dimension id the contract lacks is an error here, not a silent false (R4).
    """
    scopes = _scopes(expression, dimensions)
    # AND is idempotent: an atom written twice is tested once.
    unique = dict.fromkeys(zip(expression.atoms, scopes, strict=True))
    tests = tuple(atom.test(scope) for atom, scope in unique)
    return Predicate(expression, tuple(scopes), tests)


def compile_dimensionwise(
    expression: Expression, dimensions: Sequence[tuple[str, str]]
) -> Predicate:
    """Dialect 13.2: resolve each atom's dimensions; the decision reads them per dimension.

    A dimension id the contract lacks and a priority that selects no dimension are errors.
    """
    scopes = _scopes(expression, dimensions)
    for atom, scope in zip(expression.atoms, scopes, strict=True):
        priority = getattr(atom, "priority", None)
        if priority is not None and not scope:
            raise ExpressionUnrecognised(
                f"priority {priority!r} matches no dimension of the contract",
                expression=str(expression),
            )
    return Predicate(expression, tuple(scopes), None)


def _scopes(
    expression: Expression, dimensions: Sequence[tuple[str, str]]
) -> list[tuple[int, ...]]:
    scopes: list[tuple[int, ...]] = []
    for atom in expression.atoms:
        try:
            scopes.append(atom.scope(dimensions))
        except LookupError as missing:
            ids = ", ".join(dim_id for dim_id, _ in dimensions) or "none"
            raise ExpressionUnrecognised(
                f"{missing.args[0]} names no dimension of the contract (dimensions: {ids})",
                expression=str(expression),
            ) from None
    return scopes
