"""Guardrails over specialists' findings (§C).

Checked per finding, demotions adding up (never below Info):

* ``EVIDENCE_THRESHOLD`` — evidence under 100 code points after trimming: one step down;
* ``OUT_OF_SCOPE`` — a location outside the review target: one step down, or rejected when
  ``strict_scope`` is on (a finding without a location is not judged for scope, *chosen*);
* ``DESTRUCTIVE_FIX`` — the recommended fix contains a destructive command (the
  ``dangerous_command`` category of ``kernel.injection``); flagged, with the spans.

And per agent, judged on the severities as reported (before any demotion):

* ``SEVERITY_INFLATION`` — more than 50 % of the agent's findings are Critical: a warning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

import attrs

from kernel.errors import KernelError
from kernel.panel._args import as_list
from kernel.panel.verdicts import SEVERITIES, severity_rank
from kernel.strict import shown
from kernel.text.injection import DANGEROUS_COMMAND, InjectionFinding, scan_injection

__all__ = [
    "EVIDENCE_MIN_CHARS",
    "Finding",
    "GuardedFinding",
    "GuardrailReport",
    "apply_guardrails",
    "in_scope",
]

EVIDENCE_MIN_CHARS = 100


@attrs.frozen
class Finding:
    """A specialist's finding as the guardrails see it."""

    id: str
    agent: str
    severity: str
    evidence: str
    location: str | None = None
    fix: str = ""

    @classmethod
    def of(cls, value: Finding | Mapping[str, Any]) -> Finding:
        if isinstance(value, Finding):
            return value
        if not isinstance(value, Mapping):
            raise KernelError(f"a finding must be a mapping, got {type(value).__name__}")
        for key in ("id", "agent", "severity", "evidence"):
            if not isinstance(value.get(key), str):
                raise KernelError(f"finding {shown(value.get('id'))}: {key} must be a string")
        for key in ("location", "fix"):
            if value.get(key) is not None and not isinstance(value[key], str):
                raise KernelError(f"finding {shown(value['id'])}: {key} must be a string")
        severity_rank(value["severity"])
        return cls(
            id=value["id"],
            agent=value["agent"],
            severity=value["severity"],
            evidence=value["evidence"],
            location=value.get("location"),
            fix=value.get("fix") or "",
        )


@attrs.frozen
class GuardedFinding:
    """A finding after the guardrails: its new ``severity``, the ``codes`` that applied, and
    the destructive commands found in its fix."""

    id: str
    agent: str
    reported: str
    severity: str
    rejected: bool
    codes: tuple[str, ...]
    destructive: tuple[InjectionFinding, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = attrs.asdict(self, recurse=False)
        data["codes"] = list(self.codes)
        data["destructive"] = [d.to_dict() for d in self.destructive]
        return data


@attrs.frozen
class GuardrailReport:
    findings: tuple[GuardedFinding, ...]
    #: ``SEVERITY_INFLATION agent: n of m findings Critical`` lines, by agent name.
    warnings: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "findings": [f.to_dict() for f in self.findings],
            "warnings": list(self.warnings),
        }


def _path(text: str) -> PurePosixPath:
    return PurePosixPath(text.replace("\\", "/").split(":", 1)[0] if text else ".")


def in_scope(location: str, scope: Sequence[str]) -> bool:
    """True when ``location`` (a path, optionally ``path:line``) is a scope entry or lies
    under one (path components, not string prefixes: ``src/app`` does not hold
    ``src/apple.py``)."""
    where = _path(location)
    if ".." in where.parts:
        return False
    return any(where == _path(s) or _path(s) in where.parents for s in scope)


def apply_guardrails(
    findings: Iterable[Finding | Mapping[str, Any]],
    *,
    scope: Sequence[str] | None = None,
    strict_scope: bool = False,
) -> GuardrailReport:
    """Apply every guardrail; ``scope`` lists the target's files and directories (``None``:
    no scope check)."""
    if scope is not None:
        scope = as_list(scope, "scope")
        if not all(isinstance(s, str) for s in scope):
            raise KernelError("scope must list paths as strings")
    if not isinstance(strict_scope, bool):
        raise KernelError(f"strict_scope must be a bool, got {shown(strict_scope)}")
    items = [Finding.of(f) for f in as_list(findings, "findings")]
    by_agent = Counter(f.agent for f in items)
    critical = Counter(f.agent for f in items if f.severity == "Critical")
    warnings = tuple(
        f"SEVERITY_INFLATION {agent}: {critical[agent]} of {n} findings Critical"
        for agent, n in sorted(by_agent.items())
        if 2 * critical[agent] > n
    )
    guarded: list[GuardedFinding] = []
    for f in items:
        codes: list[str] = []
        steps = 0
        rejected = False
        if len(f.evidence.strip()) < EVIDENCE_MIN_CHARS:
            codes.append("EVIDENCE_THRESHOLD")
            steps += 1
        if scope is not None and f.location is not None and not in_scope(f.location, scope):
            codes.append("OUT_OF_SCOPE")
            if strict_scope:
                rejected = True
            else:
                steps += 1
        destructive = scan_injection(f.fix, categories=[DANGEROUS_COMMAND]) if f.fix else ()
        if destructive:
            codes.append("DESTRUCTIVE_FIX")
        rank = max(0, severity_rank(f.severity) - steps)
        guarded.append(
            GuardedFinding(
                id=f.id,
                agent=f.agent,
                reported=f.severity,
                severity=SEVERITIES[rank],
                rejected=rejected,
                codes=tuple(codes),
                destructive=destructive,
            )
        )
    return GuardrailReport(tuple(guarded), warnings)
