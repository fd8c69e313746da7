"""``decide(contract, matrix)``: the synthesizer's three mechanical steps (seed §5.5, R3-R9).

Speed comes from work done once per contract (:mod:`kernel.decision.engine`, on its second
decision, so that a one-off decision does not pay for it): a generated function turns a
well-formed matrix into the decision with integer bit operations. Every path reads the
matrix with :func:`~kernel.decision.matrix.read_matrix` first, which names the offending
entry of a malformed one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from kernel.contract.model import Contract
from kernel.decision.cache import compiled
from kernel.decision.engine import engine_for, lookup_of, seen_before
from kernel.decision.matrix import read_matrix
from kernel.decision.value import Decision, decide_counts, signature
from kernel.errors import KernelError, MatrixError
from kernel.expression.ast import SCORE_RANK

__all__ = ["Decision", "Matrix", "decide", "decide_counts", "decide_many", "signature"]

#: The slow path of each dialect: it checks everything and names what is wrong.
_SLOW: Final[dict[str, Callable[[Contract, object], Decision]]] = {
    "13": lambda contract, matrix: _decide_slowly(contract, matrix),
    "13.2": lambda contract, matrix: _decide_13_2(contract, matrix),
}


def _decide_13_2(contract: Contract, matrix: object) -> Decision:
    # Loaded on first use: a Schema 13 command line never pays for the 13.2 model.
    from kernel.decision.dimensionwise import decide_dimensionwise

    return decide_dimensionwise(contract, matrix)  # type: ignore[no-any-return]


#: A scoring matrix: Schema 13, dimension id → the reviewers' scores in reviewer order;
#: dialect 13.2, dimension id → role → the seat's value.
Matrix = Mapping[str, Sequence[str]] | Mapping[str, Mapping[str, str]]


def decide(contract: Contract | Mapping[str, Any] | str, matrix: Matrix) -> Decision:
    """Decide from ``matrix`` (Schema 13: dimension id → the ``panel_size`` reviewers'
    scores, in reviewer order; dialect 13.2: dimension id → role → value, 13.2 §J5).

    ``contract`` is a :class:`Contract` or anything :func:`load_contract` takes; a dict or a
    template name is compiled once and reused (:mod:`kernel.decision.cache`).

    Raises :class:`MatrixError` for a malformed matrix, :class:`PanelShrunk` when every
    dimension has the same number of scores but fewer than ``panel_size``, and
    :class:`ContractError` for a bad contract or when nothing fires and there is no fallback.
    """
    # A contract decided on before has its generated lookup registered under its id.
    return lookup_of(id(contract), _no_lookup)(matrix) or _decide(contract, matrix)


def _no_lookup(matrix: object) -> None:
    return None


def _decide(contract: Contract | Mapping[str, Any] | str, matrix: object) -> Decision:
    if type(contract) is not Contract:
        contract = compiled(contract)
    slow = _SLOW[contract.dialect]
    if not seen_before(contract):  # code is generated on the second decision
        return slow(contract, matrix)
    lookup = engine_for(contract).lookup
    if lookup is not None:
        found = lookup(matrix)
        if found is not None:
            return found
    return slow(contract, matrix)


def decide_many(
    contract: Contract | Mapping[str, Any] | str, matrices: Iterable[Matrix]
) -> list[Decision]:
    """``[decide(contract, m) for m in matrices]``, with the contract resolved once.

    The first matrix that cannot be decided raises the error :func:`decide` raises for it,
    its message prefixed with ``matrices[<index>]: ``.
    """
    if type(contract) is not Contract:
        contract = compiled(contract)
    if not isinstance(matrices, Iterable) or isinstance(matrices, str | bytes | Mapping):
        raise MatrixError(
            f"matrices must be a list (or iterable) of matrices, got {type(matrices).__name__}"
        )
    matrices = matrices if type(matrices) is list else list(matrices)
    slow = _SLOW[contract.dialect]
    lookup = engine_for(contract).lookup
    found: list[Decision] = []
    for i, matrix in enumerate(matrices):
        try:
            found.append(
                (lookup(matrix) if lookup is not None else None) or slow(contract, matrix)
            )
        except KernelError as exc:
            _prefix(exc, f"matrices[{i}]: ")
            raise
    return found


def _prefix(error: KernelError, where: str) -> None:
    error.message = where + error.message
    error.args = (error.message, *error.args[1:])
    error.errors = [where + e for e in error.errors]


def _decide_slowly(contract: Contract, matrix: object) -> Decision:
    rows = read_matrix(matrix, contract.dimension_ids, contract.panel_size)
    counts = [0] * len(contract.conditions)
    for column in zip(*rows, strict=True):
        ranks = [SCORE_RANK[s] for s in column]
        for i, condition in enumerate(contract.conditions):
            if condition.predicate.holds(ranks):
                counts[i] += 1
    return decide_counts(contract, counts)
