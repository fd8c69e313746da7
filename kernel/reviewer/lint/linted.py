"""Which document each recent lint report was made from, so that a decision handed the reports
a caller has just made can use them instead of linting the same documents again.

The public lints (:func:`kernel.reviewer.lint.lint_phase1` / ``lint_phase2``) note each report
they return with what it was made from (the text, the Phase 1 text, the contract, the work
bound); :func:`made_from` says whether a report is one of those, made from exactly the
documents the decision holds. A report the kernel did not make, or made from other text, is
refused by the caller (fail closed): a decision never trusts a report for a document it
was not made from. The last :data:`KEPT` reports are remembered, by identity.
"""

from __future__ import annotations

import weakref
from typing import Final

from kernel.contract.model import Contract
from kernel.reviewer.lint.report import LintReport

__all__ = ["KEPT", "made_from", "note"]

#: How many recent reports are remembered (a round holds ten documents; several rounds fit).
KEPT: Final = 64

_Made = tuple[str, str | None, Contract, int, str]
_MADE: dict[int, tuple[weakref.ref[LintReport], _Made]] = {}


def note(
    report: LintReport,
    text: str,
    phase1: str | None,
    contract: Contract,
    bound: int,
    ars: str = "main",
) -> None:
    """Remember that ``report`` is the lint of ``text`` (against ``phase1``) under
    ``contract`` within ``bound`` bytes, in the ARS reading ``ars``."""
    _MADE.pop(id(report), None)
    _MADE[id(report)] = (weakref.ref(report), (text, phase1, contract, bound, ars))
    while len(_MADE) > KEPT:
        del _MADE[next(iter(_MADE))]


def made_from(
    report: object,
    text: str,
    phase1: str | None,
    contract: Contract,
    bound: int,
    ars: str = "main",
) -> bool:
    """Whether ``report`` is a report the public lints made from exactly these arguments
    (under 13.2 in the same ARS reading; Schema 13 documents read the same in both)."""
    entry = _MADE.get(id(report))
    if entry is None or entry[0]() is not report:
        return False
    made_text, made_phase1, made_contract, made_bound, made_ars = entry[1]
    return (
        (made_text is text or made_text == text)
        and (made_phase1 is phase1 or made_phase1 == phase1)
        and (made_contract is contract or made_contract == contract)
        and made_bound == bound
        and (made_ars == ars or contract.dialect == "13")
    )
