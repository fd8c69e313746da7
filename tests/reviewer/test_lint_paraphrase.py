"""Paraphrase coverage is a maximum bipartite matching (k distinct dimensions), checked
against a brute-force oracle."""

from __future__ import annotations

import itertools

from hypothesis import example, given
from hypothesis import strategies as st

from kernel.contract.model import load_contract
from kernel.reviewer.lint import lint_phase1
from kernel.reviewer.lint.phase1 import max_matching
from kernel.reviewer.render import render_phase1

FULL = load_contract("reviewer/full")


def _oracle(adjacency: list[list[int]], rights: int) -> int:
    """Largest number of lefts that can take pairwise distinct rights (brute force)."""
    best = 0
    lefts = len(adjacency)
    for size in range(1, min(lefts, rights) + 1):
        for chosen in itertools.combinations(range(lefts), size):
            for perm in itertools.permutations(range(rights), size):
                if all(r in adjacency[left] for left, r in zip(chosen, perm, strict=True)):
                    best = size
                    break
            if best == size:
                break
    return best


graphs = st.integers(1, 4).flatmap(
    lambda rights: st.tuples(
        st.just(rights),
        st.lists(st.lists(st.integers(0, rights - 1), unique=True, max_size=rights), max_size=5),
    )
)


@given(graphs)
def test_max_matching_matches_brute_force(graph: tuple[int, list[list[int]]]) -> None:
    rights, adjacency = graph
    assert max_matching(adjacency) == _oracle(adjacency, rights)


def _with_paraphrase(paragraphs: list[str]) -> str:
    text = render_phase1(FULL)
    rest = text[text.index("## Scoring Plan") :]
    return "## Contract Paraphrase\n\n" + "\n\n".join(paragraphs) + "\n\n" + rest


def test_greedy_would_fail_but_matching_succeeds() -> None:
    # A paragraph naming D1 and D2 first, then one naming only D1: greedy gives the first to D1.
    paragraphs = ["D1 and D2 matter.", "D1 again.", "D3.", "D4.", "D5."]
    assert lint_phase1(_with_paraphrase(paragraphs), FULL).ok


def test_one_paragraph_counts_once() -> None:
    paragraphs = ["D1 D2 D3 D4 D5.", "methodology_rigor.", "domain_accuracy."]
    report = lint_phase1(_with_paraphrase(paragraphs), FULL)
    assert [f.code for f in report.errors] == ["P1-007"]
    assert "covers 3 distinct" in report.errors[0].message


@given(
    st.lists(
        st.lists(st.sampled_from(FULL.dimension_ids), min_size=1, max_size=3, unique=True),
        max_size=7,
    )
)
def test_coverage_verdict_matches_oracle(mentions: list[list[str]]) -> None:
    ids = list(FULL.dimension_ids)
    paragraphs = [" and ".join(m) + " matter." for m in mentions]
    adjacency = [[ids.index(d) for d in m] for m in mentions]
    expected_ok = _oracle(adjacency, len(ids)) >= FULL.paraphrase_minimum
    report = lint_phase1(_with_paraphrase(paragraphs or ["Lorem."]), FULL)
    assert report.ok == expected_ok
    assert {f.code for f in report.errors} <= {"P1-007"}


def test_whole_word_case_sensitive_mentions() -> None:
    base = ["D2.", "D3.", "D4.", "D5."]
    for miss in (
        "D10 only.",
        "d1 only.",
        "methodology_rigorous.",
        "xmethodology_rigor.",
        "D\u200b1.",
        "Methodology_rigor.",
    ):
        assert not lint_phase1(_with_paraphrase([miss, *base]), FULL).ok, miss
    for hit in ("(D1)", "D1's plan", "**methodology_rigor**", "see D1.", "methodology_rigor-ish"):
        assert lint_phase1(_with_paraphrase([hit, *base]), FULL).ok, hit


_BITS = st.text(alphabet=st.sampled_from("aD1\n_ "), max_size=8)


@given(st.lists(_BITS, max_size=6), st.lists(_BITS.filter(bool), min_size=1, max_size=4))
@example(["xa", "ay"], ["a\na"])
@example(["D1 D1", "D1"], ["D1"])
def test_paragraphs_naming_a_dimension_are_found_in_one_pass(
    texts: list[str], names: list[str]
) -> None:
    from kernel.reviewer.lint.phase1 import _naming

    expected = [p for p, text in enumerate(texts) if any(name in text for name in names)]
    assert _naming(texts, names) == expected
