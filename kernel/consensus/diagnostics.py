"""Consensus results as :class:`~kernel.diagnostics.Diagnostic` values."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kernel.diagnostics import Diagnostic

if TYPE_CHECKING:  # the round rules import the edit distance: not needed to parse
    from kernel.consensus.parsing import ParseResult
    from kernel.consensus.round import RoundDecision

__all__ = ["parse_diagnostics", "round_diagnostics", "round_error_diagnostics"]

_ATTEMPT_CODES: Final = {
    "absent": "CN-ABSENT",
    "malformed": "CN-MALFORMED",
    "not_object": "CN-NOT-OBJECT",
    "schema": "CN-SCHEMA",
}
_STOP_CODES: Final = {
    "max_rounds": "CN-STOP-MAX-ROUNDS",
    "change_below_threshold": "CN-STOP-SMALL-CHANGE",
    "no_edits": "CN-STOP-NO-EDITS",
}


def _one_line(text: str) -> str:
    return " ".join(text.split())


def parse_diagnostics(result: ParseResult, file: str | None = None) -> list[Diagnostic]:
    """Each parse stage's outcome; a failed stage is a warning when a later one succeeded."""
    out: list[Diagnostic] = []
    for attempt in result.attempts:
        if attempt.outcome == "ok":
            message = f"valid {result.kind} response (method: {attempt.method})"
            out.append(Diagnostic("CN-OK", message, file=file, line=attempt.line))
        else:
            message = f"{attempt.method}: {_one_line(attempt.message)}"
            out.append(
                Diagnostic(
                    _ATTEMPT_CODES[attempt.outcome],
                    message,
                    severity="warning" if result.ok else "error",
                    file=file,
                    line=attempt.line,
                )
            )
    out.extend(Diagnostic("CN-UNKNOWN-FIELD", n, file=file) for n in result.notes)
    if not result.ok:
        message = f"no stage produced a valid {result.kind} response"
        out.append(Diagnostic("CN-PARSE-FAILED", message, file=file))
    return out


def round_diagnostics(decision: RoundDecision, file: str | None = None) -> list[Diagnostic]:
    """The round's outcome, the stop rule or continuation, and the open disagreement."""
    out: list[Diagnostic] = []
    first = decision.reasons[0]
    if decision.outcome == "no_quorum":
        out.append(Diagnostic("CN-NO-QUORUM", first, file=file))
    elif decision.outcome == "consensus":
        out.append(Diagnostic("CN-CONSENSUS", first, file=file))
    else:
        out.append(Diagnostic("CN-NO-CONSENSUS", first, file=file))
        code = "CN-CONTINUE" if decision.stop_reason is None else _STOP_CODES[decision.stop_reason]
        out.append(Diagnostic(code, decision.reasons[1], file=file))
    if decision.disagreement is not None:
        for text, count in decision.disagreement.objections:
            message = f"({count} critique(s)) {_one_line(text)}"
            out.append(Diagnostic("CN-OBJECTION", message, file=file))
        for item in decision.disagreement.missing:
            out.append(Diagnostic("CN-MISSING", _one_line(item), file=file))
    return out


def round_error_diagnostics(errors: list[str], file: str | None = None) -> list[Diagnostic]:
    """A round document that breaks its schema: one diagnostic per problem."""
    return [Diagnostic("CN-ROUND-INVALID", _one_line(e), file=file) for e in errors]
