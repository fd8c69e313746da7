"""The one exception hierarchy the kernel raises on bad input (api.md, "Errors")."""

from __future__ import annotations

__all__ = [
    "ContractError",
    "ExpressionUnrecognised",
    "KernelError",
    "MatrixError",
    "PanelShrunk",
    "expression_unrecognised_tag",
    "panel_shrunk_tag",
]


class KernelError(Exception):
    """Base of every error the kernel raises on bad input.

    ``tag`` is the exact audit tag (R8) when one applies, else ``None``.
    """

    def __init__(self, message: str, *, tag: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.tag = tag


class ContractError(KernelError):
    """A contract failed loading, schema, structural or expression checks.

    ``errors`` lists every message, each naming the JSON path it concerns.
    """

    def __init__(
        self, message: str, *, errors: list[str] | None = None, tag: str | None = None
    ) -> None:
        super().__init__(message, tag=tag)
        self.errors: list[str] = list(errors) if errors is not None else [message]


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


def expression_unrecognised_tag(condition_id: str, expression: str) -> str:
    return f"[EXPRESSION-UNRECOGNISED: condition_id={condition_id}, expression={expression}]"


def panel_shrunk_tag(usable: int, panel_size: int) -> str:
    return f"[PANEL-SHRUNK: usable={usable}, panel_size={panel_size}]"
