"""Review-panel rules (companions.md §C) as pure functions.

Entry points (api.md): ``resolve_finding(votes, *, originator, n_global, withdrawn=False)``,
``agreement_level(outcomes)``, ``resolve_verdict(verdicts)`` and ``scan_injection(text)``
(the shared ``kernel.injection`` scan, re-exported). Also ``escalate`` (severity escalation),
convergence (``kernel.panel.convergence``), the token budget ledger
(``kernel.panel.budget``), the guardrails (``kernel.panel.guardrails``) and provenance
markers (``kernel.panel.provenance``).
"""

from __future__ import annotations

from kernel.panel.verdicts import SEVERITIES, VERDICTS, Escalation, escalate, resolve_verdict
from kernel.panel.voting import OUTCOMES, VOTES, Resolution, agreement_level, resolve_finding
from kernel.text.injection import InjectionFinding, scan_injection

__all__ = [
    "OUTCOMES",
    "SEVERITIES",
    "VERDICTS",
    "VOTES",
    "Escalation",
    "InjectionFinding",
    "Resolution",
    "agreement_level",
    "escalate",
    "resolve_finding",
    "resolve_verdict",
    "scan_injection",
]
