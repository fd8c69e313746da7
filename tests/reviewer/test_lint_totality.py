"""Totality: for any str the lints return a report or raise KernelError, nothing else; and
pathological documents are handled."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.contract.model import load_contract
from kernel.errors import KernelError
from kernel.io import MAX_INPUT_BYTES
from kernel.reviewer.lint import LintReport, lint_phase1, lint_phase2
from kernel.reviewer.render import render_phase1, render_phase2

CONTRACT = load_contract("reviewer/full")
PHASE1 = render_phase1(CONTRACT)
SCORES = {"D1": "block", "D2": "warn", "D3": "pass", "D4": "pass", "D5": "warn"}
PHASE2 = render_phase2(CONTRACT, SCORES)

#: Fragments that reach the deeper paths of both lints.
FRAGMENTS = (
    "## Contract Paraphrase",
    "## Scoring Plan",
    "## Scoring Plan Dissent",
    "## Dimension Scores",
    "## Failure Condition Checks",
    "## Review Body",
    "## Editorial Decision",
    "### D1: methodology_rigor",
    "### D2: domain_accuracy",
    "### F1",
    "### F0: x",
    "- dimension_id: D1",
    "- dimension_id: D2, D3",
    "- what_triggers_block: sample size",
    "- what_triggers_warn: the",
    "score: block",
    "score: warn",
    "fired: true",
    "fired: false",
    "editorial_decision=accept",
    "editorial_decision=reject_or_major_revision",
    "[CONTRACT-ACKNOWLEDGED]",
    "```",
    "    ",
    "> ",
    "<!--",
    "-->",
    "# x",
    "---",
    "",
    "\u2028",
    "\ufeff",
    "\r",
    "\x00",
    "D1 methodology_rigor",
)

markdownish = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=8)), max_size=40).map(
    "\n".join
)


def _total(text: str) -> None:
    for phase, doc, phase1 in (
        (1, text, None),
        (2, text, None),
        (2, text, text),
        (2, PHASE2, text),
    ):
        try:
            if phase == 1:
                report = lint_phase1(doc, CONTRACT)
            else:
                report = lint_phase2(doc, CONTRACT, phase1)
        except KernelError:
            continue
        assert isinstance(report, LintReport)
        report.to_dict()
        for f in report.findings:
            assert f.line is None or f.line >= 1


@given(st.text())
@example("")
@example("\ufeff")
@example("\x00## Review Body")
def test_arbitrary_text(text: str) -> None:
    _total(text)


@given(st.text(alphabet=st.characters(exclude_categories=()), max_size=50))
@example("\ud800## Review Body")
def test_text_with_surrogates_and_controls(text: str) -> None:
    _total(text)
    _total(PHASE2.replace("score: block", "score: " + text))


@given(markdownish)
def test_markdownish_text(text: str) -> None:
    _total(text)


@given(markdownish)
def test_valid_document_with_appended_noise(noise: str) -> None:
    _total(PHASE1 + noise)
    _total(PHASE2 + noise)


@pytest.mark.parametrize(
    "text",
    [
        ">" * 100_000,
        "[" * 100_000,
        "- " * 50_000 + "x",
        "*a" * 50_000,
        "\n".join(" " * i + "- x" for i in range(0, 600, 2)),
        "`" * 100_000,
        "<!--" * 50_000,
    ],
    ids=[
        "nested-quote",
        "brackets",
        "nested-list",
        "emphasis",
        "indented-lists",
        "ticks",
        "comments",
    ],
)
def test_pathological_documents(text: str) -> None:
    _total(text)
    # inside the Review Body, where inline parsing runs for the consistency check
    body = PHASE2.replace("## Editorial Decision", text + "\n\n## Editorial Decision")
    report = lint_phase2(body, CONTRACT, PHASE1)
    assert isinstance(report, LintReport)


def test_oversize_line_is_refused() -> None:
    line = "a" * (2 * 1024 * 1024)
    with pytest.raises(KernelError, match="limit"):
        lint_phase1(line, CONTRACT)
    with pytest.raises(KernelError, match="limit"):
        lint_phase2(PHASE2, CONTRACT, line)
    just_under = "b" * (MAX_INPUT_BYTES - len(PHASE2.encode()) - 10)
    assert isinstance(lint_phase2(PHASE2 + just_under, CONTRACT), LintReport)


@pytest.mark.parametrize("bad", [None, b"## Review Body", 3, ["x"]])
def test_non_str_input_is_kernel_error(bad: object) -> None:
    with pytest.raises(KernelError):
        lint_phase1(bad, CONTRACT)  # type: ignore[arg-type]
    with pytest.raises(KernelError):
        lint_phase2(PHASE2, CONTRACT, bad if bad is not None else 3)  # type: ignore[arg-type]


def test_contract_sources() -> None:
    assert lint_phase1(PHASE1, "reviewer/full").ok
    assert lint_phase2(PHASE2, CONTRACT.to_dict(), PHASE1).ok
    for bad in (None, 3, {"contract_id": "x"}, "reviewer/nonexistent"):
        with pytest.raises(KernelError):
            lint_phase1(PHASE1, bad)  # type: ignore[arg-type]
