"""A contract's findings at the line and column of the JSON value each is about, the same for
every command that reads a contract (``check`` and, when the contract is invalid, ``lint``,
``decide`` and ``analyze``)."""

from __future__ import annotations

from typing import Any

import attrs

from kernel.diagnostics import Diagnostic
from kernel.io import json_positions

__all__ = ["contract_findings", "placed"]


def placed(found: list[Diagnostic], text: str) -> list[Diagnostic]:
    """Each diagnostic with a JSONPath at the line and column where that value starts in the
    JSON ``text`` (for a member that is missing, where the nearest enclosing value starts)."""
    if not any(d.json_path for d in found):
        return found
    positions = json_positions(text)
    out = []
    for d in found:
        path = d.json_path
        while path and path not in positions:
            path = path[: max(path.rfind("."), path.rfind("["))] or None
        if path is None:
            out.append(d)
        else:
            line, column = positions[path]
            out.append(attrs.evolve(d, line=line, column=column))
    return out


def contract_findings(
    data: Any, source: str, text: str | None, ars: str | None, dialect: str | None
) -> tuple[str, list[Diagnostic]]:
    """The dialect a contract was checked as and what ``check`` finds in it, in ``source``
    (placed in ``text`` when the contract was read from one)."""
    from kernel.contract.warnings import checked

    used, diagnostics = checked(data, ars, dialect)
    found = [d.at(source) for d in diagnostics]
    return used.name, found if text is None else placed(found, text)
