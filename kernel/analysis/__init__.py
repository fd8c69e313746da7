"""Decision-space analysis: what a contract can decide, how often, and how fragile a decision is."""

from __future__ import annotations

from kernel.analysis.result import Analysis, Change, Example, Finding, Outcome
from kernel.analysis.space import analyze

__all__ = ["Analysis", "Change", "Example", "Finding", "Outcome", "analyze"]
