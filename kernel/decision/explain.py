"""A decision as text, for both dialects: what ``sprint-kernel decide`` prints
(:meth:`Decision.explain <kernel.decision.value.Decision.explain>`).

The decision and its table come first: Schema 13, per condition how many reviewers' columns
satisfied it against the R1 threshold; dialect 13.2, per condition each atom's per-dimension
counts, then the dimension verdicts. Given the matrix, the text goes on with what
``decide --explain`` adds: the single changes that change the action (Schema 13: one score
of one reviewer, with each condition's margin; 13.2: one value of one eligible seat). Each
dialect's two parts are one entry of :data:`EXPLAINERS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from kernel.contract.model import Contract
from kernel.decision.value import Decision, register_explainer
from kernel.errors import KernelError
from kernel.strict import shown

__all__ = ["EXPLAINERS", "Explanation", "explanation"]


@attrs.frozen
class Explanation:
    #: The text ``sprint-kernel decide`` prints for the decision (with ``--explain``, when a
    #: matrix was given).
    text: str
    #: ``decide --explain``'s JSON ``explain`` value; ``None`` without a matrix.
    changes: Mapping[str, Any] | None


def _head(contract: Contract, decision: Decision) -> str:
    if decision.fallback:
        assert contract.fallback is not None
        source = contract.conditions[contract.fallback].condition_id
        return f"decision: {decision.action} (no condition fired; R5 fallback to {source}'s action)"
    winner = next(c for c in contract.conditions if c.condition_id == decision.condition_id)
    return f"decision: {decision.action} ({winner.condition_id}, severity {winner.severity})"


def _columns_table(contract: Contract, decision: Decision) -> list[str]:
    """Schema 13: per condition the reviewers whose column satisfied it, and the threshold."""
    n = contract.panel_size
    lines = ["condition  severity  quantifier  held  needed  fired"]
    for c in contract.conditions:
        mark = "  <- decides" if c.condition_id == decision.condition_id else ""
        lines.append(
            f"{c.condition_id:<9}  {c.severity:>8}  {c.quantifier:<10}  "
            f"{decision.counts[c.condition_id]}/{n:<3}  {c.threshold:>6}  "
            f"{'yes' if decision.fired[c.condition_id] else 'no':<5}{mark}".rstrip()
        )
    return lines


def _dimensionwise_table(contract: Contract, decision: Decision) -> list[str]:
    """13.2: per condition its atoms, and per atom each dimension's assessed seats ``n``,
    how many satisfied it, the threshold and whether it held (once per decision: a later
    condition with the same atom and quantifier refers back); then the dimension verdicts."""
    if decision.trace is None or decision.verdicts is None:
        raise KernelError("a dialect 13.2 contract's decision carries its trace and verdicts")
    given: dict[Any, str] = {}
    lines = ["condition  severity  quantifier  fired  atom / dimension: held/n (needed)"]
    for c in contract.conditions:
        mark = "  <- decides" if c.condition_id == decision.condition_id else ""
        fired = "yes" if decision.fired[c.condition_id] else "no"
        lines.append(
            f"{c.condition_id:<9}  {c.severity:>8}  {c.quantifier:<10}  {fired:<5}{mark}".rstrip()
        )
        for atom in decision.trace[c.condition_id]:
            held = "holds" if atom.held else "does not hold"
            first = given.setdefault(atom, c.condition_id)
            if first != c.condition_id:  # the same counts were listed there: not again
                lines.append(f"  {atom.atom} ({atom.across}): {held}, per dimension as in {first}")
                continue
            lines.append(f"  {atom.atom} ({atom.across}): {held}")
            for d in atom.dimensions:
                lines.append(
                    f"    {d.dimension}: {d.count}/{d.n} (needs {d.threshold})"
                    f"{'  yes' if d.held else ''}"
                )
    verdicts = ", ".join(f"{d}={v}" for d, v in decision.verdicts.items())
    lines.append(f"dimension verdicts: {verdicts}")
    return lines


def _score_changes(contract: Contract, matrix: object) -> tuple[list[str], dict[str, Any]]:
    from kernel.decision.sensitivity import format_sensitivity, sensitivity

    found = sensitivity(contract, matrix)  # type: ignore[arg-type]
    return format_sensitivity(found).split("\n"), found.to_dict()


def _seat_changes(contract: Contract, matrix: object) -> tuple[list[str], dict[str, Any]]:
    from kernel.decision.dimensionwise import seat_flips

    flips = seat_flips(contract, matrix)
    lines = [f"{len(flips)} single-seat change(s) change the action:"]
    lines += [f"  {f}" for f in flips]
    return lines, {"flips": [f.to_dict() for f in flips]}


@attrs.frozen
class Explainer:
    #: The decision's table, after its first line.
    table: Callable[[Contract, Decision], list[str]]
    #: The single changes of the matrix that change the action: text lines and JSON.
    changes: Callable[[Contract, object], tuple[list[str], dict[str, Any]]]


#: dialect → how its decisions are explained.
EXPLAINERS: Final[Mapping[str, Explainer]] = {
    "13": Explainer(_columns_table, _score_changes),
    "13.2": Explainer(_dimensionwise_table, _seat_changes),
}


def explanation(contract: object, decision: object, matrix: object = None) -> Explanation:
    """The text of ``decision`` taken under ``contract`` (a :class:`Contract` or anything
    :func:`~kernel.contract.model.load_contract` takes); given the ``matrix`` it was taken
    on, also every single change of it that changes the action. A matrix that does not give
    ``decision`` is a :class:`KernelError`."""
    from kernel.decision.cache import compiled
    from kernel.decision.decision import decide

    if not isinstance(decision, Decision):
        raise KernelError(f"decision must be a Decision, got {shown(decision)}")
    loaded = contract if type(contract) is Contract else compiled(contract)  # type: ignore[arg-type]
    own = decision.contract
    if own is not None and loaded is not own and loaded.to_json() != own.to_json():
        raise KernelError(
            f"the decision was not taken under {loaded.contract_id} but under {own.contract_id}"
        )
    ids = tuple(c.condition_id for c in loaded.conditions)
    if tuple(decision.fired) != ids or (
        decision.condition_id is not None and decision.condition_id not in ids
    ):
        raise KernelError(
            f"the decision was not taken under {loaded.contract_id} (its conditions are "
            f"{', '.join(decision.fired) or 'none'})"
        )
    explainer = EXPLAINERS[loaded.dialect]
    lines = [_head(loaded, decision), *explainer.table(loaded, decision)]
    if matrix is None:
        return Explanation("\n".join(lines), None)
    again = decide(loaded, matrix)  # type: ignore[arg-type]
    if (again.action, again.condition_id, dict(again.fired)) != (
        decision.action,
        decision.condition_id,
        dict(decision.fired),
    ):
        raise KernelError(
            f"the matrix gives {again.action} ({again.condition_id or 'R5 fallback'}), not the "
            f"decision to explain ({decision.action})"
        )
    more, changes = explainer.changes(loaded, matrix)
    return Explanation("\n".join([*lines, *more]), changes)


def _text(contract: Contract, decision: Decision, matrix: object) -> str:
    return explanation(contract, decision, matrix).text


register_explainer(_text)
