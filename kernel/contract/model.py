"""Typed, immutable contracts: :func:`load_contract` validates and compiles a contract once."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

import attrs

from kernel.contract.quantifiers import Quantifier, fallback_index, precedence_order, threshold
from kernel.contract.templates import TEMPLATE_NAMES, shipped_template
from kernel.contract.validator import (
    Compiled,
    canonical_json,
    check_structural_invariants,
    compiled_expressions,
    validate,
)
from kernel.errors import ContractError, ContractInputError, ExpressionUnrecognised
from kernel.expression.ast import Expression, Priority
from kernel.expression.compiler import Predicate
from kernel.io import MAX_INPUT_BYTES, InputError, load_json_file
from kernel.strict import shown

__all__ = ["Condition", "Contract", "ContractInputError", "Dimension", "load_contract"]


@attrs.frozen
class Dimension:
    id: str
    name: str
    description: str
    priority: Priority
    position: int


@attrs.frozen
class Condition:
    condition_id: str
    severity: int
    expression: Expression
    #: The expression as written in the contract.
    text: str
    quantifier: Quantifier
    action: str
    position: int
    threshold: int
    predicate: Predicate = attrs.field(eq=False, repr=False)


@attrs.frozen(eq=False)
class Contract:
    """A validated, compiled contract. Build it with :func:`load_contract`."""

    contract_id: str
    mode: str
    stage: str
    baseline_version: str
    panel_size: int
    dimensions: tuple[Dimension, ...]
    conditions: tuple[Condition, ...]
    #: Number of distinct dimensions the Phase 1 paraphrase must cover (``"all"`` resolved).
    paraphrase_minimum: int
    scoring_plan_required: tuple[str, ...]
    #: Condition positions in decision order (R6).
    precedence: tuple[int, ...]
    #: Position of the R5 fallback condition, or ``None`` when the contract has none.
    fallback: int | None
    _json: str = attrs.field(repr=False, alias="json")

    def to_dict(self) -> dict[str, Any]:
        """A fresh copy of the contract document."""
        return json.loads(self._json)  # type: ignore[no-any-return]

    def to_json(self) -> str:
        return self._json

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Contract) and other._json == self._json

    def __hash__(self) -> int:
        return hash(self._json)

    @property
    def dimension_ids(self) -> tuple[str, ...]:
        return tuple(d.id for d in self.dimensions)

    def dimension(self, dim_id: str) -> Dimension:
        for d in self.dimensions:
            if d.id == dim_id:
                return d
        raise ContractError(f"{self.contract_id} has no dimension {shown(dim_id)}")


def _read_source(source: object, max_bytes: int) -> Any:
    if isinstance(source, Contract):
        return source.to_dict()
    if isinstance(source, Mapping):
        return source
    if isinstance(source, str) and source in TEMPLATE_NAMES:
        return shipped_template(source)
    if isinstance(source, str | os.PathLike):
        try:
            return load_json_file(source, max_bytes=max_bytes)
        except InputError as exc:
            raise ContractInputError(
                exc.message, code=exc.code, line=exc.line, column=exc.column
            ) from None
    raise ContractError(
        f"a contract source must be a path, a template name or a mapping, "
        f"got {type(source).__name__}"
    )


def load_contract(source: object, *, max_bytes: int = MAX_INPUT_BYTES) -> Contract:
    """Load, validate (schema, structural invariants, every expression compiles) and compile.

    ``source`` is a path to a JSON file, a shipped template name (``"reviewer/full"``,
    ``"reviewer/methodology_focus"``) or a mapping. Raises :class:`ContractError` with
    ``.errors``; an expression outside the vocabulary raises :class:`ExpressionUnrecognised`
    carrying the ``[EXPRESSION-UNRECOGNISED: …]`` tag. ``max_bytes`` limits a file's size.
    """
    if isinstance(source, Contract):
        return source
    data = _read_source(source, max_bytes)
    where = f"{source}: " if isinstance(source, str | os.PathLike) else ""
    errors = validate(data)
    if errors:
        raise ContractError(
            f"{where}contract does not match Schema 13 ({len(errors)} error(s)): {errors[0]}",
            errors=errors,
        )
    compiled = compiled_expressions(data)
    errors = check_structural_invariants(data, compiled=compiled)
    if errors:
        _raise_structural(compiled, errors, where)
    return _build(data, [p for _, _, p in compiled])  # type: ignore[misc]


def _raise_structural(compiled: Compiled, errors: list[str], where: str) -> None:
    for _, cond, result in compiled:
        if isinstance(result, ExpressionUnrecognised):
            error = ExpressionUnrecognised(
                f"{where}{cond['condition_id']}: {result.message}",
                expression=cond["expression"],
                column=result.column,
                condition_id=cond["condition_id"],
            )
            error.errors = errors
            raise error from None
    raise ContractError(f"{where}contract is structurally invalid: {errors[0]}", errors=errors)


def _build(data: Mapping[str, Any], predicates: list[Predicate]) -> Contract:
    dimensions = tuple(
        Dimension(d["id"], d["name"], d["description"], d["priority"], i)
        for i, d in enumerate(data["acceptance_dimensions"])
    )
    panel = data["panel_size"]
    conditions = []
    for i, (c, predicate) in enumerate(zip(data["failure_conditions"], predicates, strict=True)):
        quantifier = c.get("cross_reviewer_quantifier", "all")
        conditions.append(
            Condition(
                condition_id=c["condition_id"],
                severity=c["severity"],
                expression=predicate.expression,
                text=c["expression"],
                quantifier=quantifier,
                action=c["action"],
                position=i,
                threshold=threshold(quantifier, panel),
                predicate=predicate,
            )
        )
    procedure = data["measurement_procedure"]
    minimum = procedure["paraphrase_minimum_dimensions"]
    return Contract(
        contract_id=data["contract_id"],
        mode=data["mode"],
        stage=data["stage"],
        baseline_version=data["baseline_version"],
        panel_size=panel,
        dimensions=dimensions,
        conditions=tuple(conditions),
        paraphrase_minimum=len(dimensions) if minimum == "all" else minimum,
        scoring_plan_required=tuple(procedure["scoring_plan_schema"]["required"]),
        precedence=precedence_order([c.severity for c in conditions]),
        fallback=fallback_index([c.action for c in conditions]),
        json=canonical_json(data),
    )
