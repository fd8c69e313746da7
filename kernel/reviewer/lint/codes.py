"""Every finding code of the reviewer lints, for the code registry: code -> (severity,
one-line summary, rule reference). The table in docs/reviewer-documents.md says the same;
each finding also names its check (``Finding.check``)."""

from __future__ import annotations

from typing import Final

__all__ = ["CODES"]

CODES: Final[dict[str, tuple[str, str, str]]] = {
    "P1-001": (
        "error",
        "a required section is missing",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-002": ("error", "a section appears twice", "docs/reviewer-documents.md#phase-1-document"),
    "P1-003": (
        "error",
        "`## Scoring Plan` before `## Contract Paraphrase`",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-004": (
        "error",
        "unexpected heading: `#`, setext, another `##`, a heading in a list item, `###` in "
        "the paraphrase",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-005": (
        "error",
        "content before the first section",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-006": (
        "error",
        "`[CONTRACT-ACKNOWLEDGED]` not alone on the last non-blank line, or in code, HTML or "
        "a quote",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-007": (
        "error",
        "fewer than k paragraphs matched to k distinct dimensions",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-008": (
        "error",
        "no `### <Dn>: <name>` subsection for a dimension",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-009": (
        "error",
        "a dimension's subsection appears twice",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-010": (
        "error",
        "a `###` subsection naming no contract dimension (or a wrong name)",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-011": (
        "error",
        "a required key line is missing or empty",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-012": (
        "error",
        "`dimension_id` differs from the subsection's id",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-013": (
        "error",
        "a Phase 2 section in a Phase 1 document",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-014": (
        "error",
        "a required field given more than once",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P1-015": (
        "error",
        "the document is over the work bound and was not parsed",
        "docs/reviewer-documents.md#work-bounds",
    ),
    "P1-090": (
        "warning",
        "injection-scan text (instruction override, forged delimiter …)",
        "docs/reviewer-documents.md#phase-1-document",
    ),
    "P2-001": (
        "error",
        "a required section is missing",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-002": (
        "error",
        "a section appears twice (the dissent too)",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-003": (
        "error",
        "`## Scoring Plan Dissent` after `## Dimension Scores`",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-004": (
        "error",
        "unexpected heading (as P1-004; `###` in `## Editorial Decision`)",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-005": (
        "error",
        "content before the first section",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-006": (
        "error",
        "the document is over the work bound and was not parsed",
        "docs/reviewer-documents.md#work-bounds",
    ),
    "P2-010": (
        "error",
        "no `### <Dn>: <name>` subsection for a dimension",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-011": (
        "error",
        "a dimension's subsection appears twice",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-012": (
        "error",
        "a subsection naming no contract dimension",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-013": (
        "error",
        "not exactly one `score:` key line",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-014": (
        "error",
        "the score is not `block`, `warn` or `pass`",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-020": (
        "error",
        "no `### <Fn>` subsection for a condition",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-021": (
        "error",
        "a condition's subsection appears twice",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-022": (
        "error",
        "a subsection naming no condition",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-023": (
        "error",
        "not exactly one `fired:` key line",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-024": (
        "error",
        "the flag is not `true` or `false`",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-025": (
        "error",
        "the flag differs from the predicate on the reviewer's own scores (R12)",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-030": (
        "error",
        "the dissent names no dimension",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-031": (
        "error",
        "multi-dissent: two or more distinct dimensions",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-032": (
        "error",
        "a dissent id or `###` heading that is not a contract dimension",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-040": (
        "error",
        "a `block`/`warn` score, but the Review Body has no token of the trigger",
        "docs/reviewer-documents.md#the-consistency-rule-check-5",
    ),
    "P2-041": (
        "error",
        "the trigger has no token left after stop words",
        "docs/reviewer-documents.md#the-consistency-rule-check-5",
    ),
    "P2-042": (
        "error",
        "the dimension's Phase 1 plan is missing, broken, or unreadable (over the work bound)",
        "docs/reviewer-documents.md#the-consistency-rule-check-5",
    ),
    "P2-043": (
        "warning",
        "no Phase 1 document, the consistency check did not run",
        "docs/reviewer-documents.md#the-consistency-rule-check-5",
    ),
    "P2-045": (
        "error",
        "the Review Body's prose is over the inline-markup bound",
        "docs/reviewer-documents.md#work-bounds",
    ),
    "P2-050": (
        "error",
        "not exactly one `editorial_decision=<action>` line, or another mention",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-051": (
        "error",
        "an action the contract does not have",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-052": (
        "error",
        "the action does not follow from the reviewer's own flags (R6, R5)",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-053": (
        "error",
        "nothing fired and the contract has no accept-grade fallback (R5)",
        "docs/reviewer-documents.md#phase-2-document",
    ),
    "P2-060": (
        "error",
        "a score, fired or decision statement outside its own place",
        "docs/reviewer-documents.md#statements-in-their-place-check-8",
    ),
    "P2-090": ("warning", "injection-scan text", "docs/reviewer-documents.md#phase-2-document"),
}
