"""The analyzer's text and HTML helpers, pinned: example labels, percentages, chart counts and
the heat colours a reader sees."""

from __future__ import annotations

import re

from kernel.analysis.html import _heat
from kernel.analysis.report import _example, _finding, percent
from kernel.analysis.result import Example, Finding, compact, share

MATRIX = {"D1": ("pass", "warn")}


def _ex(action: str | None, condition_id: str | None) -> Example:
    return Example(MATRIX, action, condition_id, condition_id is None, ())


def test_an_example_names_its_condition_the_fallback_or_nothing() -> None:
    assert _example(_ex("editorial_decision=accept", "F0"))[0].endswith("(F0)")
    assert _example(_ex("editorial_decision=accept", None))[0].endswith("(R5 fallback)")
    assert _example(_ex(None, None))[0].endswith("(nothing fires)")


def test_a_finding_with_two_examples_but_no_change_lists_them_plainly() -> None:
    two = (_ex("editorial_decision=accept", "F0"), _ex("editorial_decision=reject", "F1"))
    plain = _finding("c.json", Finding("AN-001", "warning", "m", examples=two))
    assert [line.split(":")[0].strip() for line in plain[1::2]] == ["example", "example"]


def test_percent() -> None:
    assert percent(0, 7) == "0"
    assert percent(1, 3) == "33.33"
    assert percent(1, 10**400) == "< 1e-300"


def test_one_count_format_for_every_report_and_page() -> None:
    assert compact(7776) == "7,776"
    assert compact(847288609443) == "847,288,609,443"
    assert compact(10**15 - 1) == "999,999,999,999,999"
    assert compact(10**15) == "1.00e15"
    assert compact(10**299 * 3) == "3.00e299"
    assert compact(3**20000) == "2.66e9542"
    assert share(1, 3) == "33.33 %"


def test_heat_colours() -> None:
    assert _heat(0.0, moved=False) == "#ecf1f7"
    assert _heat(1.0, moved=False) == "#345c8c"
    assert _heat(0.0, moved=True) == "#fdecdc"
    assert _heat(1.0, moved=True) == "#c43e00"


def test_the_share_chart_labels_each_bar_with_its_share_and_count() -> None:
    from kernel.analysis import analyze
    from kernel.analysis.html import html_analysis
    from kernel.contract.model import load_contract

    page = html_analysis(analyze(load_contract("reviewer/methodology_focus")), "m.json")
    labels = re.findall(r'<text x="100%" y="[0-9.]+" font-size="12" [^>]*>([^<]*%[^<]*)<', page)
    assert labels == ["55.56 % (45)", "33.33 % (27)", "11.11 % (9)"]
