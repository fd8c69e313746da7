"""Arena Protocol v2 (seed 002) as a pure rules kernel: inputs, verdicts, state machine, audit.

Entry points (api.md): ``parse_verdict``, ``validate_config``, ``step``, ``check_conformance``.
"""

from __future__ import annotations

from kernel.arena.audit import AuditRecord, TrailLine, parse_trail
from kernel.arena.config import (
    InputsError,
    NotebookContext,
    ProtocolConfig,
    TaskContext,
    load_inputs,
    validate_config,
    validate_run_inputs,
)
from kernel.arena.conformance import (
    CheckResult,
    ConformanceReport,
    Finding,
    check_conformance,
)
from kernel.arena.credentials import find_credentials
from kernel.arena.machine import (
    Awaiting,
    Effect,
    Event,
    Failed,
    FinalizerCompleted,
    HookCompleted,
    InvokeFinalizer,
    InvokePlanner,
    InvokeReviewer,
    Persist,
    PlannerCompleted,
    ReviewerCompleted,
    Run,
    RunHook,
    Start,
    Terminate,
    step,
)
from kernel.arena.states import TERMINAL, TRANSITIONS, State
from kernel.arena.verdict import (
    PARSER_ERROR_MISSING_VERDICT,
    PARSER_WARNING_MULTIPLE_VERDICTS,
    VerdictResult,
    parse_verdict,
)

__all__ = [
    "PARSER_ERROR_MISSING_VERDICT",
    "PARSER_WARNING_MULTIPLE_VERDICTS",
    "TERMINAL",
    "TRANSITIONS",
    "AuditRecord",
    "Awaiting",
    "CheckResult",
    "ConformanceReport",
    "Effect",
    "Event",
    "Failed",
    "FinalizerCompleted",
    "Finding",
    "HookCompleted",
    "InputsError",
    "InvokeFinalizer",
    "InvokePlanner",
    "InvokeReviewer",
    "NotebookContext",
    "Persist",
    "PlannerCompleted",
    "ProtocolConfig",
    "ReviewerCompleted",
    "Run",
    "RunHook",
    "Start",
    "State",
    "TaskContext",
    "Terminate",
    "TrailLine",
    "VerdictResult",
    "check_conformance",
    "find_credentials",
    "load_inputs",
    "parse_trail",
    "parse_verdict",
    "step",
    "validate_config",
    "validate_run_inputs",
]
