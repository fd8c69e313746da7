"""The two contract dialects as values: Schema 13 (ARS v3.6.2) and Schema 13.2.

A :class:`Dialect` holds what differs between them in the contract layer: its JSON Schema,
its vocabulary (the grammar's start rule) and how expressions compile, its structural
invariants and its warnings, its reviewer role sets and panel sizes. :data:`DIALECTS` is
the one table keyed by dialect name; :func:`detect` picks one by content (there is no
version field in a contract). What the dialects share (the strict loader, duplicate ids,
thresholds, precedence, diagnostics) stays shared code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final, Literal, TypeAlias

import attrs

from kernel.contract.encoding import unencodable_at
from kernel.contract.validator import (
    Compile,
    Compiled,
    Problem,
    compiled_expressions,
    items,
    schema_problems,
    structural_problems,
)
from kernel.errors import ContractError, ExpressionUnrecognised, KernelError
from kernel.expression.ast import FatalDimension, FatalPriority
from kernel.expression.compiler import Predicate, compile_dimensionwise, compile_expression
from kernel.strict import is_int, shown

__all__ = [
    "DIALECTS",
    "DIALECT_NAMES",
    "ROLES",
    "Dialect",
    "DialectName",
    "check_structural_invariants",
    "detect",
    "dialect_named",
    "validate",
]

DialectName: TypeAlias = Literal["13", "13.2"]
DIALECT_NAMES: Final[tuple[DialectName, ...]] = ("13", "13.2")

#: Every reviewer role of dialect 13.2, in seat order.
ROLES: Final = ("eic", "methodology", "domain", "perspective", "da")
GENERATOR_MODES: Final = ("writer_full", "evaluator_full")

#: Invariants beyond the schema: problems found in a schema-valid contract.
Invariants = Callable[[Mapping[str, Any], Compiled], list[Problem]]


@attrs.frozen
class Dialect:
    """One contract dialect: everything the contract layer does differently for it."""

    name: DialectName
    #: How messages name it: ``Schema 13``, ``Schema 13.2``.
    title: str
    #: The kernel's JSON Schema file for it, under ``kernel/data/``.
    schema_file: str
    #: Schema violations of a contract (``"<path>: <message>"``); empty means valid.
    schema_check: Callable[[object], list[str]]
    #: The grammar start rule's dialect key (:func:`kernel.expression.parser.parse_expression`).
    vocabulary: DialectName
    compile: Compile
    invariants: Invariants
    #: Reviewer mode → its seats' roles (13.2); empty for 13, whose seats have no roles.
    role_sets: Mapping[str, tuple[str, ...]]
    #: Reviewer mode → the panel size the mode expects.
    panel_sizes: Mapping[str, int]
    #: Mode → the JSON path (as keys) of the paraphrase minimum SC-9 reads.
    paraphrase_fields: Mapping[str, tuple[str, ...]]
    #: Mode → the action of the accept-grade fallback (R5).
    accept_actions: Mapping[str, str]
    #: Modes nothing decides (13.2's writer and evaluator): an expression outside the
    #: vocabulary is a warning there (SC-16), not an error.
    undecided_modes: frozenset[str] = frozenset()

    def undecided(self, mode: object) -> bool:
        """Whether nothing decides contracts of ``mode`` (whatever value it is)."""
        return isinstance(mode, str) and mode in self.undecided_modes

    def compiled(self, contract: object) -> Compiled:
        return compiled_expressions(contract, vocabulary=self.vocabulary, compile=self.compile)

    def problems(self, contract: Mapping[str, Any], compiled: Compiled) -> list[Problem]:
        """The structural errors: the shared ones (duplicates, expressions that do not
        compile), then the dialect's own invariants."""
        shared = structural_problems(contract, compiled=compiled)
        if self.undecided(contract.get("mode")):
            shared = [p for p in shared if p.code != "SC-12"]
        return [*shared, *self.invariants(contract, compiled)]


def _schema_13_2(contract: object) -> list[str]:
    """Schema 13.2 violations, as :func:`~kernel.contract.validator.validate` gives them for
    Schema 13 (a shipped 13.2 template is answered from the precompiled file)."""
    return [message for _, message in schema_problems(contract, "13.2")]


def _schema_13(contract: object) -> list[str]:
    return [message for _, message in schema_problems(contract, "13")]


def _no_invariants(contract: Mapping[str, Any], compiled: Compiled) -> list[Problem]:
    return []


def _roles_13_2(contract: Mapping[str, Any], compiled: Compiled) -> list[Problem]:
    return [*_role_problems(contract, compiled), *_panel_fits_13_2(contract)]


def _panel_fits_13_2(contract: Mapping[str, Any]) -> Iterator[Problem]:
    """A reviewer contract whose ``panel_size`` is not its mode's: ``decide`` refuses every
    matrix of it (13.2 §D7), so it is invalid, with the tag the refusal carries. (Schema 13
    needs no such invariant: it requires the accept-grade F0, R18, so decide decides every
    matrix of a valid contract, whatever its panel size.)"""
    mode, panel = contract.get("mode"), contract.get("panel_size")
    expected = _PANEL_SIZES.get(mode) if isinstance(mode, str) else None
    if expected is not None and is_int(panel) and panel != expected:
        found = f"panel_size={panel} inconsistent with mode={mode}; expected {expected}"
        yield Problem(
            "E-INELIGIBLE",
            "$.panel_size",
            f"{found}: decide refuses every matrix of this contract",
            tag=f"[CONTRACT-INELIGIBLE: {found}]",
        )


_ROLE_SETS: Final = {
    "reviewer_full": ROLES,
    "reviewer_methodology_focus": ("eic", "methodology"),
}
#: Reviewer mode → the panel size it expects (both dialects).
_PANEL_SIZES: Final = {"reviewer_full": 5, "reviewer_methodology_focus": 2}


def _listed(roles: object) -> str:
    return "[" + ", ".join(repr(r) for r in sorted(roles)) + "]"  # type: ignore[call-overload]


def _role_problems(contract: Mapping[str, Any], compiled: Compiled) -> Iterator[Problem]:
    """§B3 to §B8 of dialect 13.2: role sets, owners, eligibility, fatal-atom scope, and no
    role fields outside reviewer modes."""
    mode = contract.get("mode")
    dims = items(contract, "acceptance_dimensions")
    if not isinstance(mode, str):
        return
    if not mode.startswith("reviewer_"):
        for i, d in dims:
            present = [f for f in ("eligible_roles", "owner_role") if f in d]
            if present:
                yield Problem(
                    "E-ROLE-FIELDS",
                    f"$.acceptance_dimensions[{i}]",
                    f"{d.get('id')}: reviewer-only fields {present} are forbidden for "
                    f"mode={mode}",
                )
        return
    role_set = _ROLE_SETS.get(mode)
    if role_set is None:
        yield Problem("E-ROLE-SET", "$.mode", f"reviewer mode {mode!r} has no role set in 13.2")
        return
    used: set[str] = set()
    for i, d in dims:
        eligible = d.get("eligible_roles")
        owner = d.get("owner_role")
        if not isinstance(eligible, list):
            continue
        roles = [r for r in eligible if isinstance(r, str)]
        used.update(roles)
        if owner not in roles:
            yield Problem(
                "E-OWNER",
                f"$.acceptance_dimensions[{i}].owner_role",
                f"{d.get('id')}: owner_role {shown(owner)} must be in eligible_roles",
            )
        outside = [r for r in roles if r not in role_set]
        if outside:
            yield Problem(
                "E-ROLE-SCOPE",
                f"$.acceptance_dimensions[{i}].eligible_roles",
                f"{d.get('id')}: eligible_roles {_listed(outside)} are outside the role set "
                f"of {mode} {_listed(role_set)}",
            )
    idle = [r for r in role_set if r not in used]
    if idle:
        yield Problem(
            "E-ROLE-UNUSED",
            "$.acceptance_dimensions",
            f"roles of {mode} with no eligible dimension: {_listed(idle)}",
        )
    priorities = {d.get("id"): d.get("priority") for _, d in dims if isinstance(d.get("id"), str)}
    for i, cond, result in compiled:
        if not isinstance(result, Predicate):
            continue
        for atom in result.expression.atoms:
            where = f"$.failure_conditions[{i}].expression"
            if isinstance(atom, FatalPriority) and atom.priority != "mandatory":
                yield Problem(
                    "E-FATAL-SCOPE",
                    where,
                    f"{cond.get('condition_id')}: fatal atom priority must be mandatory, "
                    f"not {atom.priority}",
                )
            if isinstance(atom, FatalDimension) and priorities.get(atom.dimension) != "mandatory":
                yield Problem(
                    "E-FATAL-SCOPE",
                    where,
                    f"{cond.get('condition_id')}: fatal atom dimension {atom.dimension} must be "
                    f"mandatory, not {priorities.get(atom.dimension)}",
                )


DIALECTS: Final[Mapping[DialectName, Dialect]] = {
    "13": Dialect(
        name="13",
        title="Schema 13",
        schema_file="schema13.json",
        schema_check=_schema_13,
        vocabulary="13",
        compile=compile_expression,
        invariants=_no_invariants,
        role_sets={},
        panel_sizes=_PANEL_SIZES,
        paraphrase_fields={},
        accept_actions={},
    ),
    "13.2": Dialect(
        name="13.2",
        title="Schema 13.2",
        schema_file="schema13_2.json",
        schema_check=_schema_13_2,
        vocabulary="13.2",
        compile=compile_dimensionwise,
        invariants=_roles_13_2,
        role_sets=_ROLE_SETS,
        panel_sizes=_PANEL_SIZES,
        paraphrase_fields={
            "writer_full": (
                "pre_commitment_artifacts",
                "acceptance_criteria_paraphrase",
                "minimum_dimensions",
            ),
            "evaluator_full": ("disagreement_handling", "paraphrase_minimum_dimensions"),
        },
        accept_actions={
            "writer_full": "writer_decision=accept",
            "evaluator_full": "evaluator_decision=accept",
        },
        undecided_modes=frozenset(GENERATOR_MODES),
    ),
}

#: The paraphrase minimum of a reviewer mode, in both dialects.
REVIEWER_PARAPHRASE: Final = ("measurement_procedure", "paraphrase_minimum_dimensions")
EDITORIAL_ACCEPT: Final = "editorial_decision=accept"


def dialect_named(name: object) -> Dialect:
    """The dialect called ``name`` (``"13"`` or ``"13.2"``); anything else is a
    :class:`ContractError`."""
    found = DIALECTS.get(name) if isinstance(name, str) else None  # type: ignore[call-overload]
    if found is None:
        raise ContractError(f"unknown dialect {shown(name)}; expected 13 or 13.2")
    return found  # type: ignore[no-any-return]


def detect(contract: object) -> DialectName:
    """The dialect a contract is written in, by content (§J1): a writer or evaluator mode, or
    role fields on every dimension, is 13.2; no role field anywhere and a four-field scoring
    plan is 13; anything between is 13.2 (checked, and refused, as 13.2)."""
    if not isinstance(contract, Mapping):
        return "13"
    if contract.get("mode") in GENERATOR_MODES:
        return "13.2"
    dims = [d for _, d in items(contract, "acceptance_dimensions")]
    both = [("eligible_roles" in d) and ("owner_role" in d) for d in dims]
    either = [("eligible_roles" in d) or ("owner_role" in d) for d in dims]
    if dims and all(both):
        return "13.2"
    if not any(either) and not _plans_fatal(contract):
        return "13"
    return "13.2"


def _plans_fatal(contract: Mapping[str, Any]) -> bool:
    procedure = contract.get("measurement_procedure")
    plan = procedure.get("scoring_plan_schema") if isinstance(procedure, Mapping) else None
    fields = plan.get("required") if isinstance(plan, Mapping) else None
    return isinstance(fields, list) and "what_triggers_fatal" in fields


def paraphrase_minimum(
    dialect: Dialect, contract: Mapping[str, Any]
) -> tuple[tuple[str, ...], object]:
    """The path and value of the mode's paraphrase minimum (``None`` when absent)."""
    mode = contract.get("mode")
    path: tuple[str, ...] = REVIEWER_PARAPHRASE
    if isinstance(mode, str):
        path = dialect.paraphrase_fields.get(mode, REVIEWER_PARAPHRASE)
    value: object = contract
    for key in path:
        value = value.get(key) if isinstance(value, Mapping) else None
    return path, value


def accept_action(dialect: Dialect, mode: str) -> str:
    """The action of the mode's accept-grade condition."""
    return dialect.accept_actions.get(mode, EDITORIAL_ACCEPT)


def check_structural_invariants(contract: object, *, compiled: Compiled | None = None) -> list[str]:
    """Hard errors JSON Schema cannot express: duplicate dimension ids and names, duplicate
    condition ids, and (SC-12, R7) expressions that do not compile; for a 13.2 contract, in
    its vocabulary, with its role invariants (13.2 §B3 to §B8).

    ``compiled`` is :func:`compiled_expressions` of the same contract, when already at hand.
    """
    if compiled is not None and not (
        isinstance(compiled, list)
        and all(
            isinstance(c, tuple)
            and len(c) == 3
            and is_int(c[0])
            and isinstance(c[2], Predicate | ExpressionUnrecognised)
            for c in compiled
        )
    ):
        raise KernelError(
            f"compiled must be compiled_expressions(contract) or None, got {shown(compiled)}"
        )
    if compiled is None and isinstance(contract, Mapping):
        # Read as the dialect it is written in: its vocabulary and its own invariants.
        dialect = DIALECTS[detect(contract)]
        return [str(p) for p in dialect.problems(contract, dialect.compiled(contract))]
    return [str(p) for p in structural_problems(contract, compiled=compiled)]


def validate(
    contract: object,
    *,
    schema: Mapping[str, Any] | bool | None = None,
    dialect: str | None = None,
) -> list[str]:
    """Violations of the contract's own schema (Schema 13 or Schema 13.2), each prefixed
    with its JSON path. Empty means valid. ``dialect`` is ``"13"``, ``"13.2"`` or ``None``:
    detected from the content, as :func:`~kernel.contract.model.load_contract` does. Text
    that cannot be encoded as UTF-8 and integers beyond ±(2**53 - 1)
    (:mod:`kernel.contract.encoding`) are reported first, alone.

    ``schema`` replaces the dialect's schema (for tests of schema evolution). A shipped
    template, known valid, is answered without loading the schema validator.
    """
    if schema is None:
        used = dialect_named(detect(contract) if dialect is None else dialect)
        return [message for _, message in schema_problems(contract, used.name)]
    if dialect is not None:
        raise KernelError("give validate either schema= or dialect=, not both")
    from kernel.schema import caller_schema_errors, caller_validator

    validator = caller_validator(schema, error=ContractError)
    unreadable = unencodable_at(contract)
    if unreadable:
        return sorted(message for _, message in unreadable)
    return [str(e) for e in caller_schema_errors(validator, contract, error=ContractError)]
