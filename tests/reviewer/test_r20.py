"""R20 in the 13.2 lints: where CommonMark, upstream's column-0 line reader (13.2 §E0) and
the rendered page disagree on a heading or a field line, the report fails and the round
aborts; a dissent counts only when every reading sees it; invisible characters cannot
disguise a field or a DA table. Each case here was decided (or linted clean) on the old
reading."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import paths

from kernel import load_contract
from kernel.reviewer.lint.phase1_v2 import lint_phase1_v2
from kernel.reviewer.lint.phase2_v2 import analyse_phase2_v2, lint_phase2_v2
from kernel.reviewer.lint.readings import field_shapes, line_fences, without_tags
from kernel.reviewer.render_v2 import render_phase1_v2, render_phase2_v2
from kernel.reviewer.roles import scope_of
from kernel.reviewer.round_v2 import RoundV2Outcome, decide_reports_v2

CONTRACT = load_contract(str(paths.ROOT / "examples" / "full-13.2" / "contract.json"))
SCOPE = scope_of(CONTRACT)
PHASE1 = {r: render_phase1_v2(SCOPE, r) for r in SCOPE.roles}
PHASE2 = {
    r: render_phase2_v2(SCOPE, r, {d.id: "pass" for d in SCOPE.eligible(r)}) for r in SCOPE.roles
}
D6 = "### D6: critical_weaknesses\n\nscore: pass\n"
FATAL = (
    "score: block\nblock_class: fatal\n"
    'trigger: "critical_weaknesses is broken beyond repair so no revision could rescue the work"\n'
)


def round_with(role: str, text: str, ars: str = "main") -> RoundV2Outcome:
    phase2 = {**PHASE2, role: text}
    return decide_reports_v2(
        CONTRACT, [(f"{r}.md", phase2[r], PHASE1[r]) for r in SCOPE.roles], ars=ars
    )


def codes(role: str, text: str, ars: str = "main") -> list[str]:
    return [f.code for f in lint_phase2_v2(text, SCOPE, PHASE1[role], role=role, ars=ars).errors]


def da_with_d6(body: str) -> str:
    assert D6 in PHASE2["da"]
    return PHASE2["da"].replace(D6, "### D6: critical_weaknesses\n\n" + body)


def test_the_undecorated_rounds() -> None:
    accept = round_with("da", PHASE2["da"])
    assert accept.decision is not None
    assert accept.decision.action == "editorial_decision=accept"
    reject = round_with("da", da_with_d6(FATAL))
    assert reject.decision is not None
    assert reject.decision.action == "editorial_decision=reject"


FAIL_OPEN = {
    # a field lazily continued into a quote: CommonMark reads the quote, the line reader
    # two score lines
    "lazy quote": "> Devil's advocate verdict on D6:\n" + FATAL + "\nscore: pass\n",
    # a fence opened inside a list item closes with the item for CommonMark; for the line
    # reader it runs to the next fence, so the fatal lines are what it reads
    "fence in a list item": "- note\n  ```\nscore: pass\n```\n" + FATAL + "```\n",
    # an indented '## Notes' is a heading for CommonMark only
    "indented heading": "score: pass\n\n   ## Notes\n\n" + FATAL,
    # a column-0 section holding field lines: no reading counts them, a reader sees them
    "section of its own": "score: pass\n\n## Notes\n\n" + FATAL,
    # a setext underline turns the fields into a heading for CommonMark only
    "setext heading": "score: pass\n\n" + FATAL + "---\n",
    # an HTML block swallows the fields for CommonMark only
    "html block": "score: pass\n\n<div>\n" + FATAL + "</div>\n",
    # a one-line comment beside a field: the page shows it, no reader counts it
    "comment on the line": "score: pass\n\n<!-- verdict --> score: block\n",
    # invisible characters: the page shows a second score line
    "invisible character in the key": "score: pass\nscore\u034f: block\n",
    "hangul filler in the key": "score: pass\nscore\u3164: block\n",
    "quoted field": "score: pass\n\n> score: block\n",
}


@pytest.mark.parametrize("case", sorted(FAIL_OPEN))
def test_a_field_the_readings_disagree_on_fails_the_report_and_the_round(case: str) -> None:
    text = da_with_d6(FAIL_OPEN[case])
    assert set(codes("da", text)) & {"P2-135", "P2-136"}
    outcome = round_with("da", text)
    assert outcome.decision is None
    assert "R20" in outcome.tags[0] or "own place" in outcome.tags[0]


def test_the_issue_s_fence_case_is_read_as_pass_by_commonmark_and_fatal_by_lines() -> None:
    text = da_with_d6(FAIL_OPEN["fence in a list item"])
    lines = text.split("\n")
    fenced = {n for a, b in line_fences(tuple(lines)).items() for n in range(a, b + 1)}
    first_pass = lines.index("score: pass", lines.index("### D6: critical_weaknesses")) + 1
    assert first_pass in fenced  # the line reader never sees the pass
    assert lines.index("block_class: fatal") + 1 not in fenced


def test_a_column_0_section_of_field_lines_names_their_place() -> None:
    text = da_with_d6(FAIL_OPEN["section of its own"])
    messages = [f.message for f in lint_phase2_v2(text, SCOPE, PHASE1["da"], role="da").errors]
    assert messages[0] == (
        "[REPORT-PARSE: document: score: line outside a '### <Dn>: <name>' subsection of "
        "'## Dimension Scores'; a field line stands only in its own place] move it into a "
        "'### <Dn>: <name>' subsection of '## Dimension Scores', or reword the line so that it "
        "does not start with 'score:'"
    )


def test_an_ordinary_report_stays_clean() -> None:
    for role in SCOPE.roles:
        assert lint_phase2_v2(PHASE2[role], SCOPE, PHASE1[role], role=role).findings == ()
        assert lint_phase1_v2(PHASE1[role], SCOPE, role).findings == ()
    # prose, quotes and fenced examples in the Review Body are not fields
    prose = PHASE2["eic"].replace(
        "The report's findings follow.",
        "The report's findings follow.\n\n> Quoted: the authors say so.\n\n```\nscore: block\n```",
    )
    assert codes("eic", prose) == []


# ---- the dissent ------------------------------------------------------------------------

DISSENT_AT = "## Dimension Scores"


def methodology_dissent(section: str) -> str:
    return PHASE2["methodology"].replace(
        DISSENT_AT, f"## Scoring Plan Dissent\n\n{section}\n\n{DISSENT_AT}", 1
    )


CANONICAL = "dimension_id: D1\nrationale: the plan did not foresee the second cohort"


def test_a_canonical_dissent_is_credited() -> None:
    text = methodology_dissent(CANONICAL)
    report = analyse_phase2_v2(text, SCOPE, PHASE1["methodology"], role="methodology")
    assert report.findings == ()
    assert report.dissent == ("D1",)


def test_a_one_line_comment_hides_no_dissent_field() -> None:
    """The fork reads a commented field as a decorated one (13.2 §F10.3); later upstream main
    aborts it as hidden (ars-main §5.2)."""
    text = methodology_dissent("<!-- dimension_id: D1 -->\n<!-- rationale: x -->")
    p1 = PHASE1["methodology"]
    assert [
        f.message for f in lint_phase2_v2(text, SCOPE, p1, role="methodology", ars="fork").errors
    ] == [
        "[DISSENT-GRAMMAR: dissent fields must be canonical unbulleted dimension_id: and "
        "rationale: lines] write 'dimension_id: <Dn>' and 'rationale: <text>' at column 0, with "
        "no markup"
    ]
    assert codes("methodology", text) == ["P2-148"]


def test_a_commented_second_dissent_aborts_the_round() -> None:
    text = methodology_dissent(CANONICAL + "\n<!-- dimension_id: D3 -->\n<!-- rationale: y -->")
    assert codes("methodology", text, "fork") == ["P2-117"]
    assert codes("methodology", text) == ["P2-148"]
    assert round_with("methodology", text, "fork").decision is None
    assert round_with("methodology", text).decision is None


OPENERS = ["- <!--", "* <!--", "> <!--", "2. <!--", "1) <!--", "<!-- a --> <!--", "<!-- a --><!--"]


@pytest.mark.parametrize("opener", OPENERS)
@pytest.mark.parametrize("closer", ["", "\n-->"])
def test_a_comment_left_open_behind_a_marker_credits_no_dissent(opener: str, closer: str) -> None:
    text = methodology_dissent(f"{opener}\n\n{CANONICAL}{closer}")
    for ars, code in (("fork", "P2-117"), ("main", "P2-148")):
        report = analyse_phase2_v2(text, SCOPE, PHASE1["methodology"], role="methodology", ars=ars)
        assert any(f.code == code for f in report.findings)
        assert round_with("methodology", text, ars).decision is None


def test_a_closed_comment_before_a_dissent_hides_nothing() -> None:
    text = methodology_dissent(f"- <!-- aside -->\n\n{CANONICAL}")
    report = analyse_phase2_v2(text, SCOPE, PHASE1["methodology"], role="methodology")
    assert report.findings == ()
    assert report.dissent == ("D1",)


# ---- invisible characters ---------------------------------------------------------------


@pytest.mark.parametrize(
    "ignorable", ["\u034f", "\ufe0e", "\u3164", "\ufff0", "\u115f", "\U0001bca0"]
)
def test_invisible_characters_do_not_disguise_a_da_table(ignorable: str) -> None:
    x = ignorable
    table = (
        f"\n## Appendix\n\n| #{x} | Issue | Evidence{x} Anchor |\n| --- | --- | --- |\n"
        f'| C{x}9 | an unanswered objection | te{x}xt: "the claim" |\n'
    )
    text = PHASE2["da"] + table
    assert codes("da", text) == ["P2-130"]
    assert round_with("da", text).decision is None


@pytest.mark.parametrize("ignorable", ["\u034f", "\ufe0e", "\u3164", "\ufff0", "\u200b", "\u00ad"])
def test_a_field_shape_is_read_without_invisible_characters(ignorable: str) -> None:
    assert "score" in field_shapes(f"sc{ignorable}ore: block")
    assert "dimensionid" in field_shapes(f"<!-- dimension{ignorable}_id: D1 -->")
    assert "score" in field_shapes("<!-- note --> score: block")


# ---- Phase 1 ------------------------------------------------------------------------------


def test_phase1_fields_the_readings_disagree_on_fail() -> None:
    text = PHASE1["eic"]
    head = "### D3: argumentative_coherence\n\n"
    assert head in text
    lazy = text.replace(head, head + "> a note\n")  # dimension_id continues the quote
    assert "P1-116" in [f.code for f in lint_phase1_v2(lazy, SCOPE, "eic").errors]
    stray = text.replace(
        "## Scoring Plan", "what_to_look_for: a stray field in the paraphrase\n\n## Scoring Plan"
    )
    assert "P1-117" in [f.code for f in lint_phase1_v2(stray, SCOPE, "eic").errors]
    indented = text.replace("## Scoring Plan", " ## Scoring Plan")
    assert "P1-116" in [f.code for f in lint_phase1_v2(indented, SCOPE, "eic").errors]


def test_phase1_tag_hidden_by_a_line_reader_s_fence_fails() -> None:
    text = PHASE1["eic"].replace("[CONTRACT-ACKNOWLEDGED]", "- x\n  ```\n[CONTRACT-ACKNOWLEDGED]")
    assert "P1-102" in [f.code for f in lint_phase1_v2(text, SCOPE, "eic").errors]


def test_paraphrase_paragraphs_are_the_fewer_of_both_readings() -> None:
    # CommonMark: a fence between two lines makes two paragraphs; the line reader drops the
    # fence and joins them into one (13.2 §E4)
    para = "## Contract Paraphrase\n\n"
    text = PHASE1["eic"]
    first_end = text.index("\n\n", len(para))
    joined = text[:first_end] + "\n```\nx\n```" + text[first_end + 1 :]
    full = lint_phase1_v2(text, SCOPE, "eic")
    assert full.ok
    messages = [f.message for f in lint_phase1_v2(joined, SCOPE, "eic").errors]
    assert any("paragraph(s), fewer than" in m for m in messages)


# ---- dialect 13: the same rendered page, the same invisible characters ---------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("score: pass", "- <!--\n\nscore: pass", 1), "hidden on the rendered"),
        (lambda t: t.replace("score: pass", "> <!--\n\nscore: pass", 1), "hidden on the rendered"),
        (lambda t: t.replace("score: pass", "score: pass\nsc\u034fore: block", 1), "reads as"),
        (lambda t: t.replace("score: pass", "score: pass\nscore\u2060: block", 1), "reads as"),
    ],
)
def test_dialect_13_key_lines_a_reader_cannot_see_or_sees_disguised_fail(
    change: Callable[[str], str], message: str
) -> None:
    from kernel import lint_phase2, render_phase2

    focus = load_contract("reviewer/methodology_focus")
    text = render_phase2(focus, {"D1": "pass", "D2": "pass"})
    assert lint_phase2(text, focus).ok
    errors = lint_phase2(change(text), focus).errors
    assert errors and errors[0].code == "P2-060" and message in errors[0].message


def test_the_invisible_characters_are_unicode_s_default_ignorable_code_points() -> None:
    # DerivedCoreProperties.txt: Other_Default_Ignorable_Code_Point + Cf + Variation_Selector
    # - White_Space - U+FFF9..U+FFFB - U+13430..U+13440 - Prepended_Concatenation_Mark.
    # Cf comes from the interpreter's own Unicode data; the small lists from PropList.txt.
    import sys
    import unicodedata

    from kernel.text.skeleton import is_ignorable

    other = [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2065, 0x3164, 0xFFA0, 0xE0000]
    other += [*range(0xFFF0, 0xFFF9), *range(0xE0002, 0xE0020), *range(0xE0080, 0xE0100)]
    other += range(0xE01F0, 0xE1000)
    selectors = [0x180B, 0x180C, 0x180D, 0x180F, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]
    prepended = [*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD]
    excluded = {*range(0xFFF9, 0xFFFC), *range(0x13430, 0x13441), *prepended}
    cf = [c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]
    derived = {c for c in [*other, *selectors, *cf] if c not in excluded and not chr(c).isspace()}
    kernel = {c for c in range(sys.maxunicode + 1) if is_ignorable(chr(c))}
    assert kernel == derived


def test_a_synthesis_line_fenced_for_one_reading_only_is_a_parse_error() -> None:
    synthesis = (paths.ROOT / "examples" / "full-13.2" / "synthesis.md").read_text()
    round_ = decide_reports_v2(
        CONTRACT,
        [
            (
                f"{r}.md",
                (paths.ROOT / "examples" / "full-13.2" / f"{r}.phase2.md").read_text(),
                (paths.ROOT / "examples" / "full-13.2" / f"{r}.phase1.md").read_text(),
            )
            for r in SCOPE.roles
        ],
        synthesis=synthesis,
    )
    assert round_.synthesis is not None and round_.synthesis.ok
    # CommonMark closes the list item's fence at the column-0 line; the line reader does not,
    # so it sees no decision where CommonMark sees one
    hidden = synthesis.replace(
        "editorial_decision=major_revision", "- x\n  ```\neditorial_decision=major_revision\n```"
    )
    outcome = decide_reports_v2(
        CONTRACT,
        [
            (
                f"{r}.md",
                (paths.ROOT / "examples" / "full-13.2" / f"{r}.phase2.md").read_text(),
                (paths.ROOT / "examples" / "full-13.2" / f"{r}.phase1.md").read_text(),
            )
            for r in SCOPE.roles
        ],
        synthesis=hidden,
    )
    assert outcome.synthesis is not None
    assert [f.code for f in outcome.synthesis.findings] == ["SY-101"]
    assert "R20" in outcome.synthesis.findings[0].message


@given(st.text(st.sampled_from("<>\nab"), max_size=40))
def test_tags_are_removed_as_the_tag_pattern_removes_them(text: str) -> None:
    # one pass instead of a search that rescans a run of '<' (13.2 §F10.3's markup spans)
    assert without_tags(text) == re.sub(r"<[^>\n]*>", "", text)
