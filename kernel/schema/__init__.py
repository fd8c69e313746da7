"""The one JSON Schema validator factory (R10): every schema the kernel checks goes through it.

Strict on the points where jsonschema's defaults differ from what the kernel promises:

- ``integer`` means a JSON integer: ``5.0`` and ``true`` are not integers;
- ``pattern`` follows ECMA-262, the dialect JSON Schema names: ``$`` matches only at the very
  end, ``\\d``/``\\w``/``\\b`` are ASCII (``\\d`` does not match ``٣``), ``\\s`` is
  ECMA's white space and ``.`` excludes every line terminator;
- ``format: date-time`` is really checked (RFC 3339, through ``rfc3339-validator``);
- each error carries jsonschema's own ``json_path`` (``$.a[0].b``).

jsonschema is imported only for a document the quick check of :mod:`kernel.schema.accept`
does not accept: it is slow to import, and a valid document never needs it.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from kernel.errors import KernelError
from kernel.schema.accept import accepts, ecma_pattern, is_rfc3339
from kernel.strict import is_int, shown
from kernel.suggest import did_you_mean

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

__all__ = [
    "HUGE_INTEGER",
    "SchemaError",
    "StrictValidator",
    "caller_schema_errors",
    "caller_validator",
    "ecma_pattern",
    "is_date_time",
    "schema_errors",
    "strict_validator",
]

#: The one error for a document holding an integer past Python's 4,300-digit conversion limit.
HUGE_INTEGER = "holds an integer too long to write (over 4300 digits)"


def _pattern(
    validator: Validator, pattern: str, instance: object, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not isinstance(instance, str):
        return
    if ecma_pattern(pattern).search(instance) is None:
        from jsonschema.exceptions import ValidationError

        yield ValidationError(f"{shown(instance)} does not match {pattern!r}")


def _is_integer(_: object, instance: object) -> bool:
    return is_int(instance)


@functools.cache
def _validator_class() -> Any:
    from jsonschema import Draft202012Validator, validators

    return validators.extend(
        Draft202012Validator,
        validators={"pattern": _pattern},
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
    )


@functools.cache
def _format_checker() -> Any:
    from jsonschema import FormatChecker

    checker = FormatChecker()
    if "date-time" not in checker.checkers:  # pragma: no cover - guarded by packaging
        raise KernelError("rfc3339-validator is not installed: date-time cannot be checked")
    return checker


def is_date_time(value: str) -> bool:
    """An RFC 3339 ``date-time`` (as ``format: date-time`` checks it)."""
    return is_rfc3339(value)


class StrictValidator:
    """A Draft 2020-12 validator with the strict rules above. A document that
    :func:`~kernel.schema.accept.accepts` passes has no errors, and jsonschema is not imported
    for it; anything else is validated by jsonschema, built on first need."""

    __slots__ = ("_jsonschema", "_quick", "schema")

    def __init__(self, schema: Mapping[str, Any] | bool, *, quick: bool = True) -> None:
        self.schema = schema
        self._quick = quick
        self._jsonschema: Validator | None = None

    def _full(self) -> Validator:
        if self._jsonschema is None:
            self._jsonschema = _validator_class()(self.schema, format_checker=_format_checker())
        return self._jsonschema

    def iter_errors(self, instance: object) -> Iterator[ValidationError]:
        """Every violation, as jsonschema's ``iter_errors`` yields them."""
        if self._quick and accepts(self.schema, instance):
            return iter(())
        found: Iterator[ValidationError] = self._full().iter_errors(instance)
        return found


def strict_validator(schema: Mapping[str, Any]) -> StrictValidator:
    """A Draft 2020-12 validator for one of the kernel's own schemas, with the strict rules
    above."""
    return StrictValidator(schema)


def caller_validator(schema: object, *, error: type[KernelError] = KernelError) -> StrictValidator:
    """:func:`strict_validator` for a schema the caller gave: one that is not a valid Draft
    2020-12 schema is refused with ``error`` naming what is wrong and where."""
    from jsonschema.exceptions import SchemaError as Malformed

    if not isinstance(schema, Mapping | bool):
        raise error(f"schema: must be a JSON Schema (an object or a boolean), got {shown(schema)}")
    try:
        _validator_class().check_schema(schema)
    except Malformed as exc:
        raise error(f"schema: not a valid JSON Schema at {_said(exc, True)}") from None
    except (RecursionError, ValueError, TypeError) as exc:
        raise error(f"schema: cannot be checked ({type(exc).__name__})") from None
    # A caller's schema may use what the quick check was never compared with jsonschema on.
    return StrictValidator(schema, quick=False)


def caller_schema_errors(
    validator: StrictValidator, instance: object, *, error: type[KernelError] = KernelError
) -> list[SchemaError]:
    """:func:`schema_errors` with a :func:`caller_validator`: a well-formed schema the validator
    still cannot apply (a ``$ref`` to nowhere, an unknown type) is refused with ``error``."""
    try:
        return schema_errors(validator, instance)
    except KernelError:
        raise
    except Exception as exc:  # jsonschema's own error on applying a malformed caller schema
        raise error(f"schema: cannot be applied ({_said(exc, False)})") from None


def _said(exc: Exception, malformed: bool) -> str:
    """What jsonschema said (``path: message``, or ``Type: text``), cut to 200 characters,
    never an exception (its text may quote a huge integer)."""
    try:
        if malformed:
            said = f"{getattr(exc, 'json_path', '$')}: {getattr(exc, 'message', exc)}"
        else:
            said = f"{type(exc).__name__}: {exc}"
    except Exception:
        said = f"{type(exc).__name__} (its message cannot be printed)"
    return said if len(said) <= 200 else said[:197] + "..."


@attrs.frozen
class SchemaError:
    """One schema violation: where (``$.a[0]``) and what."""

    json_path: str
    message: str

    def __str__(self) -> str:
        return f"{self.json_path}: {self.message}"


def _no_item(contains: object) -> str:
    """jsonschema's ``contains`` message quotes the whole array: name what is missing instead."""
    what = contains.get("description") if isinstance(contains, Mapping) else None
    return f"no item is {what}" if isinstance(what, str) else "no item matches 'contains'"


def schema_errors(
    validator: StrictValidator,
    instance: object,
    *,
    limit: int | None = None,
    clip: int | None = None,
) -> list[SchemaError]:
    """Every violation of ``instance`` (the first ``limit`` found), sorted by path and text;
    ``clip`` shortens long messages. Too deep to validate is one error at ``$``."""
    try:
        found = list(itertools.islice(validator.iter_errors(instance), limit))
    except RecursionError:
        return [SchemaError("$", "nested too deeply to validate")]
    except ValueError:  # jsonschema's message quotes a value: an integer too long to write
        return [SchemaError("$", HUGE_INTEGER)]
    out = []
    for e in found:
        message = e.message if e.validator != "contains" else _no_item(e.validator_value)
        if e.validator == "enum" and isinstance(e.instance, str) and len(e.instance) <= 64:
            choices = [v for v in e.validator_value if isinstance(v, str)]
            message += did_you_mean(e.instance, choices)
        if clip is not None and len(message) > clip:
            message = message[: clip - 1] + "…"
        out.append(SchemaError(e.json_path, message))
    return sorted(out, key=str)
