"""How fragile is a decision: :mod:`kernel.decision.sensitivity`, where
:meth:`~kernel.decision.value.Decision.explain` reads it; kept under this name too."""

from __future__ import annotations

from kernel.decision.sensitivity import (
    Flip,
    Margin,
    Sensitivity,
    format_sensitivity,
    sensitivity,
)

__all__ = ["Flip", "Margin", "Sensitivity", "format_sensitivity", "sensitivity"]
