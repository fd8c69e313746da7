"""Strict type tests shared by every layer (R10: ``true`` is not ``1``, ``5.0`` is not ``5``)."""

from __future__ import annotations

from typing import TypeGuard

__all__ = ["is_int", "shown"]


def is_int(value: object) -> TypeGuard[int]:
    """A real integer: ``bool`` (a subclass of ``int``) and floats are not."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` fit for an error message, whatever the caller passed: at most ``limit``
    characters, and never an exception (an integer past Python's 4,300-digit conversion
    limit, or a ``__repr__`` that raises, is described instead)."""
    if isinstance(value, int) and value.bit_length() > 14_000:
        return f"an integer of {value.bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # a careless caller's object: its repr is not ours to trust
        return f"a {type(value).__name__} object"
    return text if len(text) <= limit else text[: limit - 3] + "..."

