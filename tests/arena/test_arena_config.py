"""kernel.arena.validate_config (§4.1-§4.3, companions.md §A)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.arena_support import (
    VALID_CONFIG,
    VALID_NOTEBOOK,
    VALID_TASK,
    configs,
    notebooks,
    tasks,
)

from kernel.arena import InputsError, load_inputs, validate_config, validate_run_inputs


def test_valid_inputs_have_no_violations() -> None:
    assert validate_config(VALID_CONFIG) == []
    assert validate_config(VALID_CONFIG, VALID_TASK, VALID_NOTEBOOK) == []
    assert validate_run_inputs(VALID_CONFIG, VALID_TASK, VALID_NOTEBOOK) == []


def test_defaults_apply() -> None:
    config = {k: v for k, v in VALID_CONFIG.items() if k != "max_rounds"}
    task = {k: v for k, v in VALID_TASK.items() if k != "notebook_required"}
    cfg, ctx, nb = load_inputs(config, task, VALID_NOTEBOOK)
    assert cfg.max_rounds == 5
    assert ctx.notebook_required is False
    assert nb is not None and nb.tools == ("notebook_describe", "notebook_query", "studio_create")


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("max_rounds", 0, "ProtocolConfig.max_rounds: must be in [1, 5], got 0"),
        ("max_rounds", 6, "ProtocolConfig.max_rounds: must be in [1, 5], got 6"),
        (
            "max_rounds",
            True,
            "ProtocolConfig.max_rounds: must be an integer in [1, 5], got boolean",
        ),
        ("max_rounds", 2.0, "ProtocolConfig.max_rounds: must be an integer in [1, 5], got number"),
        ("max_rounds", "3", "ProtocolConfig.max_rounds: must be an integer in [1, 5], got string"),
        ("max_rounds", None, "ProtocolConfig.max_rounds: must be an integer in [1, 5], got null"),
        ("session_resume_required", False, "ProtocolConfig.session_resume_required: must be true"),
        ("session_resume_required", 1, "ProtocolConfig.session_resume_required: must be true"),
        (
            "reviewer_mode",
            "read-write",
            'ProtocolConfig.reviewer_mode: must be exactly "read-only"',
        ),
        ("reviewer_mode", "READ-ONLY", 'ProtocolConfig.reviewer_mode: must be exactly "read-only"'),
        (
            "notebook_enabled",
            "yes",
            "ProtocolConfig.notebook_enabled: must be a boolean, got string",
        ),
        ("notebook_enabled", 0, "ProtocolConfig.notebook_enabled: must be a boolean, got number"),
    ],
)
def test_config_field_violations(field: str, value: object, expected: str) -> None:
    assert validate_config({**VALID_CONFIG, field: value}) == [expected]


@pytest.mark.parametrize("field", ["session_resume_required", "reviewer_mode", "notebook_enabled"])
def test_missing_config_fields_without_default(field: str) -> None:
    config = {k: v for k, v in VALID_CONFIG.items() if k != field}
    [error] = validate_config(config)
    assert error.startswith(f"ProtocolConfig.{field}: missing")


def test_every_violation_is_listed_at_once() -> None:
    errors = validate_config(
        {"max_rounds": 9, "reviewer_mode": "rw", "notebook_enabled": True, "extra": 1},
        {"task_id": "", "session_id": 7, "round_history_refs": [1], "notebook_required": "no"},
        {"profile": "team", "tools": ["notebook_describe"]},
    )
    fields = [e.split(":", 1)[0] for e in errors]
    assert fields == [
        "ProtocolConfig.max_rounds",
        "ProtocolConfig.session_resume_required",
        "ProtocolConfig.reviewer_mode",
        "ProtocolConfig.extra",
        "TaskContext.task_id",
        "TaskContext.initial_prompt",
        "TaskContext.session_id",
        "TaskContext.round_history_refs[0]",
        "TaskContext.notebook_required",
        "NotebookContext.notebook_id",
        "NotebookContext.profile",
        "NotebookContext.tools",
    ]


def test_notebook_context_is_required_for_a_run_with_notebooks() -> None:
    assert validate_config(VALID_CONFIG, VALID_TASK) == []
    assert validate_run_inputs(VALID_CONFIG, VALID_TASK, None) == [
        "NotebookContext.notebook_id: missing (required when notebook_enabled)"
    ]
    disabled = {**VALID_CONFIG, "notebook_enabled": False}
    assert validate_run_inputs(disabled, VALID_TASK, None) == []


def test_studio_create_is_optional_but_notebook_query_is_not() -> None:
    nb = {**VALID_NOTEBOOK, "tools": ["notebook_query"]}
    assert validate_config(VALID_CONFIG, None, nb) == []
    nb = {**VALID_NOTEBOOK, "tools": ["notebook_describe", "studio_create"]}
    assert validate_config(VALID_CONFIG, None, nb) == [
        "NotebookContext.tools: must include notebook_query"
    ]


@pytest.mark.parametrize("bad", [None, [], "config", 5, True])
def test_non_objects(bad: object) -> None:
    assert validate_config(bad) == [f"ProtocolConfig: must be an object, got {_kind(bad)}"]


def _kind(value: object) -> str:
    return {type(None): "null", list: "array", str: "string", int: "number", bool: "boolean"}[
        type(value)
    ]


def test_load_inputs_raises_with_every_error() -> None:
    with pytest.raises(InputsError) as info:
        load_inputs({**VALID_CONFIG, "max_rounds": 0}, {**VALID_TASK, "session_id": " "}, None)
    assert [e.split(":")[0] for e in info.value.errors] == [
        "ProtocolConfig.max_rounds",
        "TaskContext.session_id",
        "NotebookContext.notebook_id",
    ]


@given(configs(), tasks(), notebooks())
def test_generated_valid_inputs_pass(config: dict[str, Any], task: dict[str, Any], nb: Any) -> None:
    assert validate_run_inputs(config, task, nb) == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(st.sampled_from(["config", "task", "notebook"]), st.data(), json_values)
def test_one_changed_field_is_named_by_every_violation(
    where: str, data: st.DataObject, value: Any
) -> None:
    changed = copy.deepcopy(
        {"config": VALID_CONFIG, "task": VALID_TASK, "notebook": VALID_NOTEBOOK}
    )
    target = changed[where]
    field = data.draw(st.sampled_from([*sorted(target), "surprise"]))
    target[field] = value
    errors = validate_config(changed["config"], changed["task"], changed["notebook"])
    prefix = {"config": "ProtocolConfig", "task": "TaskContext", "notebook": "NotebookContext"}
    for error in errors:
        assert error.startswith(f"{prefix[where]}.{field}")
    if field == "surprise":
        assert len(errors) == 1
