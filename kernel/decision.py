"""``decide(contract, matrix)``: the synthesizer's three mechanical steps (seed §5.5, R3-R9).

Speed comes from work done once per contract (:func:`build_engine`, on the first decision):
every decision is precomputed by count vector, and :mod:`kernel.fastpath` compiles a function
that turns a matrix into those counts with integer bit operations. Any input the fast path
does not recognise falls through to :func:`_diagnose`, which names the offending entry.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

import attrs

from kernel.ast import SCORE_RANK
from kernel.errors import ContractError, MatrixError, PanelShrunk
from kernel.fastpath import MAX_PANEL, Lookup, compile_lookup
from kernel.model import Contract, load_contract
from kernel.quantifiers import winner

__all__ = ["Decision", "build_engine", "decide", "decide_counts", "signature"]

#: Precompute every decision when there are at most this many count vectors.
DECISIONS_MAX: Final = 20_000

_ROW_TYPES: Final = (list, tuple)


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
    #: The compiled fast path (:mod:`kernel.fastpath`), or ``None`` for panels too large.
    lookup: Lookup | None


def _resolve(contract: Contract) -> Callable[[tuple[int, ...]], Decision | None]:
    def resolve(counts: tuple[int, ...]) -> Decision | None:
        try:
            return decide_counts(contract, counts)
        except ContractError:
            return None

    return resolve


def build_engine(contract: Contract) -> _Engine:
    """Precompute every decision by count vector (when there are few enough) and compile the
    fast path."""
    k = len(contract.conditions)
    n = contract.panel_size
    width = n.bit_length()
    resolve = _resolve(contract)
    decisions: dict[int, Decision | None] | None = None
    if n <= MAX_PANEL and (n + 1) ** k <= DECISIONS_MAX:
        decisions = {
            sum(c << (i * width) for i, c in enumerate(counts)): resolve(counts)
            for counts in itertools.product(range(n + 1), repeat=k)
        }
    return _Engine(compile_lookup(contract, decisions, width, resolve))


def decide(contract: Contract | Mapping[str, Any], matrix: Mapping[str, Sequence[str]]) -> Decision:
    """Decide from ``matrix`` (dimension id → the ``panel_size`` reviewers' scores, in
    reviewer order).

    Raises :class:`MatrixError` for a malformed matrix, :class:`PanelShrunk` when every
    dimension has the same number of scores but fewer than ``panel_size``, and
    :class:`ContractError` for a bad contract or when nothing fires and there is no fallback.
    """
    if type(contract) is not Contract:
        contract = load_contract(contract)
    lookup = contract.engine.lookup
    if lookup is not None:
        found = lookup(matrix)
        if found is not None:
            return found
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
