"""A migration as one self-contained HTML page, in the analyzer's style: the transition
matrix of old → new actions, the choices, and each changed pair's simplest matrix as two
score grids (the old panel, the 13.2 seats) with both decisions."""

from __future__ import annotations

from kernel.analysis.html import (
    OUTLINE_KEPT,
    OUTLINE_MOVED,
    OUTLINE_NONE,
    Cell,
    _e,
    _grid,
    _legend,
    _page,
    _space_line,
    data_table,
    transition_grid,
)
from kernel.analysis.result import compact, share
from kernel.contract.model import Contract
from kernel.decision.value import Decision
from kernel.errors import KernelError
from kernel.io import label
from kernel.migration.report import short_action
from kernel.migration.result import Migration, MigrationExample, pair_order
from kernel.strict import shown

__all__ = ["html_migration"]


def _n(count: int) -> str:
    return f'<span class="num share">{compact(count)}</span>'


def _transition_map(m: Migration) -> str:
    """Old action (rows) by new action (columns); colour: log share of the old matrices."""
    olds = list(dict.fromkeys(t.old for t in m.transitions))
    news = list(
        dict.fromkeys(
            t.new for t in sorted(m.transitions, key=lambda t: pair_order((t.new, t.new)))
        )
    )
    counts = {(t.old, t.new): t for t in m.transitions}

    def cell(old: str | None, new: str | None) -> Cell:
        t = counts.get((old, new))
        if t is None:
            return 0, False, OUTLINE_NONE
        return t.matrices, t.moved, OUTLINE_MOVED if t.moved else OUTLINE_KEPT

    return transition_grid(
        olds,
        news,
        m.space,
        cell,
        axes=("new action (13.2)", "old action (Schema 13)"),
        name=short_action,
        widths=(200, 132, 44),
        title="old action by new action",
    )


def _kind(t_changed: bool, renamed: bool, renamed_matrices: int = 0) -> str:
    if not t_changed:
        return "same"
    if renamed:
        return "renamed only"
    if renamed_matrices:
        return f"<b>decided differently</b> ({compact(renamed_matrices)} renamed only)"
    return "<b>decided differently</b>"


def _decision_html(contract: Contract, d: Decision | None, refusal: str | None) -> str:
    if d is None:
        return f'<div class="caption">decide: no decision ({_e(refusal)})</div>'
    rows = []
    marks = []
    for c in contract.conditions:
        fired = "fires" if d.fired[c.condition_id] else "—"
        if d.trace is None:
            how = (
                f"{d.counts[c.condition_id]} of {contract.panel_size} reviewers "
                f"({c.quantifier} needs {c.threshold})"
            )
        else:
            how = "; ".join(
                ", ".join(
                    f"{x.dimension} {x.count}/{x.n} (needs {x.threshold})" for x in a.dimensions
                )
                for a in d.trace[c.condition_id]
            )
        marks.append(' style="font-weight:600"' if c.condition_id == d.condition_id else "")
        rows.append((_e(c.condition_id), fired, (_e(how), "note")))
    who = d.condition_id or "R5 fallback"
    return (
        f'<div class="caption">decide: <b>{_e(short_action(d.action))}</b> ({_e(who)})</div>'
        + data_table(("condition", "fired", "how"), rows, row_attrs=marks)
    )


def _example(m: Migration, e: MigrationExample, title: str) -> str:
    return (
        f"<h3>{_e(title)}</h3>"
        '<div class="examples">'
        f'<div style="max-width: 480px">{_grid(e.old_matrix, "old: reviewers in panel order")}'
        f"{_decision_html(m.old, e.old_decision, e.old_refusal)}</div>"
        f'<div style="max-width: 480px">{_grid(e.new_matrix, "new: seats by role")}{_dropped(e)}'
        f"{_decision_html(m.contract, e.new_decision, e.new_refusal)}</div>"
        "</div>"
    )


def _dropped(e: MigrationExample) -> str:
    if not e.dropped:
        return ""
    return (
        '<div class="note">Not assessed under 13.2 (the seat is not eligible for the '
        "dimension, or the reviewer has no seat): "
        f"{_e('; '.join(e.dropped))}.</div>"
    )


def _choices(m: Migration) -> str:
    return data_table(
        ("field", "how", "before", "after", "why"),
        (
            (
                f"<code>{_e(c.field)}</code>",
                _e(c.kind),
                _e(_value(c.old)),
                _e(_value(c.new)),
                (_e(c.reason), "note"),
            )
            for c in m.choices
        ),
    )

def _value(value: object) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    return str(value)


def _pairs_table(m: Migration) -> str:
    prob = () if m.prior is None else ("probability",)
    return data_table(
        ("old action", "new action", "change", "matrices", "share", *prob),
        (
            (
                _e(short_action(t.old)),
                _e(short_action(t.new)),
                _kind(t.changed, t.renamed, t.renamed_matrices),
                (compact(t.matrices), "num"),
                (share(t.matrices, m.space), "num share"),
                *(() if t.probability is None else ((f"{float(t.probability):.6g}", "num"),)),
            )
            for t in m.transitions
        ),
    )


def html_migration(m: Migration, source: str) -> str:
    """The page for one migration; ``source`` names the old contract as the user gave it."""
    if not isinstance(m, Migration):
        raise KernelError(f"html_migration needs a Migration, got {shown(m)}")
    source = label(source, "source")
    old, new = m.old, m.contract
    seats = ", ".join(f"reviewer {j + 1} → {r or '(no seat)'}" for j, r in enumerate(m.seats))
    summary = [
        f"<p><b>Action changes</b> in {_n(m.changed)} of "
        f"{_n(m.space)} old matrices ({share(m.changed, m.space)}): "
        f"{_n(m.renamed)} only by the action's new name, "
        f"<b>{_n(m.moved)} decided differently</b> "
        f"({share(m.moved, m.space)}).</p>"
    ]
    if m.prior is not None:
        p, q = m.changed_probability, m.moved_probability
        summary.append(
            f"<p>Under the prior: the action changes with probability "
            f"<b>{float(p or 0):.6g}</b>; decided differently with probability "
            f"<b>{float(q or 0):.6g}</b>.</p>"
        )
    body: list[str] = [
        f"<h1>Migration {_e(source)} → Schema 13.2</h1>",
        f'<p class="sub">{_e(old.contract_id)} (Schema 13) → {_e(new.contract_id)} '
        f"({_e(new.mode)}): "
        f"{_space_line(len(old.dimensions), old.panel_size, m.space)} (old). "
        f"Seats: {_e(seats)}.</p>",
        *summary,
        "<h2>Old action → new action</h2>",
        '<p class="note">Rows: what the Schema 13 contract decides; columns: what the '
        "migrated contract decides for the same matrix (an ineligible seat's score is not "
        "assessed). Colour: the share of all old matrices, on a log scale. Orange cells are "
        "decided differently; blue cells keep their action or only its name.</p>",
        _transition_map(m),
        _pairs_table(m),
        "<h2>Simplest matrix of each changed pair</h2>",
    ]
    moved = [t for t in m.transitions if t.example is not None]
    if not moved:
        body.append("<p>No matrix changes action.</p>")
    for t in moved:
        assert t.example is not None
        title = f"{short_action(t.old)} → {short_action(t.new)}" + (
            " (the action's new name)" if t.renamed else ""
        )
        body.append(_example(m, t.example, title))
    if moved:
        body += [_legend("13"), _legend("13.2")]
    body += [f"<h2>Choices the migration made ({len(m.choices)})</h2>", _choices(m)]
    checks = m.checks()
    if checks:
        body += [
            f"<h2>What check says of the migrated contract ({len(checks)})</h2>",
            data_table(
                ("code", "severity", "where", "finding"),
                (
                    (_e(d.code), _e(d.severity), f"<code>{_e(d.json_path)}</code>", _e(d.message))
                    for d in checks
                ),
            ),
        ]
    return _page(f"Migration {source} -> Schema 13.2", body)
