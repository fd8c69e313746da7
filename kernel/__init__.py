"""Sprint Contract Kernel: a side-effect-free rules kernel for peer-review orchestrators.

Public names are loaded lazily (PEP 562) so that ``import kernel`` and the CLIs start fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from kernel._version import __version__ as __version__

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
    "Expression": "kernel.expression.ast",
    "parse_expression": "kernel.expression.parser",
    "threshold": "kernel.contract.quantifiers",
    # contracts
    "Contract": "kernel.contract.model",
    "load_contract": "kernel.contract.model",
    "shipped_template": "kernel.contract.templates",
    "baseline_digest": "kernel.contract.baseline",
    "inject": "kernel.contract.baseline",
    # decisions
    "Decision": "kernel.decision.value",
    "decide": "kernel.decision.decision",
    "decide_many": "kernel.decision.decision",
    # what a contract can decide
    "analyze": "kernel.analysis",
    "analyze_diff": "kernel.analysis",
    "sensitivity": "kernel.analysis",
    # a Schema 13 contract as 13.2, and the decisions that change
    "migrate": "kernel.migration",
    # reviewer documents
    "LintReport": "kernel.reviewer.lint",
    "lint_phase1": "kernel.reviewer.lint",
    "lint_phase2": "kernel.reviewer.lint",
    "phase1_input": "kernel.reviewer.phase_inputs",
    "phase2_input": "kernel.reviewer.phase_inputs",
    "render_phase1": "kernel.reviewer.render",
    "render_phase2": "kernel.reviewer.render",
    "decide_documents": "kernel.reviewer.review",
    # a written synthesis (R17)
    "SynthesisReport": "kernel.reviewer.synthesis",
    "check_synthesis": "kernel.reviewer.synthesis",
    # re-review: ARS round 2 (the accept gate)
    "ReReviewDecision": "kernel.re_review.decision",
    "ReReviewReport": "kernel.re_review.check",
    "check_re_review": "kernel.re_review.check",
    "decide_re_review": "kernel.re_review.decide",
    "load_re_review": "kernel.re_review.load",
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
    "ReReviewDecision",
    "ReReviewReport",
    "SynthesisReport",
    "analyze",
    "analyze_diff",
    "baseline_digest",
    "check_re_review",
    "check_synthesis",
    "decide",
    "decide_documents",
    "decide_many",
    "decide_re_review",
    "inject",
    "lint_phase1",
    "lint_phase2",
    "load_contract",
    "load_re_review",
    "migrate",
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
    from kernel.contract.baseline import baseline_digest, inject
    from kernel.contract.model import Contract, load_contract
    from kernel.contract.quantifiers import threshold
    from kernel.contract.templates import shipped_template
    from kernel.decision.decision import decide, decide_many
    from kernel.decision.value import Decision
    from kernel.errors import (
        ContractError,
        ExpressionUnrecognised,
        KernelError,
        MatrixError,
        PanelShrunk,
    )
    from kernel.expression.ast import Expression
    from kernel.expression.parser import parse_expression
    from kernel.majority import strict_majority
    from kernel.migration import migrate
    from kernel.re_review.check import ReReviewReport, check_re_review
    from kernel.re_review.decide import decide_re_review
    from kernel.re_review.decision import ReReviewDecision
    from kernel.re_review.load import load_re_review
    from kernel.reviewer.lint import LintReport, lint_phase1, lint_phase2
    from kernel.reviewer.phase_inputs import phase1_input, phase2_input
    from kernel.reviewer.render import render_phase1, render_phase2
    from kernel.reviewer.review import decide_documents
    from kernel.reviewer.synthesis import SynthesisReport, check_synthesis


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kernel' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
