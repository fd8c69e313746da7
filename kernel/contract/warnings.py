"""The validator's soft warnings (seed §4.2: SC-1 … SC-11, R7: SC-13, R15: SC-14; dialect
13.2: SC-15, SC-16), one registered function per rule.

A rule reads what differs between the dialects from the subject's
:class:`~kernel.contract.dialects.Dialect` (which field SC-9 reads, which action is the
fallback, which modes nothing decides).

Each rule reads a :class:`Subject` (what could be read of a contract, whatever its shape) and
yields ``(JSONPath, message)`` pairs, the path naming the value the warning is about;
:func:`suspicious` runs them all and returns :class:`Diagnostic` values.
``warn_suspicious`` (:mod:`kernel.contract.validator`) is the seed's string form of the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

import attrs

from kernel.contract.dialects import (
    DIALECTS,
    GENERATOR_MODES,
    REVIEWER_PARAPHRASE,
    Dialect,
    accept_action,
    detect,
    dialect_named,
    paraphrase_minimum,
)
from kernel.contract.validator import (
    BASELINE_FIELDS,
    Compiled,
    items,
    parse_version,
    schema_problems,
)
from kernel.diagnostics import Diagnostic
from kernel.errors import ExpressionUnrecognised, KernelError
from kernel.expression.compiler import Predicate
from kernel.io import json_path
from kernel.strict import is_int, shown

__all__ = ["RULES", "Subject", "check_contract", "checked", "suspicious", "warn_suspicious"]

_DIM_TOKEN: Final = re.compile(r"\bD[0-9]+\b")


@attrs.frozen
class Subject:
    """What the rules read: the contract and the parts of it that have the right shape."""

    contract: Mapping[str, Any]
    #: ``ars_current_version`` as given, and read.
    ars_text: str | None
    ars_current_version: tuple[int, int, int] | None
    dimensions: list[Mapping[str, Any]]
    conditions: list[tuple[int, Mapping[str, Any]]]
    compiled: Compiled
    dialect: Dialect = DIALECTS["13"]

    @property
    def reviewer(self) -> bool:
        """Whether the contract is for a reviewer panel (every 13 contract is)."""
        return self.contract.get("mode") not in GENERATOR_MODES

    @property
    def dimension_ids(self) -> set[str]:
        return {d["id"] for d in self.dimensions if isinstance(d.get("id"), str)}


#: A rule: the warnings of one code, each with the JSONPath of the value it is about.
Rule = Callable[[Subject], Iterator[tuple[str, str]]]

#: code → its rule, in code order.
RULES: dict[str, Rule] = {}


def _rule(code: str) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        assert code not in RULES, f"{code} has two rules"
        RULES[code] = fn
        return fn

    return register


@_rule("SC-1")
def baseline_lag(s: Subject) -> Iterator[tuple[str, str]]:
    if s.ars_current_version is None:
        return
    baseline_text = s.contract.get("baseline_version")
    try:
        baseline = parse_version(baseline_text, "baseline_version")
    except KernelError:
        return  # the schema reports a malformed baseline_version
    current = s.ars_current_version
    if baseline[0] < current[0]:
        yield (
            json_path("baseline_version"),
            (
                f"contract baseline {baseline_text} lags ARS {s.ars_text} by a major version; "
                "retirement candidate"
            ),
        )
        return
    lag = current[1] - baseline[1] if baseline[0] == current[0] else 0
    if lag > 2:
        yield (
            json_path("baseline_version"),
            f"contract baseline lags ARS by {lag} minor; retirement candidate",
        )


@_rule("SC-2")
def single_dimension(s: Subject) -> Iterator[tuple[str, str]]:
    if len(s.dimensions) == 1:
        yield (
            json_path("acceptance_dimensions"),
            "single-dimension contract; consider whether this mode needs sprint contract at all",
        )


@_rule("SC-3")
def no_mandatory(s: Subject) -> Iterator[tuple[str, str]]:
    if s.dimensions and not any(d.get("priority") == "mandatory" for d in s.dimensions):
        yield (
            json_path("acceptance_dimensions"),
            (
                "no mandatory-priority dimension; failure_conditions referencing 'mandatory' "
                "will be vacuous"
            ),
        )


@_rule("SC-4")
def orphan_reference(s: Subject) -> Iterator[tuple[str, str]]:
    known = s.dimension_ids
    for i, cond in s.conditions:
        text = cond.get("expression")
        if not isinstance(text, str):
            continue
        for token in dict.fromkeys(_DIM_TOKEN.findall(text)):
            if token not in known:
                yield (
                    json_path("failure_conditions", i, "expression"),
                    (
                        f"failure condition {_shown(cond.get('condition_id'))} references {token} "
                        "which is not in acceptance_dimensions"
                    ),
                )


@_rule("SC-5")
def procedure_incomplete(s: Subject) -> Iterator[tuple[str, str]]:
    if not s.reviewer:
        return
    procedure = s.contract.get("measurement_procedure")
    if not isinstance(procedure, Mapping):
        return
    outputs = procedure.get("reviewer_must_output_before_paper")
    named = {o for o in outputs if isinstance(o, str)} if isinstance(outputs, list) else set()
    if not {"contract_paraphrase", "scoring_plan"} <= named:
        yield (
            json_path("measurement_procedure", "reviewer_must_output_before_paper"),
            "hard-gate protocol requires both 'contract_paraphrase' and 'scoring_plan'",
        )


@_rule("SC-6")
def amendment_intrusion(s: Subject) -> Iterator[tuple[str, str]]:
    amendments = s.contract.get("agent_amendments")
    if not isinstance(amendments, Mapping):
        return
    for key in amendments:
        if key in BASELINE_FIELDS:
            yield (
                json_path("agent_amendments", key),
                (
                    f"agent_amendments carries baseline field {shown(key)}; baseline fields are "
                    "orchestrator-immutable"
                ),
            )


@_rule("SC-7")
def conflicting_actions(s: Subject) -> Iterator[tuple[str, str]]:
    for a, (_, ca) in enumerate(s.conditions):
        for j, cb in s.conditions[a + 1 :]:
            if ca.get("severity") == cb.get("severity") and ca.get("action") != cb.get("action"):
                yield (
                    json_path("failure_conditions", j, "action"),
                    (
                        f"{_shown(ca.get('condition_id'))} and {_shown(cb.get('condition_id'))} "
                        f"share severity={_shown(ca.get('severity'))} but map to different "
                        "actions; precedence tie-breaking falls back to ordinal position"
                    ),
                )


@_rule("SC-9")
def impossible_paraphrase(s: Subject) -> Iterator[tuple[str, str]]:
    path, minimum = paraphrase_minimum(s.dialect, s.contract)
    if is_int(minimum) and minimum > len(s.dimensions):
        field = path[-1] if path == REVIEWER_PARAPHRASE else ".".join(path)
        phase = _PARAPHRASE_PHASES.get(str(s.contract.get("mode")), "Phase 1")
        yield (
            json_path(*path),
            (
                f"{field}={minimum} exceeds dimension count "
                f"{len(s.dimensions)}; {phase} lint will always fail"
            ),
        )


#: The phase whose lint counts the paraphrase, for the modes that are not a reviewer's.
_PARAPHRASE_PHASES: Final = {"writer_full": "Phase 4a", "evaluator_full": "Phase 6a"}


@_rule("SC-10")
def unreferenced_dimension(s: Subject) -> Iterator[tuple[str, str]]:
    read: set[int] = set()
    for _, _, result in s.compiled:
        if isinstance(result, Predicate):
            read |= result.reads
    for i, (at, d) in enumerate(items(s.contract, "acceptance_dimensions")):
        priority = d.get("priority")
        if priority in ("mandatory", "high") and i not in read:
            yield (
                json_path("acceptance_dimensions", at, "priority"),
                (
                    f"{priority} dimension {_shown(d.get('id'))} has no failure_condition "
                    "referencing it; its score cannot influence the editorial decision"
                ),
            )


@_rule("SC-11")
def panel_sanity(s: Subject) -> Iterator[tuple[str, str]]:
    if not s.reviewer:
        return
    panel = s.contract.get("panel_size")
    if is_int(panel) and panel == 1:
        yield (
            json_path("panel_size"),
            (
                "panel_size=1 means no cross-reviewer aggregation; cross_reviewer_quantifier "
                "values collapse to pass-through"
            ),
        )
    mode = s.contract.get("mode")
    expected = s.dialect.panel_sizes.get(mode) if isinstance(mode, str) else None
    if expected is not None and panel != expected:
        yield (
            json_path("panel_size"),
            f"panel_size={_shown(panel)} inconsistent with mode={mode}; expected {expected}",
        )


@_rule("SC-13")
def no_fallback(s: Subject) -> Iterator[tuple[str, str]]:
    mode = s.contract.get("mode")
    accept = accept_action(s.dialect, mode if isinstance(mode, str) else "")
    if s.conditions and not any(c.get("action") == accept for _, c in s.conditions):
        yield (
            json_path("failure_conditions"),
            (
                f"no failure condition has action {accept}; when no condition fires there is no "
                "fallback decision (R5) and decide() fails"
            ),
        )


@_rule("SC-14")
def empty_priority_scope(s: Subject) -> Iterator[tuple[str, str]]:
    for i, cond, result in s.compiled:
        if not isinstance(result, Predicate):
            continue
        for atom, scope in zip(result.expression.atoms, result.scopes, strict=True):
            priority = getattr(atom, "priority", None)
            if priority is not None and not scope:
                holds = "true" if type(atom).__name__ == "EveryScores" else "false"
                yield (
                    json_path("failure_conditions", i, "expression"),
                    (
                        f'failure condition {_shown(cond.get("condition_id"))}: "{atom}" names '
                        f"priority {priority}, but the contract has no {priority} dimension; "
                        f"the atom is {holds} for every reviewer"
                    ),
                )


@_rule("SC-15")
def single_judge(s: Subject) -> Iterator[tuple[str, str]]:
    for at, d in items(s.contract, "acceptance_dimensions"):
        roles = d.get("eligible_roles")
        if d.get("priority") == "mandatory" and isinstance(roles, list) and len(roles) == 1:
            yield (
                json_path("acceptance_dimensions", at, "eligible_roles"),
                (
                    f"mandatory dimension {_shown(d.get('id'))} has one eligible role "
                    "(single-judge mandatory gate)"
                ),
            )


@_rule("SC-16")
def undecidable_condition(s: Subject) -> Iterator[tuple[str, str]]:
    if not s.dialect.undecided(s.contract.get("mode")):
        return
    for i, cond, result in s.compiled:
        if isinstance(result, ExpressionUnrecognised):
            yield (
                json_path("failure_conditions", i, "expression"),
                (
                    f"failure condition {_shown(cond.get('condition_id'))} is outside the "
                    f"{s.dialect.title} vocabulary; no decision can read it ({result.message})"
                ),
            )


def _shown(value: object) -> str:
    """A value for a message: strings as they are, anything else as its repr (short)."""
    text = value if isinstance(value, str) else shown(value, 80)
    return text if len(text) <= 80 else text[:77] + "..."


def subject(
    contract: object,
    ars_current_version: str | None = None,
    dialect: Dialect | None = None,
    compiled: Compiled | None = None,
) -> Subject:
    if not isinstance(contract, Mapping):
        raise KernelError(f"a contract must be a JSON object, got {type(contract).__name__}")
    current = (
        None
        if ars_current_version is None
        else parse_version(ars_current_version, "ars_current_version")
    )
    used = dialect or DIALECTS[detect(contract)]
    return Subject(
        contract=contract,
        ars_text=ars_current_version,
        ars_current_version=current,
        dimensions=[d for _, d in items(contract, "acceptance_dimensions")],
        conditions=items(contract, "failure_conditions"),
        compiled=used.compiled(contract) if compiled is None else compiled,
        dialect=used,
    )


def suspicious(
    contract: object, ars_current_version: str | None = None, dialect: Dialect | None = None
) -> list[Diagnostic]:
    """Every soft warning, in code order. Meant for schema-valid contracts; on anything else
    it warns about what it can read. ``ars_current_version`` (``vX.Y.Z``) enables SC-1.
    ``dialect`` defaults to the one the contract is written in (13.2 §J1)."""
    return _warnings(subject(contract, ars_current_version, dialect))


def _warnings(s: Subject) -> list[Diagnostic]:
    return [
        Diagnostic(code, message, json_path=path)
        for code, rule in RULES.items()
        for path, message in rule(s)
    ]


def warn_suspicious(contract: object, ars_current_version: str | None = None) -> list[str]:
    """Soft warnings, each starting with its code (``SC-1`` … ``SC-11``, ``SC-13``,
    ``SC-14``): the string form of :func:`suspicious`.

    Meant for schema-valid contracts; on anything else it warns about what it can read.
    ``ars_current_version`` (``vX.Y.Z``) enables SC-1.
    """
    return [f"{d.code}: {d.message}" for d in suspicious(contract, ars_current_version)]


def check_contract(
    contract: object, ars_current_version: str | None = None, dialect: str | None = None
) -> list[Diagnostic]:
    """What ``kernel.check`` reports: schema errors (``E-SCHEMA``); when there are none,
    structural errors (``E-STRUCT``, ``SC-12``, the 13.2 role invariants); when there are
    none, the warnings. ``dialect`` is ``"13"``, ``"13.2"`` or ``None`` (detected, §J1)."""
    return checked(contract, ars_current_version, dialect)[1]


def checked(
    contract: object, ars_current_version: str | None = None, dialect: str | None = None
) -> tuple[Dialect, list[Diagnostic]]:
    """:func:`check_contract` with the dialect the contract was checked as."""
    used = dialect_named(detect(contract) if dialect is None else dialect)
    found = [
        Diagnostic("E-SCHEMA", message, json_path=path)
        for path, message in schema_problems(contract, used.name)
    ]
    if found:
        return used, found
    compiled = used.compiled(contract)
    found = [
        Diagnostic(
            p.code,
            f"{p.json_path}: {p.message}" + (f" {p.tag}" if p.tag else ""),
            json_path=p.json_path,
        )
        for p in used.problems(contract, compiled)  # type: ignore[arg-type]
    ]
    if found:
        return used, found
    return used, _warnings(subject(contract, ars_current_version, used, compiled))
