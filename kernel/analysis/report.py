"""The analyzer's text report."""

from __future__ import annotations

from collections.abc import Mapping

from kernel.analysis.probability import Probabilities
from kernel.analysis.result import NONE, Analysis, Example, Finding

__all__ = ["format_analysis", "format_matrix", "format_probabilities"]


def _short(action: str | None) -> str:
    return "no decision" if action is None else action.removeprefix("editorial_decision=")


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.4g}%"


def format_matrix(matrix: Mapping[str, tuple[str, ...]], indent: str = "    ") -> str:
    return "\n".join(
        f"{indent}{d:<4}{' '.join(f'{s:<5}' for s in row)}".rstrip() for d, row in matrix.items()
    )


def _example(e: Example, label: str = "example") -> list[str]:
    who = e.condition_id or ("R5 fallback" if e.action else "nothing fires")
    return [f"  {label}: {_short(e.action)} ({who})", format_matrix(e.matrix)]


def _finding(source: str, f: Finding) -> list[str]:
    lines = [f"{source}: {f.code} {f.message}"]
    if f.change is not None and len(f.examples) == 2:
        lines += _example(f.examples[0], "before")
        lines += _example(f.examples[1], f"after {f.change}")
    else:
        for e in f.examples:
            lines += _example(e)
    return lines


def format_analysis(a: Analysis, source: str) -> str:
    """``source`` names the contract as the user gave it (file or template name)."""
    width = max(len("matrices"), len(str(a.space)))
    lines = [
        f"{source}: {a.contract_id}: {a.space} possible matrices "
        f"(3^({a.dimensions} dimensions x {a.panel_size} reviewers))",
        f"  {'outcome':<8} {'action':<26} {'matrices':>{width}}  share",
    ]
    for o in a.outcomes:
        action = _short(o.action) + (" (R5 fallback)" if o.key == NONE and o.action else "")
        lines.append(
            f"  {o.key:<8} {action:<26} {o.matrices:>{width}}  {_share(o.matrices, a.space)}"
        )
    lines.append(f"unreachable conditions: {', '.join(a.unreachable) or 'none'}")
    lines.append(
        "monotone: "
        + (
            "yes (no single worsened score gives a more lenient action)"
            if a.monotone
            else "no (see AN-3)"
        )
    )
    for f in a.findings:
        lines += _finding(source, f)
    return "\n".join(lines)


def _scope(key: str, keys: int) -> str:
    if key != "*":
        return key
    return "every dimension" if keys == 1 else "every other dimension"


def format_probabilities(p: Probabilities) -> str:
    prior = p.prior.to_dict()
    spelled = "; ".join(
        f"{_scope(k, len(prior))}: " + ", ".join(f"{s}={v}" for s, v in dist.items())
        for k, dist in prior.items()
    )
    lines = [f"probabilities (prior: {spelled}; exact fractions with --format json):"]
    for key, q in p.outcomes.items():
        lines.append(f"  {key:<8} {float(q):.6g}")
    return "\n".join(lines)
