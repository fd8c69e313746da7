"""R16: duplicate reviewer reports.

The quantifiers count *independent* reviewers, so two usable Phase 2 reports of one round that
are identical after :func:`normalise_report` count once: the first in reviewer order stays
usable, each later copy becomes unusable with
``[PROTOCOL-VIOLATION: reviewer=<role>, contract=<id>, phase2_lint_failed=duplicate_report]``
(:func:`kernel.reviewer.cycle.duplicate`), and R9 then applies.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

__all__ = ["DUPLICATE_REPORT", "duplicate_of", "normalise_report"]

#: The ``<check>`` of ``phase2_lint_failed=<check>`` for a later copy.
DUPLICATE_REPORT: Final = "duplicate_report"
_LINE_END: Final = re.compile(r"\r\n?")


def normalise_report(text: str) -> str:
    """``text`` with CRLF and CR turned into LF and trailing white space (``str.rstrip``:
    spaces, tabs and every other Unicode space) removed from every line. Nothing else
    changes: a blank line at the end, a BOM or a different indentation still tell two
    reports apart."""
    return "\n".join(line.rstrip() for line in _LINE_END.sub("\n", text).split("\n"))


def duplicate_of(reports: Sequence[str | None]) -> list[int | None]:
    """For each usable report (``None`` for a reviewer that is not usable), the index of the
    first earlier report identical to it after :func:`normalise_report`, else ``None``."""
    first: dict[str, int] = {}
    out: list[int | None] = []
    for i, text in enumerate(reports):
        if text is None:
            out.append(None)
            continue
        key = normalise_report(text)
        out.append(first.get(key))
        first.setdefault(key, i)
    return out
