"""The one strict JSON Schema validator factory (R10)."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.schema import ecma_pattern, is_date_time, schema_errors, strict_validator
from kernel.strict import is_int


@given(st.text(max_size=12))
@example("\u0663")  # ARABIC-INDIC DIGIT THREE
@example("12\n")
@example("1\u00a02")
def test_digit_class_is_ascii_and_dollar_is_the_end(text: str) -> None:
    ecma = ecma_pattern(r"^\d+$").search(text) is not None
    assert ecma == (re.fullmatch(r"[0-9]+", text) is not None)


@given(st.text(max_size=12))
@example("a\u2028b")
@example("a\u00a0b")
def test_dot_and_space_follow_ecma(text: str) -> None:
    terminators = "\n\r\u2028\u2029"
    assert (ecma_pattern(r"^.+$").search(text) is not None) == (
        bool(text) and not any(c in terminators for c in text)
    )
    spaces = "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
        chr(c) for c in range(0x2000, 0x200B)
    )
    assert (ecma_pattern(r"\s").search(text) is not None) == any(c in spaces for c in text)


def test_named_groups_and_classes() -> None:
    assert ecma_pattern(r"^(?<a>x)\k<a>$").search("xx")
    assert ecma_pattern(r"^[$]$").search("$")
    assert ecma_pattern(r"^[^\s]$").search("x") and not ecma_pattern(r"^[^\s]$").search(" ")
    assert ecma_pattern(r"^\$$").search("$")


@given(st.one_of(st.integers(), st.floats(allow_nan=False), st.booleans(), st.text(max_size=3)))
@example(5.0)
@example(True)
def test_strict_integers(value: object) -> None:
    v = strict_validator({"type": "integer"})
    assert (schema_errors(v, value) == []) == is_int(value)
    assert is_int(value) == (type(value) is int)


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("2026-04-23T10:00:00Z", True),
        ("2026-04-23T10:00:00+02:00", True),
        ("not-a-date", False),
        ("2026-02-30T10:00:00Z", False),
        ("2026-04-23", False),
    ],
)
def test_date_time_is_really_checked(text: str, ok: bool) -> None:
    assert is_date_time(text) is ok
    v = strict_validator({"type": "string", "format": "date-time"})
    assert (schema_errors(v, text) == []) is ok


def test_errors_carry_jsonschemas_json_path_sorted_and_bounded() -> None:
    v = strict_validator(
        {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "integer"}}}}
    )
    errors = schema_errors(v, {"a": [1, "x", 2.5]})
    assert [e.json_path for e in errors] == ["$.a[1]", "$.a[2]"]
    assert str(errors[0]).startswith("$.a[1]: ")
    assert len(schema_errors(v, {"a": ["x"] * 50}, limit=3)) == 3
    long = schema_errors(strict_validator({"enum": ["y"]}), "x" * 500, clip=50)
    assert len(long[0].message) == 50 and long[0].message.endswith("…")


def test_deep_nesting_is_one_error() -> None:
    deep: object = []
    for _ in range(100_000):
        deep = [deep]
    v = strict_validator({"items": {"$ref": "#"}})
    assert [str(e) for e in schema_errors(v, deep)] == ["$: nested too deeply to validate"]


def test_a_missing_item_is_named_by_its_description() -> None:
    described = {"type": "array", "contains": {"const": 1, "description": "the number one"}}
    bare = {"type": "array", "contains": {"const": 1}}
    assert [e.message for e in schema_errors(strict_validator(described), [2])] == [
        "no item is the number one"
    ]
    assert [e.message for e in schema_errors(strict_validator(bare), [2])] == [
        "no item matches 'contains'"
    ]


def test_a_message_of_exactly_the_clip_length_is_kept_whole() -> None:
    v = strict_validator({"enum": ["y"]})
    (whole,) = schema_errors(v, "x")
    n = len(whole.message)
    assert schema_errors(v, "x", clip=n)[0].message == whole.message
    assert schema_errors(v, "x", clip=n - 1)[0].message == whole.message[: n - 2] + "…"
