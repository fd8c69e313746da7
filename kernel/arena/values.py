"""Arena records as JSON values: what JSON cannot hold, and a message-safe way to show a value.

Trails read from text are JSON by construction; records given as Python objects are checked
here so that every later check sees only JSON values (finite floats, string keys, integers a
message can print).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Final

__all__ = ["MAX_DEPTH", "MAX_INT_BITS", "json_value_problems", "shown"]

#: Larger integers cannot be printed (Python refuses ints over 4,300 digits) nor read back.
MAX_INT_BITS: Final = 14_000
#: Deeper values are refused: schema checks and messages recurse through them.
MAX_DEPTH: Final = 100
_LIMIT: Final = 5  # problems reported per value


def shown(value: object, width: int = 60) -> str:
    """``repr(value)`` for a message: huge integers by size, long texts cut."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
        return f"an integer of {value.bit_length()} bits"
    try:
        text = repr(value)
    except ValueError:  # a huge integer inside a container
        return f"a {type(value).__name__}"
    return text if len(text) <= width else text[: width - 1] + "…"


def _problems(value: object, path: str) -> Iterator[str]:
    stack: list[tuple[object, str, int]] = [(value, path, 0)]
    while stack:
        node, where, depth = stack.pop()
        if node is None or isinstance(node, bool | str):
            continue
        if depth > MAX_DEPTH:
            yield f"{where}: nested deeper than {MAX_DEPTH} levels"
            continue
        if isinstance(node, int):
            if node.bit_length() > MAX_INT_BITS:
                yield f"{where}: integer of {node.bit_length()} bits, too large for JSON text"
        elif isinstance(node, float):
            if not math.isfinite(node):
                yield f"{where}: {shown(node)} is not a JSON number"
        elif isinstance(node, Mapping):
            for key, child in node.items():
                if not isinstance(key, str):
                    yield f"{where}: key {shown(key)} is not a string"
                else:
                    stack.append((child, f"{where}.{key}", depth + 1))
        elif isinstance(node, list | tuple):
            stack.extend((child, f"{where}[{i}]", depth + 1) for i, child in enumerate(node))
        else:
            yield f"{where}: a {type(node).__name__} is not a JSON value"


def json_value_problems(value: object, path: str = "record") -> list[str]:
    """Why ``value`` is not a JSON value (at most five reasons; empty when it is one)."""
    found: list[str] = []
    for problem in _problems(value, path):
        found.append(problem)
        if len(found) == _LIMIT:
            break
    return found
