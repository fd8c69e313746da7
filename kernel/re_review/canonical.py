"""Canonical JSON and its sha256 (design §3): upstream's bytes on the contract's value domain.

Upstream hashes ``json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``
as UTF-8 and calls it RFC 8785. On string-keyed objects, arrays, strings, integers of at most
53 bits, booleans and null that is JCS byte for byte; outside that domain the two differ, so
the guard refuses floats, integers outside ±(2^53 - 1), non-string keys, lone surrogates and
any other type with a :class:`ReReviewError` saying what and where.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from kernel.re_review.model import ReReviewError
from kernel.strict import shown

__all__ = ["MAX_SAFE_INTEGER", "canonical_json", "canonical_sha256"]

#: The largest integer JCS (and an IEEE double) holds exactly: 2^53 - 1.
MAX_SAFE_INTEGER = (1 << 53) - 1


def _utf16(key: str) -> bytes:
    # Big-endian UTF-16 bytes compare as the code units do (RFC 8785 §3.2.3).
    return key.encode("utf-16-be", "surrogatepass")


def _lone_surrogate(text: str) -> int | None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def _where(path: list[str | int]) -> str:
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f"[{json.dumps(part)}]"
    return out


def _refuse(path: list[str | int], what: str) -> ReReviewError:
    return ReReviewError(
        f"canonical JSON: {_where(path)}: {what} (outside the hashed value domain)"
    )


def _string(value: str, path: list[str | int], what: str) -> str:
    at = _lone_surrogate(value)
    if at is not None:
        raise _refuse(path, f"{what} holds a lone surrogate U+{ord(value[at]):04X} at {at}")
    return value


def _checked(value: object) -> Any:
    """A copy of ``value`` with every object's keys in UTF-16 order; refuses the rest. Walks
    with its own stack, so a deep value is refused by the encoder, not by this walk."""
    root: list[Any] = [None]
    stack: list[tuple[object, list[Any] | dict[str, Any], str | int, list[str | int]]] = [
        (value, root, 0, [])
    ]
    while stack:
        node, parent, slot, path = stack.pop()
        if node is None or node is True or node is False:
            out: Any = node
        elif type(node) is int:
            if not -MAX_SAFE_INTEGER <= node <= MAX_SAFE_INTEGER:
                raise _refuse(path, f"integer {shown(node, 30)} is beyond ±(2^53 - 1)")
            out = node
        elif type(node) is str:
            out = _string(node, path, "string")
        elif type(node) is float:
            raise _refuse(path, f"float {shown(node, 30)}: no re-review document has one")
        elif type(node) is dict:
            for key in node:
                if type(key) is not str:
                    raise _refuse(path, f"key {shown(key, 30)} is not a string")
                _string(key, [*path, key], "key")
            out = {}
            for key in sorted(node, key=_utf16):
                out[key] = None
                stack.append((node[key], out, key, [*path, key]))
        elif type(node) is list or type(node) is tuple:
            out = [None] * len(node)
            for i, item in enumerate(node):
                stack.append((item, out, i, [*path, i]))
        else:
            raise _refuse(path, f"a {type(node).__name__} is not a JSON value")
        parent[slot] = out  # type: ignore[index]
    return root[0]


def canonical_json(value: object) -> bytes:
    """The canonical UTF-8 bytes of a JSON value (§3); :class:`ReReviewError` outside the
    value domain or nested too deeply to encode."""
    checked = _checked(value)
    try:
        text = json.dumps(checked, ensure_ascii=False, separators=(",", ":"))
    except RecursionError:
        raise ReReviewError("canonical JSON: the value is nested too deeply to encode") from None
    return text.encode("utf-8")


def canonical_sha256(value: object) -> str:
    """The lowercase hex sha256 of :func:`canonical_json`."""
    return hashlib.sha256(canonical_json(value)).hexdigest()
