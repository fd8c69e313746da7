"""The dialect 13.2 decision (13.2 §D, §J5): per dimension, then across dimensions.

The matrix maps each dimension id to its seats' values by role: ``pass``, ``warn``,
``block`` or ``not_assessed``, and on a dimension that is mandatory and eligible for the role
a classed block, ``block:fatal`` or ``block:repairable``. For each atom of a condition and
each dimension it selects, the cross-reviewer quantifier counts the dimension's *assessed
eligible* seats (``n``; ineligible and abstaining seats are in neither count); the
threshold is the shared one (R1: ``any`` 1, ``majority`` ⌊n/2⌋ + 1, ``all`` n). The atom
then combines its dimensions (any, every, two or more), and the condition holds when every
atom does. Precedence and the fallback are the 13 decision's (R5, R6).

The caller's matrix is read once, through its own iteration, into plain values
(:func:`snapshot`); anything it raises while being read is a :class:`MatrixError` naming the
key, and only exact ``str`` values are scores.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

import attrs

from kernel.contract.model import Contract
from kernel.contract.quantifiers import threshold
from kernel.decision.matrix import entries, named
from kernel.errors import ContractError, MatrixError, SeatDropped
from kernel.expression.ast import SEAT_VALUES
from kernel.strict import shown

__all__ = [
    "AtomTrace",
    "DimensionCount",
    "Plan",
    "SeatFlip",
    "cells_of",
    "decide_dimensionwise",
    "dimension_verdicts",
    "eligibility",
    "plan_of",
    "planned_decision",
    "read_matrix",
    "seat_flips",
    "snapshot",
]

NOT_ASSESSED: Final = "not_assessed"
_PLAIN: Final = frozenset({"pass", "warn", "block", NOT_ASSESSED})
_MANDATORY: Final = frozenset({"pass", "warn", "block:fatal", "block:repairable", NOT_ASSESSED})
_ALL: Final = frozenset({*SEAT_VALUES, NOT_ASSESSED})


@attrs.frozen
class DimensionCount:
    """One dimension under one atom: ``n`` assessed eligible seats, ``count`` of them
    satisfied the atom, ``threshold`` needed, ``held``."""

    dimension: str
    n: int
    count: int
    threshold: int
    held: bool

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class AtomTrace:
    """One atom of a condition: its text, how its dimensions combine, each dimension."""

    atom: str
    across: str
    dimensions: tuple[DimensionCount, ...]
    held: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "atom": self.atom,
            "across": self.across,
            "held": self.held,
            "dimensions": [d.to_dict() for d in self.dimensions],
        }


def snapshot(value: object, where: str, size: int) -> dict[str, object]:
    """A plain ``dict`` of a caller's mapping of at most ``size`` entries, read once through
    its own iteration (:func:`~kernel.decision.matrix.entries`, the reader every dialect
    shares): keys must be exact strings, each listed once. Whatever the mapping raises is a
    :class:`MatrixError` naming ``where`` and the key."""
    if not isinstance(value, Mapping):
        raise MatrixError(f"{where}: expected a mapping, got {type(value).__name__}")
    out: dict[str, object] = {}
    for key, item in entries(value, where, size):
        if type(key) is not str:
            raise MatrixError(f"{where}: key {shown(key)} is not a string")
        if key in out:
            raise MatrixError(f"{where}[{shown(key)}]: listed twice by the mapping's iteration")
        out[key] = item
    return out


def eligibility(contract: Contract) -> None:
    """Refuse a contract the 13.2 decision cannot take: a writer or evaluator contract, or a
    panel size that does not fit the mode (13.2 §D7)."""
    if not contract.roles:
        raise ContractError(
            f"{contract.contract_id}: mode {contract.mode} has no executable decision "
            "procedure (13.2 decides reviewer panels only)"
        )
    expected = len(contract.roles)
    if contract.panel_size != expected:
        found = (
            f"panel_size={contract.panel_size} inconsistent with mode={contract.mode}; "
            f"expected {expected}"
        )
        raise ContractError(
            f"{contract.contract_id}: {found}: decide refuses every matrix of this contract",
            tag=f"[CONTRACT-INELIGIBLE: {found}]",
        )


def _whole_panel(contract: Contract, by_dimension: Mapping[str, Mapping[str, object]]) -> None:
    """The matrix's seats are the mode's roles (13.2 §G6). A role the mode does not have (an
    extra seat) is a :class:`MatrixError`; a role with no value anywhere (a dropped seat) is
    a :class:`~kernel.errors.SeatDropped`, a ``PanelShrunk`` and a ``MatrixError``. Both
    carry the tag ``[PANEL-CARDINALITY: roles … != required …]`` on ``.tag`` (not in the
    message, as ``PanelShrunk``'s, so a command line prints it once)."""
    seated = {role for seats in by_dimension.values() for role in seats}
    required = sorted(contract.roles)
    tag = f"[PANEL-CARDINALITY: roles {sorted(seated)!r} != required {required!r}]"
    for d, seats in by_dimension.items():
        for role in seats:
            if role not in contract.roles:
                raise MatrixError(
                    f"matrix[{shown(d)}][{shown(role)}]: unknown role (roles of "
                    f"{contract.mode}: {', '.join(contract.roles)})",
                    tag=tag,
                )
    dropped = [r for r in contract.roles if r not in seated]
    if dropped:
        raise SeatDropped(
            len(contract.roles) - len(dropped),
            contract.panel_size,
            message=f"matrix: no value of the seat(s) {', '.join(dropped)} of {contract.mode}",
            tag=tag,
        )


def _missing_tag(
    contract: Contract, by_dimension: Mapping[str, Mapping[str, object]], role: str
) -> str:
    """The tag of a seat whose values leave out dimensions it is eligible for: its report
    would miss those Dimension Scores (13.2 F4), every one named in contract order."""
    missing = [
        d.id
        for d in contract.dimensions
        if role in d.eligible_roles and role not in by_dimension[d.id]
    ]
    return f"[REPORT-PARSE: {role}: missing Dimension Scores for {missing!r}]"


def read_matrix(contract: Contract, matrix: object) -> tuple[tuple[str, ...], ...]:
    """Per dimension in contract order, the assessed eligible seats' values (role order);
    or a :class:`MatrixError` saying what does not fit."""
    rows = snapshot(matrix, "matrix", len(contract.dimensions))
    ids = contract.dimension_ids
    for key in rows:
        if key not in ids:
            raise MatrixError(
                f"matrix[{shown(key)}]: unknown dimension id "
                f"(contract dimensions: {', '.join(ids)})"
            )
    missing = [d for d in ids if d not in rows]
    if missing:
        raise MatrixError(f"matrix: missing scores for dimension(s) {', '.join(missing)}")
    by_dimension = {
        d.id: snapshot(rows[d.id], f"matrix[{shown(d.id)}]", len(contract.roles))
        for d in contract.dimensions
    }
    _whole_panel(contract, by_dimension)
    out = []
    for d in contract.dimensions:
        where = f"matrix[{shown(d.id)}]"
        seats = by_dimension[d.id]
        allowed = _MANDATORY if d.priority == "mandatory" else _PLAIN
        assessed = []
        for role in contract.roles:
            eligible = role in d.eligible_roles
            if role not in seats:
                if eligible:
                    raise MatrixError(
                        f"{where}: missing the value of eligible role {role}",
                        tag=_missing_tag(contract, by_dimension, role),
                    )
                continue
            value = seats[role]
            at = f"{where}[{shown(role)}]"
            if type(value) is not str or value not in _ALL:
                raise MatrixError(
                    f"{at}: {named(value)} is not a seat value "
                    "(pass|warn|block|block:fatal|block:repairable|not_assessed)"
                )
            if not eligible:
                if value != NOT_ASSESSED:
                    raise MatrixError(
                        f"{at}: {value} from role {role}, which may not score {d.id} "
                        f"(eligible roles: {', '.join(d.eligible_roles)}); expected "
                        "not_assessed",
                        tag=f"[OUT-OF-ROLE-SCORE: role {role} may not score {d.id}]",
                    )
                continue
            if value not in allowed:
                need = (
                    "block:fatal or block:repairable (a mandatory dimension's block has a class)"
                    if value == "block"
                    else "a bare block (only a mandatory dimension's block has a class)"
                )
                raise MatrixError(
                    f"{at}: {value} on {d.priority} dimension {d.id}; expected {need}"
                )
            if value != NOT_ASSESSED:
                assessed.append(value)
        if not assessed:
            raise MatrixError(
                f"{where}: no eligible seat assessed it (eligible roles: "
                f"{', '.join(d.eligible_roles)})",
                tag=f"[DIMENSION-UNASSESSED: {d.id}]",
            )
        out.append(tuple(assessed))
    return tuple(out)


#: How an atom combines its dimensions' results.
ACROSS: Final[dict[str, Callable[[list[bool]], bool]]] = {
    "any": any,
    "every": all,
    "two": lambda held: sum(held) >= 2,
}

_WORST: Final = {"pass": 0, "warn": 1, "block": 2, "block:repairable": 2, "block:fatal": 3}
#: The verdicts of 13.2 §D6, by rank.
VERDICTS: Final = ("pass", "warn", "block", "block(fatal)")


def verdict_rank(value: str) -> int:
    """A seat value's rank among :data:`VERDICTS`."""
    return _WORST[value]


def allowed_values(priority: str) -> tuple[str, ...]:
    """What an eligible seat may give a dimension of ``priority`` (``not_assessed`` aside)."""
    return _ORDERED[priority == "mandatory"]


_ORDERED: Final = {
    False: ("pass", "warn", "block"),
    True: ("pass", "warn", "block:repairable", "block:fatal"),
}


def dimension_verdicts(contract: Contract, rows: tuple[tuple[str, ...], ...]) -> dict[str, str]:
    """13.2 §D6: per dimension, the worst assessed value; ``block(fatal)`` when a seat gave a
    fatal block."""
    return {
        d.id: VERDICTS[max(_WORST[v] for v in row)]
        for d, row in zip(contract.dimensions, rows, strict=True)
    }


@attrs.frozen
class Plan:
    """A contract's atoms merged, the work of one decision bounded by the vocabulary, not by
    the text: a dimension's result under an atom depends only on the seat values that satisfy
    the atom (its *seat set*: the vocabulary has six) and the condition's quantifier, so each
    dimension's seats are counted once per seat set, each distinct test (seat set, scope,
    across, quantifier) is evaluated once, and an atom written twice in one condition (AND is
    idempotent) is traced once."""

    #: The distinct seat sets the atoms test.
    seat_sets: tuple[frozenset[str], ...]
    #: Per dimension position: the seat sets (indices) of the atoms that select it.
    reads: tuple[tuple[int, ...], ...]
    #: The distinct tests: (per selected dimension ``(position, slot in reads[position])``,
    #: across, quantifier).
    tests: tuple[tuple[tuple[tuple[int, int], ...], str, str], ...]
    #: The distinct traced atoms: (text, across, test index).
    atoms: tuple[tuple[str, str, int], ...]
    #: Per condition: its distinct atoms (indices into :attr:`atoms`), first written first.
    conditions: tuple[tuple[int, ...], ...]

    @property
    def cells(self) -> int:
        """How many per-dimension counts one decision's trace holds (its size)."""
        return sum(len(pairs) for pairs, _, _ in self.tests)


_PLANS: dict[int, Plan] = {}


def plan_of(contract: Contract) -> Plan:
    """The contract's :class:`Plan`, made on first use and dropped with the contract."""
    key = id(contract)
    found = _PLANS.get(key)
    if found is None:
        found = _PLANS[key] = _plan(contract)
        weakref.finalize(contract, _PLANS.pop, key, None)
    return found


def _written_atoms(text: str, atoms: int) -> list[str] | None:
    """The atoms as the contract writes them (13.2 joins atoms by exactly `` AND ``), so a
    trace quotes the contract's own words, not the canonical spelling of the same atom."""
    pieces = text.strip().split(" AND ")
    return pieces if len(pieces) == atoms else None


def _plan(contract: Contract) -> Plan:
    seat_sets: dict[frozenset[str], int] = {}
    reads: list[dict[int, int]] = [{} for _ in contract.dimensions]
    tests: dict[tuple[tuple[tuple[int, int], ...], str, str], int] = {}
    atoms: dict[tuple[object, tuple[int, ...], str], int] = {}
    rows: list[tuple[str, str, int]] = []
    conditions = []
    for c in contract.conditions:
        mine: dict[int, None] = {}
        written = _written_atoms(c.text, len(c.expression.atoms))
        for k, (atom, scope) in enumerate(zip(c.expression.atoms, c.predicate.scopes, strict=True)):
            key = (atom, scope, c.quantifier)
            index = atoms.get(key)
            if index is None:
                s = seat_sets.setdefault(atom.seats, len(seat_sets))
                pairs = tuple((p, reads[p].setdefault(s, len(reads[p]))) for p in scope)
                test = tests.setdefault((pairs, atom.across, c.quantifier), len(tests))
                index = atoms[key] = len(rows)
                rows.append((written[k] if written else str(atom), atom.across, test))
            mine[index] = None
        conditions.append(tuple(mine))
    return Plan(
        seat_sets=tuple(seat_sets),
        reads=tuple(tuple(r) for r in reads),
        tests=tuple(tests),
        atoms=tuple(rows),
        conditions=tuple(conditions),
    )


def cells_of(plan: Plan, position: int, row: Sequence[str]) -> tuple[int, ...]:
    """How many of the assessed values ``row`` of the dimension at ``position`` are in each
    seat set the plan reads there."""
    sets = plan.seat_sets
    return tuple(sum(v in sets[s] for v in row) for s in plan.reads[position])


def decide_dimensionwise(contract: Contract, matrix: object) -> Any:
    """The 13.2 decision with its trace; see the module docstring."""
    eligibility(contract)
    rows = read_matrix(contract, matrix)
    plan = plan_of(contract)
    return planned_decision(
        contract,
        plan,
        [len(row) for row in rows],
        [cells_of(plan, p, row) for p, row in enumerate(rows)],
        dimension_verdicts(contract, rows),
    )


def planned_decision(
    contract: Contract,
    plan: Plan,
    n: Sequence[int],
    cells: Sequence[Sequence[int]],
    verdicts: Mapping[str, str],
) -> Any:
    """The decision and its trace from, per dimension, its assessed eligible seats ``n`` and
    how many of them are in each seat set the plan reads there (:func:`cells_of`). The slow
    path counts them from the matrix, the generated one keeps them in its tables; both end
    here."""
    from kernel.decision.value import decide_fired

    ids = contract.dimension_ids
    results = []
    for pairs, across, quantifier in plan.tests:
        per = []
        for p, k in pairs:
            count, need = cells[p][k], threshold(quantifier, n[p])
            per.append(DimensionCount(ids[p], n[p], count, need, count >= need))
        results.append((tuple(per), ACROSS[across]([x.held for x in per])))
    atoms = [AtomTrace(text, across, *results[test]) for text, across, test in plan.atoms]
    traces: dict[str, tuple[AtomTrace, ...]] = {}
    fired, counts, thresholds = [], [], []
    for c, mine in zip(contract.conditions, plan.conditions, strict=True):
        out = tuple(atoms[a] for a in mine)
        traces[c.condition_id] = out
        counts.append(sum(a.held for a in out))
        thresholds.append(len(out))
        fired.append(all(a.held for a in out))
    return decide_fired(
        contract,
        fired,
        counts=counts,
        thresholds=thresholds,
        trace=MappingProxyType(traces),
        verdicts=MappingProxyType(dict(verdicts)),
    )


@attrs.frozen
class SeatFlip:
    """One seat's value changed, and the decision it gives instead."""

    dimension: str
    role: str
    before: str
    after: str
    action: str
    condition_id: str | None

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def __str__(self) -> str:
        why = self.condition_id or "R5 fallback"
        return f"{self.dimension}[{self.role}] {self.before} -> {self.after}: {self.action} ({why})"


def _test_held(plan: Plan, test: int, n: Sequence[int], cells: Sequence[Sequence[int]]) -> bool:
    pairs, across, quantifier = plan.tests[test]
    return ACROSS[across]([cells[p][k] >= threshold(quantifier, n[p]) for p, k in pairs])


def seat_flips(contract: Contract, matrix: object) -> tuple[SeatFlip, ...]:
    """Every change of one eligible seat's value (``not_assessed`` included) that changes the
    action of a decidable matrix; a change that makes the matrix undecidable is left out.

    Each change recounts only its dimension and re-evaluates only the tests that select it,
    so the work is bounded by the plan, not by the number of atoms written."""
    from kernel.decision.value import decide_fired

    decision = decide_dimensionwise(contract, matrix)
    rows = {
        d: snapshot(r, f"matrix[{shown(d)}]", len(contract.roles))
        for d, r in snapshot(matrix, "matrix", len(contract.dimensions)).items()
    }
    plan = plan_of(contract)
    assessed = read_matrix(contract, matrix)
    n = [len(row) for row in assessed]
    cells = [cells_of(plan, p, row) for p, row in enumerate(assessed)]
    held = [_test_held(plan, t, n, cells) for t in range(len(plan.tests))]
    users: list[list[int]] = [[] for _ in plan.tests]
    failing = []
    for c, mine in enumerate(plan.conditions):
        tests = {plan.atoms[a][2] for a in mine}
        for t in tests:
            users[t].append(c)
        failing.append(sum(not held[t] for t in tests))
    selecting: list[list[int]] = [[] for _ in contract.dimensions]
    for t, (pairs, _, _) in enumerate(plan.tests):
        for p, _ in pairs:
            selecting[p].append(t)
    none = [0] * len(contract.conditions)
    out = []
    for d in contract.dimensions:
        p = d.position
        eligible = [r for r in contract.roles if r in d.eligible_roles]
        for role in eligible:
            before = rows[d.id][role]
            for after in (*allowed_values(d.priority), NOT_ASSESSED):
                if after == before:
                    continue
                seats = {**rows[d.id], role: after}
                row = tuple(str(seats[r]) for r in eligible if seats[r] != NOT_ASSESSED)
                if not row:  # no eligible seat assessed it: undecidable
                    continue
                n2 = [*n[:p], len(row), *n[p + 1 :]]
                cells2 = [*cells[:p], cells_of(plan, p, row), *cells[p + 1 :]]
                fails = list(failing)
                for t in selecting[p]:
                    now = _test_held(plan, t, n2, cells2)
                    if now != held[t]:
                        for c in users[t]:
                            fails[c] += -1 if now else 1
                other = decide_fired(
                    contract, [f == 0 for f in fails], counts=none, thresholds=none
                )
                if other.action != decision.action:
                    out.append(
                        SeatFlip(d.id, role, str(before), after, other.action, other.condition_id)
                    )
    return tuple(out)
