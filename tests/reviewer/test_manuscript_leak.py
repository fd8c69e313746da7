"""The manuscript-leak check (13.2 §E9) equals its definition, searched shingle by shingle,
on texts built to match shingles partly (a first word that ends a longer word, a last word
that begins one), and keeps a run of near-matches linear (issue 30)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st
from support import paths

from kernel.reviewer.lint.fields import normalise
from kernel.reviewer.lint.phase1_v2 import SHINGLE, manuscript_leak
from kernel.reviewer.lint.shingles import shingles_found
from kernel.reviewer.roles import scope_of

CONTRACT_TEXT = scope_of(
    json.loads((paths.ROOT / "examples" / "full-13.2" / "contract.json").read_text())
).contract_text
META = {"title": "a b", "field": "f", "word_count": 3}


def leak_by_definition(
    phase1: str, manuscript: str, metadata: Mapping[str, Any], contract_text: str
) -> bool:
    """13.2 §E9.2-§E9.4 word for word: each shingle searched in the whole Phase 1 text."""
    words = normalise(manuscript).split(" ")
    haystack = normalise(phase1)
    exempt = (
        normalise(metadata["title"]),
        normalise(metadata["field"]),
        str(metadata["word_count"]),
        normalise(contract_text),
    )
    for start in range(len(words) - SHINGLE + 1):
        shingle = " ".join(words[start : start + SHINGLE])
        if shingle in haystack and not any(shingle in e for e in exempt):
            return True
    return False


# Few, overlapping words: partial first and last words are common.
WORD = st.sampled_from(["a", "b", "ab", "ba", "aab", "A", "bb", "a.b"])
SEP = st.sampled_from([" ", "  ", "\n", "\t "])


@st.composite
def texts(draw: st.DrawFn) -> tuple[str, str, str, str]:
    words = draw(st.lists(WORD, min_size=SHINGLE - 1, max_size=30))
    manuscript = "".join(w + draw(SEP) for w in words)
    pieces: list[str] = []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()) and len(words) >= SHINGLE:
            start = draw(st.integers(0, len(words) - SHINGLE))
            piece = words[start : start + SHINGLE]
            piece[0] = draw(st.sampled_from(["", "x", "b"])) + piece[0][draw(st.integers(0, 1)) :]
            piece[-1] = piece[-1][: max(1, len(piece[-1]) - draw(st.integers(0, 1)))]
            piece[-1] += draw(st.sampled_from(["", "y", "a"]))
            pieces.append(" ".join(piece))
        else:
            pieces.append(" ".join(draw(st.lists(WORD, max_size=20))))
    phase1 = " ".join(pieces)
    title = " ".join(draw(st.lists(WORD, max_size=14)))
    contract = draw(st.sampled_from([CONTRACT_TEXT, phase1, " ".join(pieces[:1]), ""]))
    return phase1, manuscript, title, contract


@given(texts())
@example(("xa " + "b " * 10 + "bby", "a " + "b " * 10 + "bb", "t", ""))
@example(("a " + "b " * 10 + "b", "ba " + "b " * 10 + "b", "t", ""))
def test_the_leak_check_equals_its_definition(case: tuple[str, str, str, str]) -> None:
    phase1, manuscript, title, contract = case
    meta = {**META, "title": title or "t"}
    assert manuscript_leak(phase1, manuscript, meta, contract) == leak_by_definition(
        phase1, manuscript, meta, contract
    )


@given(st.lists(WORD, min_size=2, max_size=12), st.lists(WORD, max_size=40), st.integers(2, 5))
def test_each_shingle_found_is_a_substring(words: list[str], tokens: list[str], size: int) -> None:
    text = " ".join(tokens)
    starts = range(len(words) - size + 1)
    expected = {s for s in starts if " ".join(words[s : s + size]) in text}
    assert shingles_found(words, size, text, starts) == expected


def test_near_matches_are_no_leak() -> None:
    """Every shingle's inner words occur in Phase 1, but never with its first and last word:
    each used to be searched in the whole Phase 1 (quadratic)."""
    manuscript = "a " * 400
    phase1 = ("a " * 10 + "x ") * 40
    assert not manuscript_leak(phase1, manuscript, META, CONTRACT_TEXT)
    assert manuscript_leak(phase1 + "a " * SHINGLE, manuscript, META, CONTRACT_TEXT)
