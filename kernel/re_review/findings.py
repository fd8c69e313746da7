"""Building re-review findings: a :class:`~kernel.diagnostics.Diagnostic` in its document,
at a JSON path (with the line and column of the member in a file), naming its ids in
``data``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kernel.diagnostics import Diagnostic, from_error
from kernel.errors import InputError
from kernel.io import json_path, json_positions
from kernel.re_review.load import Document

__all__ = ["Findings", "is_text"]


def is_text(value: object) -> bool:
    """A string of length ≥ 1 (§2.1 "text")."""
    return isinstance(value, str) and value != ""


class Findings:
    """The findings of one check, in the order found; positions computed on first need."""

    def __init__(self) -> None:
        self.found: list[Diagnostic] = []
        #: document name → canonical sha256, computed once per check.
        self.hashes: dict[str, str] = {}
        self._positions: dict[int, dict[str, tuple[int, int]]] = {}

    def _where(self, doc: Document, path: str) -> tuple[int | None, int | None]:
        if doc.file is None:
            return None, None
        if doc.text is None or doc.error is not None or doc.name == "letter":
            return 1, 1
        key = id(doc)
        if key not in self._positions:
            self._positions[key] = json_positions(doc.text)
        positions = self._positions[key]
        probe = path
        while probe not in positions and probe != "$":
            cut = max(probe.rfind("."), probe.rfind("["))
            probe = probe[:cut] if cut > 0 else "$"
        return positions.get(probe, (1, 1))

    def add(
        self,
        code: str,
        doc: Document,
        path: Sequence[str | int],
        message: str,
        *,
        line: int | None = None,
        at: str | None = None,
        **data: Any,
    ) -> Diagnostic:
        """Report ``code`` in ``doc`` at ``path`` (keys and indices from the root), or at the
        JSONPath ``at``."""
        jp = at if at is not None else json_path(*path)
        if line is not None:
            where: tuple[int | None, int | None] = (line, 1)
        else:
            where = self._where(doc, jp)
        payload = {"artifact": doc.name, **{k: v for k, v in data.items() if v is not None}}
        shown_path = f"{jp}: " if path or at is not None else ""
        finding = Diagnostic(
            code,
            f"{doc.name}: {shown_path}{message}",
            file=doc.file,
            line=where[0],
            column=where[1],
            json_path=jp if doc.name != "letter" else None,
            data=payload,
        )
        self.found.append(finding)
        return finding

    def unreadable(self, doc: Document, error: InputError) -> Diagnostic:
        """A read failure of ``doc`` (``E-READ`` … ``E-JSON``)."""
        base = from_error(error, doc.file)
        finding = Diagnostic(
            base.code,
            base.message if base.message.startswith(doc.name) else f"{doc.name}: {base.message}",
            file=doc.file,
            line=base.line if base.line is not None or doc.file is None else 1,
            column=base.column if base.column is not None or doc.file is None else 1,
            data={"artifact": doc.name},
        )
        self.found.append(finding)
        return finding

    def errors(self) -> list[Diagnostic]:
        return [d for d in self.found if d.severity == "error"]
