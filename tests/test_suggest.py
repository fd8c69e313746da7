"""The shared "did you mean" helper."""

from __future__ import annotations

import pytest

from kernel.suggest import closest, did_you_mean


@pytest.mark.parametrize(
    ("word", "known", "expected"),
    [
        ("P2-04", ["P2-001", "P2-040", "P2-041"], "P2-040"),
        ("excludes", ["exclude", "select", "ignore"], "exclude"),
        ("reviewer/quick", ["reviewer/full", "13.2/writer/full"], "reviewer/full"),
        ("majorty", ["any", "majority", "all"], "majority"),
        ("SELECT", ["select"], "select"),
        ("zzzz", ["select", "ignore"], None),
        ("", ["select"], None),
        ("x", [], None),
    ],
)
def test_closest(word: str, known: list[str], expected: str | None) -> None:
    assert closest(word, known) == expected


def test_did_you_mean_words_it_and_says_nothing_without_a_candidate() -> None:
    assert did_you_mean("excludes", ["exclude"]) == "; did you mean 'exclude'?"
    assert did_you_mean("zzzz", ["exclude"]) == ""
    assert did_you_mean("exclude", ["exclude"]) == ""
