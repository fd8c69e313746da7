"""The shipped contract templates and the Schema 13 document, read from package data."""

from __future__ import annotations

import copy
import functools
from importlib import resources
from typing import Any, Final

from kernel._io import loads_strict
from kernel.errors import ContractError

__all__ = ["TEMPLATE_NAMES", "schema", "shipped_template"]

TEMPLATE_NAMES: Final = ("reviewer/full", "reviewer/methodology_focus")


@functools.cache
def _read_data(relative: str) -> Any:
    text = resources.files("kernel").joinpath("data", relative).read_text("utf-8")
    return loads_strict(text, source=f"kernel/data/{relative}")


def schema() -> dict[str, Any]:
    """A fresh deep copy of the Schema 13 document."""
    return copy.deepcopy(_read_data("schema13.json"))


def shipped_template(name: str) -> dict[str, Any]:
    """A fresh deep copy of a shipped template: ``"reviewer/full"`` or
    ``"reviewer/methodology_focus"``."""
    if name not in TEMPLATE_NAMES:
        raise ContractError(
            f"no shipped template named {name!r}; known: {', '.join(TEMPLATE_NAMES)}"
        )
    return copy.deepcopy(_read_data(f"templates/{name}.json"))
