"""The four response kinds of the consensus protocol: schemas, typed values, validation."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal, TypeAlias

import attrs

from kernel.errors import KernelError
from kernel.schema import schema_errors as _schema_errors
from kernel.schema import strict_validator
from kernel.strict import shown

__all__ = [
    "KINDS",
    "MAX_SCHEMA_ERRORS",
    "SCHEMAS",
    "CritiqueResponse",
    "Kind",
    "ParticipantResponse",
    "Response",
    "SynthesisResponse",
    "UpdateResponse",
    "check_kind",
    "from_mapping",
    "json_path",
    "schema_errors",
    "unknown_fields",
]

Kind: TypeAlias = Literal["participant", "critique", "synthesis", "update"]
KINDS: Final[tuple[Kind, ...]] = ("participant", "critique", "synthesis", "update")

#: ``schema_errors`` reports at most this many violations.
MAX_SCHEMA_ERRORS: Final = 20

_DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"
_STRING: Final[dict[str, Any]] = {"type": "string"}
_BOOL: Final[dict[str, Any]] = {"type": "boolean"}
_LIST: Final[dict[str, Any]] = {"type": "array", "items": {"type": "string"}}
# JSON Schema "number" excludes booleans; null means absent (companions §B).
_CONFIDENCE: Final[dict[str, Any]] = {"type": ["number", "null"], "minimum": 0, "maximum": 1}


def _schema(title: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "$schema": _DRAFT,
        "title": title,
        "type": "object",
        "properties": properties,
        "required": required,
    }


#: Response schemas (Draft 2020-12), by kind. Unknown fields are allowed and ignored.
SCHEMAS: Final[Mapping[Kind, Mapping[str, Any]]] = {
    "participant": _schema(
        "participant", {"answer": _STRING, "confidence": _CONFIDENCE}, ["answer"]
    ),
    "critique": _schema(
        "critique",
        {
            "approve": _BOOL,
            "critical": _BOOL,
            "objections": _LIST,
            "missing": _LIST,
            "edits": _LIST,
            "confidence": _CONFIDENCE,
        },
        ["approve", "critical"],
    ),
    "synthesis": _schema(
        "synthesis",
        {
            "candidate_answer": _STRING,
            "rationale": _STRING,
            "common_points": _LIST,
            "objections": _LIST,
            "missing": _LIST,
            "suggested_edits": _LIST,
        },
        ["candidate_answer", "rationale"],
    ),
    "update": _schema(
        "update",
        {"candidate_answer": _STRING, "rationale": _STRING},
        ["candidate_answer", "rationale"],
    ),
}

@functools.cache
def _validator(kind: Kind) -> Any:
    return strict_validator(SCHEMAS[kind])


def _strings(values: Sequence[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen
class ParticipantResponse:
    answer: str
    confidence: float | int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"answer": self.answer, "confidence": self.confidence}


@attrs.frozen
class CritiqueResponse:
    approve: bool
    critical: bool
    objections: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    missing: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    edits: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    confidence: float | int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "approve": self.approve,
            "critical": self.critical,
            "objections": list(self.objections),
            "missing": list(self.missing),
            "edits": list(self.edits),
            "confidence": self.confidence,
        }


@attrs.frozen
class SynthesisResponse:
    candidate_answer: str
    rationale: str
    common_points: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    objections: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    missing: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    suggested_edits: tuple[str, ...] = attrs.field(default=(), converter=_strings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "candidate_answer": self.candidate_answer,
            "rationale": self.rationale,
            "common_points": list(self.common_points),
            "objections": list(self.objections),
            "missing": list(self.missing),
            "suggested_edits": list(self.suggested_edits),
        }


@attrs.frozen
class UpdateResponse:
    candidate_answer: str
    rationale: str

    def to_dict(self) -> dict[str, Any]:
        return {"candidate_answer": self.candidate_answer, "rationale": self.rationale}


Response: TypeAlias = ParticipantResponse | CritiqueResponse | SynthesisResponse | UpdateResponse

_TYPES: Final[Mapping[Kind, type[Response]]] = {
    "participant": ParticipantResponse,
    "critique": CritiqueResponse,
    "synthesis": SynthesisResponse,
    "update": UpdateResponse,
}


def check_kind(kind: object) -> Kind:
    """Return ``kind`` when it names one of the four kinds, else raise ``KernelError``."""
    for known in KINDS:
        if kind == known and isinstance(kind, str):
            return known
    raise KernelError(f"unknown response kind {shown(kind)}; expected one of {', '.join(KINDS)}")


def json_path(error: Any) -> str:
    """The ``$.a[0]`` path of a schema violation (jsonschema's own)."""
    return str(error.json_path)


def _surrogates(value: object, path: str) -> list[str]:
    if isinstance(value, str):
        if any("\ud800" <= ch <= "\udfff" for ch in value):
            return [f"{path}: string holds a lone surrogate (not valid Unicode)"]
        return []
    if isinstance(value, list):
        return [e for i, item in enumerate(value) for e in _surrogates(item, f"{path}[{i}]")]
    return []


def schema_errors(value: object, kind: Kind) -> list[str]:
    """Every schema violation of ``value`` as a ``kind`` response, each naming its JSON path."""
    # Enough to say what is wrong; an adversarial value could hold a violation per item.
    found = [
        str(e) for e in _schema_errors(_validator(kind), value, limit=MAX_SCHEMA_ERRORS, clip=200)
    ]
    if not found and isinstance(value, Mapping):
        confidence = value.get("confidence")
        if isinstance(confidence, float) and math.isnan(confidence):
            found.append("$.confidence: NaN is not a number in [0, 1]")
        for name in SCHEMAS[kind]["properties"]:
            if name in value:
                found.extend(_surrogates(value[name], f"$.{name}"))
    return found


def unknown_fields(value: Mapping[str, Any], kind: Kind) -> list[str]:
    """Names in ``value`` that ``kind`` does not define, in document order."""
    known = SCHEMAS[kind]["properties"]
    return [name for name in value if name not in known]


def from_mapping(value: object, kind: Kind) -> Response:
    """Build the typed response from a decoded object; ``KernelError`` lists every violation."""
    kind = check_kind(kind)
    errors = schema_errors(value, kind)
    if errors:
        raise KernelError(f"not a valid {kind} response: " + "; ".join(errors))
    assert isinstance(value, Mapping)
    fields = {name: value[name] for name in SCHEMAS[kind]["properties"] if name in value}
    return _TYPES[kind](**fields)
