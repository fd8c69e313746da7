"""``kernel.review``: deciding from reviewers' documents (see :mod:`kernel.reviewer.review`)."""

from __future__ import annotations

from kernel.reviewer.review import (
    PanelOutcome,
    ReviewerResult,
    decide_documents,
    finding_lines,
    text_lines,
)

__all__ = ["PanelOutcome", "ReviewerResult", "decide_documents", "finding_lines", "text_lines"]
