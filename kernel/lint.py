"""``kernel.lint``: the lints of reviewer markdown (implemented in :mod:`kernel.reviewer.lint`).

``python -m kernel.lint DOC --contract C`` is the lint command (:mod:`kernel.cli.lint`).
"""

from __future__ import annotations

from kernel.reviewer.lint import CHECKS, TAG, Finding, LintReport, lint_phase1, lint_phase2

__all__ = ["CHECKS", "TAG", "Finding", "LintReport", "lint_phase1", "lint_phase2"]

if __name__ == "__main__":
    from kernel.cli.main import command

    raise SystemExit(command("lint"))
