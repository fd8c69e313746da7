"""Review-panel rules (companions.md §C): voting pools, verdicts, convergence, budget,
guardrails, and the shared injection scan.

Entry points (api.md): ``resolve_finding``, ``agreement_level``, ``resolve_verdict``,
``scan_injection``.
"""

from __future__ import annotations

from kernel.injection import InjectionFinding, scan_injection

__all__ = ["InjectionFinding", "scan_injection"]
