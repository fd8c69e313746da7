"""The token budget ledger (§C): a total budget and a per-agent cap of 150 % fair share.

``cap = ⌊1.5 * total / agents⌋``. A charge that would take the agent past its cap, or the
review past its total, is refused; the ledger records who stops: the agent (its cap) or the
whole review (budget exhausted, which also refuses every later charge). Enforcement is
programmatic, not advisory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from kernel.errors import KernelError
from kernel.panel._args import as_list
from kernel.strict import is_int, shown

__all__ = ["DEFAULT_TOTAL", "Charge", "Ledger", "charge", "open_ledger", "summary"]

DEFAULT_TOTAL = 350_000


def _spent_map(value: Mapping[tuple[str, str], int]) -> Mapping[tuple[str, str], int]:
    return MappingProxyType(dict(value))


@attrs.frozen
class Ledger:
    """Spend so far per (agent, phase); ``stopped`` agents and ``exhausted`` are final."""

    total: int
    agents: tuple[str, ...]
    spent: Mapping[tuple[str, str], int] = attrs.field(converter=_spent_map, factory=dict)
    stopped: frozenset[str] = frozenset()
    exhausted: bool = False

    @property
    def agent_cap(self) -> int:
        return (3 * self.total) // (2 * len(self.agents))

    @property
    def total_spent(self) -> int:
        return sum(self.spent.values())

    def agent_spent(self, agent: str) -> int:
        return sum(v for (a, _), v in self.spent.items() if a == agent)


@attrs.frozen
class Charge:
    """The ledger after a charge, whether it was ``accepted``, and who stops if not
    (``"agent"`` or ``"review"``)."""

    ledger: Ledger
    accepted: bool
    stops: str | None = None
    reason: str = ""


def _int(value: object, what: str, minimum: int) -> int:
    if not is_int(value) or value < minimum:
        raise KernelError(f"{what} must be an int >= {minimum}, got {shown(value)}")
    return value


def open_ledger(agents: Iterable[str], total: int = DEFAULT_TOTAL) -> Ledger:
    names = tuple(as_list(agents, "agents"))
    if not names or any(not isinstance(a, str) or not a for a in names):
        raise KernelError("agents must be a non-empty list of non-empty names")
    if len(set(names)) != len(names):
        raise KernelError("agent names must be unique")
    return Ledger(total=_int(total, "total budget", 1), agents=names)


def charge(ledger: Ledger, agent: str, phase: str, tokens: int) -> Charge:
    """Charge ``tokens`` to ``agent`` in ``phase``, or refuse it (the ledger then says who
    stops). Refused charges spend nothing."""
    if not isinstance(ledger, Ledger):
        raise KernelError("ledger must come from open_ledger")
    if agent not in ledger.agents:
        raise KernelError(f"unknown agent {shown(agent)}")
    if not isinstance(phase, str) or not phase:
        raise KernelError("phase must be a non-empty string")
    tokens = _int(tokens, "tokens", 0)
    if ledger.exhausted:
        return Charge(ledger, False, "review", "the review budget is exhausted")
    if agent in ledger.stopped:
        return Charge(ledger, False, "agent", f"{agent} already reached its cap")
    if ledger.total_spent + tokens > ledger.total:
        left = ledger.total - ledger.total_spent
        return Charge(
            attrs.evolve(ledger, exhausted=True),
            False,
            "review",
            f"{tokens} tokens for {agent} exceed the {left} left of the {ledger.total} budget",
        )
    if ledger.agent_spent(agent) + tokens > ledger.agent_cap:
        left = ledger.agent_cap - ledger.agent_spent(agent)
        return Charge(
            attrs.evolve(ledger, stopped=ledger.stopped | {agent}),
            False,
            "agent",
            f"{tokens} tokens exceed the {left} left of {agent}'s cap {ledger.agent_cap}",
        )
    spent = dict(ledger.spent)
    spent[(agent, phase)] = spent.get((agent, phase), 0) + tokens
    new = attrs.evolve(ledger, spent=spent)
    if new.total_spent == new.total:
        new = attrs.evolve(new, exhausted=True)
    return Charge(new, True)


def summary(ledger: Ledger) -> dict[str, Any]:
    """The budget summary for the final report: spend per agent and phase."""
    phases: dict[str, int] = {}
    for (_, phase), v in ledger.spent.items():
        phases[phase] = phases.get(phase, 0) + v
    return {
        "total": ledger.total,
        "spent": ledger.total_spent,
        "remaining": ledger.total - ledger.total_spent,
        "agent_cap": ledger.agent_cap,
        "exhausted": ledger.exhausted,
        "agents": {
            a: {
                "spent": ledger.agent_spent(a),
                "stopped": a in ledger.stopped,
                "phases": {p: v for (b, p), v in ledger.spent.items() if b == a},
            }
            for a in ledger.agents
        },
        "phases": phases,
    }
