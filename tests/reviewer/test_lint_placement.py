"""Phase 2 check 8: score, fired and editorial_decision= statements only in their own place."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kernel.contract.model import load_contract
from kernel.errors import KernelError
from kernel.reviewer.lint import CHECKS, lint_phase2
from kernel.reviewer.lint.placement import CODE, MAX_REPORTED
from kernel.reviewer.render import render_phase1, render_phase2

FULL = load_contract("reviewer/full")
PHASE1 = render_phase1(FULL)
SCORES = dict.fromkeys(FULL.dimension_ids, "pass") | {"D1": "warn"}
VALID = render_phase2(FULL, SCORES)
SECTIONS = (
    "## Dimension Scores",
    "## Failure Condition Checks",
    "## Review Body",
    "## Editorial Decision",
)
#: Statements that must appear only in their own place.
STATEMENTS = (
    "score: pass",
    "score: block",
    "- score: pass",
    "* `score`: warn",
    "1. **score**: block",
    "**score:** pass",
    "score : pass",
    "> score: pass",
    "### score: pass",
    "fired: true",
    "- fired: false",
    "`fired`: true",
    "editorial_decision=accept",
    "I propose editorial_decision=accept here.",
    "- **editorial_decision** = reject",
    "editorial_decision: accept",
)


def _lint(text: str) -> list[tuple[str, str]]:
    return [(f.code, f.check) for f in lint_phase2(text, FULL, PHASE1).errors]


def _insert_after(text: str, heading: str, extra: str) -> str:
    head, tail = text.split(heading + "\n\n", 1)
    return f"{head}{heading}\n\n{extra}\n\n{tail}"


def test_valid_render_passes_and_check_is_registered() -> None:
    assert lint_phase2(VALID, FULL, PHASE1).findings == ()
    assert CHECKS[-1] == "key_lines"


@pytest.mark.parametrize("heading", ["## Review Body", "## Editorial Decision"])
@pytest.mark.parametrize("line", [s for s in STATEMENTS if "editorial_decision" not in s])
def test_key_line_outside_its_place(heading: str, line: str) -> None:
    found = _lint(_insert_after(VALID, heading, line))
    assert (CODE, "key_lines") in found, found


@pytest.mark.parametrize("heading", ["## Dimension Scores", "## Failure Condition Checks"])
@pytest.mark.parametrize("line", [s for s in STATEMENTS if "editorial_decision" in s])
def test_decision_outside_its_section(heading: str, line: str) -> None:
    found = _lint(_insert_after(VALID, heading, line))
    assert found == [(CODE, "key_lines")], found


def test_review_body_states_a_second_decision() -> None:
    text = _insert_after(VALID, "## Review Body", "editorial_decision=accept")
    report = lint_phase2(text, FULL, PHASE1)
    assert not report.ok
    assert [f.code for f in report.errors] == [CODE]
    assert report.errors[0].line == text.split("\n").index("editorial_decision=accept") + 1
    assert "Review Body" in report.errors[0].message


def test_score_in_the_wrong_subsection_kind() -> None:
    fired_sub = "### F1: any mandatory dimension scores 'block'\n\nfired: false\n"
    text = VALID.replace(fired_sub, fired_sub + "score: block\n")
    assert _lint(text) == [(CODE, "key_lines")]
    score_sub = "### D2: domain_accuracy\n\nscore: pass\n"
    text = VALID.replace(score_sub, score_sub + "fired: true\n")
    assert _lint(text) == [(CODE, "key_lines")]


@pytest.mark.parametrize(
    "wrapper",
    [
        "```\n{}\n```",
        "~~~text\n{}\n~~~",
        "- item\n\n  ```\n  {}\n  ```",
        "> ```\n> {}\n> ```",
    ],
)
@pytest.mark.parametrize("line", ["score: block", "fired: true", "editorial_decision=accept"])
def test_fenced_code_is_exempt(wrapper: str, line: str) -> None:
    text = _insert_after(VALID, "## Review Body", wrapper.format(line))
    assert _lint(text) == []


@pytest.mark.parametrize(
    "wrapper",
    ["    {}", "<div>\n{}\n</div>", "<!--\n{}\n-->", "> {}", "Prose first\n{}"],
)
def test_indented_code_html_and_quotes_are_not_exempt(wrapper: str) -> None:
    for line in ("score: block", "fired: true", "editorial_decision=accept"):
        text = _insert_after(VALID, "## Review Body", wrapper.format(line))
        assert (CODE, "key_lines") in _lint(text), (wrapper, line)


def test_statement_before_the_first_section() -> None:
    found = _lint("score: block\n\n" + VALID)
    assert (CODE, "key_lines") in found


@pytest.mark.parametrize(
    "look_alike",
    ["> score: block", "<!-- score: block -->", "    score: block", "\u00a0score: block"],
)
def test_look_alike_in_its_own_subsection(look_alike: str) -> None:
    """A second score in the subsection that check 2 does not count is still a statement."""
    sub = "### D2: domain_accuracy\n\nscore: pass\n"
    text = VALID.replace(sub, sub + "\n" + look_alike + "\n")
    found = _lint(text)
    assert (CODE, "key_lines") in found, found


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x0b", "\x0c", "\x85", "\x1c"])
def test_second_statement_after_a_non_commonmark_break(sep: str) -> None:
    text = VALID.replace("score: pass\n", f"score: pass{sep}score: block\n", 1)
    assert (CODE, "key_lines") in _lint(text)
    body = _insert_after(VALID, "## Review Body", f"Fine.{sep}fired: true")
    assert _lint(body) == [(CODE, "key_lines")]


def test_many_statements_are_reported_up_to_the_cap() -> None:
    n = MAX_REPORTED + 7
    text = _insert_after(VALID, "## Review Body", "\n\n".join(["score: block"] * n))
    findings = [f for f in lint_phase2(text, FULL, PHASE1).errors if f.code == CODE]
    assert len(findings) == MAX_REPORTED + 1
    lines = [f.line or 0 for f in findings[:-1]]
    assert lines == sorted(set(lines)) and lines[0] > 0
    assert findings[-1].line is None and "7 more" in findings[-1].message


def test_duplicated_and_unknown_subsections_are_their_own_place() -> None:
    """Checks 2 and 3 report these; check 8 does not add a second finding."""
    extra = "### D9: extra\n\nscore: pass\n\n"
    text = VALID.replace("## Failure Condition Checks", extra + "## Failure Condition Checks")
    assert _lint(text) == [("P2-012", "dimension_scores")]


def test_unusable_reviewer_names_the_check() -> None:
    from kernel.reviewer.review import decide_documents

    bad = _insert_after(VALID, "## Review Body", "editorial_decision=accept")
    docs = [(f"r{i}", VALID if i else bad, PHASE1) for i in range(5)]
    outcome = decide_documents(FULL, docs)
    assert outcome.decision is None
    assert outcome.tags[0] == (
        f"[PROTOCOL-VIOLATION: reviewer=r0, contract={FULL.contract_id}, "
        "phase2_lint_failed=key_lines]"
    )


# -- wide class: any statement, any wrapper, any section -------------------------------------

PREFIXES = ("", "- ", "* ", "+ ", "1. ", "2) ", "> ", "### ", "| ", "  ", "\t", "> - ")
KEYS = ("score", "fired")
WRAPS = (("", ""), ("`", "`"), ("**", "**"), ("*", "*"), ("_", "_"), ("~~", "~~"))
PLACES = ("## Review Body", "## Editorial Decision", "## Dimension Scores")


@settings(max_examples=80)
@given(
    prefix=st.sampled_from(PREFIXES),
    key=st.sampled_from(KEYS),
    wrap=st.sampled_from(WRAPS),
    space=st.sampled_from(("", " ", "\t", "\u00a0")),
    value=st.sampled_from(("block", "pass", "true", "", "anything")),
    place=st.sampled_from(PLACES),
)
@example(prefix="", key="score", wrap=("", ""), space="", value="pass", place="## Review Body")
def test_any_key_statement_out_of_place_fails(
    prefix: str, key: str, wrap: tuple[str, str], space: str, value: str, place: str
) -> None:
    if key == "score" and place == "## Dimension Scores":
        place = "## Review Body"
    line = f"{prefix}{wrap[0]}{key}{wrap[1]}{space}: {value}"
    found = _lint(_insert_after(VALID, place, line))
    assert (CODE, "key_lines") in found, line


@settings(max_examples=40)
@given(
    before=st.text(alphabet=st.sampled_from("ab .,*_`-"), max_size=12),
    after=st.text(alphabet=st.sampled_from("ab .,*_`-"), max_size=12),
    space=st.sampled_from(("", " ", "\t", "**", "`")),
    place=st.sampled_from(("## Review Body", "## Dimension Scores", "## Failure Condition Checks")),
)
@example(before="I'd say ", after=".", space="", place="## Review Body")
def test_any_decision_statement_outside_its_section_fails(
    before: str, after: str, space: str, place: str
) -> None:
    line = f"{before}editorial_decision{space}=accept{after}"
    text = _insert_after(VALID, place, "Prose " + line)
    assert (CODE, "key_lines") in _lint(text), line


def test_renderer_refuses_a_body_that_would_fail_check_8() -> None:
    for body in ("score: block", "Prose.\n\n- fired: true", "say editorial_decision=accept"):
        with pytest.raises(KernelError, match="check 8"):
            render_phase2(FULL, SCORES, body=body)
    fenced = render_phase2(FULL, SCORES, body="```\nscore: block\n```")
    assert lint_phase2(fenced, FULL).ok


@given(st.sampled_from(STATEMENTS), st.integers(1, 3))
def test_statement_lines_count_every_line_before_them(statement: str, blank: int) -> None:
    # A document that starts with blank lines: each statement's line moves down by as many.
    from kernel.reviewer.lint.placement import _statements
    from kernel.text.markdown import parse_document

    text = VALID.replace("## Review Body\n", f"## Review Body\n\n{statement}\n", 1)
    lines = [line for line, *_ in _statements(parse_document(text))]
    moved = [line for line, *_ in _statements(parse_document("\n" * blank + text))]
    assert lines and moved == [line + blank for line in lines]
