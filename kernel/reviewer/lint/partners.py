"""What a Phase 2 report is read with must be part of the repository.

A ``NAME.phase2.md`` is linted with the ``NAME.phase1.md`` beside it, found on disk when it
is not given (a pre-commit hook passes only the files a commit changes). Inside a git work
tree that Phase 1 must be tracked: a hook that passes on a Phase 1 nobody committed leaves a
repository whose clones lack it. The command line asks git; this builds the finding.
"""

from __future__ import annotations

from typing import Final

import attrs

from kernel.reviewer.lint.report import Finding, LintReport

__all__ = ["untracked_partner"]

#: The check name of the partner finding.
CHECK: Final = "partner"


def untracked_partner(report: LintReport, phase1: str) -> LintReport:
    """``report`` (a Phase 2 document's) with the finding that the Phase 1 document it was
    read with, ``phase1``, is not tracked by git."""
    finding = Finding(
        "P2-128",
        f"read with {phase1}, which git does not track: a clone of the repository has no "
        f"Phase 1 for this report (git add {phase1})",
        None,
        CHECK,
    )
    return attrs.evolve(report, findings=(*report.findings, finding))
