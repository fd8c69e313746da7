"""``analyze`` for dialect 13.2 contracts: exact counts over every assignment of values to
the eligible seats (13.2 §J6).

Each eligible seat of each dimension takes one of ``pass``, ``warn``, ``block`` or, on a
mandatory dimension, ``block:repairable`` or ``block:fatal`` (abstentions are not counted:
a round where a seat abstains is the smaller panel's round). Under 13.2 a dimension reaches
the decision only through, for each distinct *test* that selects it (an atom's seat set,
scope, across and quantifier: atoms written twice, or in two conditions, are one test),
whether the quantifier held on it (13.2 §D2).

So the count is symbolic, per dimension then combined. Each dimension's seat assignments are
counted alone, grouped by the multiset of values (a test reads only how many seats hold each
value), into its *signature*: which of its tests held (:func:`dimension_counts`). The
dimensions are then combined, in contract order, by a running state that keeps only what can
still change the outcome: the value of each test that has begun and not ended (``any``: one
held; ``every``: all held; ``two``: held twice, capped), and per contract the conditions still
alive by precedence, down to the first one known to fire (a test that ends failing drops its
conditions at once; a condition below a fired one cannot decide). A conjunction of
per-dimension atoms is therefore one bit, whatever its length. Monotonicity is exact the same
way: for each dimension, every single-seat worsening is applied to each state the dimensions
before it reach, and the pair of states is carried through the dimensions after it.

Every phase states its cost in steps before it starts (:mod:`kernel.analysis.budget`), so an
analysis either finishes in seconds or is refused with its estimate.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

import attrs

from kernel.analysis.budget import Budget
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
    compact,
    shadowed_by,
    share,
)
from kernel.contract.model import Contract
from kernel.contract.quantifiers import ACTION_RANK, threshold
from kernel.decision.dimensionwise import eligibility, plan_of
from kernel.errors import AnalysisTooLarge, ContractError, KernelError

__all__ = [
    "Held",
    "analyze_dimensionwise",
    "diff_dimensionwise",
    "dimension_counts",
    "seat_values",
    "space_size",
    "weighted_outcomes",
]

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
class _Test:
    seats: frozenset[str]
    scope: tuple[int, ...]
    across: str
    quantifier: str


class _Model:
    """The distinct tests of one or more *groups* of conditions (a contract's, by precedence,
    or some of them), each group's conditions as bits ordered by precedence (the lowest bit
    decides first), and what each dimension reads: its distinct ``(seat set, quantifier)``
    pairs. A group of one condition tells whether that condition fires."""

    def __init__(self, groups: Sequence[tuple[Contract, Sequence[int]]]) -> None:
        self.contracts = [contract for contract, _ in groups]
        first = self.contracts[0]
        tests: dict[_Test, int] = {}
        self.uses: list[int] = []  # per test: the condition bits that use it
        self.groups: list[tuple[int, list[int]]] = []  # (bit mask, condition index by rank)
        #: the first group's conditions (by index in its contract) → their tests
        self.tests_of: dict[int, set[int]] = {}
        bit = 0
        for g, (contract, ranked) in enumerate(groups):
            mask = 0
            for rank, i in enumerate(ranked):
                c = contract.conditions[i]
                for atom, scope in zip(c.expression.atoms, c.predicate.scopes, strict=True):
                    test = _Test(atom.seats, tuple(scope), atom.across, c.quantifier)
                    t = tests.setdefault(test, len(tests))
                    if t == len(self.uses):
                        self.uses.append(0)
                    self.uses[t] |= 1 << (bit + rank)
                    if g == 0:
                        self.tests_of.setdefault(i, set()).add(t)
                mask |= 1 << (bit + rank)
            self.groups.append((mask, list(ranked)))
            bit += len(ranked)
        self.masks = [mask for mask, _ in self.groups]
        self.tests = list(tests)
        self.all = (1 << bit) - 1
        self.reads: list[list[tuple[frozenset[str], str]]] = [[] for _ in first.dimensions]
        #: (test, position) → the index of its pair in reads[position]
        self.slot: dict[tuple[int, int], int] = {}
        for t, test in enumerate(self.tests):
            for p in test.scope:
                pair = (test.seats, test.quantifier)
                if pair not in self.reads[p]:
                    self.reads[p].append(pair)
                self.slot[t, p] = self.reads[p].index(pair)

    def extended(self, singles: Sequence[int]) -> _Model:
        """This model with one more group of one condition per index in ``singles`` (of the
        first group's contract): the same tests, so the same per-dimension counts."""
        out = copy.copy(self)
        out.uses = list(self.uses)
        out.groups = list(self.groups)
        bit = self.all.bit_length()
        for i in singles:
            for t in self.tests_of[i]:
                out.uses[t] |= 1 << bit
            out.groups.append((1 << bit, [i]))
            out.contracts = [*out.contracts, self.contracts[0]]
            bit += 1
        out.masks = [mask for mask, _ in out.groups]
        out.all = (1 << bit) - 1
        return out

    def outcome(self, group: int, alive: int) -> int | None:
        """The deciding condition's index in its contract, ``None`` for none, once every
        condition of the group has ended."""
        mask, by_rank = self.groups[group]
        base = (mask & -mask).bit_length() - 1
        fired = alive & mask
        if not fired:
            return None
        return by_rank[(fired & -fired).bit_length() - 1 - base]


#: One dimension's signatures: which of its pairs held → (assignments, cheapest row, cost).
_Dist = dict[tuple[bool, ...], tuple[int, tuple[str, ...], int]]


def _rows(contract: Contract, position: int) -> Iterator[tuple[str, ...]]:
    d = contract.dimensions[position]
    return itertools.product(seat_values(d.priority), repeat=len(d.eligible_roles))


def _signer(
    model: _Model, contract: Contract, position: int
) -> Any:  # Callable[[tuple[str, ...]], tuple[bool, ...]]
    """``sign(row)``: the signature of one row, computed once per multiset of values."""
    reads = model.reads[position]
    n = len(contract.dimensions[position].eligible_roles)
    needs = [(seats, threshold(q, n)) for seats, q in reads]
    memo: dict[tuple[str, ...], tuple[bool, ...]] = {}

    def sign(row: tuple[str, ...]) -> tuple[bool, ...]:
        key = tuple(sorted(row))
        found = memo.get(key)
        if found is None:
            found = memo[key] = tuple(sum(v in s for v in row) >= k for s, k in needs)
        return found

    return sign


#: Per eligible seat of one dimension (in its ``eligible_roles`` order): value -> weight.
SeatWeights = Sequence[Mapping[str, int]]


def _distribution(
    model: _Model,
    contract: Contract,
    position: int,
    budget: Budget,
    weights: SeatWeights | None = None,
) -> _Dist:
    """Per signature: how many seat assignments give it (or, with ``weights``, their summed
    weight: the product of each seat's weight for its value), the simplest and its cost."""
    d = contract.dimensions[position]
    values = seat_values(d.priority)
    budget.charge(len(values) ** len(d.eligible_roles), f"counting the seat assignments of {d.id}")
    sign = _signer(model, contract, position)
    rank = {v: i for i, v in enumerate(values)}
    out: _Dist = {}
    for row in _rows(contract, position):
        sig = sign(row)
        cost = sum(rank[v] for v in row)
        weight = 1
        if weights is not None:
            for seat, v in zip(weights, row, strict=True):
                weight *= seat[v]
        found = out.get(sig)
        if found is None:
            out[sig] = (weight, row, cost)
        else:
            count, best, best_cost = found
            if cost < best_cost:
                best, best_cost = row, cost
            out[sig] = (count + weight, best, best_cost)
    return out


#: What one dimension tells the decision: the ``(seat set, quantifier)`` tests that held.
Held = frozenset[tuple[frozenset[str], str]]


def dimension_counts(contract: Contract, position: int) -> dict[Held, int]:
    """The symbolic count of one dimension of a 13.2 reviewer contract: for each set of the
    ``(seat set, quantifier)`` tests its atoms make that hold together, how many assignments
    of its eligible seats give exactly that set. The counts of the whole space are products
    of these, combined as :func:`analyze_dimensionwise` does."""
    eligibility(contract)
    model = _Model([(contract, contract.precedence)])
    reads = model.reads[position]
    return {
        frozenset(pair for pair, held in zip(reads, sig, strict=True) if held): count
        for sig, (count, _, _) in _distribution(model, contract, position, Budget()).items()
    }


#: How a layer moves one test: (source: its index among the live values before the layer,
#: or -1 where it begins; the bit of the signature; its kind; target: its index after the
#: layer, or -1 where it ends; the condition bits that use it).
_Step = tuple[int, int, int, int, int]
_ANY, _EVERY, _TWO = 0, 1, 2
_KIND: Final = {"any": _ANY, "every": _EVERY, "two": _TWO}


@attrs.frozen
class _Layer:
    position: int
    program: tuple[_Step, ...]
    carried: tuple[tuple[int, int], ...]
    width: int
    #: Per live value after the layer: the condition bits that read it.
    relevant: tuple[int, ...]
    #: Condition bits all of whose tests have ended after the layer.
    complete: int


def _schedule(model: _Model, order: Sequence[int]) -> list[_Layer]:
    """One layer per dimension of ``order``: how it moves the live test values."""
    at = {p: k for k, p in enumerate(order)}
    begin = [min(at[p] for p in t.scope) for t in model.tests]
    end = [max(at[p] for p in t.scope) for t in model.tests]
    by_layer: list[list[int]] = [[] for _ in order]
    ending_at: list[int] = [0] * len(order)
    for t, test in enumerate(model.tests):
        for p in test.scope:
            by_layer[at[p]].append(t)
    last_of: dict[int, int] = {}
    for t, uses in enumerate(model.uses):
        bits = uses
        while bits:
            low = bits & -bits
            last_of[low] = max(last_of.get(low, -1), end[t])
            bits ^= low
    for low, k in last_of.items():
        ending_at[k] |= low
    layers = []
    live: list[int] = []
    complete = 0
    for k, p in enumerate(order):
        after = [t for t in live if end[t] > k] + [
            t for t in by_layer[k] if begin[t] == k and end[t] > k
        ]
        where_before = {t: i for i, t in enumerate(live)}
        where_after = {t: i for i, t in enumerate(after)}
        touched = set(by_layer[k])
        program = tuple(
            (
                where_before.get(t, -1),
                model.slot[t, p],
                _KIND[model.tests[t].across],
                where_after.get(t, -1),
                model.uses[t],
            )
            for t in by_layer[k]
        )
        carried = tuple(
            (i, where_after[t]) for i, t in enumerate(live) if t not in touched and t in where_after
        )
        complete |= ending_at[k]
        layers.append(
            _Layer(p, program, carried, len(after), tuple(model.uses[t] for t in after), complete)
        )
        live = after
    return layers


#: A state: (live test values, alive condition bits).
_State = tuple[tuple[int, ...], int]
#: A state → (matrices, cost of the cheapest, its rows as a linked list ``(rest, row)``).
_States = dict[_State, tuple[int, int, Any]]


def _apply(model: _Model, layer: _Layer, state: _State, sig: Sequence[bool]) -> _State:
    """The state after one dimension with signature ``sig``."""
    live, alive = state
    values = [0] * layer.width
    for i, j in layer.carried:
        values[j] = live[i]
    for source, bit, kind, target, uses in layer.program:
        h = sig[bit]
        if kind == _ANY:
            v = (0 if source < 0 else live[source]) | h
            if target < 0:
                if not v:
                    alive &= ~uses
            else:
                values[target] = v
        elif kind == _EVERY:
            v = (1 if source < 0 else live[source]) & h
            if not v:  # an every that failed once never holds
                alive &= ~uses
            elif target >= 0:
                values[target] = v
        else:
            v = min(2, (0 if source < 0 else live[source]) + h)
            if target < 0:
                if v < 2:
                    alive &= ~uses
            else:
                values[target] = v
    complete = layer.complete
    for mask in model.masks:
        fired = alive & complete & mask
        if fired:
            low = fired & -fired
            alive &= ~mask | ((low << 1) - 1)
    for i, uses in enumerate(layer.relevant):
        if not alive & uses:
            values[i] = 0
    return tuple(values), alive


def _steps(layer: _Layer, states: int, sigs: int) -> int:
    """What ``states x sigs`` applications of ``layer`` cost: about 0.25 µs a step."""
    return states * sigs * (2 + (len(layer.program) + layer.width // 2) // 2)


def _advance(
    model: _Model,
    layer: _Layer,
    states: _States,
    dist: _Dist,
    budget: Budget,
    what: str,
    int_cost: int = 1,
) -> _States:
    budget.charge(
        _steps(layer, len(states), len(dist)) * int_cost,
        f"{what}: {len(states):,} states x {len(dist):,} signatures of "
        f"{model.contracts[0].dimensions[layer.position].id}",
    )
    out: _States = {}
    for state, (count, cost, rows) in states.items():
        for sig, (n, row, row_cost) in dist.items():
            key = _apply(model, layer, state, sig)
            c = cost + row_cost
            found = out.get(key)
            if found is None:
                out[key] = (count * n, c, (rows, row))
            elif c < found[1]:
                out[key] = (found[0] + count * n, c, (rows, row))
            else:
                out[key] = (found[0] + count * n, found[1], found[2])
    return out


def _unlink(rows: Any) -> list[tuple[str, ...]]:
    out = []
    while rows:
        rows, row = rows
        out.append(row)
    return out[::-1]


def _order(model: _Model, budget: Budget) -> list[int]:
    """The dimensions in the order that keeps the fewest conditions part-way: each step takes
    the dimension after which the fewest conditions have some but not all of their dimensions
    combined (the first in contract order on a tie). Conditions that never overlap in time
    then never multiply the states."""
    dimensions = len(model.contracts[0].dimensions)
    spans: list[set[int]] = [set() for _ in range(model.all.bit_length())]
    for t, test in enumerate(model.tests):
        uses = model.uses[t]
        while uses:
            low = uses & -uses
            spans[low.bit_length() - 1].update(test.scope)
            uses ^= low
    touching: list[list[int]] = [[] for _ in range(dimensions)]
    for c, span in enumerate(spans):
        for p in span:
            touching[p].append(c)
    budget.charge(
        dimensions * (dimensions + sum(len(t) for t in touching)), "ordering the dimensions"
    )
    left = [len(span) for span in spans]
    open_ = 0
    order: list[int] = []
    todo = list(range(dimensions))
    while todo:
        best, best_open = -1, -1
        for p in todo:
            after = open_
            for c in touching[p]:
                if left[c] == len(spans[c]):
                    after += left[c] > 1
                elif left[c] == 1:
                    after -= 1
            if best < 0 or after < best_open:
                best, best_open = p, after
        order.append(best)
        todo.remove(best)
        open_ = best_open
        for c in touching[best]:
            left[c] -= 1
    return order


class _Run:
    """The combination of every dimension for ``model``'s contracts, in contract order."""

    def __init__(
        self,
        model: _Model,
        budget: Budget,
        like: _Run | None = None,
        weights: Sequence[SeatWeights] | None = None,
        int_cost: int = 1,
    ) -> None:
        """``like``: a run over the same tests, whose order and per-dimension counts are
        taken as they are. ``weights``: per dimension, the seats' weights (a weighted count);
        ``int_cost``: what one step on its large integers costs."""
        contract = model.contracts[0]
        for d in contract.dimensions:
            if len(seat_values(d.priority)) ** len(d.eligible_roles) > MAX_ROWS:
                raise AnalysisTooLarge(f"{d.id} has too many seat assignments to enumerate")
        self.model = model
        self.budget = budget
        if like is None:
            budget.charge(
                len(model.tests) + sum(len(t.scope) for t in model.tests) * 2,
                "merging the atoms",
            )
            self.order = _order(model, budget)
            self.dists = {
                p: _distribution(
                    model, contract, p, budget, None if weights is None else weights[p]
                )
                for p in self.order
            }
        else:
            self.order, self.dists = like.order, like.dists
        budget.charge(
            (len(self.order) + 1) * (len(model.tests) + len(self.order)), "scheduling the tests"
        )
        self.layers = _schedule(model, self.order)
        states: _States = {((), model.all): (1, 0, None)}
        self.before: list[_States] = []
        for layer in self.layers:
            self.before.append(states)
            states = _advance(
                model, layer, states, self.dists[layer.position], budget, "combining", int_cost
            )
        self.final = states

    def matrix(self, rows: Any) -> dict[str, dict[str, str]]:
        contract = self.model.contracts[0]
        by_position = dict(zip(self.order, _unlink(rows), strict=True))
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


def _decision_steps(contract: Contract) -> int:
    """What one example's decision costs, in steps: its trace's size and the matrix."""
    return 20 * (plan_of(contract).cells + 5 * len(contract.dimensions))


def _key(contract: Contract, index: int | None) -> tuple[str, str | None]:
    if index is None:
        fallback = contract.fallback
        return NONE, None if fallback is None else contract.conditions[fallback].action
    c = contract.conditions[index]
    return c.condition_id, c.action


def weighted_outcomes(
    contract: Contract, weights: Sequence[SeatWeights], budget: Budget, int_cost: int = 1
) -> dict[str, int]:
    """Per outcome key (condition id, or ``none``), the summed weight of the seat
    assignments it decides: each dimension's seats weighed by ``weights`` (per dimension in
    contract order, per eligible seat in its order: value -> integer weight)."""
    eligibility(contract)
    model = _Model([(contract, contract.precedence)])
    run = _Run(model, budget, weights=weights, int_cost=int_cost)
    tally = dict.fromkeys([*(c.condition_id for c in contract.conditions), NONE], 0)
    budget.charge(len(run.final) * (len(contract.conditions) + 8) * int_cost, "the outcomes")
    for (_, alive), (weight, _, _) in run.final.items():
        tally[_key(contract, model.outcome(0, alive))[0]] += weight
    return tally


def analyze_dimensionwise(contract: Contract, budget: Budget | None = None) -> Analysis:
    """What a 13.2 reviewer contract decides over every eligible-seat assignment; work past
    ``budget`` (default :data:`~kernel.analysis.budget.MAX_STEPS`) is refused before it is
    done."""
    eligibility(contract)
    budget = Budget() if budget is None else budget
    model = _Model([(contract, contract.precedence)])
    run = _Run(model, budget)
    keys = [c.condition_id for c in contract.conditions] + [NONE]
    tally = dict.fromkeys(keys, 0)
    simplest: dict[str, tuple[int, Any]] = {}
    budget.charge(len(run.final) * (len(contract.conditions) + 8), "deciding the final states")
    for (_, alive), (count, cost, rows) in run.final.items():
        key, _ = _key(contract, model.outcome(0, alive))
        tally[key] += count
        if key not in simplest or cost < simplest[key][0]:
            simplest[key] = (cost, rows)
    fallback = None if contract.fallback is None else contract.conditions[contract.fallback].action
    actions = {c.condition_id: c.action for c in contract.conditions} | {NONE: fallback}
    written = {c.condition_id: c.text for c in contract.conditions}
    budget.charge(len(simplest) * _decision_steps(contract), "the examples' decisions")
    outcomes = tuple(
        Outcome(
            key,
            actions[key],
            tally[key],
            None if key not in simplest else _example(contract, run.matrix(simplest[key][1])),
            written.get(key),
        )
        for key in keys
    )
    space = space_size(contract)
    findings: list[Finding] = []
    none = outcomes[-1]
    if none.matrices:
        portion = (
            f"{compact(none.matrices)} of {compact(space)} matrices ({share(none.matrices, space)})"
        )
        examples = () if none.example is None else (none.example,)
        if contract.fallback is None:  # pragma: no cover - Schema 13.2 requires an F0 accept
            findings.append(
                Finding(NO_DECISION, ERROR, f"{portion} fire no condition", examples=examples)
            )
        else:
            source = contract.conditions[contract.fallback]
            findings.append(
                Finding(
                    FALLBACK,
                    WARNING,
                    f"{portion} fire no condition; R5 falls back to {source.condition_id}'s "
                    f"action {source.action}",
                    condition_id=source.condition_id,
                    examples=examples,
                )
            )
    unreachable = tuple(o.key for o in outcomes[:-1] if not o.matrices)
    violation = _non_monotone(run)
    # What shadows each unreachable condition is told, in contract order, within SHADOW_SHARE
    # of what the budget has left; past that, only that it never decides (the counts and the
    # other findings are exact). The share keeps the slowest accepted contract well inside
    # its few seconds (issue 38).
    told = Budget(limit=budget.remaining * SHADOW_SHARE[0] // SHADOW_SHARE[1])
    for key in unreachable:
        part = Budget(limit=told.remaining)
        try:
            findings.append(_unreachable(run, key, part))
        except AnalysisTooLarge:
            findings.append(
                Finding(
                    UNREACHABLE,
                    ERROR,
                    f"{key} never decides: no assignment of the eligible seats makes it the "
                    "deciding condition",
                    condition_id=key,
                )
            )
        told.charge(part.used, "what shadows the unreachable conditions")
        budget.charge(part.used, "what shadows the unreachable conditions")
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


#: The part of the budget left after the counts (numerator, denominator) that telling what
#: shadows the unreachable conditions may use.
SHADOW_SHARE: Final = (1, 4)


def _unreachable(first: _Run, key: str, budget: Budget) -> Finding:
    """AN-2 for ``key``: what shadows it (the conditions that decide whenever it fires, with
    the simplest such matrix), or that nothing satisfies it. One more combination tracks
    whether ``key`` fires beside the deciding condition, and one more whether each condition
    that decides in its place fires too."""
    contract = first.model.contracts[0]
    i = next(c.position for c in contract.conditions if c.condition_id == key)
    run = _Run(first.model.extended([i]), budget, like=first)
    fired = {
        state: found
        for state, found in run.final.items()
        if run.model.outcome(1, state[1]) is not None
    }
    if not fired:
        return Finding(
            UNREACHABLE,
            ERROR,
            f"{key} never decides: no assignment of the eligible seats satisfies "
            f"{contract.conditions[i].text}",
            condition_id=key,
        )
    deciding = {run.model.outcome(0, alive) for _, alive in fired}
    shadows = sorted(
        (c for c in deciding if c is not None), key=lambda c: contract.conditions[c].condition_id
    )
    ids = [contract.conditions[c].condition_id for c in shadows]
    both = _Run(first.model.extended([i, *shadows]), budget, like=first)
    firing = [alive for _, alive in both.final if both.model.outcome(1, alive) is not None]
    always = [
        c.condition_id
        for c in contract.conditions
        if c.position in shadows
        and all(both.model.outcome(2 + shadows.index(c.position), a) is not None for a in firing)
    ]
    _, _, rows = min(fired.values(), key=lambda found: found[1])
    budget.charge(_decision_steps(contract), "the finding's decision")
    return Finding(
        UNREACHABLE,
        ERROR,
        f"{key} never decides: {shadowed_by(always, ids)}",
        condition_id=key,
        examples=(_example(contract, run.matrix(rows)),),
    )


def _rank(action: str | None) -> int:
    return -1 if action is None else ACTION_RANK.get(action, -1)


def _worsenings(
    run: _Run, position: int
) -> dict[tuple[tuple[bool, ...], tuple[bool, ...]], tuple[tuple[str, ...], int]]:
    """Per pair of signatures (before, after) that one seat's worsening at ``position``
    changes: the first row and seat that does it."""
    contract = run.model.contracts[0]
    d = contract.dimensions[position]
    values = seat_values(d.priority)
    run.budget.charge(
        len(values) ** len(d.eligible_roles) * len(d.eligible_roles),
        f"monotonicity: the single-seat worsenings of {d.id}",
    )
    sign = _signer(run.model, contract, position)
    pairs: dict[tuple[tuple[bool, ...], tuple[bool, ...]], tuple[tuple[str, ...], int]] = {}
    for row in _rows(contract, position):
        for seat, value in enumerate(row):
            step = values.index(value) + 1
            if step == len(values):
                continue
            worse = (*row[:seat], values[step], *row[seat + 1 :])
            key = (sign(row), sign(worse))
            if key[0] != key[1] and key not in pairs:
                pairs[key] = (row, seat)
    return pairs


def _non_monotone(run: _Run) -> Finding | None:
    """The first single-seat worsening that makes the decision more lenient, or ``None``:
    for each dimension, each state the dimensions before it reach takes each worsening's
    two signatures, and the pair is carried through the dimensions after it (a pair whose
    two states agree can never differ again and is dropped)."""
    model = run.model
    contract = model.contracts[0]
    worsenings = [_worsenings(run, layer.position) for layer in run.layers]
    run.budget.check(
        sum(
            _steps(layer, len(start), 2 * len(pairs))
            for layer, start, pairs in zip(run.layers, run.before, worsenings, strict=True)
        ),
        "monotonicity: at least",
    )
    for k, layer in enumerate(run.layers):
        pairs = worsenings[k]
        if not pairs:
            continue
        start = run.before[k]
        run.budget.charge(
            _steps(layer, len(start), 2 * len(pairs)),
            f"monotonicity: {len(start):,} states x {len(pairs):,} worsenings of "
            f"{contract.dimensions[layer.position].id}",
        )
        joint: dict[tuple[_State, _State], tuple[Any, tuple[str, ...], int]] = {}
        for state, (_, _, rows) in start.items():
            for (before, after), (row, seat) in pairs.items():
                a = _apply(model, layer, state, before)
                b = _apply(model, layer, state, after)
                if a != b and (a, b) not in joint:
                    joint[a, b] = ((rows, row), row, seat)
        for later in run.layers[k + 1 :]:
            if not joint:
                break
            dist = run.dists[later.position]
            run.budget.charge(
                _steps(later, len(joint), len(dist)) * 2,
                f"monotonicity: {len(joint):,} pairs of states x {len(dist):,} signatures",
            )
            carried: dict[tuple[_State, _State], tuple[Any, tuple[str, ...], int]] = {}
            for (a, b), (rows, row, seat) in joint.items():
                for sig, (_, next_row, _) in dist.items():
                    pair = (_apply(model, later, a, sig), _apply(model, later, b, sig))
                    if pair[0] != pair[1] and pair not in carried:
                        carried[pair] = ((rows, next_row), row, seat)
            joint = carried
        for (a, b), (rows, row, seat) in joint.items():
            x = _key(contract, model.outcome(0, a[1]))[1]
            y = _key(contract, model.outcome(0, b[1]))[1]
            if _rank(y) < _rank(x):
                run.budget.charge(2 * _decision_steps(contract), "the finding's decisions")
                return _finding(run, k, rows, row, seat)
    return None


def _finding(run: _Run, k: int, rows: Any, row: tuple[str, ...], seat: int) -> Finding:
    contract = run.model.contracts[0]
    position = run.layers[k].position
    d = contract.dimensions[position]
    values = seat_values(d.priority)
    worse = (*row[:seat], values[values.index(row[seat]) + 1], *row[seat + 1 :])
    matrix = run.matrix(rows)
    before = _example(contract, matrix)
    after = _example(contract, {**matrix, d.id: dict(zip(d.eligible_roles, worse, strict=True))})
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
        if set(a.eligible_roles) != set(b.eligible_roles) or seat_values(a.priority) != seat_values(
            b.priority
        ):
            raise KernelError(
                f"{a.id} has other seats or seat values in {new.contract_id}; a diff compares "
                "two contracts over the same matrices"
            )


def diff_dimensionwise(old: Contract, new: Contract, budget: Budget | None = None) -> Any:
    """``analyze_diff`` for two 13.2 contracts over the same seats (``new``'s dimensions in
    ``old``'s order): one pass over the joint tests of both."""
    eligibility(old)
    eligibility(new)
    _same_seats(old, new)
    budget = Budget() if budget is None else budget
    model = _Model([(old, old.precedence), (new, new.precedence)])
    run = _Run(model, budget)
    tally: dict[tuple[str, str], int] = {}
    simplest: dict[tuple[str, str], tuple[int, Any]] = {}
    actions: dict[tuple[str, str], tuple[str | None, str | None]] = {}
    budget.charge(len(run.final) * (len(model.uses) + 8), "deciding the final states twice")
    for (_, alive), (count, cost, rows) in run.final.items():
        a, x = _key(old, model.outcome(0, alive))
        b, y = _key(new, model.outcome(1, alive))
        pair = (a, b)
        tally[pair] = tally.get(pair, 0) + count
        actions[pair] = (x, y)
        if pair not in simplest or cost < simplest[pair][0]:
            simplest[pair] = (cost, rows)
    old_keys = (*(c.condition_id for c in old.conditions), NONE)
    new_keys = (*(c.condition_id for c in new.conditions), NONE)
    budget.charge(
        len(tally) * (_decision_steps(old) + _decision_steps(new)), "the examples' decisions"
    )
    out = []
    for pair in sorted(tally, key=lambda p: (old_keys.index(p[0]), new_keys.index(p[1]))):
        matrix = run.matrix(simplest[pair][1])
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
