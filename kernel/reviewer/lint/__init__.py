"""Structural lints of reviewer markdown (seed §5.3/§5.3b, wire-format.md).

``python -m kernel.lint DOC --contract C [--phase1 P1] [--phase 1|2]`` is the CLI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel._lazy import lazy_exports

__all__ = ["CHECKS", "TAG", "Finding", "LintReport", "lint_phase1", "lint_phase2"]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "TAG": "kernel.reviewer.lint.phase1",
        "lint_phase1": "kernel.reviewer.lint.dialects",
        "CHECKS": "kernel.reviewer.lint.phase2",
        "lint_phase2": "kernel.reviewer.lint.dialects",
        "Finding": "kernel.reviewer.lint.report",
        "LintReport": "kernel.reviewer.lint.report",
    },
)

if TYPE_CHECKING:
    from kernel.reviewer.lint.dialects import lint_phase1, lint_phase2
    from kernel.reviewer.lint.phase1 import TAG
    from kernel.reviewer.lint.phase2 import CHECKS
    from kernel.reviewer.lint.report import Finding, LintReport
