"""Verdict resolution with the conservative tiebreak, and severity escalation (§C).

``resolve_verdict``: unanimous → that verdict; a strict majority → that verdict; otherwise the
most conservative verdict cast (Reject > Revise > Approve). ``escalate`` then raises (never
lowers) the verdict from the resolved findings, stopping at Reject.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import attrs

from kernel.errors import KernelError
from kernel.majority import strict_majority
from kernel.panel._args import as_list
from kernel.panel.voting import CONSENSUS, DISMISSED, MAJORITY, OUTCOMES
from kernel.strict import shown

__all__ = [
    "SEVERITIES",
    "VERDICTS",
    "Escalation",
    "escalate",
    "resolve_verdict",
    "severity_rank",
    "verdict_rank",
]

#: Least to most conservative.
VERDICTS: tuple[str, ...] = ("Approve", "Revise", "Reject")
#: Least to most severe (*chosen* names beyond the source's Critical and Important).
SEVERITIES: tuple[str, ...] = ("Info", "Minor", "Important", "Critical")


def verdict_rank(verdict: str) -> int:
    if verdict not in VERDICTS:
        raise KernelError(f"verdict must be one of {', '.join(VERDICTS)}, got {shown(verdict)}")
    return VERDICTS.index(verdict)


def severity_rank(severity: str) -> int:
    if severity not in SEVERITIES:
        raise KernelError(f"severity must be one of {', '.join(SEVERITIES)}, got {shown(severity)}")
    return SEVERITIES.index(severity)


def resolve_verdict(verdicts: Iterable[str]) -> str:
    """The panel verdict before severity escalation (at least one verdict needed)."""
    cast: list[str] = as_list(verdicts, "verdicts")
    for v in cast:
        verdict_rank(v)
    if not cast:
        raise KernelError("no verdicts to resolve")
    counts = Counter(cast)
    top, top_count = max(counts.items(), key=lambda kv: (kv[1], verdict_rank(kv[0])))
    if top_count >= strict_majority(len(cast)):  # includes the unanimous case
        return top
    return max(cast, key=verdict_rank)


@attrs.frozen
class Escalation:
    """The escalated verdict and why (``reasons`` empty when nothing raised it)."""

    verdict: str
    before: str
    reasons: tuple[str, ...]


def escalate(verdict: str, findings: Iterable[tuple[str, str]]) -> Escalation:
    """Raise ``verdict`` from ``(severity, outcome)`` pairs of the resolved findings.

    Any Critical finding resolved Consensus or Majority → Reject; five or more findings at
    Important or higher → Reject; three or four → at least Revise. Dismissed findings do not
    count. The result is never below ``verdict``.
    """
    floor = verdict_rank(verdict)
    critical_agreed = 0
    serious = 0
    for item in as_list(findings, "findings"):
        if not isinstance(item, tuple) or len(item) != 2:
            raise KernelError(f"a finding must be a (severity, outcome) pair, got {shown(item)}")
        severity, outcome = item
        rank = severity_rank(severity)
        if outcome not in OUTCOMES:
            raise KernelError(f"outcome must be one of {', '.join(OUTCOMES)}, got {shown(outcome)}")
        if outcome == DISMISSED:
            continue
        if rank >= severity_rank("Important"):
            serious += 1
        if severity == "Critical" and outcome in (CONSENSUS, MAJORITY):
            critical_agreed += 1
    reasons: list[str] = []
    target = floor
    if critical_agreed:
        target = max(target, verdict_rank("Reject"))
        reasons.append(f"{critical_agreed} Critical finding(s) resolved Consensus or Majority")
    if serious >= 5:
        target = max(target, verdict_rank("Reject"))
        reasons.append(f"{serious} findings at Important or higher (5 or more)")
    elif serious >= 3:
        target = max(target, verdict_rank("Revise"))
        reasons.append(f"{serious} findings at Important or higher (3-4)")
    if target == floor:
        reasons = []
    return Escalation(verdict=VERDICTS[target], before=verdict, reasons=tuple(reasons))
