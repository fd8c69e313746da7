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

from typing import TYPE_CHECKING

from kernel._lazy import lazy_exports

__all__ = [
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

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "IllegalTransition": "kernel.panel.audit",
        "SessionRecord": "kernel.panel.audit",
        "lifecycle": "kernel.panel.audit",
        "DeltaResult": "kernel.panel.delta_mode",
        "delta": "kernel.panel.delta_mode",
        "PanelInputError": "kernel.panel.inputs",
        "Problem": "kernel.panel.inputs",
        "PROFILES": "kernel.panel.routing",
        "Routing": "kernel.panel.routing",
        "route": "kernel.panel.routing",
        "SEVERITIES": "kernel.panel.verdicts",
        "VERDICTS": "kernel.panel.verdicts",
        "Escalation": "kernel.panel.verdicts",
        "escalate": "kernel.panel.verdicts",
        "resolve_verdict": "kernel.panel.verdicts",
        "OUTCOMES": "kernel.panel.voting",
        "VOTES": "kernel.panel.voting",
        "Resolution": "kernel.panel.voting",
        "agreement_level": "kernel.panel.voting",
        "resolve_finding": "kernel.panel.voting",
        "InjectionFinding": "kernel.text.injection",
        "scan_injection": "kernel.text.injection",
    },
)

if TYPE_CHECKING:
    from kernel.panel.audit import IllegalTransition, SessionRecord, lifecycle
    from kernel.panel.delta_mode import DeltaResult, delta
    from kernel.panel.inputs import PanelInputError, Problem
    from kernel.panel.routing import PROFILES, Routing, route
    from kernel.panel.verdicts import SEVERITIES, VERDICTS, Escalation, escalate, resolve_verdict
    from kernel.panel.voting import OUTCOMES, VOTES, Resolution, agreement_level, resolve_finding
    from kernel.text.injection import InjectionFinding, scan_injection
