"""Lint results: :class:`Finding` and :class:`LintReport` (api.md, "Lints")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import attrs

from kernel.diagnostics import Diagnostic

__all__ = ["Finding", "LintReport", "Severity"]

Severity = Literal["error", "warning", "info"]


@attrs.frozen
class Finding:
    """One lint finding. ``check`` is the stable short name of the wire-format check it
    belongs to (the ``<check>`` of ``phase2_lint_failed=<check>``)."""

    code: str
    message: str
    line: int | None
    check: str
    severity: Severity = "error"

    @property
    def tag(self) -> str:
        """Upstream's bracketed tag that opens the message, without what follows it (what
        would pass); a message that opens with no tag, or whose brackets do not balance, is
        its own tag."""
        if not self.message.startswith("["):
            return self.message
        depth = 0
        for i, c in enumerate(self.message):
            depth += (c == "[") - (c == "]")
            if depth == 0:
                return self.message[: i + 1]
        return self.message

    def fixed(self, fix: str) -> Finding:
        """The same finding, its message followed by ``fix`` (what would pass)."""
        return attrs.evolve(self, message=f"{self.message} {fix}")

    def to_diagnostic(self, file: str | None = None) -> Diagnostic:
        return Diagnostic(
            self.code, self.message, severity=self.severity, file=file, line=self.line
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "check": self.check,
            "severity": self.severity,
            "line": self.line,
            "message": self.message,
        }


@attrs.frozen
class LintReport:
    """The verdict of one lint. ``ok`` is true when no finding is an error.

    Phase 2 only: ``multi_dissent``; ``scores`` (dimension id → score), ``fired`` (condition
    id → flag) and ``decision`` (the ``editorial_decision=…`` action) as written, each
    ``None`` unless it could be read completely; ``consistency_checked`` says whether the
    Phase 1 consistency check ran.

    ``role``: dialect 13.2, the seat's role (Phase 1: the role it was linted for; Phase 2:
    the ``contract_role:`` it declares, when readable); Schema 13, the name given as
    ``role=``, if any. ``dissent`` (13.2 Phase 2): the dimension ids of the credited Scoring
    Plan Dissent.
    """

    phase: int
    findings: tuple[Finding, ...]
    multi_dissent: bool = False
    scores: Mapping[str, str] | None = None
    fired: Mapping[str, bool] | None = None
    decision: str | None = None
    consistency_checked: bool = False
    role: str | None = None
    dissent: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    def diagnostics(self, file: str | None = None) -> list[Diagnostic]:
        """The findings as :class:`~kernel.diagnostics.Diagnostic` values in ``file``."""
        return [f.to_diagnostic(file) for f in self.findings]

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def failed_checks(self) -> tuple[str, ...]:
        """The checks with an error finding, each once, in wire-format order."""
        seen: dict[str, None] = {}
        for f in self.errors:
            seen.setdefault(f.check, None)
        return tuple(seen)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "phase": self.phase,
            "ok": self.ok,
            "findings": [f.to_dict() for f in self.findings],
        }
        if self.role is not None:
            out["role"] = self.role
        if self.phase == 2:
            out["multi_dissent"] = self.multi_dissent
            out["scores"] = dict(self.scores) if self.scores is not None else None
            out["fired"] = dict(self.fired) if self.fired is not None else None
            out["decision"] = self.decision
            out["consistency_checked"] = self.consistency_checked
            if self.dissent:
                out["dissent"] = list(self.dissent)
        return out
