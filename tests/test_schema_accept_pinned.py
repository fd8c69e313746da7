"""The ECMA-262 pattern translation and two keyword checks of the acceptance schema reader,
pinned by their output."""

from __future__ import annotations

import pytest

from kernel.schema.accept import _count, _prefix_items, ecma_pattern


@pytest.mark.parametrize(
    ("ecma", "python"),
    [
        (r"[^]a]", r"[^\]a]"),  # a leading ']' after '^' is escaped
        (r"[]a]", r"[\]a]"),
        (r"[ab]$", r"[ab]\Z"),  # the class ends at ']': '$' after it is the end of text
        (r"[$]b$", r"[$]b\Z"),  # inside a class '$' is itself
        (r"[a$.]x$", r"[a$.]x\Z"),  # to the class's end
        (r"(?<y>a)\k<y>", r"(?P<y>a)(?P=y)"),
        (r"(?<y>a)\k<y>b", r"(?P<y>a)(?P=y)b"),
        (r"[a]b.", "[a]b[^\\n\\r\\u2028\\u2029]"),
    ],
)
def test_ecma_patterns_translate(ecma: str, python: str) -> None:
    assert ecma_pattern(ecma).pattern == python


def test_prefix_items_skips_what_is_not_a_list() -> None:
    assert _prefix_items([{"type": "integer"}], "abc", {}, {}) is True
    assert _prefix_items([{"type": "integer"}], ["a"], {}, {}) is False


def test_a_count_keyword_checks_only_its_own_kind() -> None:
    at_most_two = _count(lambda n, v: n <= v, list)
    assert at_most_two(2, "abc", {}, {}) is True
    assert at_most_two(2, (1, 2, 3), {}, {}) is True
    assert at_most_two(2, [1, 2, 3], {}, {}) is False
    assert at_most_two(2, [1], {}, {}) is True
