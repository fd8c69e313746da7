"""The analyzer's HTML report: one self-contained page, inline SVG, no script, no link.

The charts are drawn here as SVG text (a few rectangles, lines and labels each), so the page
needs no plotting library and no network: it opens the same way from a CI artifact, an
e-mail attachment or a browser without internet access.

Shares of the decision space span many orders of magnitude (in ``reviewer/full`` F0 decides
7,776 of 847 billion matrices), so every share chart is on a logarithmic scale.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, TypeVar

from kernel.analysis.diff import Diff
from kernel.analysis.probability import Probabilities
from kernel.analysis.report import grid_columns, seat_grid
from kernel.analysis.result import ERROR, NONE, Analysis, Example, Finding, Matrix, compact, share

__all__ = ["data_table", "html_analysis", "html_diff"]

#: Bar and cell colours per action (colour-blind-safe ramp from lenient to severe).
_ACTION_COLOURS: Final = {
    "editorial_decision=accept": "#1b9e77",
    "editorial_decision=minor_revision": "#a6b91a",
    "editorial_decision=major_revision": "#e6a117",
    "editorial_decision=reject_or_major_revision": "#e7591a",
    "editorial_decision=reject": "#c0272d",
    None: "#6f6f6f",
}
_SCORE_COLOURS: Final = {
    "pass": "#e8f3ec",
    "warn": "#f7c948",
    "block": "#b83227",
    "block:repairable": "#b83227",
    "block:fatal": "#7b1113",
    "not_assessed": "#f4f4f4",
    "-": "#ffffff",
}
_SCORE_MARKS: Final = {
    "pass": "",
    "warn": "W",
    "block": "B",
    "block:repairable": "B",
    "block:fatal": "F",
    "not_assessed": "",
    "-": "\u2013",
}
#: Mark colours where the default (#222) is not the one to use.
_MARK_FILL: Final = {
    "block": "#fff",
    "block:repairable": "#fff",
    "block:fatal": "#fff",
    "-": "#555",
}

#: Column labels of a 13.2 grid (the cells are 34 pixels wide).
_ROLE_LABELS: Final = {
    "eic": "EIC",
    "methodology": "meth",
    "domain": "dom",
    "perspective": "pers",
    "da": "DA",
}
_NOT_ELIGIBLE: Final = {"-": "not eligible"}

_STYLE: Final = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1f;
  margin: 24px auto; max-width: 1060px; padding: 0 20px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.sub { color: #555; margin: 0 0 12px; }
.num { font-variant-numeric: tabular-nums; text-align: right; white-space: nowrap; }
.share { white-space: nowrap; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border-bottom: 1px solid #e5e5e5; padding: 4px 10px; text-align: left;
  vertical-align: top; }
th { background: #f6f6f6; font-weight: 600; }
.badge { display: inline-block; border-radius: 3px; padding: 0 6px; font-size: 12px;
  font-weight: 600; color: #fff; }
.error { background: #c0272d; } .warning { background: #a35f00; } .ok { background: #137a5c; }
.finding { margin: 10px 0 18px; }
.examples { display: flex; flex-wrap: wrap; gap: 18px; }
.example { margin: 4px 0; }
.caption { font-size: 13px; color: #444; margin: 2px 0 4px; }
.note { font-size: 13px; color: #555; }
svg text { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
code { font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  background: #f3f3f3; border-radius: 3px; padding: 1px 4px; }
td.expr { max-width: 460px; }
th[scope="row"] { background: none; }
.chart { max-width: 100%; }
svg.fit { max-width: 100%; height: auto; }
code, .finding { overflow-wrap: anywhere; }
@media (max-width: 600px) { body { padding: 0 10px; margin: 12px auto; }
  th, td { padding: 4px 6px; } td.expr { max-width: none; }
  table.stack, table.stack tbody, table.stack tr, table.stack td,
  table.stack th[scope="row"] { display: block; width: auto; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip: rect(0 0 0 0); }
  table.stack tr { border-bottom: 1px solid #ddd; padding: 6px 0; }
  table.stack td, table.stack th[scope="row"] { border: none; padding: 1px 0;
    text-align: left; }
  table.stack td::before { content: attr(data-label) ": "; font-weight: 600; color: #555; } }
.sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


#: One cell of a :func:`data_table`: its HTML, or its HTML and a class.
TableCell = str | tuple[str, str]


def data_table(
    head: Sequence[str],
    rows: Iterable[Sequence[TableCell]],
    *,
    row_header: bool = False,
    row_attrs: Iterable[str] | None = None,
) -> str:
    """A table of data that stacks at phone width: each row becomes a block whose cells are
    labelled with their column's ``head`` (so nothing is cut and nothing scrolls sideways).
    ``row_header``: the first cell is the row's header; ``row_attrs``: per-row attributes."""
    attrs = iter(row_attrs or ())
    out = ['<table class="stack"><thead><tr>']
    out += [f'<th scope="col">{_e(h)}</th>' for h in head]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append(f"<tr{next(attrs, '')}>")
        for k, cell in enumerate(row):
            content, cls = (cell, "") if isinstance(cell, str) else cell
            klass = f' class="{cls}"' if cls else ""
            if row_header and k == 0:
                out.append(f'<th scope="row"{klass}>{content}</th>')
            else:
                out.append(f'<td data-label="{_e(head[k])}"{klass}>{content}</td>')
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


#: A whole number of four or more digits in a finding's message (not part of a word or a
#: decimal).
_NUMBER: Final = re.compile(r"(?<![\w.])[0-9]{4,}(?![\w.])")


_PERCENT: Final = re.compile(r"(?<=[0-9])%")


def _numbers(message: str) -> str:
    """A finding's message with its counts written as the rest of the page writes them."""
    return _PERCENT.sub(" %", _NUMBER.sub(lambda m: compact(int(m.group())), message))


def _short(action: str | None) -> str:
    return "no decision" if action is None else action.removeprefix("editorial_decision=")


def _page(title: str, body: Sequence[str]) -> str:
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)}</title>",
            f"<style>{_STYLE}</style>",
            "</head>",
            "<body>",
            *body,
            "</body>",
            "</html>",
        ]
    )


def _log10_share(part: int, whole: int) -> float:
    """``log10`` of ``part / whole`` in percent, exact for integers of any size."""
    return math.log10(part) - math.log10(whole) + 2


def _decade_label(k: int) -> str:
    if k >= 0:
        return f"{10**k} %"
    if k >= -3:
        return f"{10.0**k:.{-k}f} %"
    return f"1e{k} %"


def _svg(width: int, height: int, label: str, parts: Sequence[str]) -> str:
    return (
        f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'class="fit" aria-label="{_e(label)}">' + "".join(parts) + "</svg>"
    )


def _text(
    x: float,
    y: float,
    text: str,
    *,
    anchor: str = "start",
    size: int = 13,
    fill: str = "#1d1d1f",
    weight: str = "normal",
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
        f'fill="{fill}" font-weight="{weight}">{_e(text)}</text>'
    )


#: One bar: (label, sublabel, matrices, colour).
_Bar = tuple[str, str, int, str]


def _share_chart(groups: Sequence[tuple[str, Sequence[_Bar]]], space: int, title: str) -> str:
    """Horizontal bars on a log scale of the share, one group of bars per outcome.

    Each bar has a line of text above it (outcome, action, share and count) and spans the
    page's width: x positions are percentages of the drawing's width, so the bars scale with
    the page while the text keeps its size (no horizontal scrolling at phone width)."""
    shares = [_log10_share(m, space) for _, bars in groups for _, _, m, _ in bars if m]
    low = min(math.floor(min(shares, default=0.0)), 1)
    high = 2
    text_h, bar_h, gap = 17, 12, 8
    rows = sum(len(bars) for _, bars in groups)
    top = 26
    axis_y = top + rows * (text_h + bar_h + gap) + 6 * len(groups)
    height = axis_y + 22

    def pct(lg: float) -> float:
        return (lg - low) / (high - low) * 100

    parts = [_text(0, 14, title, size=13, fill="#444")]
    decades = high - low
    step = max(1, math.ceil(decades / 5))  # at most six labels: they fit at phone width
    for k in range(low, high + 1):
        x = pct(k)
        parts.append(
            f'<line x1="{x:.2f}%" y1="{top - 4}" x2="{x:.2f}%" y2="{axis_y}" '
            f'stroke="{"#bbb" if k == high else "#e3e3e3"}" stroke-width="1"/>'
        )
        if (high - k) % step == 0:
            anchor = "start" if k == low else "end" if k == high else "middle"
            parts.append(
                f'<text x="{x:.2f}%" y="{axis_y + 16}" font-size="11" text-anchor="{anchor}" '
                f'fill="#555">{_e(_decade_label(k))}</text>'
            )
    y = top
    for name, bars in groups:
        for label, sub, matrices, colour in bars:
            parts.append(_text(0, y + 12, f"{name}  {label}", size=12, fill="#333"))
            if matrices:
                width = max(pct(_log10_share(matrices, space)), 0.4)
                tip = f"{name} {label}: {compact(matrices)} of {compact(space)} matrices"
                parts.append(
                    f'<rect x="0" y="{y + text_h}" width="{width:.2f}%" height="{bar_h}" '
                    f'fill="{colour}" rx="2"><title>{_e(tip)}</title></rect>'
                )
                value = f"{share(matrices, space)} ({compact(matrices)}){sub}"
            else:
                value = f"0 matrices{sub}"
            parts.append(
                f'<text x="100%" y="{y + 12}" font-size="12" text-anchor="end" '
                f'fill="#1d1d1f">{_e(value)}</text>'
            )
            y += text_h + bar_h + gap
        y += 6
    parts.append(
        f'<line x1="0" y1="{axis_y}" x2="100%" y2="{axis_y}" stroke="#999" stroke-width="1"/>'
    )
    svg = (
        f'<svg width="100%" height="{height}" role="img" aria-label="{_e(title)}">'
        + "".join(parts)
        + "</svg>"
    )
    return f'<div class="chart">{svg}</div>'

def _grid(given: Matrix, caption: str) -> str:
    """A matrix as a small SVG grid: rows are dimensions, columns reviewers (13.2: roles)."""
    roles, matrix = seat_grid(given)
    shown = grid_columns(matrix)
    n = max((len(row) for row in matrix.values()), default=0)
    label_w = 12 + 8 * max([2, *(len(d) for d in matrix)])
    cell_w, cell_h = 34, 22
    width = label_w + cell_w * max(len(shown), 1) + 4
    height = 20 + cell_h * len(matrix) + 4
    parts = []
    for c, j in enumerate(shown):
        parts.append(
            _text(
                label_w + c * cell_w + cell_w / 2,
                14,
                f"r{j + 1}" if roles is None else _ROLE_LABELS.get(roles[j], roles[j][:4]),
                anchor="middle",
                size=11,
                fill="#555",
            )
        )
    for r, (dim, row) in enumerate(matrix.items()):
        y = 20 + r * cell_h
        parts.append(_text(label_w - 8, y + cell_h / 2 + 4, dim, anchor="end", size=12))
        for c, j in enumerate(shown):
            score = row[j]
            x = label_w + c * cell_w
            parts.append(
                f'<rect x="{x + 1}" y="{y + 1}" width="{cell_w - 2}" height="{cell_h - 2}" '
                f'fill="{_SCORE_COLOURS[score]}" stroke="#c9c9c9" stroke-width="0.5">'
                f"<title>{_e(f'{dim} {_seat(roles, j)}: {score}')}</title></rect>"
            )
            if _SCORE_MARKS[score]:
                parts.append(
                    _text(
                        x + cell_w / 2,
                        y + cell_h / 2 + 4,
                        _SCORE_MARKS[score],
                        anchor="middle",
                        size=12,
                        fill=_MARK_FILL.get(score, "#222"),
                        weight="600",
                    )
                )
    note = ""
    if len(shown) < n:
        note = (
            f'<div class="note">The other {n - len(shown)} of {n} reviewers score pass '
            "throughout.</div>"
        )
    svg = (
        f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'class="fit" aria-hidden="true">' + "".join(parts) + "</svg>"
    )
    return (
        f'<div class="example"><div class="caption">{_e(caption)}</div>{svg}'
        f"{_grid_text(matrix, shown, caption, roles)}{note}</div>"
    )


def _seat(roles: Sequence[str] | None, j: int) -> str:
    return f"reviewer {j + 1}" if roles is None else roles[j]


def _grid_text(
    matrix: Mapping[str, tuple[str, ...]],
    shown: Sequence[int],
    caption: str,
    roles: Sequence[str] | None = None,
) -> str:
    """The grid in words, for a screen reader (the drawing is hidden from it); under 13.2 a
    seat the dimension does not have reads "not eligible"."""
    head = "".join(f'<th scope="col">{_e(_seat(roles, j))}</th>' for j in shown)
    rows = "".join(
        f'<tr><th scope="row">{_e(dim)}</th>'
        + "".join(f"<td>{_e(_NOT_ELIGIBLE.get(row[j], row[j]))}</td>" for j in shown)
        + "</tr>"
        for dim, row in matrix.items()
    )
    return (
        f'<div class="sr-only"><table><caption>scores, {_e(caption)}</caption>'
        f"<tr><th>dimension</th>{head}</tr>{rows}</table></div>"
    )


def _legend(dialect: str = "13") -> str:
    if dialect == "13.2":
        return (
            '<p class="note">Score grids: one row per dimension, one column per role '
            "(EIC, methodology, domain, perspective, DA); \u2013 on white = the role is not "
            "eligible for the dimension, blank pale green = pass, W = warn, "
            "B = block (repairable on a mandatory dimension), F = fatal block. Abstentions "
            "are not counted (a round where a seat abstains is a smaller panel's round), so "
            "no cell is \u201cnot assessed\u201d.</p>"
        )
    return (
        '<p class="note">Score grids: one row per dimension, one column per reviewer; '
        "blank = pass, W = warn, B = block.</p>"
    )


def _example_caption(e: Example, label: str) -> str:
    who = e.condition_id or ("R5 fallback" if e.action else "nothing fires")
    return f"{label}: {_short(e.action)} ({who})"


def _finding(f: Finding) -> str:
    badge = "error" if f.severity == ERROR else "warning"
    out = [
        '<div class="finding">',
        f'<div><span class="badge {badge}">{_e(f.code)} {_e(f.severity)}</span> '
        f"{_e(_numbers(f.message))}</div>",
    ]
    if f.examples:
        out.append('<div class="examples">')
        if f.change is not None and len(f.examples) == 2:
            out.append(_grid(f.examples[0].matrix, _example_caption(f.examples[0], "before")))
            out.append(
                _grid(
                    f.examples[1].matrix,
                    _example_caption(f.examples[1], f"after {f.change}"),
                )
            )
        else:
            for e in f.examples:
                out.append(_grid(e.matrix, _example_caption(e, "example")))
        out.append("</div>")
    out.append("</div>")
    return "".join(out)


def _space_line(dimensions: int, panel_size: int, space: int, dialect: str = "13") -> str:
    if dialect != "13":
        return (
            f'<span class="num">{compact(space)}</span> possible matrices '
            f"(Schema {_e(dialect)}: every "
            f"value of every eligible seat of {dimensions} dimensions)"
        )
    return (
        f"3<sup>{dimensions * panel_size}</sup> = "
        f'<span class="num">{compact(space)}</span> possible matrices '
        f"({dimensions} dimensions &times; {panel_size} reviewers, three scores each)"
    )


def html_analysis(a: Analysis, source: str, chances: Probabilities | None = None) -> str:
    """The decision space of one contract: outcome shares, findings, simplest examples."""
    status = (
        '<span class="badge ok">ok</span>'
        if a.ok
        else '<span class="badge error">errors found</span>'
    )
    bars = [
        (
            o.key,
            [
                (
                    _short(o.action) + (" (fallback)" if o.key == NONE and o.action else ""),
                    "",
                    o.matrices,
                    _ACTION_COLOURS.get(o.action, "#6f6f6f"),
                )
            ],
        )
        for o in a.outcomes
    ]
    body = [
        f"<h1>Decision space of {_e(a.contract_id)}</h1>",
        f'<p class="sub">{_e(source)}: '
        f"{_space_line(a.dimensions, a.panel_size, a.space, a.dialect)} "
        f"{status}</p>",
        "<h2>Outcome shares</h2>",
        '<p class="note">Which condition decides, over every possible matrix (none: no '
        "condition fires and R5 falls back). Logarithmic scale: each grid line is ten times "
        "the one to its left.</p>",
        f'<p class="note"><b>Shares count every matrix equally</b>: each of the '
        f"{compact(a.space)} matrices weighs the same, however likely its scores are. "
        + (
            "For shares weighted by how often reviewers give each score, run the analyzer "
            "with <code>--prior pass=P,warn=P,block=P</code> (or <code>--prior-file</code>)."
            if a.dialect == "13"
            else "For shares weighted by how often each seat gives each value, run the "
            "analyzer with <code>--prior pass=P,warn=P,block=P,block:fatal=P</code> (or "
            "<code>--prior-file</code>, per role and per dimension)."
        )
        + "</p>",
        _share_chart(bars, a.space, "share of all matrices (log scale)"),
        _outcome_table(a),
        "<h2>Findings</h2>",
        _findings_summary(a),
        *(_finding(f) for f in a.findings),
        _legend(a.dialect) if any(f.examples for f in a.findings) else "",
        "<h2>Simplest matrix of each outcome</h2>",
        '<div class="examples">',
        *(
            _grid(o.example.matrix, _example_caption(o.example, o.key))
            for o in a.outcomes
            if o.example is not None
        ),
        "</div>",
        _legend(a.dialect),
    ]
    if chances is not None:
        body += ["<h2>Probabilities under the prior</h2>", _probability_table(chances)]
    return _page(f"Decision space of {a.contract_id}", body)


def _outcome_table(a: Analysis) -> str:
    return data_table(
        ("outcome", "expression", "share", "matrices", "action"),
        (
            (
                _e(o.key),
                (_expression(o.expression), "expr"),
                (share(o.matrices, a.space), "num share"),
                (compact(o.matrices), "num"),
                _e(_short(o.action)) + (" (R5 fallback)" if o.key == NONE and o.action else ""),
            )
            for o in a.outcomes
        ),
        row_header=True,
    )

def _expression(text: str | None) -> str:
    if text is None:
        return '<span class="note">no condition fires</span>'
    return f"<code>{_e(text)}</code>"


def _findings_summary(a: Analysis) -> str:
    none = a.outcome(NONE).matrices
    items = [
        "unreachable conditions: " + (", ".join(a.unreachable) or "none"),
        "monotone: "
        + (
            "yes (no single worsened score gives a more lenient action)"
            if a.monotone
            else "no (see AN-3 below)"
        ),
        "no condition fires in "
        + (f"{compact(none)} matrices ({share(none, a.space)})" if none else "no matrix"),
    ]
    return "<ul>" + "".join(f"<li>{_e(i)}</li>" for i in items) + "</ul>"


def _probability_table(p: Probabilities) -> str:
    return data_table(
        ("outcome", "probability"),
        ((_e(k), (f"{float(q):.6g}", "num")) for k, q in p.outcomes.items()),
    )

def _heat(fraction: float, moved: bool) -> str:
    """A sequential colour: light to dark, orange for moves, blue-grey for unchanged."""
    start, end = ((253, 236, 220), (196, 62, 0)) if moved else ((236, 241, 247), (52, 92, 140))
    rgb = (round(s + (e - s) * fraction) for s, e in zip(start, end, strict=True))
    return "#" + "".join(f"{c:02x}" for c in rgb)


_K = TypeVar("_K")

#: One cell of a transition grid: its count, whether it is a move, and its outline.
Cell = tuple[int, bool, str]
#: Outlines of a transition grid's cells.
OUTLINE_KEPT: Final = 'stroke="#345c8c" stroke-width="1.5"'
OUTLINE_MOVED: Final = 'stroke="#c43e00" stroke-width="1.5"'
OUTLINE_NONE: Final = 'stroke="#ddd" stroke-width="1"'


def transition_grid(
    olds: Sequence[_K],
    news: Sequence[_K],
    space: int,
    cell: Callable[[_K, _K], Cell],
    *,
    axes: tuple[str, str],
    name: Callable[[_K], str],
    widths: tuple[int, int, int],
    title: str,
) -> str:
    """Old (rows) by new (columns) as an SVG; colour = log share of the ``space`` matrices.
    ``axes`` names the columns' and the rows' axis, ``widths`` the label, cell width and
    cell height; ``cell`` gives each pair's count, whether it moved, and its outline."""
    counts = [cell(old, new)[0] for old in olds for new in news]
    shares = [_log10_share(v, space) for v in counts if v]
    low, high = math.floor(min(shares, default=0.0)), 2.0
    label_w, cell_w, cell_h = widths
    top = 64
    width = label_w + cell_w * len(news) + 20
    height = top + cell_h * len(olds) + 6
    parts = [
        _text(
            label_w + cell_w * len(news) / 2,
            16,
            axes[0],
            anchor="middle",
            size=13,
            fill="#444",
            weight="600",
        ),
        _text(4, top - 10, axes[1], size=13, fill="#444", weight="600"),
    ]
    for c, new in enumerate(news):
        parts.append(_text(label_w + c * cell_w + cell_w / 2, top - 10, name(new), anchor="middle"))
    for r, old in enumerate(olds):
        y = top + r * cell_h
        parts.append(_text(label_w - 10, y + cell_h / 2 + 5, name(old), anchor="end"))
        for c, new in enumerate(news):
            x = label_w + c * cell_w
            v, moved, outline = cell(old, new)
            if v:
                fraction = (_log10_share(v, space) - low) / max(high - low, 1.0)
                fill = _heat(0.15 + 0.85 * fraction, moved)
                ink = "#fff" if fraction > 0.55 else "#1d1d1f"
                label = f"{share(v, space)}"
            else:
                fill, ink, label = "#fafafa", "#999", "·"
            tip = f"{name(old)} -> {name(new)}: {compact(v)} matrices"
            parts.append(
                f'<rect x="{x + 1}" y="{y + 1}" width="{cell_w - 2}" height="{cell_h - 2}" '
                f'fill="{fill}" {outline}><title>{_e(tip)}</title></rect>'
            )
            parts.append(
                _text(x + cell_w / 2, y + cell_h / 2 + 4, label, anchor="middle", size=12, fill=ink)
            )
    return _svg(width, height, title, parts)


def _heat_map(d: Diff) -> str:
    """Old outcome (rows) by new outcome (columns); colour = log share of the matrices."""

    def cell(old: str, new: str) -> Cell:
        moved = old != new
        return d.transitions.get((old, new), 0), moved, OUTLINE_NONE if moved else OUTLINE_KEPT

    grid = transition_grid(
        d.old_outcomes,
        d.new_outcomes,
        d.space,
        cell,
        axes=("new outcome", "old outcome"),
        name=str,
        widths=(120, 96, 40),
        title="transition heat map",
    )
    return f'<div class="chart">{grid}</div>'


def _actions(old: str | None, new: str | None) -> str:
    return _short(old) if old == new else f"{_short(old)} → {_short(new)}"


def html_diff(d: Diff, old_source: str, new_source: str) -> str:
    """What an amendment changes: transition heat map, shares, counterexamples."""
    moved = [t for t in d.rows if t.old != t.new]
    keys = list(dict.fromkeys([*d.old_outcomes, *d.new_outcomes]))
    old_m = {k: sum(t.matrices for t in d.rows if t.old == k) for k in d.old_outcomes}
    new_m = {k: sum(t.matrices for t in d.rows if t.new == k) for k in d.new_outcomes}
    actions_old = {t.old: t.old_action for t in d.rows}
    actions_new = {t.new: t.new_action for t in d.rows}
    groups: list[tuple[str, list[_Bar]]] = []
    for k in keys:
        bars: list[_Bar] = []
        if k in old_m:
            bars.append(("old", "", old_m[k], _ACTION_COLOURS.get(actions_old.get(k), "#6f6f6f")))
        if k in new_m:
            bars.append(("new", "", new_m[k], _ACTION_COLOURS.get(actions_new.get(k), "#6f6f6f")))
        groups.append((k, bars))
    table = data_table(
        ("from", "to", "action", "matrices", "share"),
        (
            (
                _e(t.old),
                _e(t.new),
                _e(_actions(t.old_action, t.new_action)),
                (compact(t.matrices), "num"),
                (share(t.matrices, d.space), "num share"),
            )
            for t in [*moved, *(t for t in d.rows if t.old == t.new)]
        ),
    )
    body = [
        f"<h1>Amendment {_e(old_source)} → {_e(new_source)}</h1>",
        f'<p class="sub">{_e(d.old_id)} → {_e(d.new_id)}: '
        f"{_space_line(d.dimensions, d.panel_size, d.space, d.dialect)}</p>",
        "<p>"
        f'<b>Outcome changed</b> in <span class="num">{compact(d.changed)}</span> matrices '
        f"({share(d.changed, d.space)}); "
        f'<b>action changed</b> in <span class="num">{compact(d.action_changed)}</span> '
        f"({share(d.action_changed, d.space)}).</p>",
        "<h2>Transitions</h2>",
        '<p class="note">Rows: the outcome under the old contract; columns: under the new '
        "one. Colour: the share of all matrices, on a log scale. Orange cells move to another "
        "outcome; outlined blue cells keep theirs.</p>",
        _heat_map(d),
        table,
        "<h2>Outcome shares before and after</h2>",
        _share_chart(groups, d.space, "share of all matrices (log scale)"),
        "<h2>Counterexamples</h2>",
    ]
    if not moved:
        body.append("<p>No matrix changes outcome.</p>")
    else:
        body.append(
            '<p class="note">For each transition, a matrix with the fewest non-pass scores '
            "that makes it.</p>"
        )
        body.append('<div class="examples">')
        for t in moved:
            c = t.counterexample
            caption = f"{t.old} → {t.new}: {_short(c.old.action)} → {_short(c.new.action)}"
            body.append(_grid(c.matrix, caption))
        body.append("</div>")
        body.append(_legend(d.dialect))
    return _page(f"Amendment {old_source} -> {new_source}", body)
