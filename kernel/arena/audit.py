"""Arena §11 audit records and their JSON Lines form (companions.md §A)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import attrs

from kernel.arena.values import json_value_problems
from kernel.errors import KernelError
from kernel.io import MAX_INPUT_BYTES, label, loads_jsonl
from kernel.schema import is_date_time, schema_errors, strict_validator
from kernel.strict import shown

__all__ = [
    "EVENTS",
    "HOOK_EXECUTED",
    "HOOK_PHASES",
    "HOOK_STATUSES",
    "PARSER_ERROR",
    "PARSER_WARNING",
    "RECORD_FIELDS",
    "ROUND_RECORDED",
    "RUN_STARTED",
    "RUN_TERMINATED",
    "STATE_TRANSITION",
    "AuditRecord",
    "TrailLine",
    "is_timestamp",
    "make_record",
    "parse_trail",
    "record_schema_errors",
]

RUN_STARTED = "RUN_STARTED"
STATE_TRANSITION = "STATE_TRANSITION"
ROUND_RECORDED = "ROUND_RECORDED"
HOOK_EXECUTED = "HOOK_EXECUTED"
PARSER_WARNING = "PARSER_WARNING"
PARSER_ERROR = "PARSER_ERROR"
RUN_TERMINATED = "RUN_TERMINATED"
EVENTS = (
    RUN_STARTED,
    STATE_TRANSITION,
    ROUND_RECORDED,
    HOOK_EXECUTED,
    PARSER_WARNING,
    PARSER_ERROR,
    RUN_TERMINATED,
)
HOOK_PHASES = ("before", "during", "after")
HOOK_STATUSES = ("SUCCESS", "FAILED", "SKIPPED_DISABLED", "SKIPPED_DEGRADED")

_STR = {"type": "string"}
_NONEMPTY = {"type": "string", "minLength": 1}
_STRS = {"type": "array", "items": {"type": "string"}}
_ROUND = {"type": "integer", "minimum": 0}

#: Per event, its fields beyond ``event`` and ``timestamp``, with their JSON Schemas.
RECORD_FIELDS: dict[str, dict[str, Any]] = {
    # Inputs are recorded as given when invalid (§6.2); check 1 judges them.
    RUN_STARTED: {"config": {}, "task": {}, "notebook": {}},
    STATE_TRANSITION: {"from": _STR, "to": _STR, "round_index": _ROUND},
    ROUND_RECORDED: {
        "round_index": {"type": "integer", "minimum": 1},
        "planner_output_ref": _NONEMPTY,
        "reviewer_output_ref": _NONEMPTY,
        "verdict": {"enum": ["APPROVED", "REVISE"]},
        "issues": _STRS,
        "reviewer_output": _STR,
        "reviewer_attempt": {"type": "integer", "minimum": 1},
    },
    HOOK_EXECUTED: {
        "phase": {"enum": list(HOOK_PHASES)},
        "query": _STR,
        "evidence_refs": _STRS,
        "status": {"enum": list(HOOK_STATUSES)},
    },
    PARSER_WARNING: {"code": _NONEMPTY, "round_index": _ROUND},
    PARSER_ERROR: {"code": _NONEMPTY, "round_index": _ROUND},
    RUN_TERMINATED: {"state": _STR, "reason": _NONEMPTY},
}
_OPTIONAL = {ROUND_RECORDED: {"reviewer_output", "reviewer_attempt"}}



@functools.cache
def _validator(event: str) -> Any:
    fields = RECORD_FIELDS[event]
    return strict_validator(
        {
            "type": "object",
            "properties": fields,
            "required": sorted(set(fields) - _OPTIONAL.get(event, set())),
        }
    )


def is_timestamp(value: object) -> bool:
    """An RFC 3339 ``date-time`` string."""
    return isinstance(value, str) and is_date_time(value)


def _dump(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise KernelError(f"audit record is not JSON: {exc}") from None


@attrs.frozen
class AuditRecord:
    """One audit trail line; ``line`` is its JSON text (no newline)."""

    event: str
    timestamp: str
    line: str

    def to_dict(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.line)
        return value


def make_record(event: str, timestamp: str, **fields: Any) -> AuditRecord:
    if event not in RECORD_FIELDS:
        raise KernelError(f"unknown audit event {shown(event)}")
    if not is_timestamp(timestamp):
        raise KernelError(f"timestamp must be an RFC 3339 date-time, got {shown(timestamp)}")
    return AuditRecord(event, timestamp, _dump({"event": event, "timestamp": timestamp, **fields}))


def record_schema_errors(record: object) -> list[str]:
    """Why ``record`` is not a well-formed audit record (empty when it is)."""
    if not isinstance(record, Mapping):
        return [f"record must be a JSON object, got {type(record).__name__}"]
    problems = json_value_problems(record)
    if problems:
        return problems
    event = record.get("event")
    if not isinstance(event, str):
        got = "missing" if event is None else f"a {type(event).__name__}, not a string"
        return [f"event: {got} (expected one of {', '.join(EVENTS)})"]
    if event not in RECORD_FIELDS:
        return [f"unknown event {shown(event)} (expected one of {', '.join(EVENTS)})"]
    errors = []
    if not is_timestamp(record.get("timestamp")):
        errors.append("timestamp: missing or not an RFC 3339 date-time")
    for err in schema_errors(_validator(str(event)), dict(record)):
        where = err.json_path.removeprefix("$.") if err.json_path != "$" else "record"
        errors.append(f"{where}: {err.message}")
    return errors


@attrs.frozen
class TrailLine:
    line: int
    record: Any


def parse_trail(
    text: str, *, source: str = "<trail>", max_bytes: int = MAX_INPUT_BYTES
) -> tuple[TrailLine, ...]:
    """Decode a JSON Lines trail strictly; blank lines are skipped; errors name the line."""
    source = label(source, "source")
    return tuple(
        TrailLine(number, value)
        for number, value in loads_jsonl(text, source=source, max_bytes=max_bytes)
    )
