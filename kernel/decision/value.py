"""The :class:`Decision` value and the last mechanical step: from reviewer counts per condition
to the decision (R1 thresholds, R6 precedence, R5 fallback)."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

import attrs

from kernel.contract.model import Contract
from kernel.contract.quantifiers import winner
from kernel.errors import ContractError, KernelError

__all__ = [
    "Decision",
    "decide_counts",
    "decide_fired",
    "held_weakly",
    "register_explainer",
    "signature",
    "trace_dict",
]

#: What writes a decision's text: ``(contract, decision, matrix) -> text``. It lives above this
#: module (:mod:`kernel.decision.explain`, which the :mod:`kernel.decision` package loads
#: first) and registers itself here, so that imports point one way.
_EXPLAINER: Final[list[Callable[[Contract, Decision, object], str]]] = []


def register_explainer(explainer: Callable[[Contract, Decision, object], str]) -> None:
    """Make ``explainer`` the one :meth:`Decision.explain` calls."""
    _EXPLAINER[:] = [explainer]


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
    #: Dialect 13.2 only (else ``None``): condition id → each atom's per-dimension counts
    #: (:class:`~kernel.decision.dimensionwise.AtomTrace`). There ``counts`` is how many
    #: atoms held and ``thresholds`` how many atoms the expression has.
    trace: Mapping[str, tuple[Any, ...]] | None = None
    #: Dialect 13.2 only: dimension id → its verdict (``pass|warn|block|block(fatal)``).
    verdicts: Mapping[str, str] | None = None
    #: The contract the decision was taken under, or a weak reference to it (a decision a
    #: contract's engine keeps must not keep the contract alive): read it as :attr:`contract`.
    #: Not part of the decision's value: equal decisions compare equal whatever took them.
    held: Contract | weakref.ref[Contract] | None = attrs.field(
        default=None, eq=False, repr=False, kw_only=True, alias="contract"
    )

    @property
    def contract(self) -> Contract | None:
        """The contract the decision was taken under (``None``: built by hand, or its contract
        is gone)."""
        held = self.held
        return held() if isinstance(held, weakref.ref) else held

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": self.action,
            "condition_id": self.condition_id,
            "fallback": self.fallback,
            "fired": dict(self.fired),
            "counts": dict(self.counts),
            "thresholds": dict(self.thresholds),
        }
        if self.trace is not None:
            out["dialect"] = "13.2"
            out["trace"] = trace_dict(self.trace)
            out["verdicts"] = dict(self.verdicts or {})
        return out

    def explain(self, contract: object = None, matrix: object = None) -> str:
        """The text ``sprint-kernel decide`` prints for this decision, in either dialect:
        the decision and its table, against the contract it was taken under (the decision
        knows it); given the ``matrix`` it was taken on, also what ``decide --explain`` adds,
        every single change of one score (13: of one reviewer; 13.2: of one eligible seat)
        that changes the action.

        ``contract`` may still be given (the earlier call form), but only as the decision's
        own contract: any other contract is a :class:`KernelError`, never a wrong text."""
        own = self.contract
        if own is None and isinstance(self.held, weakref.ref) and contract is None:
            raise KernelError(
                "the contract this decision was taken under is gone (the decision came from "
                "its engine's store): pass the contract"
            )
        if contract is not None:
            from kernel.decision.cache import compiled

            given = compiled(contract)  # type: ignore[arg-type]
            if own is not None and given is not own and given.to_json() != own.to_json():
                raise KernelError(
                    f"the decision was not taken under {given.contract_id} but under "
                    f"{own.contract_id}: call decision.explain() without a contract"
                )
            own = own if own is not None else given
        if own is None:
            raise KernelError(
                "this decision was built by hand and does not know its contract: pass the "
                "contract it was taken under"
            )
        if not _EXPLAINER:  # pragma: no cover - the package loads the explainer first
            raise KernelError("no explainer is loaded (import kernel.decision)")
        return _EXPLAINER[0](own, self, matrix)


def held_weakly(decision: Decision) -> Decision:
    """``decision`` holding its contract by a weak reference: what a contract's engine keeps
    (a strong one would keep the contract, its engine and its store alive forever)."""
    held = decision.held
    if held is None or isinstance(held, weakref.ref):
        return decision
    return attrs.evolve(decision, contract=weakref.ref(held))


def trace_dict(trace: Mapping[str, tuple[Any, ...]]) -> dict[str, list[dict[str, Any]]]:
    """A 13.2 trace as JSON-ready values, bounded by the contract's distinct atoms: an atom
    traced exactly as under an earlier condition (same text, quantifier and counts) is given
    there only; here it says ``same_as`` that condition's id instead of its dimensions."""
    given: dict[Any, str] = {}
    out: dict[str, list[dict[str, Any]]] = {}
    for condition, atoms in trace.items():
        rows = []
        for atom in atoms:
            first = given.setdefault(atom, condition)
            if first == condition:
                rows.append(atom.to_dict())
            else:
                rows.append(
                    {"atom": atom.atom, "across": atom.across, "held": atom.held, "same_as": first}
                )
        out[condition] = rows
    return out


def decide_counts(contract: Contract, counts: Sequence[int]) -> Decision:
    """The decision given, per condition in contract order, how many reviewers satisfied it."""
    fired = [n >= c.threshold for n, c in zip(counts, contract.conditions, strict=True)]
    return decide_fired(
        contract, fired, counts=counts, thresholds=[c.threshold for c in contract.conditions]
    )


def decide_fired(
    contract: Contract,
    fired: Sequence[bool],
    *,
    counts: Sequence[int],
    thresholds: Sequence[int],
    trace: Mapping[str, tuple[Any, ...]] | None = None,
    verdicts: Mapping[str, str] | None = None,
) -> Decision:
    """The decision given which conditions fired (R6 precedence, R5 fallback), for both
    dialects."""
    ids = [c.condition_id for c in contract.conditions]
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
        thresholds=MappingProxyType(dict(zip(ids, thresholds, strict=True))),
        trace=trace,
        verdicts=verdicts,
        contract=contract,
    )


def signature(contract: Contract, column: Sequence[int]) -> tuple[bool, ...]:
    """Which conditions' predicates hold for one reviewer's column of score ranks."""
    return tuple(c.predicate.holds(column) for c in contract.conditions)
