"""The HTML report: parses as HTML, is self-contained (no script, no external reference) and
shows the numbers the analysis computed."""

from __future__ import annotations

import copy
import html
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.strategies import contracts
from test_analysis_diff import BIG_NEW, BIG_OLD, SWAP_NEW, SWAP_OLD
from test_analysis_space import NON_MONOTONE, SHADOWED

from kernel.analysis import analyze, analyze_diff, parse_prior, probabilities
from kernel.analysis.html import html_analysis, html_diff
from kernel.analysis.report import percent
from kernel.contract.model import load_contract

#: Elements that never close (HTML "void" elements).
VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "source", "wbr"}
#: Elements that load or run something from elsewhere.
FORBIDDEN = {"script", "iframe", "object", "embed", "img", "link", "base", "frame", "audio",
             "video", "source", "use", "image", "foreignobject"}  # fmt: skip
SVG_VOID = {"rect", "line", "path", "circle"}


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str]] = []
        self.problems: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += [(k, v or "") for k, v in attrs]
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += [(k, v or "") for k, v in attrs]

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def check_page(page: str) -> _Checker:
    """Well-formed, self-contained, script-free."""
    assert page.startswith("<!DOCTYPE html>")
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert checker.problems == [] and checker.stack == []
    assert "<script" not in page.lower()
    assert not FORBIDDEN & set(checker.tags)
    for name, value in checker.attributes:
        assert not name.startswith("on"), name  # no event handlers
        assert name not in {"src", "href", "xlink:href", "action", "srcset", "data"}, name
        lowered = value.lower()
        assert "url(" not in lowered and "//" not in lowered, value
        assert not any(scheme in lowered for scheme in ("http:", "https:", "javascript:", "data:"))
    style = page[page.index("<style>") : page.index("</style>")]
    assert "url(" not in style and "@import" not in style
    return checker


def check_no_reference_text(page: str) -> None:
    lowered = page.lower()
    assert "http:" not in lowered and "https:" not in lowered and "//" not in page
    assert "src=" not in lowered and "href=" not in lowered


@pytest.mark.parametrize("data", ["reviewer/full", NON_MONOTONE, SHADOWED])
def test_analysis_page(data: Any) -> None:
    a = analyze(data)
    page = html_analysis(a, "contract.json")
    check_no_reference_text(page)
    text = " ".join(check_page(page).text)
    for o in a.outcomes:
        assert f"{o.matrices:,}" in text
    for f in a.findings:
        assert f.code in text
    for c in a.unreachable:
        assert c in text
    assert page.count("<svg") >= 1 + sum(o.example is not None for o in a.outcomes)


@pytest.mark.parametrize(
    "data",
    [
        "reviewer/full",
        NON_MONOTONE,
        SHADOWED,
        "13.2/reviewer/full",
        "13.2/reviewer/methodology_focus",
    ],
)
def test_each_condition_shows_its_expression_beside_its_share(data: Any) -> None:
    contract = load_contract(data)
    a = analyze(contract)
    page = html_analysis(a, "contract.json")
    rows = page[page.index('<th scope="col">expression</th>') :].split("<tr>")[1:]
    for condition, o in zip(contract.conditions, a.outcomes, strict=False):
        (row,) = [r for r in rows if r.startswith(f'<th scope="row">{condition.condition_id}<')]
        expression = row.index(f"<code>{html.escape(condition.text)}</code>")
        assert expression < row.index(f"{percent(o.matrices, a.space)} %")
    assert "Shares count every matrix equally" in page and "--prior" in page


def test_score_grids_have_a_text_alternative() -> None:
    a = analyze(NON_MONOTONE)
    page = html_analysis(a, "contract.json")
    drawn = page.count('aria-hidden="true"')
    words = page.split('<div class="sr-only">')[1:]
    grids = sum(len(f.examples) for f in a.findings) + sum(
        o.example is not None for o in a.outcomes
    )
    assert drawn == len(words) == grids > 0
    for o in a.outcomes:
        if o.example is None:
            continue
        (table,) = [w for w in words if f"<caption>scores, {o.key}:" in w]
        table = table[: table.index("</table>")]
        assert table.count('<th scope="row">') == len(o.example.matrix)
        for score in ("warn", "block"):  # the columns left out score pass throughout
            rows = [row for row in o.example.matrix.values() if isinstance(row, tuple)]
            assert len(rows) == len(o.example.matrix)  # a Schema 13 matrix: score tuples
            written = sum(row.count(score) for row in rows)
            assert table.count(f"<td>{score}</td>") == written


def test_tiny_shares_get_a_visible_bar_on_the_log_scale() -> None:
    page = html_analysis(analyze("reviewer/full"), "reviewer/full")
    # F0 decides 7,776 of 847 billion matrices: its bar is drawn, with its share.
    assert "F0 accept: 7,776 of 847,288,609,443 matrices" in page
    assert "9.178e-07 %" in page and "1e-6 %" in page  # the axis reaches below F0's share


def test_probabilities_section() -> None:
    contract = load_contract("reviewer/full")
    chances = probabilities(contract, parse_prior("pass=0.7,warn=0.2,block=0.1"))
    page = html_analysis(analyze(contract), "reviewer/full", chances)
    check_page(page)
    assert "Probabilities under the prior" in page


@pytest.mark.parametrize(
    ("old", "new"),
    [(SWAP_OLD, SWAP_NEW), (BIG_OLD, BIG_NEW), (BIG_OLD, BIG_OLD), ("reviewer/full", None)],
)
def test_diff_page(old: Any, new: Any) -> None:
    if new is None:
        new = load_contract(old).to_dict()
        new["failure_conditions"][1]["cross_reviewer_quantifier"] = "any"
    d = analyze_diff(old, new)
    page = html_diff(d, "old.json", "new.json")
    check_no_reference_text(page)
    text = " ".join(check_page(page).text)
    assert f"{d.changed:,}" in text
    for t in d.rows:
        assert html.escape(f"{t.old} -> {t.new}: {t.matrices:,} matrices") in page
    moved = [t for t in d.rows if t.old != t.new]
    assert page.count("<caption>scores, ") == len(moved)  # each grid, also in words
    if not moved:
        assert "No matrix changes outcome." in text


@given(contracts(max_dimensions=3, max_conditions=4, panel_sizes=st.integers(1, 2)))
def test_generated_contracts_give_self_contained_pages(data: dict[str, Any]) -> None:
    check_no_reference_text(html_analysis(analyze(data), "c.json"))
    new = copy.deepcopy(data)
    for c in new["failure_conditions"]:
        c["cross_reviewer_quantifier"] = "any"
    page = html_diff(analyze_diff(data, new), "a.json", "b.json")
    check_page(page)
    check_no_reference_text(page)


def test_user_text_is_escaped() -> None:
    page = html_analysis(analyze("reviewer/full"), '<script>alert(1)</script>"x')
    check_page(page)
    assert "&lt;script&gt;" in page


@pytest.mark.parametrize(
    "bad",
    [
        "<script>x</script>",
        '<img src="x.png">',
        '<a href="page.html">x</a>',
        '<svg><use href="#a"/></svg>',
        '<div style="background: url(x.png)">x</div>',
        '<div onclick="x()">x</div>',
        "<div><span></div></span>",
        "<div>",
    ],
)
def test_the_checker_rejects_what_it_must(bad: str) -> None:
    page = html_analysis(analyze("reviewer/full"), "c.json").replace("<body>", "<body>" + bad)
    with pytest.raises(AssertionError):
        check_page(page)


def test_a_13_2_grid_is_by_role_and_says_which_seats_a_dimension_lacks() -> None:
    contract = load_contract("13.2/reviewer/full")
    page = html_analysis(analyze(contract), "13.2/reviewer/full")
    assert "one column per role" in page and "one column per reviewer" not in page
    assert "<code>--prior pass=P,warn=P,block=P,block:fatal=P</code>" in page
    words = page.split('<div class="sr-only">')[1]
    assert '<th scope="col">methodology</th>' in words and "reviewer 1" not in words
    d1 = next(d for d in contract.dimensions if d.id == "D1")
    missing = [r for r in contract.roles if r not in d1.eligible_roles]
    row = words[words.index('<th scope="row">D1</th>') :].split("</tr>")[0]
    assert row.count("<td>not eligible</td>") == len(missing) > 0


def _shadowed_13_2() -> dict[str, Any]:
    """13.2/reviewer/full with an F6 that fires only where F4 fires (F4 comes first)."""
    from kernel.contract.templates import shipped_template

    data = shipped_template("13.2/reviewer/full")
    data["failure_conditions"].insert(
        5,
        {
            "condition_id": "F6",
            "severity": 50,
            "expression": "any high-priority dimension scores 'block'",
            "cross_reviewer_quantifier": "majority",
            "action": "editorial_decision=reject",
        },
    )
    return data


def test_an_2_names_the_condition_that_shadows_an_unreachable_one() -> None:
    from kernel.decision.decision import decide

    contract = load_contract(_shadowed_13_2())
    a = analyze(contract)
    (finding,) = [f for f in a.findings if f.code == "AN-2"]
    assert finding.condition_id == "F6"
    assert "shadowed by F4: whenever it fires, F4 fires too" in finding.message
    (e,) = finding.examples  # a real matrix where F6 fires and F4 decides
    d = decide(contract, e.matrix)
    assert d.fired["F6"] and d.condition_id == "F4"
    page = html_analysis(a, "x.json")
    assert "F6 never decides: shadowed by F4" in page
    a13 = analyze(load_contract(SHADOWED))
    messages = {f.condition_id: f.message for f in a13.findings if f.code == "AN-2"}
    assert "shadowed by F1" in messages["F2"]


def test_findings_write_counts_as_the_page_does() -> None:
    page = html_analysis(analyze(load_contract("reviewer/full")), "reviewer/full")
    finding = page.split('<div class="finding">')[1]
    assert "127,394,208 of 847,288,609,443 matrices (0.01504 %)" in finding
    assert "127394208" not in page


def test_the_13_2_legend_describes_only_cells_that_appear() -> None:
    contract = load_contract(_shadowed_13_2())
    page = html_analysis(analyze(contract), "x.json")
    assert "grey = not assessed" not in page
    assert "not_assessed" not in page.split("<body>")[1]  # no such cell is drawn
    # Ineligible seats carry a mark (not colour alone); pass cells carry none.
    assert ">\u2013</text>" in page and "\u2013 on white = the role is not eligible" in page


def test_mark_colours_meet_wcag_aa() -> None:
    from kernel.analysis.html import _MARK_FILL, _SCORE_COLOURS, _SCORE_MARKS

    def luminance(colour: str) -> float:
        colour = colour.lstrip("#")
        if len(colour) == 3:
            colour = "".join(c * 2 for c in colour)
        channels = [int(colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    def contrast(a: str, b: str) -> float:
        high, low = sorted((luminance(a), luminance(b)), reverse=True)
        return (high + 0.05) / (low + 0.05)

    for score, mark in _SCORE_MARKS.items():
        if mark:
            assert contrast(_MARK_FILL.get(score, "#222"), _SCORE_COLOURS[score]) >= 4.5, score


def _fits_a_phone(page: str) -> None:
    """Every drawing scales to the page's width, and every table of data stacks at phone
    width (the screen-reader copies of the grids are not shown)."""
    svgs = re.findall(r"<svg [^>]*>", page)
    assert svgs
    for svg in svgs:
        assert 'width="100%"' in svg or ('class="fit"' in svg and "viewBox=" in svg), svg
    shown = re.sub(r'<div class="sr-only"><table>.*?</table></div>', "", page)
    tables = re.findall(r"<table[^>]*>", shown)
    assert tables and set(tables) == {'<table class="stack">'}
    assert "svg.fit { max-width: 100%; height: auto; }" in page
    assert 'table.stack td::before { content: attr(data-label) ": "' in page
    assert "overflow-x" not in page  # nothing hides what it cuts behind a scroll
    assert "break-all" not in page  # a count is never split between its digits
    assert (
        ".num { font-variant-numeric: tabular-nums; text-align: right; white-space: nowrap; }"
        in page
    )


def test_a_narrow_window_scales_charts_and_stacks_tables() -> None:
    _fits_a_phone(html_analysis(analyze(load_contract("reviewer/full")), "reviewer/full"))
    _fits_a_phone(
        html_analysis(
            analyze(load_contract("reviewer/methodology_focus")),
            "m",
            probabilities(
                load_contract("reviewer/methodology_focus"),
                parse_prior("pass=0.5,warn=0.3,block=0.2"),
            ),
        )
    )
    diff = html_diff(analyze_diff(load_contract(SWAP_OLD), load_contract(SWAP_NEW)), "a", "b")
    _fits_a_phone(diff)
    assert diff.count('<div class="chart"><svg') == 2  # the heat map and the share chart


def test_a_stacked_cell_is_labelled_with_its_column() -> None:
    page = html_analysis(analyze(load_contract("reviewer/full")), "reviewer/full")
    assert '<td data-label="matrices" class="num">847,288,609,443</td>' not in page
    assert '<td data-label="matrices" class="num">7,776</td>' in page
    assert '<th scope="row">F0</th>' in page


def test_an_invalid_contract_writes_no_html_and_keeps_the_previous_report(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from kernel.cli import analyze as command

    bad = tmp_path / "bad.json"
    bad.write_text('{"contract_id": 1}')
    report = tmp_path / "report.html"
    assert command.main([str(bad), "--format", "html", "-o", str(report)]) == 1
    assert not report.exists()
    assert "E-CONTRACT" in capsys.readouterr().err
    report.write_text("previous")
    assert command.main([str(bad), "--format", "html", "-o", str(report)]) == 1
    assert (
        command.main(["reviewer/full", "--diff", str(bad), "--format", "html", "-o", str(report)])
        == 1
    )
    assert report.read_text() == "previous"


def test_the_migration_page_fits_a_phone_too() -> None:
    from kernel.migration import migrate
    from kernel.migration.html import html_migration

    page = html_migration(migrate("reviewer/full"), "reviewer/full")
    _fits_a_phone(page)
    assert "3<sup>25</sup> = " in page and "3^" not in page
