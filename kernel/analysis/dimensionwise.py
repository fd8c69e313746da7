"""``analyze`` for dialect 13.2 contracts: exact counts over every assignment of values to
the eligible seats (13.2 §J6).

Each eligible seat of each dimension takes one of ``pass``, ``warn``, ``block`` or, on a
mandatory dimension, ``block:repairable`` or ``block:fatal`` (abstentions are not counted:
a round where a seat abstains is the smaller panel's round). Under 13.2 a dimension reaches
the decision only through, for every atom that selects it, whether its quantifier held on
it (13.2 §D2). So the seats of one dimension are enumerated on their own and reduced to
that tuple of booleans with its count; the dimensions are then combined by a running state
per atom (``any``: one held; ``every``: all held; ``two``: held twice, capped), whose final
values say which conditions fire. Monotonicity is exact the same way: for each dimension,
every single-seat worsening is tried against every state the other dimensions reach.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

import attrs

from kernel.analysis.changes import Counterexample, Diff, Transition
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
    shadowed_by,
)
from kernel.contract.model import Contract
from kernel.contract.quantifiers import ACTION_RANK, threshold, winner
from kernel.decision.dimensionwise import eligibility
from kernel.errors import AnalysisTooLarge, ContractError, KernelError

__all__ = ["analyze_dimensionwise", "diff_dimensionwise", "seat_values", "space_size"]

#: Seat values from best to worst: a seat's worsening is one step right.
_PLAIN: Final = ("pass", "warn", "block")
_MANDATORY: Final = ("pass", "warn", "block:repairable", "block:fatal")
#: The most seat assignments of one dimension enumerated (4 values, 5 seats: 1024).
MAX_ROWS: Final = 1 << 16


def seat_values(priority: str) -> tuple[str, ...]:
    """The values one eligible seat can give a dimension of ``priority``, best first."""
    return _MANDATORY if priority == "mandatory" else _PLAIN


def space_size(contract: Contract) -> int:
    """How many matrices ``analyze`` counts: every eligible seat, every value."""
    size = 1
    for d in contract.dimensions:
        size *= len(seat_values(d.priority)) ** len(d.eligible_roles)
    return size


@attrs.frozen
class _Atom:
    condition: int
    positions: frozenset[int]
    seats: frozenset[str]
    across: str
    quantifier: str


def _atoms(contract: Contract) -> list[_Atom]:
    return [
        _Atom(i, frozenset(scope), atom.seats, atom.across, c.quantifier)
        for i, c in enumerate(contract.conditions)
        for atom, scope in zip(c.expression.atoms, c.predicate.scopes, strict=True)
    ]


#: One dimension's reduction: which of its atoms held → (how many rows, cheapest row).
_Dist = dict[tuple[bool, ...], tuple[int, tuple[str, ...]]]


def _cost(row: Sequence[str], values: Sequence[str]) -> int:
    return sum(values.index(v) for v in row)


def _rows(contract: Contract, position: int) -> Iterator[tuple[str, ...]]:
    d = contract.dimensions[position]
    return itertools.product(seat_values(d.priority), repeat=len(d.eligible_roles))


def _signature(atoms: Sequence[_Atom], position: int, row: Sequence[str]) -> tuple[bool, ...]:
    n = len(row)
    return tuple(
        sum(v in a.seats for v in row) >= threshold(a.quantifier, n)
        for a in atoms
        if position in a.positions
    )


def _distribution(contract: Contract, atoms: Sequence[_Atom], position: int) -> _Dist:
    values = seat_values(contract.dimensions[position].priority)
    out: _Dist = {}
    for row in _rows(contract, position):
        sig = _signature(atoms, position, row)
        count, best = out.get(sig, (0, row))
        if _cost(row, values) < _cost(best, values):
            best = row
        out[sig] = (count + 1, best)
    return out


#: Per atom: any → bool, every → bool, two → 0..2.
_State = tuple[int, ...]
_START: Final = {"any": 0, "every": 1, "two": 0}


def _step(state: _State, atoms: Sequence[_Atom], position: int, sig: Sequence[bool]) -> _State:
    out = list(state)
    held = iter(sig)
    for k, a in enumerate(atoms):
        if position not in a.positions:
            continue
        h = next(held)
        if a.across == "any":
            out[k] = out[k] or h
        elif a.across == "every":
            out[k] = out[k] and h
        else:
            out[k] = min(2, out[k] + h)
    return tuple(int(x) for x in out)


def _fired(contract: Contract, atoms: Sequence[_Atom], state: Sequence[int]) -> list[bool]:
    fired = [True] * len(contract.conditions)
    for a, value in zip(atoms, state, strict=True):
        ok = value >= 2 if a.across == "two" else bool(value)
        fired[a.condition] = fired[a.condition] and ok
    return fired


#: A combined state → (how many matrices, the cheapest one: a row per dimension so far).
_Layer = dict[_State, tuple[int, int, tuple[tuple[str, ...], ...]]]


def _combine(
    contract: Contract, atoms: Sequence[_Atom], dists: Mapping[int, _Dist], skip: int = -1
) -> _Layer:
    layer: _Layer = {tuple(_START[a.across] for a in atoms): (1, 0, ())}
    for p, dist in dists.items():
        if p == skip:
            continue
        values = seat_values(contract.dimensions[p].priority)
        nxt: _Layer = {}
        for state, (count, cost, rows) in layer.items():
            for sig, (n, row) in dist.items():
                s = _step(state, atoms, p, sig)
                total, best_cost, best = nxt.get(s, (0, -1, ()))
                c = cost + _cost(row, values)
                if best_cost < 0 or c < best_cost:
                    best_cost, best = c, (*rows, row)
                nxt[s] = (total + count * n, best_cost, best)
        layer = nxt
    return layer


def _matrix(
    contract: Contract, rows: Sequence[tuple[str, ...]], order: Sequence[int]
) -> dict[str, dict[str, str]]:
    by_position = dict(zip(order, rows, strict=True))
    return {
        d.id: dict(zip(d.eligible_roles, by_position[d.position], strict=True))
        for d in contract.dimensions
    }


def _example(contract: Contract, matrix: dict[str, dict[str, str]]) -> Example:
    from kernel.decision.decision import decide

    try:
        d = decide(contract, matrix)
    except ContractError:
        return Example(matrix, None, None, False, ())
    fired = tuple(k for k, v in d.fired.items() if v)
    return Example(matrix, d.action, d.condition_id, d.fallback, fired)


def _verdict(contract: Contract, fired: Sequence[bool]) -> tuple[str, str | None]:
    position = winner(contract.precedence, fired)
    if position is None:
        fallback = contract.fallback
        return NONE, None if fallback is None else contract.conditions[fallback].action
    c = contract.conditions[position]
    return c.condition_id, c.action


def analyze_dimensionwise(contract: Contract) -> Analysis:
    """What a 13.2 reviewer contract decides over every eligible-seat assignment."""
    eligibility(contract)
    for d in contract.dimensions:
        if len(seat_values(d.priority)) ** len(d.eligible_roles) > MAX_ROWS:
            raise AnalysisTooLarge(f"{d.id} has too many seat assignments to enumerate")
    atoms = _atoms(contract)
    dists = {d.position: _distribution(contract, atoms, d.position) for d in contract.dimensions}
    order = list(dists)
    final = _combine(contract, atoms, dists)
    keys = [c.condition_id for c in contract.conditions] + [NONE]
    tally = dict.fromkeys(keys, 0)
    simplest: dict[str, tuple[int, tuple[tuple[str, ...], ...]]] = {}
    decided: dict[_State, tuple[str, str | None]] = {}
    for state, (count, cost, rows) in final.items():
        key, _ = decided[state] = _verdict(contract, _fired(contract, atoms, state))
        tally[key] += count
        if key not in simplest or cost < simplest[key][0]:
            simplest[key] = (cost, rows)
    fallback = None if contract.fallback is None else contract.conditions[contract.fallback].action
    actions = {c.condition_id: c.action for c in contract.conditions} | {NONE: fallback}
    written = {c.condition_id: c.text for c in contract.conditions}
    outcomes = tuple(
        Outcome(
            key,
            actions[key],
            tally[key],
            None
            if key not in simplest
            else _example(contract, _matrix(contract, simplest[key][1], order)),
            written.get(key),
        )
        for key in keys
    )
    space = space_size(contract)
    findings: list[Finding] = []
    none = outcomes[-1]
    if none.matrices:
        share = f"{none.matrices} of {space} matrices ({100 * none.matrices / space:.4g}%)"
        examples = () if none.example is None else (none.example,)
        if contract.fallback is None:  # pragma: no cover - Schema 13.2 requires an F0 accept
            findings.append(
                Finding(NO_DECISION, ERROR, f"{share} fire no condition", examples=examples)
            )
        else:
            source = contract.conditions[contract.fallback]
            findings.append(
                Finding(
                    FALLBACK,
                    WARNING,
                    f"{share} fire no condition; R5 falls back to {source.condition_id}'s "
                    f"action {source.action}",
                    condition_id=source.condition_id,
                    examples=examples,
                )
            )
    unreachable = tuple(o.key for o in outcomes[:-1] if not o.matrices)
    for key in unreachable:
        findings.append(_unreachable(contract, atoms, final, decided, order, key))
    violation = _non_monotone(contract, atoms, dists, order)
    if violation is not None:
        findings.append(violation)
    return Analysis(
        contract_id=contract.contract_id,
        dimensions=len(contract.dimensions),
        panel_size=contract.panel_size,
        space=space,
        outcomes=outcomes,
        unreachable=unreachable,
        monotone=violation is None,
        findings=tuple(findings),
        dialect="13.2",
    )


def _unreachable(
    contract: Contract,
    atoms: Sequence[_Atom],
    final: _Layer,
    decided: Mapping[_State, tuple[str, str | None]],
    order: Sequence[int],
    key: str,
) -> Finding:
    """AN-2 for ``key``: what shadows it (the conditions that decide whenever it fires, with
    the simplest such matrix), or that nothing satisfies it."""
    i = next(c.position for c in contract.conditions if c.condition_id == key)
    fired = [s for s in final if _fired(contract, atoms, s)[i]]
    if not fired:
        return Finding(
            UNREACHABLE,
            ERROR,
            f"{key} never decides: no assignment of the eligible seats satisfies "
            f"{contract.conditions[i].text}",
            condition_id=key,
        )
    shadows = sorted({decided[s][0] for s in fired} - {NONE})
    always = [
        c.condition_id
        for c in contract.conditions
        if c.condition_id in shadows and all(_fired(contract, atoms, s)[c.position] for s in fired)
    ]
    simplest = min(fired, key=lambda s: final[s][1])
    return Finding(
        UNREACHABLE,
        ERROR,
        f"{key} never decides: {shadowed_by(always, shadows)}",
        condition_id=key,
        examples=(_example(contract, _matrix(contract, final[simplest][2], order)),),
    )


def _rank(action: str | None) -> int:
    return -1 if action is None else ACTION_RANK.get(action, -1)


def _non_monotone(
    contract: Contract, atoms: Sequence[_Atom], dists: Mapping[int, _Dist], order: Sequence[int]
) -> Finding | None:
    """The first single-seat worsening that makes the decision more lenient, or ``None``."""
    for d in contract.dimensions:
        p = d.position
        values = seat_values(d.priority)
        pairs: dict[tuple[tuple[bool, ...], tuple[bool, ...]], tuple[tuple[str, ...], int]] = {}
        for row in _rows(contract, p):
            for seat, value in enumerate(row):
                step = values.index(value) + 1
                if step == len(values):
                    continue
                worse = (*row[:seat], values[step], *row[seat + 1 :])
                key = (_signature(atoms, p, row), _signature(atoms, p, worse))
                if key[0] != key[1] and key not in pairs:
                    pairs[key] = (row, seat)
        if not pairs:
            continue
        others = _combine(contract, atoms, dists, skip=p)
        rest = [q for q in order if q != p]
        for state, (_, _, rows) in others.items():
            for (before, after), (row, seat) in pairs.items():
                a = _verdict(contract, _fired(contract, atoms, _step(state, atoms, p, before)))
                b = _verdict(contract, _fired(contract, atoms, _step(state, atoms, p, after)))
                if _rank(b[1]) < _rank(a[1]):
                    return _finding(contract, d.position, rows, rest, row, seat, values)
    return None


def _finding(
    contract: Contract,
    position: int,
    rows: tuple[tuple[str, ...], ...],
    rest: Sequence[int],
    row: tuple[str, ...],
    seat: int,
    values: Sequence[str],
) -> Finding:
    d = contract.dimensions[position]
    worse = (*row[:seat], values[values.index(row[seat]) + 1], *row[seat + 1 :])
    before = _example(contract, _matrix(contract, (*rows, row), [*rest, position]))
    after = _example(contract, _matrix(contract, (*rows, worse), [*rest, position]))
    change = Change(d.id, seat, row[seat], worse[seat])
    role = d.eligible_roles[seat]
    return Finding(
        NON_MONOTONE,
        ERROR,
        f"worsening one seat ({d.id}[{role}] {row[seat]} -> {worse[seat]}) makes the decision "
        f"more lenient: {before.action} ({before.condition_id or 'R5 fallback'}) -> "
        f"{after.action} ({after.condition_id or 'R5 fallback'})",
        examples=(before, after),
        change=change,
    )



def _same_seats(old: Contract, new: Contract) -> None:
    """Both contracts must score the same seats with the same values: same mode, and each
    dimension with the same eligible roles and priority class."""
    if old.roles != new.roles:
        raise KernelError(
            f"modes differ: {old.contract_id} is {old.mode}, {new.contract_id} is {new.mode}; "
            "a diff compares two contracts over the same matrices"
        )
    for a, b in zip(old.dimensions, new.dimensions, strict=True):
        if set(a.eligible_roles) != set(b.eligible_roles) or seat_values(
            a.priority
        ) != seat_values(b.priority):
            raise KernelError(
                f"{a.id} has other seats or seat values in {new.contract_id}; a diff compares "
                "two contracts over the same matrices"
            )


def diff_dimensionwise(old: Contract, new: Contract) -> Any:
    """``analyze_diff`` for two 13.2 contracts over the same seats (``new``'s dimensions in
    ``old``'s order): one pass over the joint atoms of both."""

    eligibility(old)
    eligibility(new)
    _same_seats(old, new)
    first = _atoms(old)
    atoms = [*first, *_atoms(new)]
    dists = {d.position: _distribution(old, atoms, d.position) for d in old.dimensions}
    order = list(dists)
    final = _combine(old, atoms, dists)
    k = len(first)
    tally: dict[tuple[str, str], int] = {}
    simplest: dict[tuple[str, str], tuple[int, tuple[tuple[str, ...], ...]]] = {}
    actions: dict[tuple[str, str], tuple[str | None, str | None]] = {}
    for state, (count, cost, rows) in final.items():
        (a, x) = _verdict(old, _fired(old, first, state[:k]))
        (b, y) = _verdict(new, _fired(new, atoms[k:], state[k:]))
        pair = (a, b)
        tally[pair] = tally.get(pair, 0) + count
        actions[pair] = (x, y)
        if pair not in simplest or cost < simplest[pair][0]:
            simplest[pair] = (cost, rows)
    old_keys = (*(c.condition_id for c in old.conditions), NONE)
    new_keys = (*(c.condition_id for c in new.conditions), NONE)
    out = []
    for pair in sorted(tally, key=lambda p: (old_keys.index(p[0]), new_keys.index(p[1]))):
        matrix = _matrix(old, simplest[pair][1], order)
        before, after = _example(old, matrix), _example(new, matrix)
        out.append(
            Transition(
                pair[0], pair[1], *actions[pair], tally[pair], Counterexample(matrix, before, after)
            )
        )
    return Diff(
        old_id=old.contract_id,
        new_id=new.contract_id,
        dimensions=len(old.dimensions),
        panel_size=old.panel_size,
        space=space_size(old),
        changed=sum(t.matrices for t in out if t.old != t.new),
        action_changed=sum(t.matrices for t in out if t.old_action != t.new_action),
        old_outcomes=old_keys,
        new_outcomes=new_keys,
        rows=tuple(out),
        dialect="13.2",
    )
