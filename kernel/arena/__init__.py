"""Arena Protocol v2 (seed 002) as a pure rules kernel: inputs, verdicts, state machine, audit.

Entry points (api.md): ``parse_verdict``, ``validate_config``, ``step``, ``check_conformance``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel._lazy import lazy_exports

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

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "AuditRecord": "kernel.arena.audit",
        "TrailLine": "kernel.arena.audit",
        "parse_trail": "kernel.arena.audit",
        "InputsError": "kernel.arena.config",
        "NotebookContext": "kernel.arena.config",
        "ProtocolConfig": "kernel.arena.config",
        "TaskContext": "kernel.arena.config",
        "load_inputs": "kernel.arena.config",
        "validate_config": "kernel.arena.config",
        "validate_run_inputs": "kernel.arena.config",
        "CheckResult": "kernel.arena.conformance",
        "ConformanceReport": "kernel.arena.conformance",
        "Finding": "kernel.arena.conformance",
        "check_conformance": "kernel.arena.conformance",
        "find_credentials": "kernel.arena.credentials",
        "Awaiting": "kernel.arena.machine",
        "Effect": "kernel.arena.machine",
        "Event": "kernel.arena.machine",
        "Failed": "kernel.arena.machine",
        "FinalizerCompleted": "kernel.arena.machine",
        "HookCompleted": "kernel.arena.machine",
        "InvokeFinalizer": "kernel.arena.machine",
        "InvokePlanner": "kernel.arena.machine",
        "InvokeReviewer": "kernel.arena.machine",
        "Persist": "kernel.arena.machine",
        "PlannerCompleted": "kernel.arena.machine",
        "ReviewerCompleted": "kernel.arena.machine",
        "Run": "kernel.arena.machine",
        "RunHook": "kernel.arena.machine",
        "Start": "kernel.arena.machine",
        "Terminate": "kernel.arena.machine",
        "step": "kernel.arena.machine",
        "TERMINAL": "kernel.arena.states",
        "TRANSITIONS": "kernel.arena.states",
        "State": "kernel.arena.states",
        "PARSER_ERROR_MISSING_VERDICT": "kernel.arena.verdict",
        "PARSER_WARNING_MULTIPLE_VERDICTS": "kernel.arena.verdict",
        "VerdictResult": "kernel.arena.verdict",
        "parse_verdict": "kernel.arena.verdict",
    },
)

if TYPE_CHECKING:
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
