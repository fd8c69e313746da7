"""The one exception hierarchy the kernel raises on bad input (api.md, "Errors")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "AnalysisTooLarge",
    "ConfigError",
    "ContractError",
    "ContractInputError",
    "EditBudgetError",
    "EmptyDirectory",
    "ExpressionUnrecognised",
    "IllegalTransition",
    "InputError",
    "InputsError",
    "KernelError",
    "MatrixError",
    "MigrationError",
    "PanelInputError",
    "PanelShrunk",
    "PriorError",
    "PriorTooLarge",
    "QuorumError",
    "RoundError",
    "SeatDropped",
    "expression_unrecognised_tag",
    "panel_shrunk_tag",
]


class KernelError(Exception):
    """Base of every error the kernel raises on bad input.

    ``tag`` is the exact audit tag (R8) when one applies, else ``None``; ``str()`` is the
    message followed by the tag, ``message`` alone does not repeat it. ``errors`` lists every
    problem found when there are several (each naming where), else just ``[message]``.
    """

    def __init__(
        self, message: str, *, errors: list[str] | None = None, tag: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.tag = tag
        self.errors: list[str] = list(errors) if errors is not None else [message]

    def __str__(self) -> str:
        # The message says what is wrong; str() adds the tag the message does not repeat
        # (a command line prints ``.message`` and ``.tag``, each once).
        if self.tag is not None and self.tag not in self.message:
            return f"{self.message} {self.tag}"
        return self.message


class InputError(KernelError):
    """Input that cannot be read at all: missing, too large, not UTF-8, not JSON, not a
    regular file.

    ``code`` is its diagnostic code (``E-READ``, ``E-SIZE``, ``E-UTF8``, ``E-JSON``);
    ``line``/``column`` (1-based) say where, when known.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str = "E-READ",
        line: int | None = None,
        column: int | None = None,
        errors: list[str] | None = None,
        tag: str | None = None,
    ) -> None:
        super().__init__(message, errors=errors, tag=tag)
        self.code = code
        self.line = line
        self.column = column


class ConfigError(InputError):
    """The command line's configuration is unusable: a configuration file that cannot be read
    or parsed, an unknown key, a bad value, or an error code named to be ignored. A usage
    error (exit 2); the message names the file and the key."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="E-CONFIG")


class EmptyDirectory(InputError):
    """A directory a command was asked to search holds nothing it reads (exit 2)."""

    def __init__(self, path: str, wanted: str, *, excluded_by: str | None = None) -> None:
        why = (
            f"is excluded by the exclude of {excluded_by}: nothing in it is read"
            if excluded_by is not None
            else f"is a directory with no {wanted} files to read"
        )
        super().__init__(f"{path}: {why}", code="E-NOT-FILE")
        self.path = path


class ContractError(KernelError):
    """A contract failed loading, schema, structural or expression checks.

    ``errors`` lists every message, each naming the JSON path it concerns.
    """


class ContractInputError(InputError, ContractError):
    """The contract could not be read at all (missing file, not UTF-8, not JSON, too large)."""


class ExpressionUnrecognised(ContractError):
    """An expression is outside the R4 vocabulary (or names an unknown dimension).

    ``column`` is the 1-based column where parsing failed, when known.
    """

    def __init__(
        self,
        message: str,
        *,
        expression: str,
        column: int | None = None,
        condition_id: str | None = None,
    ) -> None:
        tag = (
            expression_unrecognised_tag(condition_id, expression)
            if condition_id is not None
            else None
        )
        super().__init__(message, tag=tag)
        self.expression = expression
        self.column = column
        self.condition_id = condition_id


class MatrixError(KernelError):
    """A scoring matrix does not fit the contract (R9)."""


class PanelShrunk(KernelError):
    """Fewer usable reviewers than ``panel_size`` (R9): the round aborts."""

    def __init__(self, usable: int, panel_size: int, *, message: str | None = None) -> None:
        super().__init__(
            message or f"only {usable} usable reviewer(s) for panel_size={panel_size}",
            tag=panel_shrunk_tag(usable, panel_size),
        )
        self.usable = usable
        self.panel_size = panel_size


class SeatDropped(PanelShrunk, MatrixError):
    """A dialect 13.2 matrix with no value anywhere from a seat of the mode: the panel shrank
    (a :class:`PanelShrunk`, R9), and the matrix does not fit the contract (a
    :class:`MatrixError`, as every other malformed 13.2 matrix). ``tag`` is the 13.2
    ``[PANEL-CARDINALITY: roles … != required …]``."""

    def __init__(self, usable: int, panel_size: int, *, message: str, tag: str) -> None:
        super().__init__(usable, panel_size, message=message)
        self.tag = tag


def expression_unrecognised_tag(condition_id: str, expression: str) -> str:
    return f"[EXPRESSION-UNRECOGNISED: condition_id={condition_id}, expression={expression}]"


def panel_shrunk_tag(usable: int, panel_size: int) -> str:
    return f"[PANEL-SHRUNK: usable={usable}, panel_size={panel_size}]"


class AnalysisTooLarge(KernelError):
    """The contract's decision space is beyond what the analyzer computes in reasonable time."""


class MigrationError(KernelError):
    """A Schema 13 contract that cannot be migrated to 13.2 as asked: ``field`` names the
    condition, field or option that needs the caller's choice (or is wrong)."""

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message)
        self.field = field


class PriorError(KernelError):
    """A prior that is not a probability distribution over pass/warn/block."""


class PriorTooLarge(PriorError, AnalysisTooLarge):
    """A prior whose exact probabilities would be too large to compute or print: refused at
    once with the estimate (``E-TOO-LARGE`` on the command line)."""


class InputsError(KernelError):
    """Arena run inputs that break §4; ``errors`` lists every violation, each naming its field."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("invalid arena inputs: " + "; ".join(errors), errors=errors)


class RoundError(KernelError):
    """A consensus round document that does not fit its schema; ``errors`` lists every
    problem."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("invalid round: " + "; ".join(errors), errors=errors)


class QuorumError(KernelError):
    """Fewer successful consensus responses than the quorum."""

    def __init__(self, responses: int, required: int, participants: int) -> None:
        super().__init__(
            f"quorum not met: {_count(responses)} successful response(s) of "
            f"{_count(participants)} participant(s), {_count(required)} required"
        )
        self.responses = responses
        self.required = required
        self.participants = participants


def _count(n: int) -> str:
    """A count as decimal, or by size when too long to write (``kernel.strict.shown`` is a
    layer above)."""
    return str(n) if n.bit_length() <= 14_000 else f"an integer of {n.bit_length()} bits"


class PanelInputError(KernelError):
    """An input document of the review panel breaks its schema or the panel's rules.

    ``problems`` lists every problem found (at least one), each naming where it is (see
    :class:`kernel.panel.inputs.Problem`).
    """

    def __init__(self, problems: Sequence[Any]) -> None:
        self.problems: tuple[Any, ...] = tuple(problems)
        shown = "; ".join(str(p) for p in self.problems[:5])
        more = len(self.problems) - 5
        super().__init__(
            shown + (f"; and {more} more" if more > 0 else ""),
            errors=[str(p) for p in self.problems],
        )


class IllegalTransition(KernelError):
    """A review-panel finding's lifecycle event out of order: ``finding`` went from ``before``
    (``None``: no event yet) to ``after``. ``line`` is the log line, when read from one;
    ``reason`` is the message without it."""

    def __init__(
        self, finding: str, before: str | None, after: str, *, why: str, line: int | None = None
    ) -> None:
        self.finding = finding
        self.before = before
        self.after = after
        self.line = line
        self.reason = (
            f"finding {finding!r}: illegal transition {before or 'none'} -> {after} ({why})"
        )
        super().__init__(self.reason if line is None else f"line {line}: {self.reason}")


class EditBudgetError(KernelError):
    """The exact edit distance between two consensus candidates would need more than the work
    budget."""
