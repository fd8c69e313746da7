"""Brute force over every matrix of a small contract: the reference the analyzer must match.

It enumerates all ``3**(dimensions * panel_size)`` matrices, decides each one, and answers
the analyzer's questions by looking at every matrix and every single-score change.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import attrs

from kernel.contract.model import Contract
from kernel.contract.quantifiers import ACTION_RANK
from kernel.decision.decision import decide
from kernel.errors import ContractError
from kernel.expression.ast import SCORES

#: What one cell adds to a matrix's cost (pass, warn, block); the analyzer's column_cost.
CELL_COST = {"pass": 0, "warn": 1001, "block": 1002}


@attrs.frozen
class Brute:
    outcomes: Counter[str]
    unreachable: tuple[str, ...]
    monotone: bool
    #: Smallest cost of a matrix deciding each outcome key.
    outcome_cost: Mapping[str, int]
    #: Smallest cost of the "before" matrix of a non-monotone change (None if monotone).
    violation_cost: int | None


def matrix_cost(matrix: Mapping[str, Any]) -> int:
    """A Schema 13 matrix's cost (non-pass scores, weighted)."""
    return sum(CELL_COST[s] for row in matrix.values() for s in row)


def matrices(contract: Contract) -> list[dict[str, list[str]]]:
    """Every matrix, in the order of cell index ``i * n + j`` (dimension i, reviewer j)."""
    ids = contract.dimension_ids
    n = contract.panel_size
    out: list[dict[str, list[str]]] = []
    for cells in itertools.product(SCORES, repeat=len(ids) * n):
        out.append({d: list(cells[i * n : (i + 1) * n]) for i, d in enumerate(ids)})
    return out


def _key(contract: Contract, matrix: Mapping[str, list[str]]) -> tuple[str, int | None]:
    try:
        d = decide(contract, matrix)
    except ContractError:
        return "none", None
    return d.condition_id or "none", ACTION_RANK[d.action]


def brute(contract: Contract) -> Brute:
    every = matrices(contract)
    keys = [_key(contract, m) for m in every]
    costs = [matrix_cost(m) for m in every]
    outcomes: Counter[str] = Counter(k for k, _ in keys)
    outcome_cost: dict[str, int] = {}
    for (k, _), c in zip(keys, costs, strict=True):
        outcome_cost[k] = min(c, outcome_cost.get(k, c))
    cells = len(contract.dimensions) * contract.panel_size
    violation: int | None = None
    for index, (_, rank) in enumerate(keys):
        if rank is None:
            continue
        for cell in range(cells):
            step = 3 ** (cells - 1 - cell)
            if (index // step) % 3 == 2:
                continue
            worse = keys[index + step][1]
            if worse is not None and worse < rank:
                violation = costs[index] if violation is None else min(violation, costs[index])
    unreachable = tuple(
        c.condition_id for c in contract.conditions if outcomes[c.condition_id] == 0
    )
    return Brute(outcomes, unreachable, violation is None, outcome_cost, violation)


def brute_probabilities(contract: Contract, prob: Callable[[str, str], Fraction]) -> Counter[str]:
    """Outcome → exact probability, summing every matrix's probability."""
    total: Counter[str] = Counter()
    for m in matrices(contract):
        p = Fraction(1)
        for d, row in m.items():
            for s in row:
                p *= prob(d, s)
        if p:
            total[_key(contract, m)[0]] += p  # type: ignore[assignment]
    return total


def _outcome(contract: Contract, matrix: Mapping[str, list[str]]) -> tuple[str, str | None]:
    """(deciding condition id or "none", action or None where decide refuses)."""
    try:
        d = decide(contract, matrix)
    except ContractError:
        return "none", None
    return d.condition_id or "none", d.action


@attrs.frozen
class BruteDiff:
    transitions: Counter[tuple[str, str]]
    changed: int
    action_changed: int
    #: Smallest cost of a matrix making each transition.
    cost: Mapping[tuple[str, str], int]


def brute_diff(old: Contract, new: Contract) -> BruteDiff:
    """Every matrix decided under both contracts (same dimension ids and panel size)."""
    transitions: Counter[tuple[str, str]] = Counter()
    cost: dict[tuple[str, str], int] = {}
    changed = action_changed = 0
    for m in matrices(old):
        (a, x), (b, y) = _outcome(old, m), _outcome(new, m)
        transitions[a, b] += 1
        changed += a != b
        action_changed += x != y
        c = matrix_cost(m)
        cost[a, b] = min(c, cost.get((a, b), c))
    return BruteDiff(transitions, changed, action_changed, cost)
