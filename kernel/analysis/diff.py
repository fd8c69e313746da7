"""``analyze_diff(old, new)``: which matrices an amendment decides differently, exactly.

Both contracts' conditions are evaluated on one joint column table: a reviewer's joint
signature says which of the old *and* which of the new conditions his column satisfies.
One run of the panel dynamic programming over joint signatures then gives, for every
reachable count vector, the old and the new outcome together, and the number of ordered
matrices reaching it. No matrix is enumerated. Conditions whose predicates hold on the same
columns (an unchanged condition, or one whose quantifier alone changed) share one counter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kernel.analysis.budget import Budget, check_cells, checked_budget, checked_progress
from kernel.analysis.changes import Counterexample, Diff, Transition
from kernel.analysis.columns import Progress, column_table
from kernel.analysis.panel import State, spread
from kernel.analysis.result import NONE
from kernel.analysis.space import _columns, example, verdict
from kernel.contract.model import Contract, load_contract
from kernel.errors import KernelError

__all__ = ["Counterexample", "Diff", "Transition", "analyze_diff"]


def _diff_13_2(old: Contract, new: Contract, budget: Budget) -> Diff:
    from kernel.analysis.dimensionwise import diff_dimensionwise

    found: Diff = diff_dimensionwise(old, new, budget)
    return found


#: The diff of each dialect that is not Schema 13's (the joint column table below).
_MODELS: dict[str, Callable[[Contract, Contract, Budget], Diff]] = {"13.2": _diff_13_2}


def _aligned(old: Contract, new: Contract) -> Contract:
    """``new`` with its dimensions in ``old``'s order (ids must match), or a KernelError."""
    if old.panel_size != new.panel_size:
        raise KernelError(
            f"panel_size differs: {old.contract_id} has {old.panel_size}, {new.contract_id} "
            f"has {new.panel_size}; a diff compares two contracts over the same matrices"
        )
    only_old = [d for d in old.dimension_ids if d not in new.dimension_ids]
    only_new = [d for d in new.dimension_ids if d not in old.dimension_ids]
    if only_old or only_new:
        parts = []
        if only_old:
            parts.append(f"only in {old.contract_id} (old): {', '.join(only_old)}")
        if only_new:
            parts.append(f"only in {new.contract_id} (new): {', '.join(only_new)}")
        raise KernelError(
            f"dimension ids differ: {'; '.join(parts)}; a diff compares two contracts over "
            "the same dimensions"
        )
    if old.dimension_ids == new.dimension_ids:
        return new
    data = new.to_dict()
    by_id = {d["id"]: d for d in data["acceptance_dimensions"]}
    data["acceptance_dimensions"] = [by_id[d] for d in old.dimension_ids]
    return load_contract(data)


def analyze_diff(
    old: Contract | Mapping[str, Any] | str,
    new: Contract | Mapping[str, Any] | str,
    progress: Progress | None = None,
    budget: Budget | None = None,
) -> Diff:
    """Count, exactly, the matrices each (old outcome, new outcome) pair holds, with a
    simplest counterexample for each. Both contracts need the same dimension ids (in any
    order) and panel size. Refused like :func:`~kernel.analysis.analyze` when too large."""
    old = load_contract(old)
    new = load_contract(new)
    if old.dialect != new.dialect:
        raise KernelError(
            f"{old.contract_id} is Schema {old.dialect}, {new.contract_id} is Schema "
            f"{new.dialect}; a diff compares two contracts of one dialect over the same matrices"
        )
    aligned = _aligned(old, new)
    budget = checked_budget(budget, "analyze_diff")
    progress = checked_progress(progress, "analyze_diff")
    model = _MODELS.get(old.dialect)
    if model is not None:
        return model(old, aligned, budget)
    n = old.panel_size
    check_cells(f"{old.contract_id} -> {new.contract_id}", len(old.dimensions), n)
    table = column_table(old, progress, budget=budget, also=aligned)
    k = len(old.conditions)
    thresholds = [c.threshold for c in old.conditions] + [c.threshold for c in new.conditions]
    layers = spread(
        table.signatures, table.counts, table.costs, thresholds, n, progress, budget=budget
    )
    if progress is not None:
        progress("decisions", 1.0)
    budget.charge(
        len(layers.final) * (len(thresholds) + 8) * 2, "deciding the count vectors twice"
    )
    tally: dict[tuple[str, str], int] = {}
    simplest: dict[tuple[str, str], State] = {}
    actions: dict[tuple[str, str], tuple[str | None, str | None]] = {}
    for state, weight in layers.final.items():
        fired = layers.fired(state)
        (a, x), (b, y) = verdict(old, fired[:k]), verdict(aligned, fired[k:])
        pair = (a, b)
        tally[pair] = tally.get(pair, 0) + weight
        actions[pair] = (x, y)
        best = simplest.get(pair)
        if best is None or layers.cost(n, state) < layers.cost(n, best):
            simplest[pair] = state
    old_keys = (*(c.condition_id for c in old.conditions), NONE)
    new_keys = (*(c.condition_id for c in new.conditions), NONE)
    rows = []
    for pair in sorted(tally, key=lambda p: (old_keys.index(p[0]), new_keys.index(p[1]))):
        columns = _columns(table, layers.witness(n, simplest[pair]))
        before, after = example(old, columns), example(aligned, columns)
        rows.append(
            Transition(
                pair[0],
                pair[1],
                *actions[pair],
                tally[pair],
                Counterexample(before.matrix, before, after),
            )
        )
    return Diff(
        old_id=old.contract_id,
        new_id=new.contract_id,
        dimensions=len(old.dimensions),
        panel_size=n,
        space=3 ** (len(old.dimensions) * n),
        changed=sum(t.matrices for t in rows if t.old != t.new),
        action_changed=sum(t.matrices for t in rows if t.old_action != t.new_action),
        old_outcomes=old_keys,
        new_outcomes=new_keys,
        rows=tuple(rows),
    )
