"""Argument checks shared by the panel modules (fail closed with a ``KernelError``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kernel.errors import KernelError


def as_list(value: object, what: str) -> list[Any]:
    """``value`` as a list, if it is a sequence-like iterable (not a string or mapping)."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise KernelError(f"{what} must be a list, got {type(value).__name__}")
    return list(value)
