"""Starter documents: what a reviewer seat (or the editor) copies and fills in.

Each starter is a renderer's output for the round where every seat passes every dimension it
scores, so the starters of one contract lint clean, decide, and their synthesis passes its
check: a template author sees the exact lines the lints expect, in the contract's dialect.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from kernel.errors import KernelError
from kernel.strict import shown

if TYPE_CHECKING:  # the renderers load with the first starter (templates list needs none)
    from kernel.contract.model import Contract

__all__ = ["DOCUMENTS", "all_pass", "starter"]

#: The documents a starter can be.
DOCUMENTS: Final = ("phase1", "phase2", "synthesis")


def all_pass(contract: Contract) -> dict[str, Any]:
    """The matrix of the round where every seat passes: per dimension, one ``pass`` per
    reviewer (13) or per eligible role (13.2)."""
    if contract.dialect == "13.2":
        return {d.id: dict.fromkeys(d.eligible_roles, "pass") for d in contract.dimensions}
    return {d.id: ["pass"] * contract.panel_size for d in contract.dimensions}


def _role(contract: Contract, document: str, role: str | None) -> str | None:
    from kernel.reviewer.roles import scope_of

    if contract.dialect != "13.2" or document == "synthesis":
        if role is not None:
            why = "a synthesis is the editor's" if document == "synthesis" else "13 has no roles"
            raise KernelError(f"role {shown(role)}: no role for this document ({why})")
        return None
    roles = scope_of(contract).roles
    if role is None or role not in roles:
        got = "no role" if role is None else f"role {shown(role)}"
        raise KernelError(
            f"{got}: a 13.2 {document} is a seat's; {contract.mode} seats {', '.join(roles)}"
        )
    return role


def starter(
    contract: Contract | Mapping[str, Any] | str,
    document: str,
    role: str | None = None,
    *,
    ars: str = "main",
) -> str:
    """The starter ``document`` (``phase1``, ``phase2`` or ``synthesis``) of ``contract``,
    for the seat of ``role`` under 13.2 (a Phase 1 or Phase 2 document is a seat's), as the
    ARS reading ``ars`` reads it (under ``main`` a methodology card carries a receipt)."""
    from kernel.contract.model import load_contract
    from kernel.decision.decision import decide
    from kernel.reviewer.lint.ars import reading
    from kernel.reviewer.render import render_phase1, render_phase2
    from kernel.reviewer.render_synthesis import render_synthesis

    contract = load_contract(contract)
    reading(ars)  # an unknown reading is refused, with the closest name
    if document not in DOCUMENTS:
        raise KernelError(f"document {shown(document)}: expected {', '.join(DOCUMENTS)}")
    if not contract.panel_size:
        raise KernelError(
            f"{contract.contract_id} ({contract.mode}) seats no reviewer panel: no documents"
        )
    seat = _role(contract, document, role)
    if document == "phase1":
        return render_phase1(contract, role=seat, ars=ars)
    if document == "phase2":
        if seat is None:
            scores = dict.fromkeys(contract.dimension_ids, "pass")
            return render_phase2(contract, scores, ars=ars)
        eligible = [d.id for d in contract.dimensions if seat in d.eligible_roles]
        return render_phase2(contract, dict.fromkeys(eligible, "pass"), role=seat, ars=ars)
    return render_synthesis(contract, decide(contract, all_pass(contract)))
