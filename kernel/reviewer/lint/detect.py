"""Which phase a reviewer document is, from its headings."""

from __future__ import annotations

from kernel.io import MAX_INPUT_BYTES
from kernel.reviewer.lint.phase1 import PHASE2_ONLY_SECTIONS
from kernel.reviewer.lint.phase2 import DISSENT
from kernel.text.markdown import check_structure, parse_normalised, readable

__all__ = ["detect_phase"]


def detect_phase(text: str, *, max_bytes: int = MAX_INPUT_BYTES) -> int:
    """2 when a structural ``##`` heading names a Phase 2 section, else 1 (also for a document
    over the work bound, which is not parsed: either lint then fails it as too large)."""
    names = {*PHASE2_ONLY_SECTIONS, DISSENT}
    text = readable(text, source="document", max_bytes=max_bytes)
    if check_structure(text) is not None:
        return 1
    doc = parse_normalised(text)
    return 2 if any(b.structural and b.level == 2 and b.title in names for b in doc.blocks) else 1
