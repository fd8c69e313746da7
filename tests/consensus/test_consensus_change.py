"""The change metric: token Levenshtein over the longer token count, against a DP oracle."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.consensus import (
    Change,
    EditBudgetError,
    change_ratio,
    evaluate_round,
    levenshtein,
    measure_change,
    tokens,
)
from kernel.consensus.round import RoundConfig, RoundInput
from kernel.consensus.rules import stop_checks
from kernel.errors import KernelError


def oracle_distance(a: list[str], b: list[str]) -> int:
    """Wagner-Fischer with the full table (the implementation is bit-parallel)."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        table[i][0] = i
    for j in range(len(b) + 1):
        table[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(
                table[i - 1][j] + 1,
                table[i][j - 1] + 1,
                table[i - 1][j - 1] + (a[i - 1] != b[j - 1]),
            )
    return table[len(a)][len(b)]


WORDS = st.lists(st.sampled_from(["a", "b", "c", "the", "The", "x1"]), max_size=40)
TEXTS = st.lists(
    st.one_of(st.sampled_from(["a", "b", "c", "Paris", "paris", "é"]), st.text(max_size=3)),
    max_size=30,
).map(lambda parts: " ".join(parts))


@given(WORDS, WORDS)
@example(["a"] * 70, ["a"] * 69 + ["b"])
@example(["x"] * 65 + ["a", "b"] * 40, ["x"] * 65 + ["b", "a"] * 40)  # past the first cutoff
@example(list("abcdefghijklmnopqrstuvwxyz") * 3, list("zyxwvutsrqponmlkjihgfedcba") * 3)
def test_levenshtein_matches_the_oracle(a: list[str], b: list[str]) -> None:
    assert levenshtein(a, b) == oracle_distance(a, b)


@given(TEXTS, TEXTS)
def test_change_ratio_properties(old: str, new: str) -> None:
    change = change_ratio(old, new)
    assert isinstance(change, Fraction)
    assert 0 <= change <= 1
    assert change == change_ratio(new, old)
    longest = max(len(old.split()), len(new.split()))
    expected = Fraction(oracle_distance(old.split(), new.split()), longest) if longest else 0
    assert change == expected


@given(TEXTS, st.sampled_from([" ", "\n", "\t ", "\u3000"]))
def test_identical_tokens_mean_no_change(text: str, sep: str) -> None:
    assert change_ratio(text, text) == 0
    assert change_ratio(text, sep.join(text.split()) + sep) == 0


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("", "", Fraction(0)),
        ("   ", "\n", Fraction(0)),
        ("", "one two", Fraction(1)),
        ("a b c d", "a b c d", Fraction(0)),
        ("a b c d", "a x c d", Fraction(1, 4)),
        ("a b c d", "a b c", Fraction(1, 4)),
        # "capital." becomes "capital" and two tokens are added: 3 edits over 6 tokens.
        ("Paris is the capital.", "Paris is the capital of France.", Fraction(3, 6)),
        ("a b", "b a", Fraction(1)),
        ("case Case", "case case", Fraction(1, 2)),
    ],
)
def test_change_ratio_examples(old: str, new: str, expected: Fraction) -> None:
    assert change_ratio(old, new) == expected


def test_tokens_split_on_any_whitespace() -> None:
    assert tokens(" a\tb\n\nc\u00a0d ") == ["a", "b", "c", "d"]
    with pytest.raises(KernelError):
        tokens(None)  # type: ignore[arg-type]
    with pytest.raises(KernelError):
        change_ratio("a", b"a")  # type: ignore[arg-type]


@given(st.lists(st.integers(-3, 3), max_size=12), st.lists(st.integers(-3, 3), max_size=12))
@example([-1], [-2])  # equal hash() in CPython, different tokens
def test_levenshtein_on_any_hashables(a: list[int], b: list[int]) -> None:
    assert levenshtein(a, b) == oracle_distance(a, b)  # type: ignore[arg-type]
    assert levenshtein(tuple(map(str, a)), [str(x) for x in b]) == oracle_distance(a, b)  # type: ignore[arg-type]


@given(WORDS, WORDS, st.integers(0, 4000), st.fractions(0, 1))
@example(["a"] * 30, ["b"] * 30, 100, Fraction(1, 10))
def test_a_work_budget_gives_the_exact_change_or_a_sound_bound(
    a: list[str], b: list[str], budget: int, threshold: Fraction
) -> None:
    change = measure_change(" ".join(a), " ".join(b), threshold=threshold, budget=budget)
    exact = oracle_distance(a, b)
    longest = max(len(a), len(b))
    assert change.longest == longest
    assert change.distance in (None, exact)
    assert change.at_least <= exact
    truth = (Fraction(exact, longest) if longest else Fraction(0)) < threshold
    assert change.below(threshold) in (None, truth)
    if change.distance is not None:
        assert change.at_least == exact
        assert change.ratio == (Fraction(exact, longest) if longest else 0)


def test_change_ratio_refuses_past_the_work_budget() -> None:
    old, new = "a " * 150_000, "b " * 150_000
    with pytest.raises(EditBudgetError, match="150000 and 150000 tokens"):
        change_ratio(old, new)
    near = "a " * 150_000 + "b"
    assert change_ratio(old, near) == Fraction(1, 150_001)


def test_a_lower_bound_settles_the_change_rule() -> None:
    over = Change(None, 30, 100)
    (check,) = [c for c in stop_checks(1, 3, (), over, Fraction(1, 10)) if c.rule != "max_rounds"][
        :1
    ]
    assert check.rule == "change_below_threshold" and check.triggered is False
    assert "at least 3/10 >= threshold 1/10" in check.detail
    with pytest.raises(EditBudgetError):
        stop_checks(1, 3, (), Change(None, 5, 100), Fraction(1, 10))
    exact = Change(5, 5, 100)
    checks = stop_checks(1, 3, (), exact, Fraction(1, 10))
    assert checks[1].triggered and "1/20 < threshold 1/10" in checks[1].detail


def test_round_reports_the_exact_change() -> None:
    config = RoundConfig(2)
    decision = evaluate_round(
        RoundInput(config, 1, [{"approve": True, "critical": False}] * 2, "a b c d", "a b c")
    )
    assert decision.change == Fraction(1, 4)
