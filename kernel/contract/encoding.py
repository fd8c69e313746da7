"""The one rule for text that cannot be encoded as UTF-8, applied to JSON values.

A Python ``str`` can hold an unpaired surrogate (``"\\ud800"``, e.g. from the JSON escape
``"\\ud800"``) that no UTF-8 reader or writer accepts. Such text is bad input: a contract
holding one anywhere (a key or a value) fails validation with an error naming its JSON path,
and every function that takes text raises :class:`~kernel.errors.KernelError` for it
(:func:`kernel.io.require_utf8`) instead of letting ``UnicodeEncodeError`` escape.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from kernel.errors import InputError
from kernel.io import require_utf8

__all__ = ["unencodable"]

_MAX_REPORTED: Final = 10


def _key_path(path: str, key: object) -> str:
    if isinstance(key, str) and key.isidentifier() and key.isascii():
        return f"{path}.{key}"
    return f"{path}[{key!r}]"


def unencodable(value: object, path: str = "$") -> list[str]:
    """``"<JSON path>: not encodable as UTF-8: …"`` for the first strings (keys and values)
    in ``value`` that hold an unpaired surrogate; empty when there is none. Iterative, so
    depth is no problem."""
    errors: list[str] = []
    stack: list[tuple[str, object]] = [(path, value)]
    while stack and len(errors) < _MAX_REPORTED:
        where, item = stack.pop()
        if isinstance(item, str):
            try:
                require_utf8(item, where)
            except InputError as exc:
                errors.append(exc.message)
        elif isinstance(item, Mapping):
            for key, child in reversed(list(item.items())):
                child_path = _key_path(where, key)
                if isinstance(key, str):
                    try:
                        require_utf8(key, f"{child_path} (the key)")
                    except InputError as exc:
                        errors.append(exc.message)
                stack.append((child_path, child))
        elif isinstance(item, list | tuple):
            stack.extend((f"{where}[{i}]", child) for i, child in reversed(list(enumerate(item))))
    return errors
