"""The token budget ledger as properties: caps always hold."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.errors import KernelError
from kernel.panel.budget import DEFAULT_TOTAL, charge, open_ledger, summary

AGENTS = ["SEC", "PERF", "QUAL", "CORR", "ARCH"]


@given(
    st.integers(1, 2000),
    st.integers(1, 5),
    st.lists(
        st.tuples(st.integers(0, 4), st.sampled_from(["1", "2", "3"]), st.integers(0, 900)),
        max_size=40,
    ),
)
def test_no_charge_passes_a_cap(total: int, n: int, charges: list[tuple[int, str, int]]) -> None:
    ledger = open_ledger(AGENTS[:n], total)
    cap = (3 * total) // (2 * n)
    assert ledger.agent_cap == cap
    for who, phase, tokens in charges:
        agent = AGENTS[who % n]
        before = ledger
        result = charge(ledger, agent, phase, tokens)
        ledger = result.ledger
        if result.accepted:
            assert ledger.total_spent == before.total_spent + tokens
        else:
            assert ledger.total_spent == before.total_spent
            assert result.stops in ("agent", "review")
            assert result.reason
        assert ledger.total_spent <= total
        assert all(ledger.agent_spent(a) <= cap for a in AGENTS[:n])
        if ledger.exhausted:
            assert not charge(ledger, agent, phase, 0).accepted
    s = summary(ledger)
    assert s["spent"] == sum(a["spent"] for a in s["agents"].values())
    assert s["spent"] == sum(s["phases"].values())
    assert s["remaining"] == total - s["spent"]


def test_default_and_fair_share() -> None:
    ledger = open_ledger(AGENTS)
    assert ledger.total == DEFAULT_TOTAL == 350_000
    assert ledger.agent_cap == 105_000  # 150 % of 70,000


def test_who_stops() -> None:
    ledger = open_ledger(["A", "B"], 100)  # cap 75
    r = charge(ledger, "A", "p1", 76)
    assert (r.accepted, r.stops) == (False, "agent")
    assert not charge(r.ledger, "A", "p1", 1).accepted  # a stopped agent stays stopped
    r2 = charge(r.ledger, "B", "p1", 75)
    assert r2.accepted
    r3 = charge(r2.ledger, "B", "p2", 26)
    assert (r3.accepted, r3.stops) == (False, "review")
    assert r3.ledger.exhausted
    assert charge(r3.ledger, "B", "p2", 0).stops == "review"


@pytest.mark.parametrize(
    ("agents", "total"),
    [([], 10), (["A", "A"], 10), (["A"], 0), (["A"], True), ("AB", 10), ([""], 10)],
)
def test_bad_ledgers_are_refused(agents: list[str], total: int) -> None:
    with pytest.raises(KernelError):
        open_ledger(agents, total)


def test_bad_charges_are_refused() -> None:
    ledger = open_ledger(["A"], 10)
    for args in (("Z", "p", 1), ("A", "", 1), ("A", "p", -1), ("A", "p", 1.5)):
        with pytest.raises(KernelError):
            charge(ledger, *args)
