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

from collections.abc import Callable, Mapping
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
    "SeatFlip",
    "decide_dimensionwise",
    "dimension_verdicts",
    "eligibility",
    "read_matrix",
    "seat_flips",
    "snapshot",
    "traced_decision",
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
        tag = (
            f"[CONTRACT-INELIGIBLE: panel_size={contract.panel_size} inconsistent with "
            f"mode={contract.mode}; expected {expected}]"
        )
        raise ContractError(f"{contract.contract_id}: {tag}", tag=tag)


def _whole_panel(contract: Contract, by_dimension: Mapping[str, Mapping[str, object]]) -> None:
    """The matrix's seats are the mode's roles (13.2 §G6). A role the mode does not have (an
    extra seat) is a :class:`MatrixError`; a role with no value anywhere (a dropped seat) is
    a :class:`~kernel.errors.SeatDropped`, a ``PanelShrunk`` and a ``MatrixError``. Both
    carry the tag ``[PANEL-CARDINALITY: roles … != required …]``."""
    seated = {role for seats in by_dimension.values() for role in seats}
    required = sorted(contract.roles)
    tag = f"[PANEL-CARDINALITY: roles {sorted(seated)!r} != required {required!r}]"
    for d, seats in by_dimension.items():
        for role in seats:
            if role not in contract.roles:
                raise MatrixError(
                    f"matrix[{shown(d)}][{shown(role)}]: unknown role (roles of "
                    f"{contract.mode}: {', '.join(contract.roles)}) {tag}",
                    tag=tag,
                )
    dropped = [r for r in contract.roles if r not in seated]
    if dropped:
        raise SeatDropped(
            len(contract.roles) - len(dropped),
            contract.panel_size,
            message=f"matrix: no value of the seat(s) {', '.join(dropped)} {tag}",
            tag=tag,
        )


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
                    raise MatrixError(f"{where}: missing the value of eligible role {role}")
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
                    tag = f"[OUT-OF-ROLE-SCORE: role {role} may not score {d.id}]"
                    raise MatrixError(f"{at}: {tag}", tag=tag)
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
            tag = f"[DIMENSION-UNASSESSED: {d.id}]"
            raise MatrixError(f"{where}: no eligible seat assessed it {tag}", tag=tag)
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


def decide_dimensionwise(contract: Contract, matrix: object) -> Any:
    """The 13.2 decision with its trace; see the module docstring."""
    eligibility(contract)
    rows = read_matrix(contract, matrix)

    def seats(condition: int, atom: int, position: int) -> tuple[int, int]:
        row = rows[position]
        wanted = contract.conditions[condition].expression.atoms[atom].seats
        return len(row), sum(1 for v in row if v in wanted)

    return traced_decision(contract, seats, dimension_verdicts(contract, rows))


def traced_decision(
    contract: Contract,
    seats: Callable[[int, int, int], tuple[int, int]],
    verdicts: Mapping[str, str],
) -> Any:
    """The decision and its trace, from ``seats(condition, atom, position)``: the assessed
    eligible seats of that dimension and how many of them satisfy that atom. The slow path
    counts them from the matrix, the generated one from its tables; both end here."""
    from kernel.decision.value import decide_fired

    traces: dict[str, tuple[AtomTrace, ...]] = {}
    fired, counts = [], []
    for i, c in enumerate(contract.conditions):
        out = []
        for j, (atom, scope) in enumerate(zip(c.expression.atoms, c.predicate.scopes, strict=True)):
            per = []
            for p in scope:
                n, count = seats(i, j, p)
                need = threshold(c.quantifier, n)
                per.append(DimensionCount(contract.dimensions[p].id, n, count, need, count >= need))
            held = ACROSS[atom.across]([x.held for x in per])
            out.append(AtomTrace(str(atom), atom.across, tuple(per), held))
        traces[c.condition_id] = tuple(out)
        counts.append(sum(a.held for a in out))
        fired.append(all(a.held for a in out))
    return decide_fired(
        contract,
        fired,
        counts=counts,
        thresholds=[len(c.expression.atoms) for c in contract.conditions],
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


def seat_flips(contract: Contract, matrix: object) -> tuple[SeatFlip, ...]:
    """Every change of one eligible seat's value (``not_assessed`` included) that changes the
    action of a decidable matrix; a change that makes the matrix undecidable is left out."""
    decision = decide_dimensionwise(contract, matrix)
    rows = {
        d: snapshot(r, f"matrix[{shown(d)}]", len(contract.roles))
        for d, r in snapshot(matrix, "matrix", len(contract.dimensions)).items()
    }
    out = []
    for d in contract.dimensions:
        for role in (r for r in contract.roles if r in d.eligible_roles):
            before = rows[d.id][role]
            for after in (*allowed_values(d.priority), NOT_ASSESSED):
                if after == before:
                    continue
                changed = {k: dict(v) for k, v in rows.items()}
                changed[d.id][role] = after
                try:
                    other = decide_dimensionwise(contract, changed)
                except MatrixError:
                    continue
                if other.action != decision.action:
                    out.append(
                        SeatFlip(d.id, role, str(before), after, other.action, other.condition_id)
                    )
    return tuple(out)
