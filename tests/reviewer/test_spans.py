"""Markup spans removed with unclosed openers masked equal the plain substitution, for each
pattern the lints use that way (issue 30)."""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.reviewer.lint import da_tables
from kernel.reviewer.lint.spans import sub_closed

USES: list[tuple[re.Pattern[str], str, Mapping[str, str]]] = [
    (da_tables._LINK, r"\1", {"[": "]", "(": ")"}),
    (da_tables._TAG, "", {"<": ">"}),
]
# The characters the patterns read, the masks' own plane, and a filler.
TEXT = st.text(st.sampled_from("<>[]()!xX a\ue000\U0010fffd"), max_size=40)


@pytest.mark.parametrize(("pattern", "repl", "pairs"), USES, ids=["link", "tag"])
@given(text=TEXT)
def test_masked_substitution_equals_the_plain_one(
    pattern: re.Pattern[str], repl: str, pairs: Mapping[str, str], text: str
) -> None:
    assert sub_closed(pattern, repl, text, pairs) == pattern.sub(repl, text)


def test_a_text_holding_the_first_masks_gets_others() -> None:
    text = "\ue000\ue001 [a](b) [c\ue002 <d"
    assert sub_closed(da_tables._LINK, r"\1", text, {"[": "]", "(": ")"}) == (
        "\ue000\ue001 a [c\ue002 <d"
    )
