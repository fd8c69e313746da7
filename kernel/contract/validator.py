"""The contract validator, mirroring the seed's ``check_sprint_contract.py`` (§4.2) on plain
dicts: :func:`validate` (the schema of the contract's own dialect) and the structural checks
both dialects share (:func:`structural_problems`: duplicate ids and names, SC-12). The
other dialect-aware entry points are
:func:`kernel.contract.dialects.check_structural_invariants` and
:func:`kernel.contract.warnings.warn_suspicious`."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import attrs

from kernel.contract.encoding import unencodable_at
from kernel.contract.templates import schema_document
from kernel.errors import (
    ExpressionUnrecognised,
    KernelError,
    expression_unrecognised_tag,
)
from kernel.expression.ast import Expression
from kernel.expression.compiler import Predicate, compile_expression
from kernel.expression.parser import PRECOMPILED, parse_expression
from kernel.io import package_data
from kernel.strict import shown

__all__ = [
    "BASELINE_FIELDS",
    "Compile",
    "Problem",
    "canonical_json",
    "compiled_expressions",
    "is_valid_template",
    "items",
    "parse_version",
    "schema_problems",
    "structural_problems",
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
    "pre_commitment_artifacts",
    "disagreement_handling",
)


#: The kernel's JSON Schema file of each dialect, under ``kernel/data/``.
SCHEMA_FILES: Final = {"13": "schema13.json", "13.2": "schema13_2.json"}


@functools.cache
def schema_validator(dialect: str = "13") -> Any:
    """The strict validator of a dialect's schema, built on first use."""
    from kernel.schema import strict_validator

    return strict_validator(schema_document(SCHEMA_FILES[dialect]))


def schema13_validator() -> Any:
    return schema_validator("13")


def canonical_json(contract: object) -> str:
    """One text per JSON value: sorted keys, no spaces, non-ASCII as is (how a
    :class:`~kernel.contract.model.Contract` keeps its document)."""
    return json.dumps(contract, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


#: The precompiled table of each dialect's valid templates.
_VALID_TABLES = {"13": "valid_templates", "13.2": "valid_templates_13_2"}


@functools.cache
def _valid_templates(dialect: str = "13") -> frozenset[str]:
    """The canonical texts of the shipped templates of a dialect, each checked against its
    schema when the precompiled file was written (``python -m kernel.contract.precompiled``)."""
    try:
        table = json.loads(package_data("kernel", PRECOMPILED))[_VALID_TABLES[dialect]]
        texts = table.values()
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return frozenset()
    return frozenset(t for t in texts if isinstance(t, str))


def is_valid_template(contract: object, dialect: str = "13") -> bool:
    """Whether ``contract`` is, value for value and type for type, a shipped template of
    ``dialect``."""
    if type(contract) is not dict:
        return False
    try:
        text = canonical_json(contract)
    except (TypeError, ValueError, RecursionError):
        return False
    # The text tells 1 from 1.0 and from true; the comparison tells "1" keys and lists from
    # 1 keys and tuples, which serialise alike.
    return text in _valid_templates(dialect) and json.loads(text) == contract


_is_valid_template = is_valid_template



def schema_problems(contract: object, dialect: str = "13") -> list[tuple[str, str]]:
    """The one schema pass every reader of a contract runs (:func:`validate`,
    :func:`~kernel.contract.model.load_contract`, ``sprint-kernel check``): ``(JSON path,
    "<path>: message")`` for each violation of ``dialect``'s schema, empty when valid.
    Unencodable text and integers beyond ±(2**53 - 1) come first, alone: jsonschema would
    choke on a huge integer."""
    if is_valid_template(contract, dialect):
        return []
    unreadable = unencodable_at(contract)
    if unreadable:
        return sorted(unreadable, key=lambda found: found[1])
    # Loaded here: a shipped template, the common case on a command line, never needs it.
    from kernel.schema import schema_errors

    return [(e.json_path, str(e)) for e in schema_errors(schema_validator(dialect), contract)]


def items(contract: object, key: str) -> list[tuple[int, Mapping[str, Any]]]:
    """The objects of the list ``contract[key]``, with their positions (others skipped)."""
    if not isinstance(contract, Mapping):
        return []
    value = contract.get(key)
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, Mapping)]


_items = items


def _duplicates(contract: object, key: str, field: str, what: str) -> list[Problem]:
    first: dict[object, int] = {}
    errors = []
    for i, item in _items(contract, key):
        value = item.get(field)
        if not isinstance(value, str):
            continue
        if value in first:
            errors.append(
                Problem(
                    "E-STRUCT",
                    f"$.{key}[{i}].{field}",
                    f"duplicate {what} {shown(value)} (first at $.{key}[{first[value]}].{field})",
                )
            )
        else:
            first[value] = i
    return errors


def _dimension_pairs(contract: object) -> list[tuple[str, str]]:
    return [
        (_text(d.get("id")), _text(d.get("priority")))
        for _, d in _items(contract, "acceptance_dimensions")
    ]


def _text(value: object) -> str:
    """A field as text: a string as it is, anything else (a huge integer too) as a short repr."""
    return value if isinstance(value, str) else shown(value)


#: Per failure condition: its position, the condition, and its compiled predicate or the
#: error that stopped it.
Compiled = list[tuple[int, Mapping[str, Any], Predicate | ExpressionUnrecognised]]


Compile = Callable[[Expression, Sequence[tuple[str, str]]], Predicate]


def compiled_expressions(
    contract: object, *, vocabulary: str = "13", compile: Compile = compile_expression
) -> Compiled:
    """Parse and compile every failure condition's expression against the contract's
    dimensions, once: the loader, the structural checks and the warnings share the result.
    ``vocabulary`` and ``compile`` are the dialect's (:mod:`kernel.contract.dialects`)."""
    dims = _dimension_pairs(contract)
    out: Compiled = []
    # Conditions often repeat an expression: each distinct text is parsed and compiled once.
    seen: dict[str, Predicate | ExpressionUnrecognised] = {}
    for i, cond in _items(contract, "failure_conditions"):
        text = cond.get("expression")
        result = seen.get(text) if type(text) is str else None
        if result is None:
            try:
                result = compile(parse_expression(text, dialect=vocabulary), dims)  # type: ignore[arg-type]
            except ExpressionUnrecognised as exc:
                result = exc
            if type(text) is str:
                seen[text] = result
        out.append((i, cond, result))
    return out


@attrs.frozen
class Problem:
    """A hard structural error: its code (``E-STRUCT`` or ``SC-12``), where, and what."""

    code: str
    json_path: str
    message: str
    #: The audit tag ``decide`` refuses the contract with (``[CONTRACT-INELIGIBLE: …]``,
    #: ``[EXPRESSION-UNRECOGNISED: …]``), when the problem is one; not part of ``str()``.
    tag: str | None = None

    def __str__(self) -> str:
        code = "SC-12 " if self.code == "SC-12" else ""
        return f"{self.json_path}: {code}{self.message}"


def structural_problems(contract: object, *, compiled: Compiled | None = None) -> list[Problem]:
    """The structural errors both dialects share, as values (duplicate dimension ids and
    names, duplicate condition ids, SC-12)."""
    found = [
        *_duplicates(contract, "acceptance_dimensions", "id", "dimension id"),
        *_duplicates(contract, "acceptance_dimensions", "name", "dimension name"),
        *_duplicates(contract, "failure_conditions", "condition_id", "condition_id"),
    ]
    if compiled is None:
        compiled = compiled_expressions(contract)
    for i, cond, result in compiled:
        if isinstance(result, ExpressionUnrecognised):
            cid, text = cond.get("condition_id"), cond.get("expression")
            tag = (
                expression_unrecognised_tag(cid, text)
                if isinstance(cid, str) and isinstance(text, str)
                else None
            )
            where = f"$.failure_conditions[{i}].expression"
            found.append(Problem("SC-12", where, result.message, tag=tag))
    return found


_VERSION = re.compile(r"v([0-9]+)\.([0-9]+)\.([0-9]+)\Z")
#: More digits than this in a version number is refused (Python's int conversion has a limit).
MAX_VERSION_DIGITS = 100


def parse_version(version: object, what: str) -> tuple[int, int, int]:
    """``vX.Y.Z`` (ASCII digits) as three integers; anything else is a ``KernelError``."""
    match = _VERSION.match(version) if isinstance(version, str) else None
    if match is None:
        raise KernelError(f"{what} must look like vX.Y.Z, got {shown(version)}")
    numbers = [g.lstrip("0") or "0" for g in match.groups()]
    if any(len(n) > MAX_VERSION_DIGITS for n in numbers):
        raise KernelError(f"{what} has a number over {MAX_VERSION_DIGITS} digits")
    major, minor, patch = (int(n) for n in numbers)
    return major, minor, patch
