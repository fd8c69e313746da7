"""Decision-space analysis: what a contract can decide, how often, and how fragile a decision is.

- :func:`analyze` counts, over all ``3**(dimensions * panel_size)`` matrices, how many each
  condition decides, the R5 fallback region, unreachable conditions and non-monotone changes.
- :func:`probabilities` gives the exact probability of each outcome under a score prior.
- :func:`analyze_diff` counts the matrices an amendment decides differently, per transition.
- :func:`sensitivity` lists the single-score changes of one matrix that change the action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel._lazy import lazy_exports

__all__ = [
    "Analysis",
    "AnalysisTooLarge",
    "Change",
    "Counterexample",
    "Diff",
    "Example",
    "Finding",
    "Flip",
    "Margin",
    "Outcome",
    "Prior",
    "PriorError",
    "Probabilities",
    "Sensitivity",
    "Transition",
    "analyze",
    "analyze_diff",
    "format_analysis",
    "format_diff",
    "format_probabilities",
    "format_sensitivity",
    "parse_prior",
    "prior_from_json",
    "probabilities",
    "sensitivity",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Counterexample": "kernel.analysis.changes",
        "Diff": "kernel.analysis.changes",
        "Transition": "kernel.analysis.changes",
        "analyze_diff": "kernel.analysis.diff",
        "Prior": "kernel.analysis.probability",
        "PriorError": "kernel.analysis.probability",
        "Probabilities": "kernel.analysis.probability",
        "parse_prior": "kernel.analysis.probability",
        "prior_from_json": "kernel.analysis.probability",
        "probabilities": "kernel.analysis.probability",
        "format_analysis": "kernel.analysis.report",
        "format_diff": "kernel.analysis.report",
        "format_probabilities": "kernel.analysis.report",
        "Analysis": "kernel.analysis.result",
        "AnalysisTooLarge": "kernel.analysis.result",
        "Change": "kernel.analysis.result",
        "Example": "kernel.analysis.result",
        "Finding": "kernel.analysis.result",
        "Outcome": "kernel.analysis.result",
        "Flip": "kernel.analysis.sensitivity",
        "Margin": "kernel.analysis.sensitivity",
        "Sensitivity": "kernel.analysis.sensitivity",
        "format_sensitivity": "kernel.analysis.sensitivity",
        "sensitivity": "kernel.analysis.sensitivity",
        "analyze": "kernel.analysis.space",
    },
)

if TYPE_CHECKING:
    from kernel.analysis.changes import Counterexample, Diff, Transition
    from kernel.analysis.diff import analyze_diff
    from kernel.analysis.probability import (
        Prior,
        PriorError,
        Probabilities,
        parse_prior,
        prior_from_json,
        probabilities,
    )
    from kernel.analysis.report import format_analysis, format_diff, format_probabilities
    from kernel.analysis.result import (
        Analysis,
        AnalysisTooLarge,
        Change,
        Example,
        Finding,
        Outcome,
    )
    from kernel.analysis.sensitivity import (
        Flip,
        Margin,
        Sensitivity,
        format_sensitivity,
        sensitivity,
    )
    from kernel.analysis.space import analyze
