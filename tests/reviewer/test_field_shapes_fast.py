"""``field_shapes`` (R20) reads a line as its per-character definition does (issue 40 made it
read plain lines directly and take letters out in C)."""

from __future__ import annotations

import unicodedata

from hypothesis import example, given
from hypothesis import strategies as st

from kernel.reviewer.lint.readings import MARKUP, _without_comments, field_shapes, without_tags
from kernel.text.skeleton import is_ignorable


def reference(line: str) -> set[str]:
    """The definition, character by character (the code before issue 40)."""
    if ":" not in line and line.isascii():
        return set()
    blanked = line.replace("<!--", "    ").replace("-->", "   ")
    shapes: set[str] = set()
    for text in (blanked, _without_comments(line)):
        folded = unicodedata.normalize("NFKC", text).casefold()
        if not folded.isascii():
            folded = "".join(c for c in folded if not is_ignorable(c))
        head, colon, _ = MARKUP.sub("", without_tags(folded)).partition(":")
        if colon:
            shapes.add("".join(c for c in head if c.isalpha()))
    return shapes


PIECES = st.sampled_from(
    ["score", "Score", "SCORE", "trigger", "_", " ", ":", "\uff1a", "<!--", "-->", "<b>", ">",
     "](x)", "[ ]", "[x]", "]", "*", "`", "\u200b", "\u00ad", "\uff53core", "1", "\u00e9",
     "\u2160", "\u00b2", "- ", "> "]
)  # fmt: skip
LINES = st.lists(PIECES | st.characters(max_codepoint=0x7F), max_size=12).map("".join)


@given(LINES)
@example("score: warn")
@example("**Score**: warn <!-- x -->")
@example("sc\u200bore: x")
@example("a ]b: c")
def test_field_shapes_equal_their_definition(line: str) -> None:
    assert field_shapes(line) == reference(line)
