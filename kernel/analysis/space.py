"""``analyze(contract)``: what a contract can decide, counted exactly over every matrix."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kernel.analysis.budget import Budget, check_cells, checked_budget, checked_progress
from kernel.analysis.columns import ColumnTable, Progress, column_table
from kernel.analysis.monotone import find_violation
from kernel.analysis.panel import Layers, State, spread
from kernel.analysis.result import (
    ERROR,
    FALLBACK,
    NO_DECISION,
    NON_MONOTONE,
    NONE,
    UNREACHABLE,
    WARNING,
    Analysis,
    Change,
    Example,
    Finding,
    Outcome,
    compact,
    shadowed_by,
    share,
)
from kernel.contract.model import Contract, load_contract
from kernel.contract.quantifiers import ACTION_RANK, winner
from kernel.decision.decision import decide
from kernel.errors import ContractError
from kernel.expression.ast import SCORES

__all__ = ["Verdict", "analyze", "example", "matrix_of", "verdict"]


def _analyze_13_2(contract: Contract, budget: Budget) -> Analysis:
    from kernel.analysis.dimensionwise import analyze_dimensionwise

    return analyze_dimensionwise(contract, budget)


#: The analysis of each dialect that is not Schema 13's (the column analysis below).
_MODELS: dict[str, Callable[[Contract, Budget], Analysis]] = {"13.2": _analyze_13_2}


def analyze(
    contract: Contract | Mapping[str, Any] | str,
    progress: Progress | None = None,
    budget: Budget | None = None,
) -> Analysis:
    """Count, for every condition, the matrices it decides, and find unreachable conditions,
    the fallback region (R5) and non-monotone single-score changes.

    ``progress(phase, fraction)`` is called now and then; it must not raise. Work beyond
    ``budget`` (default :data:`~kernel.analysis.budget.MAX_STEPS`) is refused with
    :class:`AnalysisTooLarge` before it is done.
    """
    contract = load_contract(contract)
    budget = checked_budget(budget, "analyze")
    progress = checked_progress(progress, "analyze")
    model = _MODELS.get(contract.dialect)
    if model is not None:
        return model(contract, budget)
    n = contract.panel_size
    check_cells(contract.contract_id, len(contract.dimensions), n)
    table = column_table(contract, progress, budget=budget)
    thresholds = [c.threshold for c in contract.conditions]
    layers = spread(
        table.signatures, table.counts, table.costs, thresholds, n, progress, budget=budget
    )
    if progress is not None:
        progress("decisions", 1.0)
    budget.charge(
        len(layers.final) * (len(contract.conditions) + 8) * 2, "deciding the count vectors"
    )
    decisions = {s: verdict(contract, layers.fired(s)) for s in layers.final}
    outcomes = _outcomes(contract, table, layers, decisions)
    findings: list[Finding] = []
    none = outcomes[-1]
    if none.matrices:
        findings.append(_fallback_finding(contract, none, _space(contract)))
    unreachable = tuple(o.key for o in outcomes[:-1] if not o.matrices)
    findings.extend(
        _unreachable_finding(contract, table, layers, decisions, c) for c in unreachable
    )
    ranks = {s: None if a is None else ACTION_RANK[a] for s, (_, a) in decisions.items()}
    budget.charge(
        len(layers.best[n - 1]) * len(table.worsenings) * 3,
        f"monotonicity: {len(layers.best[n - 1])} count vectors x "
        f"{len(table.worsenings)} single-score worsenings",
    )
    violation = find_violation(table, layers, ranks, n, progress)
    if violation is not None:
        findings.append(_monotone_finding(contract, table, layers, *violation))
    return Analysis(
        contract_id=contract.contract_id,
        dimensions=len(contract.dimensions),
        panel_size=n,
        space=_space(contract),
        outcomes=outcomes,
        unreachable=unreachable,
        monotone=violation is None,
        findings=tuple(findings),
    )


def _space(contract: Contract) -> int:
    return int(3 ** (len(contract.dimensions) * contract.panel_size))


#: (outcome key, action): the deciding condition's id, or ``none`` with the R5 fallback's
#: action (``None`` when the contract has no fallback and decide refuses).
Verdict = tuple[str, str | None]


def verdict(contract: Contract, fired: Sequence[bool]) -> Verdict:
    """The outcome and action of a panel given which conditions fire (R5, R6)."""
    position = winner(contract.precedence, fired[: len(contract.conditions)])
    if position is None:
        fallback = contract.fallback
        return NONE, None if fallback is None else contract.conditions[fallback].action
    c = contract.conditions[position]
    return c.condition_id, c.action


def matrix_of(contract: Contract, columns: Sequence[Sequence[int]]) -> dict[str, tuple[str, ...]]:
    """The matrix whose reviewer ``j`` has the column of ranks ``columns[j]``."""
    return {d.id: tuple(SCORES[col[d.position]] for col in columns) for d in contract.dimensions}


def example(contract: Contract, columns: Sequence[Sequence[int]]) -> Example:
    """A matrix with what ``decide`` really says about it."""
    matrix = matrix_of(contract, columns)
    try:
        d = decide(contract, {k: list(v) for k, v in matrix.items()})
    except ContractError:
        return Example(matrix, None, None, False, ())
    fired = tuple(k for k, v in d.fired.items() if v)
    return Example(matrix, d.action, d.condition_id, d.fallback, fired)


def _columns(table: ColumnTable, sigs: Sequence[int]) -> list[tuple[int, ...]]:
    return [table.examples[si] for si in sorted(sigs, key=table.costs.__getitem__)]


def _outcomes(
    contract: Contract,
    table: ColumnTable,
    layers: Layers,
    decisions: Mapping[State, Verdict],
) -> tuple[Outcome, ...]:
    n = contract.panel_size
    keys = [c.condition_id for c in contract.conditions] + [NONE]
    tally = dict.fromkeys(keys, 0)
    simplest: dict[str, State] = {}
    for state, weight in layers.final.items():
        key = decisions[state][0]
        tally[key] += weight
        best = simplest.get(key)
        if best is None or layers.cost(n, state) < layers.cost(n, best):
            simplest[key] = state
    fallback = None if contract.fallback is None else contract.conditions[contract.fallback].action
    actions = {c.condition_id: c.action for c in contract.conditions} | {NONE: fallback}
    written = {c.condition_id: c.text for c in contract.conditions}
    return tuple(
        Outcome(
            key,
            actions[key],
            tally[key],
            None
            if key not in simplest
            else example(contract, _columns(table, layers.witness(n, simplest[key]))),
            written.get(key),
        )
        for key in keys
    )


def _fallback_finding(contract: Contract, none: Outcome, space: int) -> Finding:
    portion = (
        f"{compact(none.matrices)} of {compact(space)} matrices "
        f"({share(none.matrices, space)})"
    )
    examples = () if none.example is None else (none.example,)
    if contract.fallback is None:
        return Finding(
            NO_DECISION,
            ERROR,
            f"{portion} fire no condition and there is no accept-grade condition to fall back "
            "on (R5, SC-13): decide refuses them",
            examples=examples,
        )
    fallback = contract.conditions[contract.fallback]
    return Finding(
        FALLBACK,
        WARNING,
        f"{portion} fire no condition; R5 falls back to {fallback.condition_id}'s action "
        f"{fallback.action}",
        condition_id=fallback.condition_id,
        examples=examples,
    )


def _unreachable_finding(
    contract: Contract,
    table: ColumnTable,
    layers: Layers,
    decisions: Mapping[State, Verdict],
    condition_id: str,
) -> Finding:
    n = contract.panel_size
    i = next(c.position for c in contract.conditions if c.condition_id == condition_id)
    if not any(sig >> i & 1 for sig in table.signatures):
        return Finding(
            UNREACHABLE,
            ERROR,
            f"{condition_id} never decides: no reviewer column satisfies "
            f"{contract.conditions[i].expression}",
            condition_id=condition_id,
        )
    fired = [s for s in layers.final if layers.fired(s)[i]]
    winners = sorted({decisions[s][0] for s in fired} - {NONE})
    always = [
        c.condition_id
        for c in contract.conditions
        if c.condition_id in winners and all(layers.fired(s)[c.position] for s in fired)
    ]
    simplest = min(fired, key=lambda s: layers.cost(n, s))
    return Finding(
        UNREACHABLE,
        ERROR,
        f"{condition_id} never decides: {shadowed_by(always, winners)}",
        condition_id=condition_id,
        examples=(example(contract, _columns(table, layers.witness(n, simplest))),),
    )


def _monotone_finding(
    contract: Contract, table: ColumnTable, layers: Layers, state: State, which: int
) -> Finding:
    n = contract.panel_size
    change = table.worsenings[which]
    others = _columns(table, layers.witness(n - 1, state))
    worse = list(change.column)
    worse[change.position] += 1
    before = example(contract, [change.column, *others])
    after = example(contract, [tuple(worse), *others])
    dim = contract.dimensions[change.position].id
    step = Change(dim, 0, SCORES[change.column[change.position]], SCORES[worse[change.position]])
    return Finding(
        NON_MONOTONE,
        ERROR,
        f"worsening one score ({step}) makes the decision more lenient: "
        f"{before.action} ({before.condition_id or 'R5 fallback'}) -> "
        f"{after.action} ({after.condition_id or 'R5 fallback'})",
        examples=(before, after),
        change=step,
    )
