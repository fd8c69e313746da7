"""Re-review: deciding ARS round 2 from its four documents and their integrity chain
(design ``re-review.md``). Names are loaded lazily (PEP 562).

Who owns what (two branches built this package):

- core (``rr-core``): :mod:`.model` (the constants of §2.1, :class:`ReReviewError`,
  ``abort_tag``), :mod:`.canonical` (``canonical_json``, ``canonical_sha256``), :mod:`.load`
  (``load_re_review``, ``ReReviewBundle``, ``Document``), :mod:`.labels`
  (``normalize_reviewer_labels``), :mod:`.letter` (``parse_letter_blocks``), :mod:`.schemas`
  (the four document schemas of ``kernel/data/re_review/``), :mod:`.check`,
  :mod:`.cross` and :mod:`.findings` (``check_re_review``, ``ReReviewReport``: every check
  of §4, RR-001 … RR-904);
- decision (``rr-decide``): :mod:`.decision` (operands §5.1, gates, B1-B6, floors,
  ``derive``, ``ReReviewDecision`` and its ``explain``), :mod:`.decide`
  (``decide_re_review``), :mod:`.seal` (``seal``, ``apply_chain_witness``),
  ``python -m kernel.re_review`` and the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel._lazy import lazy_exports

_EXPORTS = {
    "ABORT_REASONS": "kernel.re_review.model",
    "ADJUSTMENT_BASES": "kernel.re_review.model",
    "DECISION_STATES": "kernel.re_review.model",
    "ESCALATION_CLASSES": "kernel.re_review.model",
    "MAGNITUDES": "kernel.re_review.model",
    "PRIORITIES": "kernel.re_review.model",
    "SEVERITIES": "kernel.re_review.model",
    "VERDICTS": "kernel.re_review.model",
    "WITNESS_STATES": "kernel.re_review.model",
    "ReReviewError": "kernel.re_review.model",
    "canonical_json": "kernel.re_review.canonical",
    "canonical_sha256": "kernel.re_review.canonical",
    "Document": "kernel.re_review.load",
    "ReReviewBundle": "kernel.re_review.load",
    "load_re_review": "kernel.re_review.load",
    "ReviewerLabels": "kernel.re_review.labels",
    "normalize_reviewer_labels": "kernel.re_review.labels",
    "LetterBlock": "kernel.re_review.letter",
    "parse_letter_blocks": "kernel.re_review.letter",
    "ReReviewReport": "kernel.re_review.check",
    "check_re_review": "kernel.re_review.check",
    "EscalationOperand": "kernel.re_review.decision",
    "Operands": "kernel.re_review.decision",
    "P1Operand": "kernel.re_review.decision",
    "ReReviewDecision": "kernel.re_review.decision",
    "decide_re_review": "kernel.re_review.decide",
    "derive": "kernel.re_review.decision",
    "Sealed": "kernel.re_review.seal",
    "Witness": "kernel.re_review.seal",
    "apply_chain_witness": "kernel.re_review.seal",
    "seal": "kernel.re_review.seal",
}

__all__ = [
    "ABORT_REASONS",
    "ADJUSTMENT_BASES",
    "DECISION_STATES",
    "ESCALATION_CLASSES",
    "MAGNITUDES",
    "PRIORITIES",
    "SEVERITIES",
    "VERDICTS",
    "WITNESS_STATES",
    "Document",
    "EscalationOperand",
    "LetterBlock",
    "Operands",
    "P1Operand",
    "ReReviewBundle",
    "ReReviewDecision",
    "ReReviewError",
    "ReReviewReport",
    "ReviewerLabels",
    "Sealed",
    "Witness",
    "apply_chain_witness",
    "canonical_json",
    "canonical_sha256",
    "check_re_review",
    "decide_re_review",
    "derive",
    "load_re_review",
    "normalize_reviewer_labels",
    "parse_letter_blocks",
    "seal",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from kernel.re_review.canonical import canonical_json, canonical_sha256
    from kernel.re_review.check import ReReviewReport, check_re_review
    from kernel.re_review.decide import decide_re_review
    from kernel.re_review.decision import (
        EscalationOperand,
        Operands,
        P1Operand,
        ReReviewDecision,
        derive,
    )
    from kernel.re_review.labels import ReviewerLabels, normalize_reviewer_labels
    from kernel.re_review.letter import LetterBlock, parse_letter_blocks
    from kernel.re_review.load import Document, ReReviewBundle, load_re_review
    from kernel.re_review.model import (
        ABORT_REASONS,
        ADJUSTMENT_BASES,
        DECISION_STATES,
        ESCALATION_CLASSES,
        MAGNITUDES,
        PRIORITIES,
        SEVERITIES,
        VERDICTS,
        WITNESS_STATES,
        ReReviewError,
    )
    from kernel.re_review.seal import Sealed, Witness, apply_chain_witness, seal
