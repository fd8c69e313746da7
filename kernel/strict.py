"""Strict type tests shared by every layer (R10: ``true`` is not ``1``, ``5.0`` is not ``5``)."""

from __future__ import annotations

import os
from typing import TypeGuard

__all__ = ["is_int", "label", "shown"]


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


def label(value: object, name: str) -> str:
    """A label the caller gave (``source=``, ``what=``: where a value came from) as text: a
    string, or a path as its text. Anything else is refused."""
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        if isinstance(path, str):
            return path
    from kernel.errors import KernelError  # same layer: imported on this rare path only

    raise KernelError(f"{name} must be a string naming the input, got {shown(value)}")
