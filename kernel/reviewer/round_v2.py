"""Deciding a 13.2 round from its reports (13.2 §G4-§G6, §D1).

Seats are keyed by the ``contract_role:`` each report declares. Before anything is decided
the panel must be whole (``PANEL-CARDINALITY``): as many reports as ``panel_size``, no path
twice, no two reports with the same text (R16: compared after turning CRLF and CR into LF),
and, once every report parses, the declared roles exactly the mode's role set. The usable
reports give the matrix dimension → role → value that :func:`kernel.decide` decides; a
synthesis, when given, is checked against that recomputation (13.2 §G).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from kernel.contract.model import Contract
from kernel.decision.decision import decide
from kernel.decision.value import Decision
from kernel.errors import InputError, KernelError
from kernel.io import MAX_INPUT_BYTES
from kernel.reviewer.lint.ars import DEFAULT_ARS, Reading, reading
from kernel.reviewer.lint.phase2_v2 import analyse_phase2_v2, da_critical_ids
from kernel.reviewer.lint.report import LintReport
from kernel.reviewer.roles import RoleScope, require_role, scope_of
from kernel.reviewer.synthesis_v2 import Recomputed, SynthesisV2, check_synthesis_v2
from kernel.text.markdown import normalise

__all__ = ["RoundV2Outcome", "SeatV2", "decide_reports_v2"]


@attrs.frozen
class SeatV2:
    #: The report's name (its path on the command line).
    name: str
    #: The declared ``contract_role``, when it could be read.
    role: str | None
    report: LintReport


@attrs.frozen
class RoundV2Outcome:
    seats: tuple[SeatV2, ...]
    #: Why the round has no decision (cardinality, unusable reports, an unassessed
    #: dimension), each an upstream tag; empty when it was decided.
    tags: tuple[str, ...]
    matrix: Mapping[str, Mapping[str, str]] | None = None
    decision: Decision | None = None
    recomputed: Recomputed | None = None
    synthesis: SynthesisV2 | None = None
    #: The ARS reading the documents were read under.
    ars: str = DEFAULT_ARS

    @property
    def aborted(self) -> bool:
        return self.decision is None

    @property
    def reviewers(self) -> tuple[tuple[str, LintReport], ...]:
        """(role, report) per seat in report order, as a Schema 13 round gives them; a
        report whose role could not be read is named by its name."""
        return tuple((s.role or s.name, s.report) for s in self.seats)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dialect": "13.2",
            "ars": self.ars,
            "seats": [{"name": s.name, "role": s.role, **s.report.to_dict()} for s in self.seats],
            "tags": list(self.tags),
            "matrix": (
                {d: dict(v) for d, v in self.matrix.items()} if self.matrix is not None else None
            ),
            "decision": self.decision.to_dict() if self.decision is not None else None,
            "recomputed": (
                {
                    "fired": list(self.recomputed.fired),
                    "action": self.recomputed.action,
                    "verdicts": dict(self.recomputed.verdicts),
                    "critical": list(self.recomputed.critical),
                }
                if self.recomputed is not None
                else None
            ),
            "synthesis": self.synthesis.to_dict() if self.synthesis is not None else None,
        }


def _cardinality(
    scope: RoleScope, panel_size: int, entries: Sequence[tuple[str, str, str | None]]
) -> list[str]:
    tags: list[str] = []
    names = [name for name, _, _ in entries]
    if len(set(names)) != len(names):
        tags.append("[PANEL-CARDINALITY: duplicate report paths]")
    if len(entries) != panel_size:
        tags.append(f"[PANEL-CARDINALITY: got={len(entries)}, panel_size={panel_size}]")
    seen: dict[str, str] = {}
    for name, text, _ in entries:
        key = normalise(text)
        if key in seen and seen[key] != name:
            tags.append(f"[PANEL-CARDINALITY: byte-identical report contents ({name})]")
        seen.setdefault(key, name)
    return tags


def _entries(reports: object) -> list[tuple[str, str, str | None]]:
    if not isinstance(reports, Iterable) or isinstance(reports, str | bytes | Mapping):
        raise KernelError("reports must be a list of (name, phase2_text, phase1_text) tuples")
    out: list[tuple[str, str, str | None]] = []
    for i, entry in enumerate(reports):
        if (
            not isinstance(entry, tuple | list)
            or len(entry) != 3
            or not isinstance(entry[0], str)
            or not isinstance(entry[1], str)
            or not isinstance(entry[2], str | None)
        ):
            raise KernelError(f"reports[{i}] must be a (name, phase2_text, phase1_text) tuple")
        out.append((entry[0], entry[1], entry[2]))
    return out


def _dispatched(roles: object, count: int, scope: RoleScope) -> tuple[str, ...] | None:
    if roles is None:
        return None
    if isinstance(roles, str) or not isinstance(roles, Sequence):
        raise KernelError(f"roles must be a list of role names, got {type(roles).__name__}")
    listed = tuple(roles)
    if len(listed) != count:
        tag = f"[ROLE-BINDING: --roles count={len(listed)} does not match reports={count}]"
        raise InputError(tag, code="E-INPUT", tag=tag)
    for role in listed:
        require_role(scope, role)
    return listed


def decide_reports_v2(
    contract: Contract,
    reports: Iterable[tuple[str, str, str | None]],
    *,
    roles: Sequence[str] | None = None,
    synthesis: str | None = None,
    synthesis_source: str = "synthesis",
    max_bytes: int = MAX_INPUT_BYTES,
    ars: str | Reading = DEFAULT_ARS,
    linted: Sequence[LintReport | None] | None = None,
) -> RoundV2Outcome:
    """Lint each report (with its seat's Phase 1 when given), check the panel, decide, and
    check ``synthesis`` against the recomputation. A round that cannot be decided has no
    decision and says why in ``tags``.

    ``roles``, when given, are the roles the reports were dispatched as, in report order:
    another count is an :class:`~kernel.errors.InputError`, and a report declaring another
    role is ``[ROLE-BINDING: report[<i>] declares <r>, dispatched as <e>]`` (13.2 §G6).
    ``ars`` is the ARS reading of every document (``"main"`` or ``"fork"``)."""
    chosen = reading(ars)
    scope = scope_of(contract)
    entries = _entries(reports)
    dispatched = _dispatched(roles, len(entries), scope)
    tags = _cardinality(scope, contract.panel_size, entries)
    seats: list[SeatV2] = []
    for i, (name, text, phase1) in enumerate(entries):
        given = linted[i] if linted is not None and i < len(linted) else None
        if given is not None:  # the caller's own lint of this very report (checked by the caller)
            seats.append(SeatV2(name, given.role, given))
            continue
        analysed = analyse_phase2_v2(
            text,
            scope,
            phase1,
            source=name,
            phase1_source=f"{name} (Phase 1)",
            max_bytes=max_bytes,
            ars=chosen,
        )
        seats.append(SeatV2(name, analysed.role, analysed.lint_report(bound=phase1 is not None)))
    unusable = [s for s in seats if not s.report.ok]
    tags += [s.report.errors[0].tag for s in unusable]
    tags += [
        f"[ROLE-BINDING: report[{i}] declares {s.role}, dispatched as {expected}]"
        for i, (s, expected) in enumerate(zip(seats, dispatched or (), strict=False))
        if s.role is not None and s.role != expected
    ]
    if not unusable:
        declared = sorted(s.role or "" for s in seats)
        if declared != sorted(scope.roles):
            tags.append(
                f"[PANEL-CARDINALITY: roles {declared!r} != required {sorted(scope.roles)!r}]"
            )
    if tags:
        return RoundV2Outcome(tuple(seats), tuple(tags), ars=chosen.name)
    by_role = {s.role: s for s in seats}
    matrix = {
        d.id: {
            r: by_role[r].report.scores[d.id]  # type: ignore[index]
            for r in scope.roles
            if r in d.eligible_roles
        }
        for d in scope.dimensions
    }
    frozen = MappingProxyType({d: MappingProxyType(v) for d, v in matrix.items()})
    try:
        decision = decide(contract, matrix)
    except KernelError as exc:
        return RoundV2Outcome(tuple(seats), (exc.tag or exc.message,), frozen, ars=chosen.name)
    critical: tuple[str, ...] = ()
    if "da" in by_role:
        da_text = next(text for name, text, _ in entries if name == by_role["da"].name)
        critical = da_critical_ids(da_text, max_bytes=max_bytes) or ()
    verdicts = decision.verdicts or {}
    recomputed = Recomputed(
        tuple(c for c, fired in decision.fired.items() if fired),
        decision.action,
        MappingProxyType(dict(verdicts)),
        critical,
    )
    checked = (
        check_synthesis_v2(scope, recomputed, synthesis, source=synthesis_source, ars=chosen)
        if synthesis is not None
        else None
    )
    return RoundV2Outcome(
        tuple(seats), (), frozen, decision, recomputed, checked, ars=chosen.name
    )
