"""R16 normalisation: line endings and trailing white space only."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from kernel.reviewer.duplicates import duplicate_of, normalise_report

line = st.text(alphabet="ab #:\u00a0", max_size=6)
endings = st.sampled_from(("\n", "\r\n", "\r"))
trailing = st.text(alphabet=" \t\u00a0\u3000", max_size=3)


def _noisy(pieces: list[tuple[str, str, str]]) -> str:
    """The lines joined with their trailing space and endings. A "\\r" ending followed by an
    empty line and a "\\n" ending would read as one CRLF (one line fewer), so that "\\n" is
    written "\\r\\n": still a different ending, and the same lines."""
    out = ""
    previous = ""
    for i, (text, space, ending) in enumerate(pieces):
        if i == len(pieces) - 1:
            ending = ""
        elif previous == "\r" and not text + space and ending == "\n":
            ending = "\r\n"
        out += text + space + ending
        previous = ending
    return out


@given(st.lists(st.tuples(line, trailing, endings), min_size=1, max_size=6))
@example([("a", "", "\r"), ("", "", "\n"), ("b", "", "\n")])
def test_endings_and_trailing_space_do_not_matter(pieces: list[tuple[str, str, str]]) -> None:
    plain = "\n".join(text for text, _, _ in pieces)
    noisy = _noisy(pieces)
    assert normalise_report(noisy) == normalise_report(plain)
    assert normalise_report(normalise_report(noisy)) == normalise_report(noisy)


def test_other_differences_matter() -> None:
    base = "## Dimension Scores\n\nscore: pass\n"
    for other in (base + "\n", "\ufeff" + base, base.replace("score", " score"), base.upper()):
        assert normalise_report(other) != normalise_report(base)


def test_duplicate_of_points_at_the_first_copy() -> None:
    texts = ["a\n", None, "b", "a \r\n", "b\t", None, "a"]
    assert duplicate_of(texts) == [None, None, None, 0, 2, None, None]
    assert duplicate_of([]) == []
