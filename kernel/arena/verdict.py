"""Arena §7.3 verdict parser: only the verdict grammar counts, never the prose around it."""

from __future__ import annotations

import re

import attrs

from kernel.errors import KernelError
from kernel.io import MAX_INPUT_BYTES, check_size

__all__ = [
    "APPROVED",
    "PARSER_ERROR_MISSING_VERDICT",
    "PARSER_WARNING_MULTIPLE_VERDICTS",
    "REVISE",
    "VerdictResult",
    "parse_verdict",
    "split_lines",
    "verdict_is_last",
]

APPROVED = "APPROVED"
REVISE = "REVISE"
PARSER_WARNING_MULTIPLE_VERDICTS = "PARSER_WARNING_MULTIPLE_VERDICTS"
PARSER_ERROR_MISSING_VERDICT = "PARSER_ERROR_MISSING_VERDICT"

# `\s` of §7.3 read in ASCII (companions.md §A): space, tab, form feed, vertical tab.
_WS = "[ \t\f\v]"
_VERDICT_LINE = re.compile(
    rf"{_WS}*VERDICT:{_WS}*(APPROVED|REVISE){_WS}*", re.IGNORECASE | re.ASCII
)


@attrs.frozen
class VerdictResult:
    """``verdict`` is ``"APPROVED"``, ``"REVISE"`` or ``None``; ``codes`` the parser's codes.

    ``lines`` are the 1-based numbers of every verdict line; ``line`` the one that counts.
    """

    verdict: str | None
    codes: tuple[str, ...]
    lines: tuple[int, ...]

    @property
    def line(self) -> int | None:
        return self.lines[-1] if self.lines else None

    def to_dict(self) -> dict[str, object]:
        return {
            "verdict": self.verdict,
            "codes": list(self.codes),
            "line": self.line,
            "verdict_lines": list(self.lines),
        }


def split_lines(text: str) -> list[str]:
    """Lines split on LF only; one trailing CR per line is dropped."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def parse_verdict(text: str, *, max_bytes: int = MAX_INPUT_BYTES) -> VerdictResult:
    """Parse reviewer output per §7.3: last verdict line wins; prose is ignored."""
    if not isinstance(text, str):
        raise KernelError(f"reviewer output must be a string, got {type(text).__name__}")
    check_size(text, source="reviewer output", max_bytes=max_bytes)
    verdicts: list[str] = []
    numbers: list[int] = []
    for number, line in enumerate(split_lines(text), start=1):
        match = _VERDICT_LINE.fullmatch(line)
        if match:
            verdicts.append(match.group(1).upper())
            numbers.append(number)
    if not verdicts:
        return VerdictResult(None, (PARSER_ERROR_MISSING_VERDICT,), ())
    codes = (PARSER_WARNING_MULTIPLE_VERDICTS,) if len(verdicts) > 1 else ()
    return VerdictResult(verdicts[-1], codes, tuple(numbers))


def verdict_is_last(text: str, result: VerdictResult) -> bool:
    """§7.1 SHOULD: the verdict is the last non-empty line (blank = only ASCII whitespace)."""
    lines = split_lines(text)
    nonblank = [i for i, line in enumerate(lines, start=1) if line.strip(" \t\f\v\r") != ""]
    return result.line is not None and bool(nonblank) and nonblank[-1] == result.line
