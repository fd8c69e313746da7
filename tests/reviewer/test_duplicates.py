"""R16 normalisation: line endings and trailing white space only."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kernel.reviewer.duplicates import duplicate_of, normalise_report

lines = st.lists(st.text(alphabet="ab #:\u00a0", max_size=6), min_size=1, max_size=6)
endings = st.sampled_from(("\n", "\r\n", "\r"))
trailing = st.text(alphabet=" \t\u00a0\u3000", max_size=3)


@given(lines, st.data())
def test_endings_and_trailing_space_do_not_matter(body: list[str], data: st.DataObject) -> None:
    plain = "\n".join(body)
    noisy = "".join(
        line + data.draw(trailing) + (data.draw(endings) if i < len(body) - 1 else "")
        for i, line in enumerate(body)
    )
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
