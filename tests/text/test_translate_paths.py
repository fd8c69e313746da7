"""The C-level fast paths of the skeleton and the reader's view equal the per-character
definitions they replace (issue 40), on text mixing ASCII with the characters that change
under them: invisible ones, look-alikes, compatibility forms, marks, surrogates."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.text import skeleton
from kernel.text.injection_markup import _EMPHASIS, _dropped
from kernel.text.skeleton import is_ignorable, skeletonize, without_ignorables

SPECIAL = (
    "\u00ad\u200b\u200d\u2060\ufeff\u00a0\u0430\u043e\u03b9\ufb01\u00df\u2014\u2019\u2192"
    "\uff41\U0001d400\u0301\u0130\u2028\U000e0041\ud800\u4e00*~`[]\\lI10"
)
TEXTS = st.text(st.sampled_from(list(SPECIAL)) | st.characters(max_codepoint=0x7F), max_size=60)


@given(TEXTS)
@example("a\u2014b \u2019x\u2019 \ufb01le \u0430\u043e")
@example("\ud800 lone surrogate \u00ad")
def test_the_mixed_skeleton_equals_the_general_one(text: str) -> None:
    quick = skeletonize(text)
    old = skeleton._FEW_OTHERS
    skeleton._FEW_OTHERS = -1  # every text by str.translate
    try:
        general = skeletonize(text)
    finally:
        skeleton._FEW_OTHERS = old
    assert quick.text == general.text
    assert quick.spans([(0, len(quick.text))] if quick.text else []) == general.spans(
        [(0, len(general.text))] if general.text else []
    )


@given(TEXTS)
def test_dropping_emphasis_equals_translate(text: str) -> None:
    assert _dropped(text) == text.translate({ord(c): None for c in _EMPHASIS})


@given(TEXTS)
def test_without_ignorables_equals_the_per_character_filter(text: str) -> None:
    assert without_ignorables(text) == "".join(c for c in text if not is_ignorable(c))


@pytest.mark.parametrize("text", ["", "plain", "x\u200by", "\U000e0041\U000e007f"])
def test_without_ignorables_examples(text: str) -> None:
    assert without_ignorables(text) == "".join(c for c in text if not is_ignorable(c))
