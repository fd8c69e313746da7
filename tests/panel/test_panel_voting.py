"""Finding resolution and agreement levels against references written differently."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.errors import KernelError
from kernel.panel import OUTCOMES, agreement_level, resolve_finding

# --- reference: the rules restated with fractions and ceilings ------------------------------


def ref_resolve(agree_others: int, challenge: int, n_global: int, withdrawn: bool) -> str:
    pool = 1 + agree_others + challenge
    quorum = math.ceil(Fraction(pool + 1, 2))
    if withdrawn:
        return "Dismissed"
    if pool == 1:
        return "Single"
    if challenge == 0:
        return "Consensus"
    if 1 + agree_others >= quorum:
        return "Majority"
    if challenge >= quorum:
        return "Dismissed"
    return "Escalated"


def ref_label(outcome: str, pool: int, n_global: int) -> str:
    suffix = "" if pool == n_global else " (%d/%d specialists)" % (pool, n_global)  # noqa: UP031
    return outcome + suffix


def ref_level(outcomes: Sequence[str]) -> str:
    n = len(outcomes)
    if n == 0:
        return "Full Consensus"
    share = {o: Fraction(outcomes.count(o), n) for o in OUTCOMES}
    if share["Consensus"] == 1:
        return "Full Consensus"
    if share["Escalated"] > Fraction(1, 2):
        return "No Agreement"
    if share["Escalated"] + share["Dismissed"] > Fraction(25, 100):
        return "Split Decision"
    if share["Consensus"] + share["Majority"] > Fraction(75, 100) and not share["Escalated"]:
        return "Strong Agreement"
    return "Partial Agreement"


def splits(others: int) -> list[tuple[int, int, int]]:
    return [(a, c, others - a - c) for a in range(others + 1) for c in range(others - a + 1)]


def ballot(a: int, c: int, b: int, *, with_originator: bool) -> dict[str, str]:
    votes = ["Agree"] * a + ["Challenge"] * c + ["Abstain"] * b
    ballot = {f"S{i + 2}": v for i, v in enumerate(votes)}
    if with_originator:
        ballot["S1"] = "Agree"
    return ballot


TRUTH_TABLE = [
    (n, a, c, b, withdrawn)
    for n in range(1, 10)
    for a, c, b in splits(n - 1)
    for withdrawn in (False, True)
]


@pytest.mark.parametrize(("n", "a", "c", "b", "withdrawn"), TRUTH_TABLE)
def test_truth_table_pools_1_to_9(n: int, a: int, c: int, b: int, withdrawn: bool) -> None:
    for with_originator in (False, True):
        votes = ballot(a, c, b, with_originator=with_originator)
        r = resolve_finding(votes, originator="S1", n_global=n, withdrawn=withdrawn)
        expected = ref_resolve(a, c, n, withdrawn)
        assert r.outcome == expected
        assert r.n_effective == 1 + a + c
        assert (r.agree, r.challenge, r.abstain) == (1 + a, c, b)
        assert r.label == ref_label(expected, 1 + a + c, n)
        if expected == "Majority":
            assert len(r.dissent) == c
        else:
            assert r.dissent == ()


def test_truth_table_covers_every_outcome() -> None:
    seen = {ref_resolve(a, c, n, w) for n, a, c, _, w in TRUTH_TABLE}
    assert seen == set(OUTCOMES)


@pytest.mark.parametrize(
    ("votes", "n", "label"),
    [
        ({"PERF": "Agree", "QUAL": "Agree", "CORR": "Abstain", "ARCH": "Abstain"}, 5,
         "Consensus (3/5 specialists)"),
        ({"PERF": "Agree", "QUAL": "Agree", "CORR": "Agree", "ARCH": "Agree"}, 5, "Consensus"),
        ({"PERF": "Agree", "QUAL": "Challenge", "CORR": "Agree", "ARCH": "Abstain"}, 5,
         "Majority (4/5 specialists)"),
        ({"PERF": "Challenge", "QUAL": "Challenge", "CORR": "Abstain", "ARCH": "Abstain"}, 5,
         "Dismissed (3/5 specialists)"),
        ({"PERF": "Challenge", "QUAL": "Abstain", "CORR": "Abstain", "ARCH": "Abstain"}, 5,
         "Escalated (2/5 specialists)"),
        ({"PERF": "Abstain"}, 2, "Single (1/2 specialists)"),
        ({}, 1, "Single"),
    ],
)  # fmt: skip
def test_labels(votes: dict[str, str], n: int, label: str) -> None:
    assert resolve_finding(votes, originator="SEC", n_global=n).label == label


def test_originator_not_agreeing_means_withdrawn() -> None:
    for own in ("Challenge", "Abstain"):
        r = resolve_finding({"SEC": own, "PERF": "Agree"}, originator="SEC", n_global=2)
        assert r.outcome == "Dismissed" and r.withdrawn


def test_majority_notes_the_dissenters() -> None:
    r = resolve_finding({"B": "Challenge", "C": "Agree", "D": "Agree"}, originator="A", n_global=4)
    assert r.outcome == "Majority" and r.dissent == ("B",)


@given(
    st.permutations([f"S{i}" for i in range(2, 9)]),
    st.lists(st.sampled_from(["Agree", "Challenge", "Abstain"]), min_size=7, max_size=7),
)
def test_resolution_ignores_names_and_order(names: list[str], votes: list[str]) -> None:
    forward = dict(zip(names, votes, strict=True))
    backward = dict(reversed(list(forward.items())))
    a = resolve_finding(forward, originator="S1", n_global=8)
    b = resolve_finding(backward, originator="S1", n_global=8)
    assert a == b
    assert a.outcome == ref_resolve(votes.count("Agree"), votes.count("Challenge"), 8, False)


@pytest.mark.parametrize(
    ("votes", "kwargs"),
    [
        ({"A": "Yes"}, {"originator": "O", "n_global": 3}),
        ({"A": "agree"}, {"originator": "O", "n_global": 3}),
        ({"A": "Agree", "B": "Agree"}, {"originator": "O", "n_global": 2}),
        ({}, {"originator": "", "n_global": 1}),
        ({}, {"originator": "O", "n_global": 0}),
        ({}, {"originator": "O", "n_global": True}),
        ({}, {"originator": "O", "n_global": 1.0}),
        ({"": "Agree"}, {"originator": "O", "n_global": 3}),
        ({}, {"originator": "O", "n_global": 1, "withdrawn": "no"}),
        ([("A", "Agree")], {"originator": "O", "n_global": 3}),
    ],
)
def test_bad_input_is_refused(votes: object, kwargs: dict[str, object]) -> None:
    with pytest.raises(KernelError):
        resolve_finding(votes, **kwargs)  # type: ignore[arg-type]


# --- agreement level -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcomes", "level"),
    [
        ([], "Full Consensus"),
        (["Consensus"] * 4, "Full Consensus"),
        (["Consensus", "Single"], "Partial Agreement"),
        # exactly half Escalated is not "a majority Escalated"
        (["Escalated", "Escalated", "Consensus", "Consensus"], "Split Decision"),
        (["Escalated", "Escalated", "Escalated", "Consensus", "Consensus"], "No Agreement"),
        # exactly 25 % Escalated or Dismissed is not "more than 25 %"
        (["Dismissed", "Consensus", "Majority", "Majority"], "Partial Agreement"),
        (["Dismissed", "Consensus", "Majority"], "Split Decision"),
        (["Escalated", "Consensus", "Consensus", "Consensus"], "Partial Agreement"),
        # exactly 75 % Consensus or Majority is not "more than 75 %"
        (["Majority", "Majority", "Majority", "Single"], "Partial Agreement"),
        (["Majority"] * 4 + ["Single"], "Strong Agreement"),
        (["Majority"] * 7 + ["Dismissed"], "Strong Agreement"),
        (["Consensus"] * 7 + ["Escalated"], "Partial Agreement"),
        (["Single"] * 3, "Partial Agreement"),
    ],
)
def test_agreement_level_boundaries(outcomes: list[str], level: str) -> None:
    assert agreement_level(outcomes) == level
    assert ref_level(outcomes) == level


def test_agreement_level_all_multisets_up_to_8() -> None:
    for size in range(9):
        for combo in itertools.combinations_with_replacement(OUTCOMES, size):
            assert agreement_level(combo) == ref_level(list(combo)), combo


@given(st.lists(st.sampled_from(OUTCOMES), max_size=40))
def test_agreement_level_matches_reference(outcomes: list[str]) -> None:
    assert agreement_level(outcomes) == ref_level(outcomes)


def test_agreement_level_takes_resolutions() -> None:
    r = resolve_finding({"B": "Agree"}, originator="A", n_global=2)
    assert agreement_level([r, r]) == "Full Consensus"


@pytest.mark.parametrize("bad", [["consensus"], "Consensus", [None], 3])
def test_agreement_level_refuses_bad_input(bad: object) -> None:
    with pytest.raises(KernelError):
        agreement_level(bad)  # type: ignore[arg-type]
