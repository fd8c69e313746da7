"""Review-panel rules (companions.md §C) as pure functions.

Entry points (api.md): ``resolve_finding(votes, *, originator, n_global, withdrawn=False)``,
``agreement_level(outcomes)``, ``resolve_verdict(verdicts)`` and ``scan_injection(text)``
(the shared ``kernel.injection`` scan, re-exported). Also ``escalate`` (severity escalation),
convergence (``kernel.panel.convergence``), the token budget ledger
(``kernel.panel.budget``), the guardrails (``kernel.panel.guardrails``) and provenance
markers (``kernel.panel.provenance``). Companions §C2: ``route(findings, profile)``
(challenge routing, ``kernel.panel.routing``), ``delta(changed_paths, findings)`` (delta
mode, ``kernel.panel.delta_mode``) and ``lifecycle(events)`` with the ``SessionRecord`` audit
log (``kernel.panel.audit``).
"""

from __future__ import annotations

from kernel.panel.audit import IllegalTransition, SessionRecord, lifecycle
from kernel.panel.codes import CODES
from kernel.panel.delta_mode import DeltaResult, delta
from kernel.panel.inputs import PanelInputError, Problem
from kernel.panel.routing import PROFILES, Routing, route
from kernel.panel.verdicts import SEVERITIES, VERDICTS, Escalation, escalate, resolve_verdict
from kernel.panel.voting import OUTCOMES, VOTES, Resolution, agreement_level, resolve_finding
from kernel.text.injection import InjectionFinding, scan_injection

__all__ = [
    "CODES",
    "OUTCOMES",
    "PROFILES",
    "SEVERITIES",
    "VERDICTS",
    "VOTES",
    "DeltaResult",
    "Escalation",
    "IllegalTransition",
    "InjectionFinding",
    "PanelInputError",
    "Problem",
    "Resolution",
    "Routing",
    "SessionRecord",
    "agreement_level",
    "delta",
    "escalate",
    "lifecycle",
    "resolve_finding",
    "resolve_verdict",
    "route",
    "scan_injection",
]
