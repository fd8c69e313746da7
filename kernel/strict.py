"""Strict type tests shared by every layer (R10: ``true`` is not ``1``, ``5.0`` is not ``5``)."""

from __future__ import annotations

from typing import TypeGuard

__all__ = ["is_int"]


def is_int(value: object) -> TypeGuard[int]:
    """A real integer: ``bool`` (a subclass of ``int``) and floats are not."""
    return isinstance(value, int) and not isinstance(value, bool)
