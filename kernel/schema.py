"""The one JSON Schema validator factory (R10): every schema the kernel checks goes through it.

Strict on the points where jsonschema's defaults differ from what the kernel promises:

- ``integer`` means a JSON integer: ``5.0`` and ``true`` are not integers;
- ``pattern`` follows ECMA-262, the dialect JSON Schema names: ``$`` matches only at the very
  end, ``\\d``/``\\w``/``\\b`` are ASCII (``\\d`` does not match ``٣``), ``\\s`` is
  ECMA's white space and ``.`` excludes every line terminator;
- ``format: date-time`` is really checked (RFC 3339, through ``rfc3339-validator``);
- each error carries jsonschema's own ``json_path`` (``$.a[0].b``).

jsonschema is imported on first use: it is slow to import and most commands never need it.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from kernel.errors import KernelError
from kernel.strict import is_int, shown

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

__all__ = [
    "HUGE_INTEGER",
    "SchemaError",
    "caller_schema_errors",
    "caller_validator",
    "ecma_pattern",
    "is_date_time",
    "schema_errors",
    "strict_validator",
]

#: The one error for a document holding an integer past Python's 4,300-digit conversion limit.
HUGE_INTEGER = "holds an integer too long to write (over 4300 digits)"

#: ECMA-262 ``WhiteSpace`` and ``LineTerminator``: what ``\s`` matches there.
_ECMA_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_SPACE_CLASS = re.escape(_ECMA_SPACE)
_LINE_TERMINATORS = "\\n\\r\\u2028\\u2029"


@functools.cache
def ecma_pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` (ECMA-262 syntax) as a Python regex with ECMA-262 meaning.

    Compiled with ``re.ASCII`` (``\\d``, ``\\w``, ``\\b`` are ASCII in ECMA-262); ``\\s``,
    ``\\S``, ``.`` and ``$`` are rewritten; named groups ``(?<n>…)``/``\\k<n>`` are mapped.
    ``\\S`` inside a character class keeps Python's ASCII meaning (a documented approximation).
    """
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt == "s":
                out.append(_SPACE_CLASS if in_class else f"[{_SPACE_CLASS}]")
            elif nxt == "S" and not in_class:
                out.append(f"[^{_SPACE_CLASS}]")
            elif nxt == "k" and pattern.startswith("<", i + 2) and not in_class:
                end = pattern.index(">", i)
                out.append(f"(?P={pattern[i + 3 : end]})")
                i = end + 1
                continue
            else:
                out.append(c + nxt)
            i += 2
            continue
        if in_class:
            in_class = c != "]"
            out.append(c)
        elif c == "[":
            in_class = True
            out.append(c)
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
            if pattern.startswith("]", i + 1):  # a leading ']' is literal in Python, not ECMA
                out.append("\\]")
                i += 1
        elif c == "$":
            out.append(r"\Z")
        elif c == ".":
            out.append(f"[^{_LINE_TERMINATORS}]")
        elif c == "(" and pattern.startswith("?<", i + 1) and pattern[i + 3 : i + 4] not in "=!":
            out.append("(?P<")
            i += 3
            continue
        else:
            out.append(c)
        i += 1
    try:
        return re.compile("".join(out), re.ASCII)
    except re.error as exc:
        raise KernelError(f"schema pattern {shown(pattern)} is not a usable regex: {exc}") from None


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
    return bool(_format_checker().conforms(value, "date-time"))


def strict_validator(schema: Mapping[str, Any]) -> Validator:
    """A Draft 2020-12 validator for ``schema`` with the strict rules above."""
    validator: Validator = _validator_class()(schema, format_checker=_format_checker())
    return validator


def caller_validator(schema: object, *, error: type[KernelError] = KernelError) -> Validator:
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
    return strict_validator(schema)  # type: ignore[arg-type]


def caller_schema_errors(
    validator: Validator, instance: object, *, error: type[KernelError] = KernelError
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


def schema_errors(
    validator: Validator, instance: object, *, limit: int | None = None, clip: int | None = None
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
        message = e.message
        if clip is not None and len(message) > clip:
            message = message[: clip - 1] + "…"
        out.append(SchemaError(e.json_path, message))
    return sorted(out, key=str)
