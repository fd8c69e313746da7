"""Sprint Contract Kernel: a side-effect-free rules kernel for peer-review orchestrators.

Public names are loaded lazily (PEP 562) so that ``import kernel`` and the CLIs start fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # errors
    "KernelError": "kernel.errors",
    "ContractError": "kernel.errors",
    "ExpressionUnrecognised": "kernel.errors",
    "MatrixError": "kernel.errors",
    "PanelShrunk": "kernel.errors",
    # shared rules
    "strict_majority": "kernel.majority",
    # expressions
    "Expression": "kernel.ast",
    "parse_expression": "kernel.parser",
    "threshold": "kernel.quantifiers",
    # contracts
    "Contract": "kernel.model",
    "load_contract": "kernel.model",
    "shipped_template": "kernel.templates",
    "baseline_digest": "kernel.baseline",
    "inject": "kernel.baseline",
    # decisions
    "Decision": "kernel.decision",
    "decide": "kernel.decision",
    # what a contract can decide
    "analyze": "kernel.analysis",
    "analyze_diff": "kernel.analysis",
    "sensitivity": "kernel.analysis",
    # reviewer documents
    "LintReport": "kernel.lint",
    "lint_phase1": "kernel.lint",
    "lint_phase2": "kernel.lint",
    "phase1_input": "kernel.phase_inputs",
    "phase2_input": "kernel.phase_inputs",
    "render_phase1": "kernel.render",
    "render_phase2": "kernel.render",
}

__all__ = [
    "Contract",
    "ContractError",
    "Decision",
    "Expression",
    "ExpressionUnrecognised",
    "KernelError",
    "LintReport",
    "MatrixError",
    "PanelShrunk",
    "analyze",
    "analyze_diff",
    "baseline_digest",
    "decide",
    "inject",
    "lint_phase1",
    "lint_phase2",
    "load_contract",
    "parse_expression",
    "phase1_input",
    "phase2_input",
    "render_phase1",
    "render_phase2",
    "sensitivity",
    "shipped_template",
    "strict_majority",
    "threshold",
]

if TYPE_CHECKING:
    from kernel.analysis import analyze, analyze_diff, sensitivity
    from kernel.ast import Expression
    from kernel.baseline import baseline_digest, inject
    from kernel.decision import Decision, decide
    from kernel.errors import (
        ContractError,
        ExpressionUnrecognised,
        KernelError,
        MatrixError,
        PanelShrunk,
    )
    from kernel.lint import LintReport, lint_phase1, lint_phase2
    from kernel.majority import strict_majority
    from kernel.model import Contract, load_contract
    from kernel.parser import parse_expression
    from kernel.phase_inputs import phase1_input, phase2_input
    from kernel.quantifiers import threshold
    from kernel.render import render_phase1, render_phase2
    from kernel.templates import shipped_template


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kernel' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
