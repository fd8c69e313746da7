"""Render a synthesis document: the audit lines a decision needs, in either dialect.

The output passes :func:`~kernel.reviewer.synthesis.check_synthesis` against the decision it
was rendered from (a property test): under Schema 13 the fired list and the decision line
(R17); under 13.2 also the dimension verdicts and the adjudication of each of the DA's
CRITICAL issues, with a rationale for each one rejected (13.2 §G).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from kernel.contract.model import Contract, load_contract
from kernel.decision.value import Decision
from kernel.errors import KernelError
from kernel.strict import shown

__all__ = ["ADJUDICATIONS", "render_synthesis"]

#: The states a DA CRITICAL issue can be adjudicated (13.2 §G5).
ADJUDICATIONS: Final = ("VALIDATED", "REJECTED", "UNRESOLVED")
_CRITICAL: Final = re.compile(r"C[1-9][0-9]{0,5}")
_LINE: Final = re.compile(r"\S(?:[^\n\r\x00]*\S)?")
_SUMMARY: Final = (
    "The panel's reports are summarised here: what each seat found, which failure conditions "
    "fired and why the decision follows."
)


def _one_line(text: object, what: str) -> str:
    if not isinstance(text, str) or _LINE.fullmatch(text) is None or len(text) > 4096:
        raise KernelError(f"{what} must be one line of text (at most 4096 characters)")
    return text


def render_synthesis(
    contract: Contract | Mapping[str, Any] | str,
    decision: Decision,
    *,
    adjudications: Mapping[str, str] | None = None,
    rationales: Mapping[str, str] | None = None,
    summary: str | None = None,
) -> str:
    """A synthesis of ``decision`` (``decide``'s decision of the round) under ``contract``.

    13.2 only: ``adjudications`` maps each CRITICAL issue id of the DA's report (``C1``, …)
    to ``VALIDATED``, ``REJECTED`` or ``UNRESOLVED``; ``rationales`` gives a one-line reason
    for each rejected one (a placeholder otherwise). ``summary`` is the opening paragraph.
    """
    contract = load_contract(contract)
    if not isinstance(decision, Decision):
        raise KernelError(f"decision must be a Decision, got {shown(decision)}")
    if set(decision.fired) != {c.condition_id for c in contract.conditions}:
        raise KernelError("decision is not a decision of this contract (its conditions differ)")
    fired = [c.condition_id for c in contract.conditions if decision.fired[c.condition_id]]
    out = ["# Editorial synthesis", "", _one_line(summary or _SUMMARY, "summary"), ""]
    out.append(f"fired_conditions: [{', '.join(fired)}]")
    if contract.dialect == "13.2":
        out += _v2_lines(decision, adjudications or {}, rationales or {})
    elif adjudications or rationales:
        raise KernelError("adjudications and rationales belong to a 13.2 synthesis")
    if decision.action is None:
        raise KernelError("the decision has no action: nothing to synthesise")
    out += ["", decision.action]
    open_issues = sum(1 for s in (adjudications or {}).values() if s != "REJECTED")
    if decision.action == "editorial_decision=accept" and open_issues:
        out.append(f"[DA-CRITICAL-VS-ACCEPT: {open_issues} validated/unresolved]")
    out.append("")
    return "\n".join(out)


def _v2_lines(
    decision: Decision, adjudications: Mapping[str, str], rationales: Mapping[str, str]
) -> list[str]:
    verdicts = decision.verdicts or {}
    out = [f"dimension_verdicts: [{', '.join(f'{d}={v}' for d, v in verdicts.items())}]"]
    for cid, state in adjudications.items():
        if not isinstance(cid, str) or _CRITICAL.fullmatch(cid) is None:
            raise KernelError(f"adjudications: {shown(cid)} is not a CRITICAL id (C1, C2, ...)")
        if state not in ADJUDICATIONS:
            raise KernelError(
                f"adjudications[{cid}]: {shown(state)} is not one of {', '.join(ADJUDICATIONS)}"
            )
    unknown = [c for c in rationales if c not in adjudications]
    if unknown:
        raise KernelError(f"rationales: {shown(unknown[0])} is not adjudicated")
    out.append(
        "da_critical_adjudications: ["
        + ", ".join(f"{c}={s}" for c, s in adjudications.items())
        + "]"
    )
    for cid, state in adjudications.items():
        if state == "REJECTED":
            reason = rationales.get(cid, "the report's evidence answers this issue")
            out.append(f"{cid} rejection rationale: {_one_line(reason, f'rationales[{cid}]')}")
    return out
