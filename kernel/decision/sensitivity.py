"""How fragile is a Schema 13 decision: the single-score changes that change the action, and
how far each condition is from crossing its threshold (``decide --explain``,
:meth:`~kernel.decision.value.Decision.explain`). ``kernel.analysis`` exports it too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from kernel.contract.model import Contract, load_contract
from kernel.decision.decision import decide, decide_counts
from kernel.decision.matrix import read_matrix
from kernel.errors import ContractError, KernelError
from kernel.expression.ast import SCORE_RANK, SCORES
from kernel.strict import shown

__all__ = ["Flip", "Margin", "Sensitivity", "format_sensitivity", "sensitivity"]


@attrs.frozen
class Flip:
    """Changing ``matrix[dimension][reviewer]`` to ``after`` changes the action."""

    dimension: str
    reviewer: int
    before: str
    after: str
    #: The new action, ``None`` where decide refuses (nothing fires, no fallback).
    action: str | None
    condition_id: str | None

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class Margin:
    """How far a condition is from changing state."""

    condition_id: str
    count: int
    threshold: int
    fired: bool
    deciding: bool
    #: Reviewers who must stop satisfying the predicate (``fired``) or start satisfying it
    #: (not ``fired``) for the condition to change state.
    reviewers: int

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self) | {"direction": "fewer" if self.fired else "more"}


@attrs.frozen
class Sensitivity:
    action: str
    condition_id: str | None
    fallback: bool
    flips: tuple[Flip, ...]
    margins: tuple[Margin, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "condition_id": self.condition_id,
            "fallback": self.fallback,
            "flips": [f.to_dict() for f in self.flips],
            "margins": [m.to_dict() for m in self.margins],
        }


def _counted(contract: Contract, counts: Sequence[int]) -> tuple[str, str | None] | None:
    """(action, deciding condition id) for these counts; ``None`` where decide refuses."""
    try:
        d = decide_counts(contract, counts)
    except ContractError:
        return None
    return d.action, d.condition_id


def sensitivity(
    contract: Contract | Mapping[str, Any] | str, matrix: Mapping[str, Sequence[str]]
) -> Sensitivity:
    """Every single-score change of ``matrix`` that changes the action, and each condition's
    distance to its threshold. Raises what :func:`kernel.decision.decide` raises."""
    contract = load_contract(contract)
    if contract.dialect != "13":
        raise ContractError(
            f"{contract.contract_id}: sensitivity reads reviewers' columns, which a Schema "
            f"{contract.dialect} contract does not have (it is decided per dimension)"
        )
    # Read once: the decision and the changes are about the same snapshot of the matrix.
    rows = read_matrix(matrix, contract.dimension_ids, contract.panel_size)
    snapshot = dict(zip(contract.dimension_ids, rows, strict=True))
    decision = decide(contract, snapshot)
    conditions = contract.conditions
    n = contract.panel_size
    ranks = [[SCORE_RANK[s] for s in row] for row in rows]
    columns = [[row[j] for row in ranks] for j in range(n)]
    # One changed score changes one reviewer's column: only that reviewer's signature (R3)
    # moves the counts, so each change costs one column, not a whole matrix.
    known: dict[tuple[int, ...], tuple[bool, ...]] = {}

    def signature(column: Sequence[int]) -> tuple[bool, ...]:
        key = tuple(column)
        found = known.get(key)
        if found is None:
            found = known[key] = tuple(c.predicate.holds(column) for c in conditions)
        return found

    signatures = [signature(col) for col in columns]
    counts = [sum(sig[i] for sig in signatures) for i in range(len(conditions))]
    flips = []
    seen: dict[tuple[tuple[bool, ...], tuple[bool, ...]], tuple[str, str | None] | None] = {}
    for dim in contract.dimensions:
        for j in range(n):
            column = columns[j]
            before = SCORES[column[dim.position]]
            for after in SCORES:
                if after == before:
                    continue
                column[dim.position] = SCORE_RANK[after]
                key = (signatures[j], signature(column))
                column[dim.position] = SCORE_RANK[before]
                if key not in seen:
                    seen[key] = _counted(
                        contract,
                        [c - x + y for c, x, y in zip(counts, *key, strict=True)],
                    )
                changed = seen[key]
                if changed is None or changed[0] != decision.action:
                    flips.append(
                        Flip(
                            dim.id,
                            j,
                            before,
                            after,
                            None if changed is None else changed[0],
                            None if changed is None else changed[1],
                        )
                    )
    margins = tuple(
        Margin(
            c.condition_id,
            n := decision.counts[c.condition_id],
            c.threshold,
            fired := decision.fired[c.condition_id],
            c.condition_id == decision.condition_id,
            n - c.threshold + 1 if fired else c.threshold - n,
        )
        for c in contract.conditions
    )
    return Sensitivity(
        decision.action, decision.condition_id, decision.fallback, tuple(flips), margins
    )


def _short(action: str | None) -> str:
    return "no decision" if action is None else action.removeprefix("editorial_decision=")


def format_sensitivity(s: Sensitivity) -> str:
    """A few lines of text for ``decide --explain``."""
    if not isinstance(s, Sensitivity):
        raise KernelError(f"format_sensitivity needs a Sensitivity, got {shown(s)}")
    who = "R5 fallback" if s.condition_id is None else s.condition_id
    lines = [f"sensitivity of {_short(s.action)} ({who}):"]
    if s.flips:
        lines.append(f"single-score changes that change the action ({len(s.flips)}):")
        lines.extend(
            f"  {f.dimension}[{f.reviewer}] {f.before} -> {f.after}: {_short(f.action)}"
            f" ({f.condition_id or ('R5 fallback' if f.action else 'nothing fires')})"
            for f in s.flips
        )
    else:
        lines.append("no single-score change changes the action")
    lines.append("conditions:")
    for m in s.margins:
        plural = "" if m.reviewers == 1 else "s"
        if m.fired:
            state = "decides" if m.deciding else "fired"
            need = f"{m.reviewers} fewer reviewer{plural} to stop firing"
        else:
            state, need = "not fired", f"{m.reviewers} more reviewer{plural} to fire"
        lines.append(f"  {m.condition_id}: {state}, {m.count}/{m.threshold}; {need}")
    return "\n".join(lines)
