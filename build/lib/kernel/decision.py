"""``decide(contract, matrix)``: the synthesizer's three mechanical steps (seed §5.5, R3-R9).

Speed comes from work done once per contract (:func:`build_engine`): every possible reviewer
column maps to a packed integer holding one counter per condition plus a reviewer counter,
so a decision is one sum over the columns and one dictionary look-up. Any input the fast path
does not recognise falls through to :func:`_diagnose`, which names the offending entry.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

import attrs

from kernel.ast import SCORE_RANK, SCORES
from kernel.errors import ContractError, MatrixError, PanelShrunk
from kernel.model import Contract, load_contract
from kernel.quantifiers import winner

__all__ = ["Decision", "build_engine", "decide", "decide_counts", "signature"]

#: Build the column table when the contract has at most this many dimensions (3**8 columns).
TABLE_MAX_DIMENSIONS: Final = 8
#: Precompute every decision when there are at most this many count vectors.
DECISIONS_MAX: Final = 20_000

_ROW_TYPES: Final = (list, tuple)
_ROW_TYPE_SET: Final = frozenset(_ROW_TYPES)


@attrs.frozen
class Decision:
    """An editorial decision and how it was reached."""

    action: str
    #: The deciding condition, or ``None`` when nothing fired and R5's fallback applied.
    condition_id: str | None
    fallback: bool
    #: condition id → fired, in contract order.
    fired: Mapping[str, bool]
    #: condition id → number of reviewers whose column satisfied the predicate.
    counts: Mapping[str, int]
    #: condition id → reviewers needed to fire (R1).
    thresholds: Mapping[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "condition_id": self.condition_id,
            "fallback": self.fallback,
            "fired": dict(self.fired),
            "counts": dict(self.counts),
            "thresholds": dict(self.thresholds),
        }


def decide_counts(contract: Contract, counts: Sequence[int]) -> Decision:
    """The decision given, per condition in contract order, how many reviewers satisfied it."""
    ids = [c.condition_id for c in contract.conditions]
    fired = [n >= c.threshold for n, c in zip(counts, contract.conditions, strict=True)]
    position = winner(contract.precedence, fired)
    if position is None:
        if contract.fallback is None:
            raise ContractError(
                f"{contract.contract_id}: no condition fired and no condition has action "
                "editorial_decision=accept to fall back on (R5, SC-13)"
            )
        action, condition_id, fallback = contract.conditions[contract.fallback].action, None, True
    else:
        action, condition_id = contract.conditions[position].action, ids[position]
        fallback = False
    return Decision(
        action=action,
        condition_id=condition_id,
        fallback=fallback,
        fired=MappingProxyType(dict(zip(ids, fired, strict=True))),
        counts=MappingProxyType(dict(zip(ids, counts, strict=True))),
        thresholds=MappingProxyType({c.condition_id: c.threshold for c in contract.conditions}),
    )


def signature(contract: Contract, column: Sequence[int]) -> tuple[bool, ...]:
    """Which conditions' predicates hold for one reviewer's column of score ranks."""
    return tuple(c.predicate.holds(column) for c in contract.conditions)


@attrs.frozen
class _Engine:
    ndims: int
    #: Both tables exist (the contract is small enough to precompute).
    fast: bool
    #: matrix → its rows in dimension order.
    rows_of: Callable[[Any], Sequence[Any]]
    #: column of score strings → packed increment: one counter per condition, plus one for
    #: the reviewer count in the top field.
    value: Callable[[tuple[str, ...]], int]
    #: packed total for a full panel → decision (None where no decision exists).
    decisions: Mapping[int, Decision | None]


def build_engine(contract: Contract) -> _Engine:
    k = len(contract.conditions)
    n = contract.panel_size
    width = n.bit_length()
    dim_ids = tuple(d.id for d in contract.dimensions)
    table: dict[tuple[str, ...], int] | None = None
    if len(dim_ids) <= TABLE_MAX_DIMENSIONS:
        reviewer = 1 << (k * width)
        table = {}
        for column in itertools.product(range(3), repeat=len(dim_ids)):
            holds = signature(contract, column)
            packed = reviewer + sum(1 << (i * width) for i, h in enumerate(holds) if h)
            table[tuple(SCORES[r] for r in column)] = packed
    decisions: dict[int, Decision | None] | None = None
    if table is not None and (n + 1) ** k <= DECISIONS_MAX:
        decisions = {}
        for counts in itertools.product(range(n + 1), repeat=k):
            total = (n << (k * width)) + sum(c << (i * width) for i, c in enumerate(counts))
            try:
                decisions[total] = decide_counts(contract, counts)
            except ContractError:
                decisions[total] = None
    rows_of: Callable[[Any], Sequence[Any]] = (
        operator.itemgetter(*dim_ids) if len(dim_ids) > 1 else lambda m: (m[dim_ids[0]],)
    )
    if table is None or decisions is None:
        return _Engine(len(dim_ids), False, rows_of, _no_table, {})
    return _Engine(len(dim_ids), True, rows_of, table.__getitem__, decisions)


def _no_table(column: tuple[str, ...]) -> int:
    raise KeyError(column)


def decide(contract: Contract | Mapping[str, Any], matrix: Mapping[str, Sequence[str]]) -> Decision:
    """Decide from ``matrix`` (dimension id → the ``panel_size`` reviewers' scores, in
    reviewer order).

    Raises :class:`MatrixError` for a malformed matrix, :class:`PanelShrunk` when every
    dimension has the same number of scores but fewer than ``panel_size``, and
    :class:`ContractError` for a bad contract or when nothing fires and there is no fallback.
    """
    if type(contract) is not Contract:
        contract = load_contract(contract)
    engine: _Engine = contract.engine
    if engine.fast:
        try:
            if len(matrix) == engine.ndims:
                rows = engine.rows_of(matrix)
                if _ROW_TYPE_SET.issuperset(map(type, rows)):
                    found = engine.decisions[sum(map(engine.value, zip(*rows, strict=True)))]
                    if found is not None:
                        return found
        except (KeyError, TypeError, ValueError):
            pass
    return _decide_slowly(contract, matrix)


def _decide_slowly(contract: Contract, matrix: object) -> Decision:
    rows = _diagnose(contract, matrix)
    counts = [0] * len(contract.conditions)
    for column in zip(*rows, strict=True):
        ranks = [SCORE_RANK[s] for s in column]
        for i, condition in enumerate(contract.conditions):
            if condition.predicate.holds(ranks):
                counts[i] += 1
    return decide_counts(contract, counts)


def _diagnose(contract: Contract, matrix: object) -> list[Sequence[str]]:
    """Check the matrix against R9 and return its rows in dimension order, or raise."""
    if not isinstance(matrix, Mapping):
        raise MatrixError(
            f"matrix must map dimension ids to lists of scores, got {type(matrix).__name__}"
        )
    ids = [d.id for d in contract.dimensions]
    known = set(ids)
    for key in matrix:
        if key not in known:
            raise MatrixError(
                f"matrix[{key!r}]: unknown dimension id (contract dimensions: {', '.join(ids)})"
            )
    missing = [d for d in ids if d not in matrix]
    if missing:
        raise MatrixError(f"matrix: missing scores for dimension(s) {', '.join(missing)}")
    n = contract.panel_size
    rows: list[Sequence[str]] = []
    for d in ids:
        row = matrix[d]
        if not isinstance(row, _ROW_TYPES):
            raise MatrixError(
                f"matrix[{d!r}]: expected a list of {n} scores, got {type(row).__name__}"
            )
        for j, score in enumerate(row):
            if not isinstance(score, str) or score not in SCORE_RANK:
                raise MatrixError(f"matrix[{d!r}][{j}]: {score!r} is not a score (block|warn|pass)")
        rows.append(row)
    lengths = {len(r) for r in rows}
    if len(lengths) > 1:
        detail = ", ".join(f"{d} has {len(r)}" for d, r in zip(ids, rows, strict=True))
        raise MatrixError(f"matrix rows have different lengths ({detail}); expected {n} each")
    (length,) = lengths
    if length > n:
        raise MatrixError(
            f"matrix[{ids[0]!r}]: {length} scores for panel_size={n}; more than the panel"
        )
    if length < n:
        raise PanelShrunk(length, n)
    return rows
