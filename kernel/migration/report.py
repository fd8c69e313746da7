"""A migration as text: the choices, the seat mapping, the action pairs with exact counts, and
each changed pair's simplest matrix with both decisions and their traces."""

from __future__ import annotations

from kernel.analysis.report import format_grid, format_matrix
from kernel.analysis.result import compact, share
from kernel.contract.model import Contract
from kernel.decision.value import Decision
from kernel.errors import KernelError
from kernel.io import label
from kernel.migration.result import Migration, MigrationExample
from kernel.strict import shown

__all__ = ["format_migration", "short_action"]


def short_action(action: str | None) -> str:
    """``accept`` for ``editorial_decision=accept``; ``no decision`` for ``None``."""
    return "no decision" if action is None else action.removeprefix("editorial_decision=")


def format_migration(m: Migration, source: str, *, choices: bool = True) -> str:
    """The whole report; ``source`` names the old contract as the user gave it. ``choices``:
    list the choices and what check says of the migrated contract (the command line prints
    them as MG-1 and check diagnostics instead)."""
    if not isinstance(m, Migration):
        raise KernelError(f"format_migration needs a Migration, got {shown(m)}")
    source = label(source, "source")
    old, new = m.old, m.contract
    checks = m.checks() if choices else ()
    lines = [
        f"{source}: {old.contract_id} (Schema 13) -> {new.contract_id} (Schema 13.2, {new.mode})",
        *([f"choices the migration made ({len(m.choices)}):"] if choices else []),
        *(f"  {c}" for c in (m.choices if choices else ())),
        *(
            [f"what check says of the migrated contract ({len(checks)}):"]
            if choices and checks
            else []
        ),
        *(f"  {d.code} {d.severity} {d.json_path}: {d.message}" for d in checks),
        "seats: "
        + ", ".join(f"reviewer {j + 1} = {r or '(no seat)'}" for j, r in enumerate(m.seats)),
        f"decisions over all {compact(m.space)} old matrices "
        f"(3^({len(old.dimensions)} dimensions x {old.panel_size} reviewers)), "
        "old action -> new action:",
    ]
    width = max(len(compact(t.matrices)) for t in m.transitions)
    names = [short_action(t.old) for t in m.transitions]
    left = max(map(len, names))
    for t, name in zip(m.transitions, names, strict=True):
        mark = "renamed" if t.renamed else "CHANGED" if t.changed else "same"
        if t.changed and not t.renamed and t.renamed_matrices:
            mark += f" ({compact(t.renamed_matrices)} only renamed)"
        chance = "" if t.probability is None else f"  p = {float(t.probability):.6g}"
        lines.append(
            f"  {name:<{left}} -> {short_action(t.new):<14} {t.matrices:>{width},}  "
            f"{share(t.matrices, m.space):>12}  {mark}{chance}"
        )
    lines.append(
        f"action changes in {compact(m.changed)} matrices ({share(m.changed, m.space)}): "
        f"{compact(m.renamed)} only by the action's new name, "
        f"{compact(m.moved)} decided differently "
        f"({share(m.moved, m.space)})"
    )
    if m.prior is not None:
        p, q = m.changed_probability, m.moved_probability
        lines.append(
            f"under the prior: the action changes with probability {float(p or 0):.6g} "
            f"({p}); decided differently with probability {float(q or 0):.6g}"
        )
    examples = [t for t in m.transitions if t.example is not None]
    if examples:
        lines.append("simplest matrix of each changed pair (fewest non-pass scores):")
    for t in examples:
        assert t.example is not None
        lines.append(f"  {short_action(t.old)} -> {short_action(t.new)}:")
        lines += _example(t.example, old, new)
    return "\n".join(lines)


def _example(e: MigrationExample, old: Contract, new: Contract) -> list[str]:
    lines = ["    old (Schema 13), reviewers in panel order:", format_grid(e.old_matrix, "      ")]
    lines += _decision_lines(old, e.old_decision, e.old_refusal)
    lines += [
        "    new (13.2), seats by role (- not eligible):",
        format_matrix(e.new_matrix, "      "),
    ]
    if e.dropped:
        lines.append(f"      not assessed under 13.2: {'; '.join(e.dropped)}")
    lines += _decision_lines(new, e.new_decision, e.new_refusal)
    return lines


def _decision_lines(contract: Contract, d: Decision | None, refusal: str | None) -> list[str]:
    if d is None:
        return [f"      decide: no decision ({refusal})"]
    who = d.condition_id or "R5 fallback"
    lines = [f"      decide: {short_action(d.action)} ({who})"]
    for c in contract.conditions:
        fired = "fires" if d.fired[c.condition_id] else "does not fire"
        if d.trace is None:
            lines.append(
                f"        {c.condition_id} {fired}: {d.counts[c.condition_id]} of "
                f"{contract.panel_size} reviewers satisfy it, {c.quantifier} needs "
                f"{c.threshold}"
            )
            continue
        atoms = []
        for a in d.trace[c.condition_id]:
            dims = ", ".join(
                f"{x.dimension} {x.count}/{x.n} (needs {x.threshold})" for x in a.dimensions
            )
            atoms.append(f'"{a.atom}" {"holds" if a.held else "fails"} [{dims}]')
        lines.append(f"        {c.condition_id} {fired}: " + "; ".join(atoms))
    return lines
