"""Which seat each reviewer document of a 13.2 round fills, read from the documents.

A Phase 2 report's seat is the ``contract_role`` it declares (its lint's
:attr:`~kernel.reviewer.lint.report.LintReport.role`), as a round is decided
(:func:`~kernel.reviewer.round_v2.decide_reports_v2`, 13.2 §G6). A Phase 1 document's seat
is that of the Phase 2 report it goes with, else the ``NAME`` of its file name
(``NAME.phase1.md``) when that is a role of the mode. A Phase 1 document that no seat takes,
and each of two documents of one phase on one seat, is a finding: upstream's check of a
partial panel (``--layer1-only``) refuses two reports with one role the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import attrs

from kernel.contract.model import Contract
from kernel.reviewer.lint.report import Finding, LintReport
from kernel.reviewer.roles import RoleScope, scope_of

__all__ = ["Claim", "Seating", "seat"]

#: The check name of the seating findings.
CHECK: Final = "seat"


@attrs.frozen
class Claim:
    """One document of a round: its ``name`` (path), its ``phase`` and what it says about
    its seat. Phase 2: ``role`` is the role it declares (``None`` when it declares no role of
    the mode). Phase 1: ``role`` is its file name's ``NAME``, and ``partner`` the name of the
    Phase 2 report it goes with, when that is read too."""

    name: str
    phase: int
    role: str | None
    partner: str | None = None


@attrs.frozen
class Seating:
    #: Each document's seat (``None``: it has none).
    roles: Mapping[str, str | None]
    #: The seating findings of each document that has some.
    findings: Mapping[str, tuple[Finding, ...]]

    def report(self, name: str, report: LintReport) -> LintReport:
        """``report`` with the document's seating findings added."""
        extra = self.findings.get(name, ())
        return attrs.evolve(report, findings=report.findings + extra) if extra else report


def seat(contract: Contract | RoleScope, claims: Sequence[Claim]) -> Seating:
    """Seat ``claims``. Every document on a seat that another document of its phase takes
    too gets a finding: neither is known to be the seat's."""
    scope = contract if isinstance(contract, RoleScope) else scope_of(contract)
    declared = {c.name: c.role for c in claims if c.phase == 2}
    roles: dict[str, str | None] = {}
    findings: dict[str, list[Finding]] = {}
    for c in claims:
        if c.phase == 2:
            roles[c.name] = c.role
            continue
        by_partner = declared.get(c.partner) if c.partner is not None else None
        role = by_partner or (c.role if c.role in scope.roles else None)
        roles[c.name] = role
        if role is None:
            findings[c.name] = [_unseated(scope, c)]
    for phase, code in ((1, "P1-121"), (2, "P2-140")):
        claimants: dict[str, list[str]] = {}
        for c in claims:
            role = roles[c.name]
            if c.phase == phase and role is not None:
                claimants.setdefault(role, []).append(c.name)
        for role, names in claimants.items():
            for name in names if len(names) > 1 else ():
                others = ", ".join(n for n in names if n != name)
                findings.setdefault(name, []).append(_twice(code, phase, role, others))
    return Seating(roles, {name: tuple(found) for name, found in findings.items()})


def _unseated(scope: RoleScope, claim: Claim) -> Finding:
    named = (
        f"its name {claim.role!r} is not a role of {scope.mode}"
        if claim.role
        else "its file is not named NAME.phase1.md"
    )
    return Finding(
        "P1-120",
        f"no seat for this Phase 1 document: {named}, and no Phase 2 report beside it "
        f"declares one; name it ROLE.phase1.md ({', '.join(scope.roles)}) or give --role",
        None,
        CHECK,
    )


def _twice(code: str, phase: int, role: str, others: str) -> Finding:
    return Finding(
        code,
        f"[PANEL-CARDINALITY: duplicate roles [{role!r}]] this Phase {phase} document and "
        f"{others} both take the seat {role}; a round seats each role once: "
        + (
            "remove the copy, or correct the contract_role: line of the report that is another "
            "seat's"
            if phase == 2
            else "remove the copy, or name the plan of another seat after its role (ROLE.phase1.md)"
        ),
        None,
        CHECK,
    )
