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

__all__ = ["MAX_SAFE_INTEGER", "canonical_json", "canonical_sha256", "check_value_domain"]

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


def _where(path: tuple[object, ...] | None) -> str:
    parts: list[str | int] = []
    while path is not None:
        path, part = path  # type: ignore[assignment]
        parts.append(part)  # type: ignore[arg-type]
    out = "$"
    for part in reversed(parts):
        out += f"[{part}]" if isinstance(part, int) else f"[{json.dumps(part)}]"
    return out


def _refuse(path: tuple[object, ...] | None, what: str) -> ReReviewError:
    where = _where(path)
    return ReReviewError(f"canonical JSON: {where}: {what} (outside the hashed value domain)")


def _string(value: str, path: tuple[object, ...] | None, what: str) -> None:
    if value.isascii():
        return
    at = _lone_surrogate(value)
    if at is not None:
        raise _refuse(path, f"{what} holds a lone surrogate U+{ord(value[at]):04X} at {at}")


def _guard(value: object) -> bool:
    """Refuse what is outside the value domain; ``True`` when some key holds a character
    past the BMP (then Python's key order is not UTF-16's). Walks with its own stack, so a
    deep value is refused by the encoder, not by this walk; a path is a linked pair
    ``(parent, key)``, spelt out only for the message."""
    astral = False
    stack: list[tuple[object, tuple[object, ...] | None]] = [(value, None)]
    while stack:
        node, path = stack.pop()
        if type(node) is str:
            _string(node, path, "string")
        elif node is None or type(node) is bool:
            continue
        elif type(node) is int:
            if not -MAX_SAFE_INTEGER <= node <= MAX_SAFE_INTEGER:
                raise _refuse(path, f"integer {shown(node, 30)} is beyond ±(2^53 - 1)")
        elif type(node) is dict:
            for key, item in node.items():
                if type(key) is not str:
                    raise _refuse(path, f"key {shown(key, 30)} is not a string")
                if not key.isascii():
                    _string(key, (path, key), "key")
                    astral = astral or any(ord(c) > 0xFFFF for c in key)
                stack.append((item, (path, key)))
        elif type(node) is list or type(node) is tuple:
            stack.extend((item, (path, i)) for i, item in enumerate(node))
        elif type(node) is float:
            raise _refuse(path, f"float {shown(node, 30)}: no re-review document has one")
        else:
            raise _refuse(path, f"a {type(node).__name__} is not a JSON value")
    return astral


def _utf16_ordered(value: Any) -> Any:
    """``value`` with every object's keys in UTF-16 code-unit order (RFC 8785 §3.2.3)."""
    if isinstance(value, dict):
        return {k: _utf16_ordered(value[k]) for k in sorted(value, key=_utf16)}
    if isinstance(value, list | tuple):
        return [_utf16_ordered(v) for v in value]
    return value


def canonical_json(value: object) -> bytes:
    """The canonical UTF-8 bytes of a JSON value (§3); :class:`ReReviewError` outside the
    value domain or nested too deeply to encode."""
    astral = _guard(value)
    try:
        if astral:  # rare: sort as UTF-16 does, then keep that order
            text = json.dumps(_utf16_ordered(value), ensure_ascii=False, separators=(",", ":"))
        else:
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    except RecursionError:
        raise ReReviewError("canonical JSON: the value is nested too deeply to encode") from None
    return text.encode("utf-8")


def canonical_sha256(value: object) -> str:
    """The lowercase hex sha256 of :func:`canonical_json`."""
    return hashlib.sha256(canonical_json(value)).hexdigest()


def check_value_domain(value: object) -> None:
    """:class:`ReReviewError` when ``value`` holds what :func:`canonical_json` refuses (a
    float, an integer beyond ±(2^53 - 1), a non-string key, a lone surrogate, a non-JSON
    type), without encoding it."""
    _guard(value)
