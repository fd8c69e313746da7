"""Lazy re-exports (PEP 562), so that importing a package loads only what is used."""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any


class _Package(types.ModuleType):
    """A package whose exported names win over its submodules of the same name: importing
    ``kernel.consensus.tokens`` leaves ``kernel.consensus.tokens`` the exported function, as
    an eager ``from kernel.consensus.tokens import tokens`` in ``__init__`` would."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and name in vars(self).get("__exports__", ()):
            return
        super().__setattr__(name, value)


def lazy_exports(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: ``exports`` maps name → module."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    own = sys.modules[package]
    own.__exports__ = frozenset(exports)  # type: ignore[attr-defined]
    own.__class__ = _Package
    return __getattr__, __dir__
