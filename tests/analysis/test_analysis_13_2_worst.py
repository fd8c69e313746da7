"""The slowest accepted 13.2 analysis (issue 38): the 1 MiB contract of wide atoms repeated
(98 unreachable conditions) is told what shadows them, in contract order, within a quarter of
the budget left after its counts, not the whole budget. Work is counted, never timed
(benchmarks/ times it)."""

from __future__ import annotations

from support.bench import contracts as bench_contracts

from kernel import load_contract
from kernel.analysis import analyze
from kernel.analysis.budget import MAX_STEPS, Budget


def test_the_unreachable_conditions_are_explained_within_a_share_of_the_budget() -> None:
    contract = load_contract(bench_contracts.v2_one_mebibyte(wide=True))
    budget = Budget()
    a = analyze(contract, budget=budget)
    assert sum(o.matrices for o in a.outcomes) == a.space
    unreachable = [f for f in a.findings if f.code == "AN-2"]
    assert len(unreachable) == len(a.unreachable) >= 90  # each still named
    told = [f for f in unreachable if "makes it the deciding condition" not in f.message]
    assert told and told == unreachable[: len(told)]  # the first ones, in contract order
    # The counts used about 2.5 million steps; with the explanations it was 9,999,086 (all
    # but a step of the budget, 4.5 s of CPU on a busy machine).
    assert budget.used <= MAX_STEPS // 2
