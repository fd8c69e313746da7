"""Arena value checks, pinned: JSON-number and depth messages, audit timestamps, the task
context's dict."""

from __future__ import annotations

from typing import Any

import pytest

from kernel.arena.audit import make_record
from kernel.arena.config import TaskContext
from kernel.arena.values import MAX_DEPTH, json_value_problems
from kernel.errors import KernelError


def test_non_finite_floats_and_non_string_keys() -> None:
    assert json_value_problems({"a": float("nan"), "b": [1.5, float("inf")], 2: 1}) == [
        "record: key 2 is not a string",
        "record.b[1]: inf is not a JSON number",
        "record.a: nan is not a JSON number",
    ]


@pytest.mark.parametrize("container", ["list", "dict"])
def test_nesting_is_allowed_to_exactly_max_depth(container: str) -> None:
    assert MAX_DEPTH == 100
    value: Any = 1
    for _ in range(MAX_DEPTH):
        value = [value] if container == "list" else {"k": value}
    assert json_value_problems(value) == []
    deeper = [value] if container == "list" else {"k": value}
    (problem,) = json_value_problems(deeper)
    assert problem.endswith(": nested deeper than 100 levels")


def test_an_audit_record_needs_an_rfc3339_timestamp() -> None:
    with pytest.raises(KernelError) as info:
        make_record("RUN_STARTED", "yesterday")
    assert info.value.message == "timestamp must be an RFC 3339 date-time, got 'yesterday'"


def test_the_task_context_dict_lists_its_history_refs() -> None:
    out = TaskContext("t", "p", "s", ("a", "b")).to_dict()
    assert out == {
        "task_id": "t",
        "initial_prompt": "p",
        "session_id": "s",
        "round_history_refs": ["a", "b"],
        "notebook_required": False,
    }
    assert type(out["round_history_refs"]) is list
