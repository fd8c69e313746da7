"""Structural lints of reviewer markdown (seed §5.3/§5.3b, wire-format.md).

``python -m kernel.lint DOC --contract C [--phase1 P1] [--phase 1|2]`` is the CLI.
"""

from __future__ import annotations

from kernel.reviewer.lint.phase1 import TAG, lint_phase1
from kernel.reviewer.lint.phase2 import CHECKS, lint_phase2
from kernel.reviewer.lint.report import Finding, LintReport

__all__ = ["CHECKS", "TAG", "Finding", "LintReport", "lint_phase1", "lint_phase2"]
