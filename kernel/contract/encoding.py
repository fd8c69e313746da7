"""Values no JSON reader can take, found in a JSON value with the path of each.

* Text that cannot be encoded as UTF-8: a Python ``str`` can hold an unpaired surrogate
  (``"\\ud800"``, e.g. from the JSON escape ``"\\ud800"``) that no UTF-8 reader or writer
  accepts. Such text is bad input: a contract holding one anywhere (a key or a value) fails
  validation with an error naming its JSON path, and every function that takes text raises
  :class:`~kernel.errors.KernelError` for it (:func:`kernel.io.require_utf8`) instead of
  letting ``UnicodeEncodeError`` escape.
* Integers beyond ``±(2**53 - 1)``, the range every JSON reader holds exactly (RFC 8259
  section 6). Past Python's 4,300-digit limit they cannot even be printed, so nothing else
  may look at them first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from kernel.errors import InputError
from kernel.io import require_utf8
from kernel.strict import shown

__all__ = ["MAX_JSON_INTEGER", "unencodable", "unencodable_at"]

_MAX_REPORTED: Final = 10
#: The largest integer every JSON reader holds exactly (RFC 8259 section 6).
MAX_JSON_INTEGER: Final = 2**53 - 1


def _key_path(path: str, key: object) -> str:
    if isinstance(key, str) and key.isidentifier() and key.isascii():
        return f"{path}.{key}"
    return f"{path}[{shown(key)}]"


def unencodable(value: object, path: str = "$") -> list[str]:
    """``"<JSON path>: …"`` for the first strings (keys and values) in ``value`` that hold an
    unpaired surrogate and the first integers out of range; empty when there is none.
    Iterative, so depth is no problem."""
    return [message for _, message in unencodable_at(value, path)]


def unencodable_at(value: object, path: str = "$") -> list[tuple[str, str]]:
    """:func:`unencodable` with the JSON path of each value: ``(path, "<path…>: …")``."""
    errors: list[tuple[str, str]] = []
    stack: list[tuple[str, object]] = [(path, value)]
    while stack and len(errors) < _MAX_REPORTED:
        where, item = stack.pop()
        if isinstance(item, str):
            try:
                require_utf8(item, where)
            except InputError as exc:
                errors.append((where, exc.message))
        elif isinstance(item, Mapping):
            for key, child in reversed(list(item.items())):
                child_path = _key_path(where, key)
                if isinstance(key, str):
                    try:
                        require_utf8(key, f"{child_path} (the key)")
                    except InputError as exc:
                        errors.append((child_path, exc.message))
                stack.append((child_path, child))
        elif isinstance(item, int) and not isinstance(item, bool):
            if abs(item) > MAX_JSON_INTEGER:
                errors.append(
                    (
                        where,
                        f"{where}: a {item.bit_length()}-bit integer is beyond ±(2**53 - 1), the "
                        "integers every JSON reader holds exactly",
                    )
                )
        elif isinstance(item, list | tuple):
            stack.extend((f"{where}[{i}]", child) for i, child in reversed(list(enumerate(item))))
    return errors
