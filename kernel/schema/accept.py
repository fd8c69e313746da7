"""A quick acceptance check for the kernel's own JSON Schemas, so a valid document is answered
without importing jsonschema (about 60 ms of a command line's start).

:func:`accepts` says ``True`` only when the strict validator of :mod:`kernel.schema` would find
no error. It knows the keywords the kernel's schemas use, one function per keyword in
``_KEYWORDS``, each deciding as jsonschema's own does, or answering "unknown" (``None``) where
it would have to guess: another keyword, a ``$ref`` outside the document, a value that is not
plain JSON (a ``dict`` subclass, a tuple, a non-finite float). Anything not accepted goes to
jsonschema, whose messages name the JSON path, so the schema stays the one place for each rule.
A Hypothesis test holds the two to the same answers.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from kernel.errors import KernelError
from kernel.strict import is_int, shown

__all__ = ["accepts", "ecma_pattern", "is_rfc3339"]

#: A verdict: valid, invalid, or unknown (``None``: ask jsonschema).
Verdict = bool | None
_Keyword = Callable[[Any, Any, Mapping[str, Any], Mapping[str, Any]], Verdict]

_JSON = frozenset({dict, list, str, int, float, bool, type(None)})


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


def accepts(schema: object, instance: object) -> bool:
    """True when ``instance`` is certainly valid under ``schema`` (with the kernel's strict
    rules: integers are ``int``, patterns are ECMA-262, ``date-time`` is RFC 3339)."""
    if not isinstance(schema, Mapping):
        return False
    try:
        return _verdict(schema, instance, schema) is True
    except RecursionError:
        return False


def is_rfc3339(value: str) -> bool:
    """An RFC 3339 ``date-time``, decided as jsonschema's format checker decides it."""
    from rfc3339_validator import validate_rfc3339  # type: ignore[import-untyped]

    return bool(validate_rfc3339(value.upper()))


def _verdict(schema: object, instance: Any, root: Mapping[str, Any]) -> Verdict:
    if schema is True:
        return True
    if schema is False:
        return False
    if type(schema) is not dict or type(instance) not in _JSON:
        return None
    if type(instance) is float and not math.isfinite(instance):
        return None
    if "$id" in schema and schema is not root:
        return None
    result: Verdict = True
    for key, value in schema.items():
        check = _KEYWORDS.get(key)
        if check is None:
            if key in _ANNOTATIONS:
                continue
            return None
        said = check(value, instance, schema, root)
        if said is False:
            return False
        if said is None:
            result = None
    return result


def _all(verdicts: list[Verdict] | Any) -> Verdict:
    result: Verdict = True
    for said in verdicts:
        if said is False:
            return False
        if said is None:
            result = None
    return result


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda x: type(x) is dict,
    "array": lambda x: type(x) is list,
    "string": lambda x: type(x) is str,
    "integer": is_int,
    "number": lambda x: type(x) in (int, float),
    "boolean": lambda x: type(x) is bool,
    "null": lambda x: x is None,
}


def _type(value: Any, instance: Any, _: Mapping[str, Any], __: Mapping[str, Any]) -> Verdict:
    names = value if isinstance(value, list) else [value]
    if not all(isinstance(n, str) and n in _TYPES for n in names):
        return None
    return any(_TYPES[n](instance) for n in names)


def _properties(
    value: Any, instance: Any, _: Mapping[str, Any], root: Mapping[str, Any]
) -> Verdict:
    if type(instance) is not dict:
        return True
    if type(value) is not dict:
        return None
    return _all(_verdict(value[k], instance[k], root) for k in value if k in instance)


def _additional(
    value: Any, instance: Any, schema: Mapping[str, Any], root: Mapping[str, Any]
) -> Verdict:
    if type(instance) is not dict:
        return True
    if "patternProperties" in schema:
        return None
    declared = schema.get("properties", {})
    extras = [k for k in instance if k not in declared]
    if value is False:
        return not extras
    return _all(_verdict(value, instance[k], root) for k in extras)


def _required(value: Any, instance: Any, _: Mapping[str, Any], __: Mapping[str, Any]) -> Verdict:
    if type(instance) is not dict:
        return True
    return all(k in instance for k in value)


def _property_names(
    value: Any, instance: Any, _: Mapping[str, Any], root: Mapping[str, Any]
) -> Verdict:
    if type(instance) is not dict:
        return True
    return _all(_verdict(value, k, root) for k in instance)


def _items(
    value: Any, instance: Any, schema: Mapping[str, Any], root: Mapping[str, Any]
) -> Verdict:
    if type(instance) is not list:
        return True
    prefix = len(schema.get("prefixItems", []))
    return _all(_verdict(value, item, root) for item in instance[prefix:])


def _prefix_items(
    value: Any, instance: Any, _: Mapping[str, Any], root: Mapping[str, Any]
) -> Verdict:
    if type(instance) is not list:
        return True
    return _all(_verdict(s, item, root) for s, item in zip(value, instance, strict=False))


def _contains(
    value: Any, instance: Any, schema: Mapping[str, Any], root: Mapping[str, Any]
) -> Verdict:
    if type(instance) is not list:
        return True
    if "minContains" in schema or "maxContains" in schema:
        return None
    said = [_verdict(value, item, root) for item in instance]
    if True in said:
        return True
    return None if None in said else False


def _count(limit: Callable[[int, Any], bool], kind: type[list[Any]] | type[str]) -> _Keyword:
    def check(value: Any, instance: Any, _: Mapping[str, Any], __: Mapping[str, Any]) -> Verdict:
        if not isinstance(instance, kind) or type(instance) is not kind:
            return True
        return limit(len(instance), value) if is_int(value) else None

    return check


def _bound(limit: Callable[[Any, Any], bool]) -> _Keyword:
    def check(value: Any, instance: Any, _: Mapping[str, Any], __: Mapping[str, Any]) -> Verdict:
        if type(instance) not in (int, float):
            return True
        return limit(instance, value) if type(value) in (int, float) else None

    return check


def _key(value: object) -> object:
    """A hashable stand-in, equal for two JSON values exactly when jsonschema's ``equal``
    calls them equal (``True`` is not ``1``, ``1`` is ``1.0``); ``None`` for a value that is
    not plain JSON."""
    kind = type(value)
    if kind is str or value is None:
        return (kind, value)
    if kind is bool:
        return (bool, value)
    if kind is int or (kind is float and math.isfinite(value)):  # type: ignore[arg-type]
        return (float, value)
    if kind is list:
        keys = [_key(v) for v in value]  # type: ignore[attr-defined]
        return None if None in keys else (list, tuple(keys))
    if kind is dict:
        pairs = [(k, _key(v)) for k, v in value.items()]  # type: ignore[attr-defined]
        if any(type(k) is not str or v is None for k, v in pairs):
            return None
        return (dict, frozenset(pairs))
    return None


def _enum(value: Any, instance: Any, _: Mapping[str, Any], __: Mapping[str, Any]) -> Verdict:
    if type(value) is not list:
        return None
    keys = [_key(m) for m in value]
    key = _key(instance)
    return None if key is None or None in keys else key in keys


def _const(value: Any, instance: Any, _: Mapping[str, Any], __: Mapping[str, Any]) -> Verdict:
    key, wanted = _key(instance), _key(value)
    return None if key is None or wanted is None else key == wanted


def _unique(value: Any, instance: Any, _: Mapping[str, Any], __: Mapping[str, Any]) -> Verdict:
    if not value or type(instance) is not list:
        return True
    keys = [_key(x) for x in instance]
    return None if None in keys else len(set(keys)) == len(keys)


def _pattern(value: Any, instance: Any, _: Mapping[str, Any], __: Mapping[str, Any]) -> Verdict:
    if type(instance) is not str:
        return True
    if type(value) is not str:
        return None
    return ecma_pattern(value).search(instance) is not None


def _format(value: Any, instance: Any, _: Mapping[str, Any], __: Mapping[str, Any]) -> Verdict:
    if value != "date-time":
        return None
    return type(instance) is not str or is_rfc3339(instance)


def _all_of(value: Any, instance: Any, _: Mapping[str, Any], root: Mapping[str, Any]) -> Verdict:
    return _all(_verdict(s, instance, root) for s in value)


def _one_of(value: Any, instance: Any, _: Mapping[str, Any], root: Mapping[str, Any]) -> Verdict:
    said = [_verdict(s, instance, root) for s in value]
    if None in said:
        return None
    return said.count(True) == 1


def _if(value: Any, instance: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> Verdict:
    holds = _verdict(value, instance, root)
    if holds is None:
        return None
    branch = "then" if holds else "else"
    return _verdict(schema[branch], instance, root) if branch in schema else True


def _ref(value: Any, instance: Any, _: Mapping[str, Any], root: Mapping[str, Any]) -> Verdict:
    if type(value) is not str or not value.startswith("#/"):
        return None
    target: Any = root
    for part in value[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if type(target) is not dict or part not in target:
            return None
        target = target[part]
    return _verdict(target, instance, root)


_KEYWORDS: dict[str, _Keyword] = {
    "type": _type,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "propertyNames": _property_names,
    "items": _items,
    "prefixItems": _prefix_items,
    "contains": _contains,
    "minItems": _count(lambda n, v: n >= v, list),
    "maxItems": _count(lambda n, v: n <= v, list),
    "minLength": _count(lambda n, v: n >= v, str),
    "maxLength": _count(lambda n, v: n <= v, str),
    "minimum": _bound(lambda x, v: not x < v),
    "maximum": _bound(lambda x, v: not x > v),
    "enum": _enum,
    "const": _const,
    "uniqueItems": _unique,
    "pattern": _pattern,
    "format": _format,
    "allOf": _all_of,
    "oneOf": _one_of,
    "if": _if,
    "$ref": _ref,
}

#: Keywords that never make an instance invalid (``then``/``else`` act through ``if``).
_ANNOTATIONS = frozenset(
    {
        "$schema",
        "$defs",
        "$comment",
        "$id",
        "title",
        "description",
        "examples",
        "default",
        "then",
        "else",
        "definitions",
    }
)
