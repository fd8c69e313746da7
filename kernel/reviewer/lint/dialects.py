"""The document lints of each contract dialect, in one table: ``lint_phase1`` and
``lint_phase2`` read the contract's dialect and call that dialect's lint.

Dialect 13 (ARS v3.6.2): every reviewer scores every dimension and writes its own fired
flags and decision (wire-format.md); ``role=``, when given, only names the reviewer in the
report. Dialect 13.2: a seat has a role (13.2 §E, §F); the
lints need it (``role=``), and Phase 2 binds each trigger to that role's Phase 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Protocol

import attrs

from kernel.contract.model import Contract
from kernel.errors import KernelError
from kernel.io import MAX_INPUT_BYTES
from kernel.reviewer.lint import linted
from kernel.reviewer.lint import phase1 as _v1_phase1
from kernel.reviewer.lint.ars import DEFAULT_ARS, Reading, reading
from kernel.reviewer.lint.report import LintReport

__all__ = ["LINTS", "DocumentLints", "dialect_of", "lint_phase1", "lint_phase2"]


class _Phase1(Protocol):
    def __call__(
        self, text: str, contract: Contract, role: str | None, options: Mapping[str, Any]
    ) -> LintReport: ...


class _Phase2(Protocol):
    def __call__(
        self,
        text: str,
        contract: Contract,
        phase1: str | None,
        role: str | None,
        options: Mapping[str, Any],
    ) -> LintReport: ...


@attrs.frozen
class DocumentLints:
    phase1: _Phase1
    phase2: _Phase2
    #: Whether a seat's role is part of its documents.
    roles: bool


#: Options a Schema 13 lint takes and does not need (names for a 13.2 document's tags).
_NAMES: Final = frozenset({"max_bytes", "source", "phase1_source", "ars"})


def _check_names(role: str | None, options: Mapping[str, Any]) -> None:
    if role is not None and not isinstance(role, str):
        raise KernelError(f"role must be a str or None, got {type(role).__name__}")
    extra = sorted(k for k, v in options.items() if k not in _NAMES and v is not None)
    if extra:
        raise KernelError(f"{', '.join(extra)}: only for dialect 13.2 documents")


def _named(report: LintReport, role: str | None) -> LintReport:
    """A Schema 13 reviewer's role is only a name: the report carries it, as a 13.2
    report carries its seat, so one orchestrator serves both dialects."""
    return report if role is None else attrs.evolve(report, role=role)


def _v1_p1(
    text: str, contract: Contract, role: str | None, options: Mapping[str, Any]
) -> LintReport:
    _check_names(role, options)
    return _named(_v1_phase1.lint_phase1(text, contract, max_bytes=options["max_bytes"]), role)


def _v1_p2(
    text: str, contract: Contract, phase1: str | None, role: str | None, options: Mapping[str, Any]
) -> LintReport:
    from kernel.reviewer.lint import phase2 as _v1_phase2

    _check_names(role, options)
    report = _v1_phase2.lint_phase2(text, contract, phase1, max_bytes=options["max_bytes"])
    return _named(report, role)


def _v2_p1(
    text: str, contract: Contract, role: str | None, options: Mapping[str, Any]
) -> LintReport:
    # Each dialect's lints load on first use: a command line pays only for its own.
    from kernel.reviewer.lint import phase1_v2 as _v2_phase1
    from kernel.reviewer.roles import scope_of

    return _v2_phase1.lint_phase1_v2(
        text,
        scope_of(contract),
        _role(role),
        source=options.get("source") or "document",
        manuscript=options.get("manuscript"),
        metadata=options.get("metadata"),
        max_bytes=options["max_bytes"],
        ars=options["ars"],
    )


def _v2_p2(
    text: str, contract: Contract, phase1: str | None, role: str | None, options: Mapping[str, Any]
) -> LintReport:
    from kernel.reviewer.lint import phase2_v2 as _v2_phase2
    from kernel.reviewer.roles import scope_of

    return _v2_phase2.lint_phase2_v2(
        text,
        scope_of(contract),
        phase1,
        role=role,
        source=options.get("source") or "document",
        phase1_source=options.get("phase1_source") or "phase1",
        max_bytes=options["max_bytes"],
        ars=options["ars"],
    )


def _role(role: str | None) -> str:
    if role is None:
        raise KernelError("a 13.2 Phase 1 document is linted for a seat's role: give role=")
    return role


#: dialect → its document lints.
LINTS: Final[Mapping[str, DocumentLints]] = {
    "13": DocumentLints(_v1_p1, _v1_p2, roles=False),
    "13.2": DocumentLints(_v2_p1, _v2_p2, roles=True),
}


def dialect_of(contract: Contract) -> str:
    return str(getattr(contract, "dialect", "13"))


def _lints(contract: Contract) -> DocumentLints:
    return LINTS[dialect_of(contract)]


def lint_phase1(
    text: str,
    contract: Contract | Mapping[str, Any] | str,
    *,
    role: str | None = None,
    manuscript: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    source: str | None = None,
    max_bytes: int = MAX_INPUT_BYTES,
    ars: str | Reading = DEFAULT_ARS,
) -> LintReport:
    """Lint one reviewer's Phase 1 output against ``contract``, by the contract's dialect.

    Dialect 13.2 needs the seat's ``role`` (Schema 13 takes it as the reviewer's name);
    ``manuscript`` and ``metadata`` (both or neither) add the 13.2 manuscript-leak check;
    ``source`` names the document in the tags; ``ars`` is the reading of 13.2 documents
    (``"main"`` or ``"fork"``, :mod:`kernel.reviewer.lint.ars`; Schema 13 has one).
    ``contract`` is a :class:`Contract` or anything :func:`load_contract` takes.
    """
    chosen = reading(ars)
    loaded = _v1_phase1._require_contract(contract)
    options = {
        "manuscript": manuscript,
        "metadata": metadata,
        "source": source,
        "max_bytes": max_bytes,
        "ars": chosen,
    }
    report = _lints(loaded).phase1(text, loaded, role, options)
    linted.note(report, text, None, loaded, max_bytes, chosen.name)
    return report


def lint_phase2(
    text: str,
    contract: Contract | Mapping[str, Any] | str,
    phase1: str | None = None,
    *,
    role: str | None = None,
    source: str | None = None,
    phase1_source: str | None = None,
    max_bytes: int = MAX_INPUT_BYTES,
    ars: str | Reading = DEFAULT_ARS,
) -> LintReport:
    """Lint one reviewer's Phase 2 output (and, when given, against that reviewer's Phase 1),
    by the contract's dialect. Under 13.2 ``role`` is the seat the report was dispatched as
    (its ``contract_role:`` must match) and ``ars`` the reading (``"main"`` or ``"fork"``)."""
    chosen = reading(ars)
    loaded = _v1_phase1._require_contract(contract)
    options = {
        "source": source,
        "phase1_source": phase1_source,
        "max_bytes": max_bytes,
        "ars": chosen,
    }
    report = _lints(loaded).phase2(text, loaded, phase1, role, options)
    linted.note(report, text, phase1, loaded, max_bytes, chosen.name)
    return report
