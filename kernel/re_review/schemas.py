"""The four re-review document schemas (``kernel/data/re_review/``, JSON Schema 2020-12),
checked through the kernel's one validator factory."""

from __future__ import annotations

import functools
import json
from typing import Any, Final

from kernel.io import package_data
from kernel.schema import SchemaError, StrictValidator, schema_errors, strict_validator

__all__ = ["SCHEMA_NAMES", "document_schema", "document_schema_errors"]

SCHEMA_NAMES: Final = ("manifest", "precommitment", "verdict_record", "traceability")


@functools.cache
def document_schema(name: str) -> dict[str, Any]:
    """The shipped schema of one document (``manifest``, ``precommitment``,
    ``verdict_record``, ``traceability``)."""
    if name not in SCHEMA_NAMES:
        raise ValueError(f"no re-review schema {name!r}")
    data: dict[str, Any] = json.loads(package_data("kernel", f"data/re_review/{name}.schema.json"))
    return data


@functools.cache
def _validator(name: str) -> StrictValidator:
    return strict_validator(document_schema(name))


def document_schema_errors(name: str, value: object, *, limit: int = 50) -> list[SchemaError]:
    """The first ``limit`` violations of ``value`` against the schema ``name``."""
    return schema_errors(_validator(name), value, limit=limit, clip=300)
