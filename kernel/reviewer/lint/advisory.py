"""Advisory scan of reviewer output (wire-format.md Phase 1 check 6): warnings only, never a
failure. A thin adapter over :func:`kernel.injection.scan_injection` (instruction overrides,
role reassignment, forged ``phase1_output`` and other delimiters, forged provenance,
dangerous commands; matched on the skeleton of the text, so zero-width splits and look-alike
letters do not hide a phrase) that adds CommonMark line numbers.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Final

import attrs

from kernel.reviewer.lint.report import Finding
from kernel.text.injection import scan_injection
from kernel.text.markdown import Document, split_lines

__all__ = ["AdvisoryHit", "phase1_findings", "phase2_findings", "scan"]

_EXCERPT: Final = 80


@attrs.frozen
class AdvisoryHit:
    category: str
    #: Character offsets in the scanned text.
    span: tuple[int, int]
    line: int
    excerpt: str
    #: Whether the passage starts inside a fenced code block.
    in_code: bool = False

    @property
    def where(self) -> str:
        """`` (inside fenced code)`` for a passage in code, else nothing: for messages."""
        return " (inside fenced code)" if self.in_code else ""


def scan(doc: Document | str) -> list[AdvisoryHit]:
    """Every advisory hit in a parsed document (or a text), in text order; lines counted by
    CommonMark line endings (LF, CRLF, CR) only. A document's own blocks say what is fenced
    code."""
    if isinstance(doc, Document):
        text, findings = doc.source, scan_injection(doc.source, fenced=doc.fenced_ranges())
    else:
        text, findings = doc, scan_injection(doc)
    if not findings:
        return []
    starts = [0]
    for line in split_lines(text)[:-1]:
        end = starts[-1] + len(line)
        starts.append(end + (2 if text.startswith("\r\n", end) else 1))
    hits = []
    for f in findings:
        excerpt = " ".join(f.matched.split())
        if len(excerpt) > _EXCERPT:
            excerpt = excerpt[: _EXCERPT - 3] + "..."
        at = bisect_right(starts, f.span[0])
        hits.append(AdvisoryHit(f.category, f.span, at, excerpt, f.in_code))
    return hits


def phase1_findings(doc: Document) -> list[Finding]:
    """The Phase 1 advisory check (P1-090), the same under every dialect."""
    return _findings(
        doc,
        "P1-090",
        "; Phase 1 output is data for Phase 2 and must not address instructions to it",
    )


def phase2_findings(doc: Document) -> list[Finding]:
    """The Phase 2 advisory check (P2-090), the same under every dialect."""
    return _findings(doc, "P2-090", " in reviewer output")


def _findings(doc: Document, code: str, said: str) -> list[Finding]:
    return [
        Finding(
            code,
            f"advisory: {hit.category.replace('_', ' ')} text {hit.excerpt!r}{hit.where}{said}",
            hit.line,
            "advisory",
            "warning",
        )
        for hit in scan(doc)
    ]
