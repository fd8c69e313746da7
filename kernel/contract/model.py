"""Typed, immutable contracts: :func:`load_contract` validates and compiles a contract once."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

import attrs

from kernel.contract.dialects import (
    Dialect,
    DialectName,
    accept_action,
    detect,
    dialect_named,
    paraphrase_minimum,
)
from kernel.contract.quantifiers import Quantifier, fallback_index, precedence_order, threshold
from kernel.contract.templates import TEMPLATE_NAMES, shipped_template, template_hint
from kernel.contract.validator import Compiled, canonical_json
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
    #: Dialect 13.2: the reviewer roles whose seats score this dimension (empty under 13,
    #: where every seat scores every dimension).
    eligible_roles: tuple[str, ...] = ()
    #: Dialect 13.2: the role that owns the dimension (``None`` under 13).
    owner_role: str | None = None


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
    #: The reviewer panel's size; 0 for a 13.2 writer or evaluator contract without one.
    panel_size: int
    dimensions: tuple[Dimension, ...]
    #: The conditions the vocabulary reads, in contract order (every condition, except a
    #: 13.2 writer or evaluator condition outside the vocabulary: see :attr:`undecided`).
    conditions: tuple[Condition, ...]
    #: Number of distinct dimensions the paraphrase must cover (``"all"`` resolved): the
    #: reviewer's Phase 1, or the 13.2 writer's or evaluator's own field.
    paraphrase_minimum: int
    scoring_plan_required: tuple[str, ...]
    #: Condition positions in decision order (R6).
    precedence: tuple[int, ...]
    #: Position of the R5 fallback condition, or ``None`` when the contract has none.
    fallback: int | None
    _json: str = attrs.field(repr=False, alias="json")
    #: ``"13"`` (ARS v3.6.2) or ``"13.2"``.
    dialect: DialectName = "13"
    #: Dialect 13.2: the roles of the mode's seats, in seat order (empty under 13).
    roles: tuple[str, ...] = ()
    #: 13.2 writer or evaluator conditions outside the vocabulary: ``(condition_id, text)``.
    undecided: tuple[tuple[str, str], ...] = ()

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


def _template_hint(source: object, exc: InputError) -> str:
    if exc.code != "E-READ" or not isinstance(source, str):
        return ""
    return template_hint(source)


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
                exc.message + _template_hint(source, exc),
                code=exc.code,
                line=exc.line,
                column=exc.column,
            ) from None
    raise ContractError(
        f"a contract source must be a path, a template name or a mapping, "
        f"got {type(source).__name__}"
    )


def load_contract(
    source: object, *, max_bytes: int = MAX_INPUT_BYTES, dialect: str | None = None
) -> Contract:
    """Load, validate (schema, structural invariants, every expression compiles) and compile.

    ``source`` is a path to a JSON file, a shipped template name (``"reviewer/full"``,
    ``"13.2/reviewer/full"``, …) or a mapping. ``dialect`` is ``"13"``, ``"13.2"`` or
    ``None``: detected from the content (§J1). A contract is checked as one dialect only and
    fails with that dialect's errors. Raises :class:`ContractError` with ``.errors``; an
    expression outside the vocabulary raises :class:`ExpressionUnrecognised` carrying the
    ``[EXPRESSION-UNRECOGNISED: …]`` tag. ``max_bytes`` limits a file's size.
    """
    if dialect is not None:
        dialect_named(dialect)
    if isinstance(source, Contract) and dialect in (None, source.dialect):
        return source
    data = _read_source(source, max_bytes)
    where = f"{source}: " if isinstance(source, str | os.PathLike) else ""
    used = dialect_named(detect(data) if dialect is None else dialect)
    errors = used.schema_check(data)
    if errors:
        raise ContractError(
            f"{where}contract does not match {used.title} ({len(errors)} error(s)): "
            f"{errors[0]}",
            errors=errors,
        )
    compiled = used.compiled(data)
    problems = used.problems(data, compiled)
    if problems:
        tag = next((p.tag for p in problems if p.tag is not None), None)
        _raise_structural(compiled, [str(p) for p in problems], where, tag)
    return _build(data, compiled, used)


def _raise_structural(
    compiled: Compiled, errors: list[str], where: str, tag: str | None = None
) -> None:
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
    raise ContractError(
        f"{where}contract is structurally invalid: {errors[0]}", errors=errors, tag=tag
    )


def _build(data: Mapping[str, Any], compiled: Compiled, dialect: Dialect) -> Contract:
    dimensions = tuple(
        Dimension(
            d["id"],
            d["name"],
            d["description"],
            d["priority"],
            i,
            tuple(d.get("eligible_roles", ())),
            d.get("owner_role"),
        )
        for i, d in enumerate(data["acceptance_dimensions"])
    )
    panel = data.get("panel_size", 0)
    conditions: list[Condition] = []
    undecided: list[tuple[str, str]] = []
    for _, c, predicate in compiled:
        if not isinstance(predicate, Predicate):  # only where the dialect allows it (SC-16)
            undecided.append((c["condition_id"], c["expression"]))
            continue
        quantifier = c.get("cross_reviewer_quantifier", "all")
        conditions.append(
            Condition(
                condition_id=c["condition_id"],
                severity=c["severity"],
                expression=predicate.expression,
                text=c["expression"],
                quantifier=quantifier,
                action=c["action"],
                position=len(conditions),
                threshold=threshold(quantifier, panel) if panel else 0,
                predicate=predicate,
            )
        )
    procedure = data.get("measurement_procedure", {})
    _, minimum = paraphrase_minimum(dialect, data)
    plan = procedure.get("scoring_plan_schema", {}).get("required", ())
    return Contract(
        contract_id=data["contract_id"],
        mode=data["mode"],
        stage=data["stage"],
        baseline_version=data["baseline_version"],
        panel_size=panel,
        dimensions=dimensions,
        conditions=tuple(conditions),
        paraphrase_minimum=len(dimensions) if minimum == "all" else (minimum or 0),  # type: ignore[arg-type]
        scoring_plan_required=tuple(plan),
        precedence=precedence_order([c.severity for c in conditions]),
        fallback=fallback_index(
            [c.action for c in conditions], accept_action(dialect, data["mode"])
        ),
        json=canonical_json(data),
        dialect=dialect.name,
        roles=tuple(dialect.role_sets.get(data["mode"], ())),
        undecided=tuple(undecided),
    )
