"""The contract validator, mirroring the seed's ``check_sprint_contract.py`` (§4.2) on plain
dicts: :func:`validate` (Schema 13), :func:`check_structural_invariants` (hard checks, SC-12)
and :func:`warn_suspicious` (SC-1 … SC-11, SC-13)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from kernel.contract.quantifiers import ACCEPT
from kernel.contract.templates import schema as _schema_copy
from kernel.errors import ExpressionUnrecognised, KernelError
from kernel.expression.compiler import Predicate, compile_expression
from kernel.expression.parser import PRECOMPILED, parse_expression
from kernel.io import package_data

if TYPE_CHECKING:  # jsonschema is imported on first validation: it is slow to import
    from jsonschema import FormatChecker
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

__all__ = [
    "BASELINE_FIELDS",
    "canonical_json",
    "check_structural_invariants",
    "compiled_expressions",
    "validate",
    "warn_suspicious",
]

#: R11: the fields an orchestrator must never change between template load and injection.
BASELINE_FIELDS = (
    "contract_id",
    "mode",
    "stage",
    "baseline_version",
    "panel_size",
    "acceptance_dimensions",
    "measurement_procedure",
    "failure_conditions",
    "override_ladder",
)


def _is_strict_integer(_: object, instance: object) -> bool:
    # R10: 5.0 is not an integer and neither is true.
    return isinstance(instance, int) and not isinstance(instance, bool)


def _ecma_pattern(
    validator: Validator, pattern: str, instance: object, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    # R10: in ECMA-262 (the JSON Schema regex dialect) a final `$` matches only at the end of
    # the string; Python's `$` also matches before a final newline, so "D1\n" would pass.
    if not isinstance(instance, str):
        return
    from jsonschema.exceptions import ValidationError

    python_pattern = (
        pattern[:-1] + r"\Z" if pattern.endswith("$") and not pattern.endswith("\\$") else pattern
    )
    if re.search(python_pattern, instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@functools.cache
def _strict_validator_class() -> Any:
    from jsonschema import Draft202012Validator, validators

    return validators.extend(
        Draft202012Validator,
        validators={"pattern": _ecma_pattern},
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_strict_integer),
    )


def _format_checker() -> FormatChecker:
    from jsonschema import FormatChecker

    checker = FormatChecker()
    if "date-time" not in checker.checkers:  # pragma: no cover - guarded by packaging
        raise KernelError("rfc3339-validator is not installed: date-time cannot be checked")
    return checker


@functools.cache
def _default_validator() -> Any:
    return _strict_validator_class()(_schema_copy(), format_checker=_format_checker())


def canonical_json(contract: object) -> str:
    """One text per JSON value: sorted keys, no spaces, non-ASCII as is (how a
    :class:`~kernel.contract.model.Contract` keeps its document)."""
    return json.dumps(contract, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


@functools.cache
def _valid_templates() -> frozenset[str]:
    """The canonical texts of the shipped templates, each checked against Schema 13 when the
    precompiled file was written (``python -m kernel.contract.precompiled``)."""
    try:
        texts = json.loads(package_data("kernel", PRECOMPILED))["valid_templates"].values()
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return frozenset()
    return frozenset(t for t in texts if isinstance(t, str))


def _is_valid_template(contract: object) -> bool:
    """Whether ``contract`` is, value for value and type for type, a shipped template."""
    if type(contract) is not dict:
        return False
    try:
        text = canonical_json(contract)
    except (TypeError, ValueError, RecursionError):
        return False
    # The text tells 1 from 1.0 and from true; the comparison tells "1" keys and lists from
    # 1 keys and tuples, which serialise alike.
    return text in _valid_templates() and json.loads(text) == contract


def validate(contract: object, *, schema: Mapping[str, Any] | None = None) -> list[str]:
    """Schema 13 violations, each prefixed with its JSON path. Empty means valid.

    ``schema`` replaces Schema 13 (for tests of schema evolution). A shipped template, known
    valid, is answered without loading the schema validator.
    """
    if schema is None and _is_valid_template(contract):
        return []
    validator = (
        _default_validator()
        if schema is None
        else _strict_validator_class()(schema, format_checker=_format_checker())
    )
    try:
        errors = list(validator.iter_errors(contract))
    except RecursionError:
        return ["$: contract is nested too deeply"]
    return sorted(f"{e.json_path}: {e.message}" for e in errors)


def _items(contract: object, key: str) -> list[tuple[int, Mapping[str, Any]]]:
    if not isinstance(contract, Mapping):
        return []
    value = contract.get(key)
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, Mapping)]


def _duplicates(contract: object, key: str, field: str, what: str) -> list[str]:
    first: dict[object, int] = {}
    errors = []
    for i, item in _items(contract, key):
        value = item.get(field)
        if not isinstance(value, str):
            continue
        if value in first:
            errors.append(
                f"$.{key}[{i}].{field}: duplicate {what} {value!r} "
                f"(first at $.{key}[{first[value]}].{field})"
            )
        else:
            first[value] = i
    return errors


def _dimension_pairs(contract: object) -> list[tuple[str, str]]:
    return [
        (str(d.get("id")), str(d.get("priority")))
        for _, d in _items(contract, "acceptance_dimensions")
    ]


#: Per failure condition: its position, the condition, and its compiled predicate or the
#: error that stopped it.
Compiled = list[tuple[int, Mapping[str, Any], Predicate | ExpressionUnrecognised]]


def compiled_expressions(contract: object) -> Compiled:
    """Parse and compile every failure condition's expression against the contract's
    dimensions, once: the loader, the structural checks and the warnings share the result."""
    dims = _dimension_pairs(contract)
    out: Compiled = []
    for i, cond in _items(contract, "failure_conditions"):
        text = cond.get("expression")
        try:
            out.append((i, cond, compile_expression(parse_expression(text), dims)))  # type: ignore[arg-type]
        except ExpressionUnrecognised as exc:
            out.append((i, cond, exc))
    return out


def check_structural_invariants(contract: object, *, compiled: Compiled | None = None) -> list[str]:
    """Hard errors JSON Schema cannot express: duplicate dimension ids and names, duplicate
    condition ids, and (SC-12, R7) expressions that do not compile.

    ``compiled`` is :func:`compiled_expressions` of the same contract, when already at hand.
    """
    errors = [
        *_duplicates(contract, "acceptance_dimensions", "id", "dimension id"),
        *_duplicates(contract, "acceptance_dimensions", "name", "dimension name"),
        *_duplicates(contract, "failure_conditions", "condition_id", "condition_id"),
    ]
    if compiled is None:
        compiled = compiled_expressions(contract)
    for i, _, result in compiled:
        if isinstance(result, ExpressionUnrecognised):
            errors.append(f"$.failure_conditions[{i}].expression: SC-12 {result.message}")
    return errors


_VERSION = re.compile(r"v(\d+)\.(\d+)\.(\d+)\Z")
_DIM_TOKEN = re.compile(r"\bD\d+\b")


def _parse_version(version: str, what: str) -> tuple[int, int, int]:
    match = _VERSION.match(version) if isinstance(version, str) else None
    if match is None:
        raise KernelError(f"{what} must look like vX.Y.Z, got {version!r}")
    major, minor, patch = (int(g) for g in match.groups())
    return major, minor, patch


def _sc1(contract: Mapping[str, Any], ars_current_version: str | None) -> list[str]:
    if ars_current_version is None:
        return []
    current = _parse_version(ars_current_version, "ars_current_version")
    try:
        baseline = _parse_version(contract.get("baseline_version"), "baseline_version")  # type: ignore[arg-type]
    except KernelError:
        return []
    if baseline[0] < current[0]:
        return [
            f"SC-1: contract baseline {contract['baseline_version']} lags ARS "
            f"{ars_current_version} by a major version; retirement candidate"
        ]
    lag = current[1] - baseline[1] if baseline[0] == current[0] else 0
    if lag > 2:
        return [f"SC-1: contract baseline lags ARS by {lag} minor; retirement candidate"]
    return []


def warn_suspicious(contract: object, ars_current_version: str | None = None) -> list[str]:
    """Soft warnings, each starting with its code (``SC-1`` … ``SC-11``, ``SC-13``).

    Meant for schema-valid contracts; on anything else it warns about what it can read.
    ``ars_current_version`` (``vX.Y.Z``) enables SC-1.
    """
    if not isinstance(contract, Mapping):
        raise KernelError(f"a contract must be a JSON object, got {type(contract).__name__}")
    warnings = _sc1(contract, ars_current_version)
    dims = [d for _, d in _items(contract, "acceptance_dimensions")]
    conds = _items(contract, "failure_conditions")
    dim_ids = {d.get("id") for d in dims}

    if len(dims) == 1:
        warnings.append(
            "SC-2: single-dimension contract; consider whether this mode needs sprint contract "
            "at all"
        )
    if dims and not any(d.get("priority") == "mandatory" for d in dims):
        warnings.append(
            "SC-3: no mandatory-priority dimension; failure_conditions referencing 'mandatory' "
            "will be vacuous"
        )
    for _, cond in conds:
        text = cond.get("expression")
        if not isinstance(text, str):
            continue
        for token in dict.fromkeys(_DIM_TOKEN.findall(text)):
            if token not in dim_ids:
                warnings.append(
                    f"SC-4: failure condition {cond.get('condition_id')} references {token} "
                    "which is not in acceptance_dimensions"
                )
    procedure = contract.get("measurement_procedure")
    if isinstance(procedure, Mapping):
        outputs = procedure.get("reviewer_must_output_before_paper")
        outputs = outputs if isinstance(outputs, list) else []
        if not {"contract_paraphrase", "scoring_plan"} <= set(
            o for o in outputs if isinstance(o, str)
        ):
            warnings.append(
                "SC-5: hard-gate protocol requires both 'contract_paraphrase' and 'scoring_plan'"
            )
    amendments = contract.get("agent_amendments")
    if isinstance(amendments, Mapping):
        for key in amendments:
            if key in BASELINE_FIELDS:
                warnings.append(
                    f"SC-6: agent_amendments carries baseline field {key!r}; baseline fields are "
                    "orchestrator-immutable"
                )
    for a in range(len(conds)):
        for b in range(a + 1, len(conds)):
            ca, cb = conds[a][1], conds[b][1]
            if ca.get("severity") == cb.get("severity") and ca.get("action") != cb.get("action"):
                warnings.append(
                    f"SC-7: {ca.get('condition_id')} and {cb.get('condition_id')} share "
                    f"severity={ca.get('severity')} but map to different actions; precedence "
                    "tie-breaking falls back to ordinal position"
                )
    if isinstance(procedure, Mapping):
        minimum = procedure.get("paraphrase_minimum_dimensions")
        if isinstance(minimum, int) and not isinstance(minimum, bool) and minimum > len(dims):
            warnings.append(
                f"SC-9: paraphrase_minimum_dimensions={minimum} exceeds dimension count "
                f"{len(dims)}; Phase 1 lint will always fail"
            )
    read: set[int] = set()
    for _, _, result in compiled_expressions(contract):
        if isinstance(result, Predicate):
            read |= result.reads
    for i, d in enumerate(dims):
        if d.get("priority") in ("mandatory", "high") and i not in read:
            warnings.append(
                f"SC-10: {d.get('priority')} dimension {d.get('id')} has no failure_condition "
                "referencing it; its score cannot influence the editorial decision"
            )
    panel = contract.get("panel_size")
    if panel == 1 and not isinstance(panel, bool):
        warnings.append(
            "SC-11: panel_size=1 means no cross-reviewer aggregation; cross_reviewer_quantifier "
            "values collapse to pass-through"
        )
    expected = {"reviewer_full": 5, "reviewer_methodology_focus": 2}.get(str(contract.get("mode")))
    if expected is not None and panel != expected:
        warnings.append(
            f"SC-11: panel_size={panel} inconsistent with mode={contract.get('mode')}; "
            f"expected {expected}"
        )
    if conds and not any(c.get("action") == ACCEPT for _, c in conds):
        warnings.append(
            f"SC-13: no failure condition has action {ACCEPT}; when no condition fires there "
            "is no fallback decision (R5) and decide() fails"
        )
    return warnings
