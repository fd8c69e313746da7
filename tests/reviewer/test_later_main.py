"""Later upstream main (ars-main §5): Phase 1 criteria-binding lines and ``NOT_CALIBRATED``
prose are tolerated by both readings; under ``ars="main"`` raw HTML in the dissent section
(``DISSENT-RAW-HTML``) and a dissent field inside a comment (``DISSENT-HIDDEN``) abort the
report, and the round."""

from __future__ import annotations

import pytest
from support import paths

from kernel import load_contract
from kernel.reviewer.lint.dialects import lint_phase1, lint_phase2
from kernel.reviewer.lint.dissent_html import blank_code_spans, raw_html_at
from kernel.reviewer.round_v2 import decide_reports_v2

EXAMPLE = paths.ROOT / "examples" / "full-13.2"
CONTRACT = load_contract(str(EXAMPLE / "contract.json"))
SEATS = ("eic", "methodology", "domain", "perspective", "da")
P1 = {s: (EXAMPLE / f"{s}.phase1.md").read_text("utf-8") for s in SEATS}
P2 = {s: (EXAMPLE / f"{s}.phase2.md").read_text("utf-8") for s in SEATS}
TAG = "[CONTRACT-ACKNOWLEDGED]"

BOUND = """criteria_parallel_conflicts: [{"conflict_group":"g1","criterion_ids":["c2","c5"]}]
[REVIEW-TARGET-BINDING v1]
target_review_id=rev-2026-08-11-0042
consumer_id=ars-reviewer
role=EIC
context_ref=manuscripts/0042/criteria.json
context_sha256=3f2a9c1d5e7b80f4a6c2d9e1b3a5c7d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5
resolved_digest=9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b
selected_criterion_ids=["c1","c2","c5"]
[/REVIEW-TARGET-BINDING]
"""


@pytest.mark.parametrize(
    "lines", [BOUND, BOUND.replace("\n[REVIEW", "\n\n[REVIEW", 1), "criteria_binding_unavailable\n"]
)
@pytest.mark.parametrize("ars", ["main", "fork"])
def test_phase1_criteria_binding_lines_are_tolerated(lines: str, ars: str) -> None:
    text = P1["eic"].replace(TAG, f"{lines}\n{TAG}")
    assert lines in text
    report = lint_phase1(text, CONTRACT, role="eic", ars=ars)
    assert report.ok, report.findings
    assert lint_phase2(P2["eic"], CONTRACT, text, role="eic", ars=ars).ok


@pytest.mark.parametrize("ars", ["main", "fork"])
def test_not_calibrated_prose_trips_no_rule(ars: str) -> None:
    header = "Calibration status: NOT_CALIBRATED\n\n"
    body = P2["eic"].replace(
        "## Review Body\n", "## Review Body\n\nCalibration status: NOT_CALIBRATED\n", 1
    )
    assert lint_phase2(header + body, CONTRACT, P1["eic"], role="eic", ars=ars).ok


DISSENT_AT = "## Dimension Scores"
CANONICAL = "dimension_id: D1\nrationale: the plan did not foresee the second cohort"


def dissent(section: str) -> str:
    return P2["methodology"].replace(
        DISSENT_AT, f"## Scoring Plan Dissent\n\n{section}\n\n{DISSENT_AT}", 1
    )


def codes(text: str, ars: str = "main") -> list[str]:
    report = lint_phase2(text, CONTRACT, P1["methodology"], role="methodology", ars=ars)
    return [f.code for f in report.errors]


def test_a_plain_dissent_passes_both_readings() -> None:
    assert codes(dissent(CANONICAL)) == codes(dissent(CANONICAL), "fork") == []


RAW = [
    "The plan said so <span>explicitly</span>, and it was wrong.",
    "<div>",
    "</details>",
    "<br/>",
    "<img src=x>",
    "An aside <!DOCTYPE html> here.",
    "<![CDATA[ x ]]>",
    "<?xml version='1.0'?>",
    "The tag <em",
]


@pytest.mark.parametrize("line", RAW)
def test_raw_html_in_the_dissent_aborts_under_main(line: str) -> None:
    text = dissent(f"{CANONICAL}\n\n{line}")
    assert codes(text) == ["P2-149"]
    outcome = decide_reports_v2(
        CONTRACT, [(s, text if s == "methodology" else P2[s], P1[s]) for s in SEATS]
    )
    assert outcome.decision is None
    assert any(t.startswith("[DISSENT-RAW-HTML:") for t in outcome.tags)


@pytest.mark.parametrize(
    "line",
    [
        "See <https://example.org/plan> for the plan.",
        "A value a < b and b > c.",
        "The markup `<div>` is quoted in a code span.",
        "The markup ``<span>`` too.",
        "```html\n<div>\n```",
        "<3 the plan",
    ],
)
def test_autolinks_code_and_comparisons_are_not_raw_html(line: str) -> None:
    assert codes(dissent(f"{CANONICAL}\n\n{line}")) == []


def test_inline_html_in_the_dissent_fails_both_readings_each_by_its_rule() -> None:
    """The fork has no DISSENT-RAW-HTML, but R20's strict rule holds in every field section
    under either reading: raw HTML other than a few plain tags fails there (P2-135)."""
    text = dissent(f"{CANONICAL}\n\nThe plan said so <span>explicitly</span>.")
    assert codes(text, "fork") == ["P2-135"]
    assert codes(text) == ["P2-149"]
    plain = dissent(f"{CANONICAL}\n\nThe plan said so <em>explicitly</em>.")
    assert codes(plain, "fork") == []


@pytest.mark.parametrize(
    "section",
    [
        # a mid-line opener hides the rationale on the next line
        "dimension_id: D1\nThe plan (see note <!-- earlier draft\nrationale: x -->",
        # an indented opener
        "dimension_id: D1\nrationale: the plan did not foresee it\n\n  <!--\nrationale: y\n-->",
        # a field on the same line as a closed comment
        "dimension_id: D1 <!-- was D3 -->\nrationale: the plan did not foresee it",
    ],
)
def test_a_field_inside_a_comment_is_hidden_under_main(section: str) -> None:
    assert codes(dissent(section)) == ["P2-148"]


def test_no_reading_credits_a_field_behind_a_mid_line_comment() -> None:
    """The fork's line reading (13.2 §F10.3) never opens a comment mid-line, but the
    rendered page hides the field: R20 credits a field only where every reading sees it."""
    section = "dimension_id: D1\nThe plan (see note <!-- earlier draft\nrationale: x -->"
    assert codes(dissent(section), "fork") == ["P2-117"]
    assert codes(dissent(section)) == ["P2-148"]


@pytest.mark.parametrize(
    "section",
    [
        # a closed comment before the fields hides nothing
        f"Background. <!-- a note -->\n\n{CANONICAL}",
        # <!--> closes at once
        f"An aside <!--> then text.\n\n{CANONICAL}",
        # an opener inside a code span is literal
        f"The marker `<!--` opens a comment in HTML.\n\n{CANONICAL}",
    ],
)
def test_what_does_not_hide_a_field(section: str) -> None:
    assert codes(dissent(section)) == []


def test_raw_html_is_checked_before_a_hidden_field() -> None:
    section = "<!--\nrationale: x\n-->\n\n<div>"
    assert codes(dissent(section)) == ["P2-149"]


def test_code_spans_and_escaped_backticks() -> None:
    assert blank_code_spans("a `<!--` b") == ("a        b", 2)
    assert blank_code_spans("a \\`<!--` b")[0] == "a \\`<!--` b"
    assert blank_code_spans("``x`` `y` ``z") == ("          ``z", 5)
    # after a line with an odd number of runs, the paragraph is read unblanked
    section = f"Odd ` run here.\nThen `<!--` on the next line\n{CANONICAL}"
    assert codes(dissent(section)) == ["P2-148"]
    assert raw_html_at("x <a href") == 2 and raw_html_at("<https://x>") is None


def test_large_dissent_sections_are_answered() -> None:
    big = "\n".join(["An aside with `code` and a < b."] * 2_000)
    assert codes(dissent(f"{CANONICAL}\n\n{big}")) == []
    opened = "<!--\n" + ("x" * 100 + "\n") * 2_000 + "rationale: y\n-->"
    assert codes(dissent(f"{CANONICAL}\n\n{opened}")) == ["P2-148"]
