"""Injection-scan findings as :class:`~kernel.diagnostics.Diagnostic` values, with positions."""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from kernel.diagnostics import Diagnostic
from kernel.text.injection import InjectionFinding

__all__ = ["position", "scan_diagnostics", "scan_rows"]


def position(newlines: Sequence[int], offset: int) -> tuple[int, int]:
    """1-based (line, column) of ``offset`` given the offsets of every ``\\n``."""
    line = bisect_right(newlines, offset - 1) + 1
    start = newlines[line - 2] + 1 if line > 1 else 0
    return line, offset - start + 1


def scan_rows(text: str, findings: Sequence[InjectionFinding]) -> list[dict[str, Any]]:
    """Each finding as a JSON-ready dict with ``line`` and ``column`` of its start."""
    newlines = [i for i, c in enumerate(text) if c == "\n"]
    rows = []
    for f in findings:
        line, column = position(newlines, f.span[0])
        rows.append({**f.to_dict(), "line": line, "column": column})
    return rows


def scan_diagnostics(
    text: str, findings: Sequence[InjectionFinding], file: str | None = None
) -> list[Diagnostic]:
    """``INJECTION-<CATEGORY>`` per finding, with start and end positions."""
    newlines = [i for i, c in enumerate(text) if c == "\n"]
    out = []
    for f in findings:
        line, column = position(newlines, f.span[0])
        end_line, end_column = position(newlines, f.span[1])
        out.append(
            Diagnostic(
                "INJECTION-" + f.category.upper().replace("_", "-"),
                json.dumps(f.matched) + (" (inside fenced code)" if f.in_code else ""),
                file=file,
                line=line,
                column=column,
                end_line=end_line,
                end_column=end_column,
            )
        )
    return out
