"""``kernel.strict.shown`` and ``kernel.io.label``: a caller's value in an error message."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.fuzz import anything

from kernel.errors import KernelError
from kernel.io import label
from kernel.strict import shown

H = 10**5000


class BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no")


@given(anything() | st.sampled_from([H, -H, [H], {"k": H}, Fraction(H, 3), BadRepr()]))
def test_shown_is_short_and_never_raises(value: Any) -> None:
    text = shown(value)
    assert isinstance(text, str) and 0 < len(text) <= 60


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (5, "5"),
        ("x", "'x'"),
        (H, f"an integer of {H.bit_length()} bits"),
        ([H], "a list object"),
        (BadRepr(), "a BadRepr object"),
        ("y" * 100, "'" + "y" * 56 + "..."),
    ],
    ids=["int", "str", "huge", "list-of-huge", "bad-repr", "long"],
)
def test_shown_pinned(value: Any, expected: str) -> None:
    assert shown(value) == expected


def test_label_takes_text_and_paths() -> None:
    assert label("run.jsonl", "source") == "run.jsonl"
    assert label(Path("a") / "b.json", "source") == str(Path("a") / "b.json")


@pytest.mark.parametrize(
    "value", [H, None, b"run.jsonl", ["x"], 3.5], ids=["huge", "none", "bytes", "list", "float"]
)
def test_label_refuses_anything_else(value: Any) -> None:
    with pytest.raises(KernelError, match=r"^source must be a string naming the input, got "):
        label(value, "source")
