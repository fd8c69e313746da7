"""Arena results as :class:`~kernel.diagnostics.Diagnostic` values."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel.arena.verdict import PARSER_WARNING_MULTIPLE_VERDICTS, VerdictResult
from kernel.diagnostics import Diagnostic

if TYPE_CHECKING:  # the conformance rules load the state machine: not needed for a verdict
    from kernel.arena.conformance import ConformanceReport

__all__ = ["conformance_diagnostics", "verdict_diagnostics"]


def conformance_diagnostics(report: ConformanceReport, file: str | None = None) -> list[Diagnostic]:
    """One ``ARENA-Cnn`` diagnostic per failed requirement (SHOULD findings are warnings)."""
    from kernel.arena.conformance import MUST

    return [
        Diagnostic(
            f"ARENA-C{check.number:02d}",
            f"[{finding.requirement}] {check.name}: {finding.message}",
            severity="error" if finding.requirement == MUST else "warning",
            file=file,
            line=finding.line,
        )
        for check in report.checks
        for finding in check.findings
    ]


def verdict_diagnostics(result: VerdictResult, file: str | None = None) -> list[Diagnostic]:
    """The verdict (info), a multiple-verdicts warning, or the missing-verdict error."""
    out: list[Diagnostic] = []
    if PARSER_WARNING_MULTIPLE_VERDICTS in result.codes:
        shown = ", ".join(map(str, result.lines))
        out.append(
            Diagnostic(
                PARSER_WARNING_MULTIPLE_VERDICTS,
                f"{len(result.lines)} verdict lines ({shown}); the last one counts",
                file=file,
                line=result.line,
            )
        )
    if result.verdict is None:
        out.append(
            Diagnostic(
                result.codes[0], "no line matches 'VERDICT: APPROVED|REVISE' (§7.3)", file=file
            )
        )
    else:
        out.append(Diagnostic("ARENA-VERDICT", result.verdict, file=file, line=result.line))
    return out
