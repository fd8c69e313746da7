"""``decide_re_review``: the decision for a bundle, after its document layers."""

from __future__ import annotations

from kernel.re_review.check import check_re_review
from kernel.re_review.decision import ReReviewDecision
from kernel.re_review.load import ReReviewBundle

__all__ = ["decide_re_review"]


def decide_re_review(bundle: ReReviewBundle) -> ReReviewDecision:
    """The decision for a bundle (design re-review.md sec. 5.6): an L1-L7 error aborts with its
    layer's reason, an L8 record error (RR-301...398) with ``synthesis_mismatch``; then G1, G2
    and Steps 2-3. The emitted ``decision_state``, ``abort_reason``, ``reject_recommended``
    and ``decision_inputs`` are not read."""
    return check_re_review(bundle).decision
