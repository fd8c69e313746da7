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
}

__all__ = [
    "Contract",
    "ContractError",
    "Decision",
    "Expression",
    "ExpressionUnrecognised",
    "KernelError",
    "MatrixError",
    "PanelShrunk",
    "baseline_digest",
    "decide",
    "inject",
    "load_contract",
    "parse_expression",
    "shipped_template",
    "strict_majority",
    "threshold",
]

if TYPE_CHECKING:
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
    from kernel.majority import strict_majority
    from kernel.model import Contract, load_contract
    from kernel.parser import parse_expression
    from kernel.quantifiers import threshold
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
