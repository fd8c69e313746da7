"""Finding resolution with domain-scoped voting pools, and the report's agreement level.

companions.md §C: the pool of a finding is its originator (an implicit Agree unless the
finding is withdrawn) plus every specialist who voted Agree or Challenge; Abstain leaves the
pool. ``N_eff = agree + challenge`` and the strict majority (= quorum) is
``kernel.majority.strict_majority(N_eff)`` = ⌈(N_eff + 1)/2⌉.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from kernel.errors import KernelError
from kernel.majority import strict_majority
from kernel.panel._args import as_list
from kernel.strict import is_int, shown

__all__ = [
    "ABSTAIN",
    "AGREE",
    "CHALLENGE",
    "LEVELS",
    "OUTCOMES",
    "VOTES",
    "Resolution",
    "agreement_level",
    "resolve_finding",
]

AGREE, CHALLENGE, ABSTAIN = "Agree", "Challenge", "Abstain"
VOTES: tuple[str, ...] = (AGREE, CHALLENGE, ABSTAIN)
CONSENSUS, MAJORITY, DISMISSED, ESCALATED, SINGLE = (
    "Consensus",
    "Majority",
    "Dismissed",
    "Escalated",
    "Single",
)
OUTCOMES: tuple[str, ...] = (CONSENSUS, MAJORITY, DISMISSED, ESCALATED, SINGLE)
LEVELS: tuple[str, ...] = (
    "Full Consensus",
    "Strong Agreement",
    "Partial Agreement",
    "Split Decision",
    "No Agreement",
)


@attrs.frozen
class Resolution:
    """How one finding was resolved.

    ``dissent`` names the challengers of a ``Majority`` finding ("dissent noted");
    ``withdrawn`` is true when the originator withdrew it (or did not vote Agree).
    """

    outcome: str
    n_effective: int
    n_global: int
    agree: int
    challenge: int
    abstain: int
    label: str
    dissent: tuple[str, ...] = ()
    withdrawn: bool = False

    def to_dict(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data["dissent"] = list(self.dissent)
        return data


def _label(outcome: str, n_eff: int, n_global: int) -> str:
    return (
        outcome if n_eff >= n_global else f"{outcome} ({n_eff}/{shown(n_global)} specialists)"
    )


def resolve_finding(
    votes: Mapping[str, str], *, originator: str, n_global: int, withdrawn: bool = False
) -> Resolution:
    """Resolve one finding from its Phase 2 votes (companions.md §C, in the rule order).

    ``votes`` maps specialists to ``"Agree"``, ``"Challenge"`` or ``"Abstain"``; the
    originator need not appear (it is an implicit Agree). ``n_global`` is the number of
    specialists on the panel, at least the number of distinct names seen here.
    """
    if not isinstance(votes, Mapping):
        raise KernelError(f"votes must be a mapping of specialist to vote, got {type(votes)}")
    if not isinstance(originator, str) or not originator:
        raise KernelError("originator must be a non-empty specialist name")
    if not is_int(n_global) or n_global < 1:
        raise KernelError(f"n_global must be an int >= 1, got {shown(n_global)}")
    if not isinstance(withdrawn, bool):
        raise KernelError(f"withdrawn must be a bool, got {shown(withdrawn)}")
    for who, vote in votes.items():
        if not isinstance(who, str) or not who:
            raise KernelError(f"specialist names must be non-empty strings, got {shown(who)}")
        if vote not in VOTES:
            raise KernelError(f"vote of {who} must be one of {', '.join(VOTES)}, got {shown(vote)}")
    names = set(votes) | {originator}
    if len(names) > n_global:
        raise KernelError(f"{len(names)} specialists named but n_global is {n_global}")

    own = votes.get(originator, AGREE)
    withdrawn = withdrawn or own != AGREE
    others = {who: vote for who, vote in votes.items() if who != originator}
    tally = Counter(others.values())
    agree = tally[AGREE] + 1  # the originator is always in the pool
    challenge = tally[CHALLENGE]
    abstain = tally[ABSTAIN]
    n_eff = agree + challenge
    dissent: tuple[str, ...] = ()
    if withdrawn:
        outcome = DISMISSED
    elif n_eff == 1:
        outcome = SINGLE
    elif agree == n_eff:
        outcome = CONSENSUS
    elif agree >= strict_majority(n_eff):
        outcome = MAJORITY
        dissent = tuple(sorted(who for who, vote in others.items() if vote == CHALLENGE))
    elif challenge >= strict_majority(n_eff):
        outcome = DISMISSED
    else:
        outcome = ESCALATED
    return Resolution(
        outcome=outcome,
        n_effective=n_eff,
        n_global=n_global,
        agree=agree,
        challenge=challenge,
        abstain=abstain,
        label=_label(outcome, n_eff, n_global),
        dissent=dissent,
        withdrawn=withdrawn,
    )


def _outcome_of(item: object) -> str:
    outcome = getattr(item, "outcome", item)
    if outcome not in OUTCOMES:
        raise KernelError(f"outcome must be one of {', '.join(OUTCOMES)}, got {shown(outcome)}")
    return str(outcome)


def agreement_level(outcomes: Iterable[str | Resolution]) -> str:
    """The report's agreement level, checked in the order of companions.md §C.

    Percentages are over all findings (``Single`` counts in no group); the comparisons are
    exact integer arithmetic, so exactly 25 % is not "more than 25 %".
    """
    counts = Counter(_outcome_of(o) for o in as_list(outcomes, "outcomes"))
    total = sum(counts.values())
    if total == 0 or counts[CONSENSUS] == total:
        return "Full Consensus"
    if counts[ESCALATED] >= strict_majority(total):
        return "No Agreement"
    if (counts[ESCALATED] + counts[DISMISSED]) * 4 > total:
        return "Split Decision"
    if (counts[CONSENSUS] + counts[MAJORITY]) * 4 > 3 * total and counts[ESCALATED] == 0:
        return "Strong Agreement"
    return "Partial Agreement"
