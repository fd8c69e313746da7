"""The re-review vocabulary (design §2.1), its closed sets and the one error type."""

from __future__ import annotations

import re
from typing import Final

from kernel.errors import KernelError

__all__ = [
    "ABORT_REASONS",
    "ADJUSTMENT_BASES",
    "ARRAY_ARTIFACTS",
    "ARTIFACT_KEYS",
    "DECISION_STATES",
    "ESCALATION_CLASSES",
    "JUDGE_VERDICTS",
    "MAGNITUDES",
    "PRIORITIES",
    "ROW_PRIORITIES",
    "ROW_PRIORITY_OF",
    "SEAT_LABELS",
    "SEVERITIES",
    "SINGLE_ARTIFACTS",
    "VERDICTS",
    "VERDICT_RANK",
    "VERIFIED_OF",
    "VERIFIER_SEATS",
    "WITNESS_STATES",
    "ReReviewError",
    "abort_tag",
]

VERDICTS: Final = (
    "FULLY_ADDRESSED",
    "PARTIALLY_ADDRESSED",
    "NOT_ADDRESSED",
    "MADE_WORSE",
    "CANNOT_VERIFY",
)
JUDGE_VERDICTS: Final = VERDICTS[:4]
PRIORITIES: Final = ("must_fix", "should_fix", "consider")
ROW_PRIORITIES: Final = ("MUST_FIX", "SHOULD_FIX", "CONSIDER")
SEVERITIES: Final = ("critical", "major", "minor")
MAGNITUDES: Final = ("must_fix", "should_fix", "consider")
SEAT_LABELS: Final = ("EIC", "R1", "R2", "R3", "DA")
VERIFIER_SEATS: Final = ("EIC", "R1", "R2", "R3")
ABORT_REASONS: Final = (
    "phase1_lint_failed",
    "phase2a_lint_failed",
    "phase2b_lint_failed",
    "manifest_incomplete",
    "manifest_hash_mismatch",
    "criteria_drift",
    "synthesis_mismatch",
)
DECISION_STATES: Final = (
    "Accept",
    "Minor Revision",
    "Major Revision",
    "user_review_required",
    "aborted",
)
WITNESS_STATES: Final = ("pass", "fail", "first_link_not_run", "not_run_no_reports")
ADJUSTMENT_BASES: Final = (
    "author_pointer_located_evidence",
    "valid_rebuttal",
    "scope_correction",
    "user_accepted_fail_closed",
    "cross_model_adjudication",
)
ESCALATION_CLASSES: Final = (
    "research_integrity",
    "ethics",
    "safety",
    "legal_compliance",
    "fatal_validity",
)
#: A traceability row's ``priority`` for a roadmap priority.
ROW_PRIORITY_OF: Final = dict(zip(PRIORITIES, ROW_PRIORITIES, strict=True))
#: A row's ``verified`` for its final verdict.
VERIFIED_OF: Final = {
    "FULLY_ADDRESSED": "YES",
    "PARTIALLY_ADDRESSED": "PARTIAL",
    "NOT_ADDRESSED": "NO",
    "MADE_WORSE": "NO",
    "CANNOT_VERIFY": "CANNOT_VERIFY",
}
#: The order of a move towards FULLY_ADDRESSED: MADE_WORSE = CANNOT_VERIFY < NOT_ADDRESSED
#: < PARTIALLY_ADDRESSED < FULLY_ADDRESSED.
VERDICT_RANK: Final = {
    "MADE_WORSE": 0,
    "CANNOT_VERIFY": 0,
    "NOT_ADDRESSED": 1,
    "PARTIALLY_ADDRESSED": 2,
    "FULLY_ADDRESSED": 3,
}
#: The manifest's nine artifact keys (§2.2): seven single entries, then two arrays.
SINGLE_ARTIFACTS: Final = (
    "original_manuscript",
    "revised_manuscript",
    "revision_roadmap",
    "editorial_decision_letter",
    "response_to_reviewers",
    "round1_findings",
    "round1_config_cards",
)
ARRAY_ARTIFACTS: Final = ("revision_patches", "apply_reports")
ARTIFACT_KEYS: Final = SINGLE_ARTIFACTS + ARRAY_ARTIFACTS

#: Full-string patterns of §2.1 (every one runs in linear time).
ITEM_ID: Final = re.compile(r"REV-[A-Za-z0-9-]+")
SHA256: Final = re.compile(r"[0-9a-f]{64}")
SHORT_HASH: Final = re.compile(r"[0-9a-f]{12}")
TYPED_ANCHOR: Final = re.compile(r"(?:text|table|figure|equation|dataset|absence): .+")
LETTER_REF: Final = re.compile(r"R[1-9][0-9]*")


def record_id(prefix: str) -> re.Pattern[str]:
    """The full-string pattern of a record id ``<prefix>-n``."""
    return re.compile(re.escape(prefix) + r"-[1-9][0-9]*")


def abort_tag(reason: str) -> str:
    """The audit tag of an aborted re-review."""
    return f"[RE-REVIEW-ABORT: {reason}]"


class ReReviewError(KernelError):
    """Bad re-review input or a broken link that stops the round. ``abort_reason`` and
    ``code`` name the abort and its diagnostic when one applies; ``tag`` is then the abort
    tag."""

    def __init__(
        self, message: str, *, abort_reason: str | None = None, code: str | None = None
    ) -> None:
        super().__init__(message, tag=None if abort_reason is None else abort_tag(abort_reason))
        self.abort_reason = abort_reason
        self.code = code
