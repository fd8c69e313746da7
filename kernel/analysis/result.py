"""The analyzer's value classes: outcomes, findings and their example matrices."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from kernel.diagnostics import Diagnostic
from kernel.errors import AnalysisTooLarge

__all__ = [
    "COMPACT_AFTER",
    "ERROR",
    "FALLBACK",
    "NONE",
    "NON_MONOTONE",
    "NO_DECISION",
    "UNREACHABLE",
    "WARNING",
    "Analysis",
    "AnalysisTooLarge",
    "Change",
    "Example",
    "Finding",
    "Outcome",
    "compact",
    "percent",
    "shadowed_by",
    "share",
]

#: Finding codes.
FALLBACK: Final = "AN-1"
UNREACHABLE: Final = "AN-2"
NON_MONOTONE: Final = "AN-3"
NO_DECISION: Final = "AN-4"

ERROR: Final = "error"
WARNING: Final = "warning"

#: The outcome key of the region where no condition fires (R5).
NONE: Final = "none"

#: Schema 13: dimension → reviewers' scores; 13.2: dimension → role → value.
Matrix = Mapping[str, tuple[str, ...]] | Mapping[str, Mapping[str, str]]


@attrs.frozen
class Example:
    """A concrete matrix and what :func:`kernel.decision.decide` says about it."""

    matrix: Matrix
    #: ``None`` when decide refuses (nothing fires and the contract has no fallback).
    action: str | None
    condition_id: str | None
    fallback: bool
    fired: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "matrix": {
                d: dict(row) if isinstance(row, Mapping) else list(row)
                for d, row in self.matrix.items()
            },
            "action": self.action,
            "condition_id": self.condition_id,
            "fallback": self.fallback,
            "fired": list(self.fired),
        }


@attrs.frozen
class Change:
    """One score worsened by one step: ``matrix[dimension][reviewer]`` goes from ``before``
    to ``after``."""

    dimension: str
    reviewer: int
    before: str
    after: str

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def __str__(self) -> str:
        return f"{self.dimension}[{self.reviewer}] {self.before} -> {self.after}"


@attrs.frozen
class Finding:
    code: str
    severity: str
    message: str
    condition_id: str | None = None
    examples: tuple[Example, ...] = ()
    #: For a non-monotone finding: the change that turns ``examples[0]`` into ``examples[1]``.
    change: Change | None = None

    def to_diagnostic(self, file: str | None = None) -> Diagnostic:
        return Diagnostic(self.code, self.message, severity=self.severity, file=file)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "condition_id": self.condition_id,
            "message": self.message,
            "matrices": [e.to_dict() for e in self.examples],
        }
        if self.change is not None:
            out["change"] = self.change.to_dict()
        return out


@attrs.frozen
class Outcome:
    """How many matrices one condition decides (``key`` = its id), or fall through (``none``)."""

    key: str
    #: The action taken; for ``none`` the fallback's action, or ``None`` without a fallback.
    action: str | None
    matrices: int
    example: Example | None
    #: The condition's expression as the contract writes it (``None`` for ``none``).
    expression: str | None = None


@attrs.frozen
class Analysis:
    contract_id: str
    dimensions: int
    panel_size: int
    space: int
    #: Conditions in contract order, then ``none``.
    outcomes: tuple[Outcome, ...]
    unreachable: tuple[str, ...]
    monotone: bool
    findings: tuple[Finding, ...]
    #: ``"13"``, or ``"13.2"``: then :attr:`space` counts every value of every eligible seat.
    dialect: str = "13"

    @property
    def ok(self) -> bool:
        """No error finding (no unreachable condition, monotone, every matrix decides)."""
        return not any(f.severity == ERROR for f in self.findings)

    def outcome(self, key: str) -> Outcome:
        for o in self.outcomes:
            if o.key == key:
                return o
        raise KeyError(key)

    def to_dict(self) -> dict[str, Any]:
        extra = {} if self.dialect == "13" else {"dialect": self.dialect}
        return {
            **extra,
            "contract_id": self.contract_id,
            "dimensions": self.dimensions,
            "panel_size": self.panel_size,
            "space": self.space,
            "outcomes": {o.key: o.matrices for o in self.outcomes},
            "actions": {o.key: o.action for o in self.outcomes},
            "unreachable": list(self.unreachable),
            "monotone": self.monotone,
            "ok": self.ok,
            "counterexamples": [f.to_dict() for f in self.findings],
            "examples": {
                o.key: o.example.to_dict() for o in self.outcomes if o.example is not None
            },
        }


def shadowed_by(always: Sequence[str], deciding: Sequence[str]) -> str:
    """Why an unreachable condition never decides (AN-2): the conditions of higher
    precedence that fire whenever it fires (``always``), else those that decide in its
    place."""
    if always:
        named = ", ".join(always)
        which = "fires" if len(always) == 1 else "fire"
        return f"shadowed by {named}: whenever it fires, {named} {which} too and comes first"
    return (
        "whenever it fires, a condition of higher precedence fires too "
        f"(one of {', '.join(deciding)})"
    )


#: Counts with more digits than this print compactly in text (exact in JSON).
COMPACT_AFTER = 15


def compact(n: int) -> str:
    """A count as a person reads it: exact up to 15 digits, grouped by thousands
    (``847,288,609,443``), else three significant digits and a power of ten (``1.27e17``).
    Exact from the integer, whatever its size. Every report and page writes counts so."""
    if n < 10**COMPACT_AFTER:
        return f"{n:,}"
    from decimal import Context, Decimal  # only for counts this long

    mantissa, _, exponent = f"{Context(prec=3).create_decimal(Decimal(n)):.2e}".partition("e")
    return f"{mantissa}e{int(exponent)}"


def percent(part: int, whole: int) -> str:
    """``part / whole`` in percent, 4 significant digits (never 0 for a part that is not)."""
    if part == 0:
        return "0"
    share = 100 * part / whole
    return f"{share:.4g}" if share > 0 else "< 1e-300"


def share(part: int, whole: int) -> str:
    """``part / whole`` as every report and page writes a share: ``0.1142 %``."""
    return f"{percent(part, whole)} %"

