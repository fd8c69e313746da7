"""Arena §4.1 to §4.3 inputs: ``ProtocolConfig``, ``TaskContext``, ``NotebookContext``.

``validate_config`` lists every violation at once, each starting with the field it concerns.
The ``load_*`` functions turn valid mappings into frozen values (defaults applied).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from kernel.arena.values import shown
from kernel.errors import InputsError
from kernel.strict import is_int

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "MAX_ROUNDS_RANGE",
    "PROFILES",
    "InputsError",
    "NotebookContext",
    "ProtocolConfig",
    "TaskContext",
    "load_inputs",
    "session_id_valid",
    "validate_config",
    "validate_run_inputs",
]

DEFAULT_MAX_ROUNDS = 5
MAX_ROUNDS_RANGE = (1, 5)
PROFILES = ("enterprise", "personal", "auto")

_CONFIG_FIELDS = ("max_rounds", "session_resume_required", "reviewer_mode", "notebook_enabled")
_TASK_FIELDS = (
    "task_id",
    "initial_prompt",
    "session_id",
    "round_history_refs",
    "notebook_required",
)
_NOTEBOOK_FIELDS = ("notebook_id", "profile", "tools")


@attrs.frozen
class ProtocolConfig:
    max_rounds: int = DEFAULT_MAX_ROUNDS
    session_resume_required: bool = True
    reviewer_mode: str = "read-only"
    notebook_enabled: bool = False

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class TaskContext:
    task_id: str
    initial_prompt: str
    session_id: str
    round_history_refs: tuple[str, ...] = ()
    notebook_required: bool = False

    def to_dict(self) -> dict[str, Any]:
        out = attrs.asdict(self)
        out["round_history_refs"] = list(self.round_history_refs)
        return out


@attrs.frozen
class NotebookContext:
    notebook_id: str
    profile: str
    tools: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"notebook_id": self.notebook_id, "profile": self.profile, "tools": list(self.tools)}


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, list | tuple):
        return "array"
    return type(value).__name__


def _nonempty_string(value: object) -> bool:
    return isinstance(value, str) and value.strip() != ""


def session_id_valid(value: object) -> bool:
    """§6.3: a valid session id is a string that is not empty or blank."""
    return _nonempty_string(value)


def _unknown(name: str, mapping: Mapping[Any, Any], known: tuple[str, ...]) -> list[str]:
    return [
        f"{name}.{key if isinstance(key, str) else shown(key)}: unknown field "
        f"(allowed: {', '.join(known)})"
        for key in mapping
        if key not in known
    ]


def _check_config(config: object) -> list[str]:
    if not isinstance(config, Mapping):
        return [f"ProtocolConfig: must be an object, got {_type_name(config)}"]
    errors: list[str] = []
    lo, hi = MAX_ROUNDS_RANGE
    if "max_rounds" in config:
        value = config["max_rounds"]
        if not is_int(value):
            errors.append(
                f"ProtocolConfig.max_rounds: must be an integer in [{lo}, {hi}], "
                f"got {_type_name(value)}"
            )
        elif not lo <= value <= hi:
            errors.append(f"ProtocolConfig.max_rounds: must be in [{lo}, {hi}], got {shown(value)}")
    if "session_resume_required" not in config:
        errors.append("ProtocolConfig.session_resume_required: missing (must be true)")
    elif config["session_resume_required"] is not True:
        errors.append("ProtocolConfig.session_resume_required: must be true")
    if "reviewer_mode" not in config:
        errors.append('ProtocolConfig.reviewer_mode: missing (must be "read-only")')
    elif config["reviewer_mode"] != "read-only" or not isinstance(config["reviewer_mode"], str):
        errors.append('ProtocolConfig.reviewer_mode: must be exactly "read-only"')
    if "notebook_enabled" not in config:
        errors.append("ProtocolConfig.notebook_enabled: missing (must be a boolean)")
    elif not isinstance(config["notebook_enabled"], bool):
        errors.append(
            "ProtocolConfig.notebook_enabled: must be a boolean, "
            f"got {_type_name(config['notebook_enabled'])}"
        )
    return errors + _unknown("ProtocolConfig", config, _CONFIG_FIELDS)


def _check_strings(name: str, mapping: Mapping[Any, Any], fields: tuple[str, ...]) -> list[str]:
    errors = []
    for field in fields:
        if field not in mapping:
            errors.append(f"{name}.{field}: missing (must be a non-empty string)")
        elif not _nonempty_string(mapping[field]):
            got = (
                "a blank string" if isinstance(mapping[field], str) else _type_name(mapping[field])
            )
            errors.append(f"{name}.{field}: must be a non-empty string, got {got}")
    return errors


def _check_string_list(name: str, value: object) -> list[str]:
    if not isinstance(value, list | tuple):
        return [f"{name}: must be an array of strings, got {_type_name(value)}"]
    return [
        f"{name}[{i}]: must be a string, got {_type_name(item)}"
        for i, item in enumerate(value)
        if not isinstance(item, str)
    ]


def _check_task(task: object) -> list[str]:
    if not isinstance(task, Mapping):
        return [f"TaskContext: must be an object, got {_type_name(task)}"]
    errors = _check_strings("TaskContext", task, ("task_id", "initial_prompt", "session_id"))
    if "round_history_refs" not in task:
        errors.append("TaskContext.round_history_refs: missing (must be an array of strings)")
    else:
        errors += _check_string_list("TaskContext.round_history_refs", task["round_history_refs"])
    if "notebook_required" in task and not isinstance(task["notebook_required"], bool):
        errors.append(
            "TaskContext.notebook_required: must be a boolean, "
            f"got {_type_name(task['notebook_required'])}"
        )
    return errors + _unknown("TaskContext", task, _TASK_FIELDS)


def _check_notebook(notebook: object) -> list[str]:
    if not isinstance(notebook, Mapping):
        return [f"NotebookContext: must be an object, got {_type_name(notebook)}"]
    errors = _check_strings("NotebookContext", notebook, ("notebook_id",))
    if "profile" not in notebook:
        errors.append(f"NotebookContext.profile: missing (must be one of {', '.join(PROFILES)})")
    elif notebook["profile"] not in PROFILES or not isinstance(notebook["profile"], str):
        errors.append(f"NotebookContext.profile: must be one of {', '.join(PROFILES)}")
    if "tools" not in notebook:
        errors.append("NotebookContext.tools: missing (must include notebook_query)")
    else:
        tools = notebook["tools"]
        tool_errors = _check_string_list("NotebookContext.tools", tools)
        errors += tool_errors
        if not tool_errors and "notebook_query" not in tools:
            errors.append("NotebookContext.tools: must include notebook_query")
    return errors + _unknown("NotebookContext", notebook, _NOTEBOOK_FIELDS)


def validate_config(config: object, task: object = None, notebook: object = None) -> list[str]:
    """Every §4 violation of ``config`` and, when given, ``task`` and ``notebook``.

    Each message starts with the field it concerns (``ProtocolConfig.max_rounds: …``).
    Whether a NotebookContext must be present at all is a property of a whole run: see
    ``validate_run_inputs``.
    """
    errors = _check_config(config)
    if task is not None:
        errors += _check_task(task)
    if notebook is not None:
        errors += _check_notebook(notebook)
    return errors


def validate_run_inputs(config: object, task: object, notebook: object) -> list[str]:
    """``validate_config`` for the three inputs of one run: here a missing ``task`` is a
    violation, and so is a missing NotebookContext when ``notebook_enabled`` is true (§4.3.1)."""
    errors = validate_config(config, task, notebook)
    if task is None:
        errors.append("TaskContext: missing (must be an object)")
    if notebook is None and isinstance(config, Mapping) and config.get("notebook_enabled") is True:
        errors.append("NotebookContext.notebook_id: missing (required when notebook_enabled)")
    return errors


def load_inputs(
    config: object, task: object, notebook: object
) -> tuple[ProtocolConfig, TaskContext, NotebookContext | None]:
    """Frozen values for valid run inputs, defaults applied; ``InputsError`` otherwise."""
    errors = validate_run_inputs(config, task, notebook)
    if errors:
        raise InputsError(errors)
    assert isinstance(config, Mapping) and isinstance(task, Mapping)
    cfg = ProtocolConfig(
        max_rounds=config.get("max_rounds", DEFAULT_MAX_ROUNDS),
        session_resume_required=True,
        reviewer_mode="read-only",
        notebook_enabled=config["notebook_enabled"],
    )
    ctx = TaskContext(
        task_id=task["task_id"],
        initial_prompt=task["initial_prompt"],
        session_id=task["session_id"],
        round_history_refs=tuple(task["round_history_refs"]),
        notebook_required=task.get("notebook_required", False),
    )
    nb = None
    if isinstance(notebook, Mapping):
        nb = NotebookContext(
            notebook_id=notebook["notebook_id"],
            profile=notebook["profile"],
            tools=tuple(notebook["tools"]),
        )
    return cfg, ctx, nb
