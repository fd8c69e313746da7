"""The analyzer's text report."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from kernel.analysis.result import (
    NONE,
    Analysis,
    Example,
    Finding,
    Matrix,
    compact,
    percent,
    share,
)
from kernel.contract.dialects import ROLES
from kernel.errors import KernelError
from kernel.io import label
from kernel.strict import shown

if TYPE_CHECKING:  # loaded by the functions that take them: analyze alone needs neither
    from kernel.analysis.diff import Diff
    from kernel.analysis.probability import Probabilities

__all__ = [
    "compact",
    "format_analysis",
    "format_diff",
    "format_grid",
    "format_matrix",
    "format_probabilities",
    "grid_columns",
    "percent",
]


def _short(action: str | None) -> str:
    return "no decision" if action is None else action.removeprefix("editorial_decision=")


def seat_grid(matrix: Matrix) -> tuple[list[str] | None, dict[str, tuple[str, ...]]]:
    """A matrix as rows of cells: a 13.2 matrix (rows by role) as one cell per role of the
    mode, in seat order (``-`` for a seat the dimension does not have), with the roles."""
    by_role = {d: row for d, row in matrix.items() if isinstance(row, Mapping)}
    if by_role and len(by_role) == len(matrix):
        roles = [r for r in ROLES if any(r in row for row in by_role.values())]
        return roles, {d: tuple(str(row.get(r, "-")) for r in roles) for d, row in by_role.items()}
    return None, {d: tuple(row) for d, row in matrix.items()}


def format_matrix(matrix: Matrix, indent: str = "    ") -> str:
    roles, grid = seat_grid(matrix)
    if roles is None:
        return "\n".join(
            f"{indent}{d:<4}{' '.join(f'{s:<5}' for s in row)}".rstrip() for d, row in grid.items()
        )
    width = max(len(v) for v in [*roles, *(s for row in grid.values() for s in row)])
    lines = [f"{indent}{'':<4}{' '.join(f'{r:<{width}}' for r in roles)}"]
    lines += [f"{indent}{d:<4}{' '.join(f'{s:<{width}}' for s in row)}" for d, row in grid.items()]
    return "\n".join(line.rstrip() for line in lines)


def _example(e: Example, label: str = "example") -> list[str]:
    who = e.condition_id or ("R5 fallback" if e.action else "nothing fires")
    return [f"  {label}: {_short(e.action)} ({who})", format_matrix(e.matrix)]


def _finding(source: str, f: Finding, at: Mapping[str, tuple[int, int]] | None = None) -> list[str]:
    # At its condition's id in the contract file when known, else at 1:1 (the whole contract).
    line, column = (at or {}).get(f.condition_id or "", (1, 1))
    lines = [f"{source}:{line}:{column}: {f.code} {f.message}"]
    if f.change is not None and len(f.examples) == 2:
        lines += _example(f.examples[0], "before")
        lines += _example(f.examples[1], f"after {f.change}")
    else:
        for e in f.examples:
            lines += _example(e)
    return lines


def format_analysis(
    a: Analysis, source: str, positions: Mapping[str, tuple[int, int]] | None = None
) -> str:
    """``source`` names the contract as the user gave it (file or template name);
    ``positions`` maps a condition id to the (line, column) of its ``condition_id`` in that
    file, where a finding about the condition is placed (else at 1:1)."""
    if not isinstance(a, Analysis):
        raise KernelError(f"format_analysis needs an Analysis, got {shown(a)}")
    source = label(source, "source")
    width = max(len("matrices"), *(len(compact(o.matrices)) for o in a.outcomes))
    shape = (
        f"3^({a.dimensions} dimensions x {a.panel_size} reviewers)"
        if a.dialect == "13"
        else f"Schema 13.2: every value of every eligible seat of {a.dimensions} dimensions"
    )
    lines = [
        f"{source}: {a.contract_id}: {compact(a.space)} possible matrices ({shape})",
        f"  {'outcome':<8} {'action':<26} {'matrices':>{width}}  share",
    ]
    for o in a.outcomes:
        action = _short(o.action) + (" (R5 fallback)" if o.key == NONE and o.action else "")
        lines.append(
            f"  {o.key:<8} {action:<26} {compact(o.matrices):>{width}}  "
            f"{share(o.matrices, a.space)}"
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
        lines += _finding(source, f, positions)
    return "\n".join(lines)


def _scope(key: str, keys: int) -> str:
    if key != "*":
        return key
    return "every dimension" if keys == 1 else "every other dimension"


def format_probabilities(p: Probabilities) -> str:
    from kernel.analysis.probability import Probabilities

    if not isinstance(p, Probabilities):
        raise KernelError(f"format_probabilities needs a Probabilities, got {shown(p)}")
    prior = p.prior.to_dict()
    spelled = "; ".join(
        f"{_scope(k, len(prior))}: " + ", ".join(f"{s}={v}" for s, v in dist.items())
        for k, dist in prior.items()
    )
    lines = [f"probabilities (prior: {spelled}; exact fractions with --format json):"]
    for key, q in p.outcomes.items():
        lines.append(f"  {key:<8} {float(q):.6g}")
    return "\n".join(lines)


#: Panels wider than this show only the reviewers with a non-pass score.
GRID_REVIEWERS = 8


def grid_columns(matrix: Mapping[str, tuple[str, ...]]) -> list[int]:
    """The reviewers a score grid shows: all of a small panel, else those not all pass."""
    n = max((len(row) for row in matrix.values()), default=0)
    if n <= GRID_REVIEWERS:
        return list(range(n))
    return [j for j in range(n) if any(row[j] != "pass" for row in matrix.values())]


def format_grid(given: Matrix, indent: str = "    ") -> str:
    """A matrix as a grid: one row per dimension, one column per reviewer (r1, r2, ...; under
    13.2, per role)."""
    roles, matrix = seat_grid(given)
    shown = grid_columns(matrix)
    n = max((len(row) for row in matrix.values()), default=0)
    width = max([len("dim"), *(len(d) for d in matrix)])
    heads = [f"r{j + 1}" if roles is None else roles[j] for j in shown]
    lines = [f"{indent}{'':<{width}}  " + " ".join(f"{h:<5}" for h in heads)]
    lines += [
        f"{indent}{d:<{width}}  " + " ".join(f"{row[j]:<5}" for j in shown)
        for d, row in matrix.items()
    ]
    if len(shown) < n:
        lines.append(f"{indent}(the other {n - len(shown)} reviewers score pass throughout)")
    return "\n".join(line.rstrip() for line in lines)


def _decided(action: str | None, key: str) -> str:
    who = key if key != NONE else ("R5 fallback" if action else "nothing fires")
    return f"{_short(action)} ({who})"


def format_diff(d: Diff, old_source: str, new_source: str) -> str:
    from kernel.analysis.diff import Diff

    """The transition table with shares, then one counterexample grid per changed transition."""
    if not isinstance(d, Diff):
        raise KernelError(f"format_diff needs a Diff, got {shown(d)}")
    old_source = label(old_source, "old_source")
    new_source = label(new_source, "new_source")
    width = max(len("matrices"), *(len(compact(t.matrices)) for t in d.rows))
    shape = (
        f"3^({d.dimensions} dimensions x {d.panel_size} reviewers)"
        if d.dialect == "13"
        else f"Schema 13.2: every value of every eligible seat of {d.dimensions} dimensions"
    )
    lines = [
        f"{old_source} -> {new_source}: {compact(d.space)} possible matrices ({shape})",
        f"outcome changed: {compact(d.changed)} matrices ({share(d.changed, d.space)}); "
        f"action changed: {compact(d.action_changed)} matrices "
        f"({share(d.action_changed, d.space)})",
        f"  {'from':<8} {'to':<8} {'matrices':>{width}}  share",
    ]
    moved = [t for t in d.rows if t.old != t.new]
    kept = [t for t in d.rows if t.old == t.new]
    for t in moved:
        actions = (
            f"{_short(t.old_action)}, same action"
            if t.old_action == t.new_action
            else f"{_short(t.old_action)} -> {_short(t.new_action)}"
        )
        lines.append(
            f"  {t.old:<8} {t.new:<8} {compact(t.matrices):>{width}}  "
            f"{share(t.matrices, d.space)} of matrices move from {t.old} to {t.new} ({actions})"
        )
    for t in kept:
        lines.append(
            f"  {t.old:<8} {t.new:<8} {compact(t.matrices):>{width}}  "
            f"{share(t.matrices, d.space)} stay with {t.old}"
        )
    if not moved:
        lines.append("no matrix changes outcome")
    else:
        lines.append("counterexamples (fewest non-pass scores):")
    for t in moved:
        c = t.counterexample
        lines.append(
            f"  {t.old} -> {t.new}: {_decided(c.old.action, t.old)} -> "
            f"{_decided(c.new.action, t.new)}"
        )
        lines.append(format_grid(c.matrix))
    return "\n".join(lines)
