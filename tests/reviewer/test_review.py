"""decide_documents: N reviewers' markdown → lint → matrix → decision, or abort tags."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support.lint_strategies import contracts, plans, score_maps

from kernel.contract.model import load_contract
from kernel.decision.decision import decide
from kernel.errors import KernelError
from kernel.reviewer import review
from kernel.reviewer.render import render_phase1, render_phase2
from kernel.reviewer.review import text_lines


def decide_documents(contract: Any, reviewers: Any, **options: Any) -> review.PanelOutcome:
    """``kernel.review.decide_documents`` on Schema 13 documents: a ``PanelOutcome``."""
    outcome = review.decide_documents(contract, reviewers, **options)
    assert isinstance(outcome, review.PanelOutcome)
    return outcome


FULL = load_contract("reviewer/full")
ROLES = ("eic", "methodology", "domain", "perspective", "da")
CID = FULL.contract_id


def _signed(phase2: str, role: str) -> str:
    """The report with a sentence of its own, so that equal scores are not a copy (R16)."""
    return phase2.replace("## Review Body\n\n", f"## Review Body\n\nReviewed by {role}.\n\n", 1)


def _panel(scores: list[dict[str, str]]) -> list[tuple[str, str, str | None]]:
    p1 = render_phase1(FULL)
    return [(r, _signed(render_phase2(FULL, s), r), p1) for r, s in zip(ROLES, scores, strict=True)]


def _column(**kw: str) -> dict[str, str]:
    return dict.fromkeys(FULL.dimension_ids, "pass") | kw


@settings(max_examples=25)
@given(st.data())
def test_usable_panel_decides_like_decide(data: st.DataObject) -> None:
    contract = data.draw(contracts())
    plan = data.draw(plans(contract))
    columns = [data.draw(score_maps(contract)) for _ in range(contract.panel_size)]
    p1 = render_phase1(contract, plan)
    try:
        docs = [
            (f"r{i}", _signed(render_phase2(contract, s, plan=plan), f"r{i}"), p1)
            for i, s in enumerate(columns)
        ]
        expected = decide(contract, {d: [c[d] for c in columns] for d in contract.dimension_ids})
    except KernelError:
        assume(False)
        raise
    outcome = decide_documents(contract, docs)
    assert outcome.tags == ()
    assert outcome.decision == expected
    assert outcome.matrix == {d: [c[d] for c in columns] for d in contract.dimension_ids}
    assert [r for r, _ in outcome.reviewers] == [d[0] for d in docs]
    assert all(rep.ok for _, rep in outcome.reviewers)


def test_full_panel_text_and_json() -> None:
    outcome = decide_documents("reviewer/full", _panel([_column(D1="block")] + [_column()] * 4))
    assert outcome.decision is not None
    assert outcome.decision.action == "editorial_decision=reject_or_major_revision"
    as_dict = outcome.to_dict()
    assert as_dict["action"] == outcome.decision.action and as_dict["tags"] == []
    assert len(as_dict["reviewers"]) == 5
    lines = text_lines(outcome, {})
    assert lines[0].startswith("editorial_decision=reject_or_major_revision (decided by F1)")


def test_one_unusable_reviewer_shrinks_the_panel() -> None:
    docs = _panel([_column()] * 5)
    role, p2, p1 = docs[2]
    docs[2] = (role, p2.replace("score: pass", "score: fine", 1), p1)
    outcome = decide_documents(FULL, docs)
    assert outcome.decision is None and outcome.matrix is None
    assert outcome.tags == (
        f"[PROTOCOL-VIOLATION: reviewer=domain, contract={CID}, "
        "phase2_lint_failed=dimension_scores]",
        "[PANEL-SHRUNK: usable=4, panel_size=5]",
    )
    as_dict = outcome.to_dict()
    assert as_dict["action"] is None and as_dict["tags"] == list(outcome.tags)
    lines = text_lines(outcome, {"domain": ("domain.md", "domain.p1.md")})
    assert any(line.startswith("domain.md:") and "P2-014" in line for line in lines)


def test_phase1_failure_is_phase1_tag() -> None:
    docs = _panel([_column()] * 5)
    role, p2, p1 = docs[0]
    docs[0] = (role, p2, (p1 or "").replace("[CONTRACT-ACKNOWLEDGED]", ""))
    outcome = decide_documents(FULL, docs)
    assert outcome.tags[0] == (
        f"[PROTOCOL-VIOLATION: reviewer=eic, contract={CID}, phase1_lint_failed=true]"
    )
    assert outcome.tags[-1] == "[PANEL-SHRUNK: usable=4, panel_size=5]"
    assert outcome.reviewers[0][1].phase == 1


def test_multi_dissent_offline_is_unusable() -> None:
    docs = _panel([_column()] * 5)
    docs[4] = ("da", render_phase2(FULL, _column(), dissent={"D1": "a", "D2": "b"}), docs[4][2])
    outcome = decide_documents(FULL, docs)
    assert outcome.tags == (
        f"[PROTOCOL-VIOLATION: reviewer=da, contract={CID}, multi_dissent=true]",
        "[PANEL-SHRUNK: usable=4, panel_size=5]",
    )
    assert outcome.decision is None


def test_fewer_documents_than_panel() -> None:
    outcome = decide_documents(FULL, _panel([_column()] * 5)[:3])
    assert outcome.tags == ("[PANEL-SHRUNK: usable=3, panel_size=5]",)
    assert outcome.decision is None


def test_too_many_or_repeated_reviewers() -> None:
    docs = _panel([_column()] * 5)
    with pytest.raises(KernelError):
        decide_documents(FULL, [*docs, ("extra", docs[0][1], docs[0][2])])
    with pytest.raises(KernelError):
        decide_documents(FULL, [docs[0], docs[0]])


def test_missing_phase1_skips_consistency_but_decides() -> None:
    docs = [(r, p2, None) for r, p2, _ in _panel([_column(D2="warn")] * 5)]
    outcome = decide_documents(FULL, docs)
    assert outcome.decision is not None
    assert all(rep.findings[0].code == "P2-043" for _, rep in outcome.reviewers)


CORRUPTIONS = {
    "phase1": lambda p2, p1: (p2, p1.replace("## Scoring Plan", "## Scoring plan")),
    "phase2": lambda p2, p1: (p2.replace("fired: ", "fired:  maybe ", 1), p1),
    "multi": lambda p2, p1: ("## Scoring Plan Dissent\n\n- dimension_id: D1, D2\n\n" + p2, p1),
}


@settings(max_examples=30)
@given(
    st.lists(st.sampled_from(("ok", "phase1", "phase2", "multi")), min_size=5, max_size=5),
    st.lists(score_maps(FULL), min_size=5, max_size=5),
)
def test_no_decision_on_a_shrunk_panel(kinds: list[str], columns: list[dict[str, str]]) -> None:
    p1 = render_phase1(FULL)
    docs: list[tuple[str, str, str | None]] = []
    for role, kind, column in zip(ROLES, kinds, columns, strict=True):
        p2 = _signed(render_phase2(FULL, column), role)
        if kind != "ok":
            p2, phase1 = CORRUPTIONS[kind](p2, p1)
        else:
            phase1 = p1
        docs.append((role, p2, phase1))
    outcome = decide_documents(FULL, docs)
    bad = [(r, k) for r, k in zip(ROLES, kinds, strict=True) if k != "ok"]
    if bad:
        assert outcome.decision is None and outcome.matrix is None
        detail = {
            "phase1": "phase1_lint_failed=true",
            "phase2": "phase2_lint_failed=failure_condition_checks",
            "multi": "multi_dissent=true",
        }
        assert outcome.tags == (
            *(f"[PROTOCOL-VIOLATION: reviewer={r}, contract={CID}, {detail[k]}]" for r, k in bad),
            f"[PANEL-SHRUNK: usable={5 - len(bad)}, panel_size=5]",
        )
    else:
        assert outcome.tags == ()
        assert outcome.decision == decide(
            FULL, {d: [c[d] for c in columns] for d in FULL.dimension_ids}
        )


# --- R16: duplicate reports -------------------------------------------------------------------


def _dup_tag(role: str) -> str:
    return (
        f"[PROTOCOL-VIOLATION: reviewer={role}, contract={CID}, "
        "phase2_lint_failed=duplicate_report]"
    )


def test_a_copied_report_is_unusable_and_shrinks_the_panel() -> None:
    docs = _panel([_column(D1="warn")] + [_column()] * 4)
    docs[3] = (docs[3][0], docs[1][1], docs[3][2])
    outcome = decide_documents(FULL, docs)
    assert outcome.decision is None and outcome.matrix is None
    assert outcome.tags == (_dup_tag("perspective"), "[PANEL-SHRUNK: usable=4, panel_size=5]")
    assert outcome.details[1].state.usable and not outcome.details[3].state.usable
    assert outcome.to_dict()["reviewers"][3]["tag"] == _dup_tag("perspective")


def test_copies_differing_only_in_line_endings_and_trailing_space_are_duplicates() -> None:
    docs = _panel([_column()] * 5)
    original = docs[0][1]
    crlf = original.replace("\n", "\r\n")
    cr_spaces = original.replace("\n", " \t\r")
    docs[2] = (docs[2][0], crlf, docs[2][2])
    docs[4] = (docs[4][0], cr_spaces, docs[4][2])
    outcome = decide_documents(FULL, docs)
    assert [r.state.usable for r in outcome.details] == [True, True, False, True, False]
    assert outcome.tags == (
        _dup_tag("domain"),
        _dup_tag("da"),
        "[PANEL-SHRUNK: usable=3, panel_size=5]",
    )


def test_a_different_blank_line_or_indent_is_not_a_copy() -> None:
    docs = _panel([_column()] * 5)
    docs[2] = (docs[2][0], docs[0][1] + "\n", docs[2][2])
    outcome = decide_documents(FULL, docs)
    assert outcome.tags == ()
    assert outcome.decision is not None


def test_a_copy_of_an_unusable_report_is_not_a_duplicate() -> None:
    docs = _panel([_column()] * 5)
    p1 = docs[0][2] or ""
    # The first copy fails Phase 1; the second, with a good Phase 1, is the only usable one.
    docs[0] = (docs[0][0], docs[0][1], p1.replace("[CONTRACT-ACKNOWLEDGED]", ""))
    docs[1] = (docs[1][0], docs[0][1], docs[1][2])
    outcome = decide_documents(FULL, docs)
    assert outcome.tags == (
        f"[PROTOCOL-VIOLATION: reviewer=eic, contract={CID}, phase1_lint_failed=true]",
        "[PANEL-SHRUNK: usable=4, panel_size=5]",
    )
    assert outcome.details[1].state.usable


@settings(max_examples=30)
@given(
    st.lists(st.integers(0, 4), min_size=5, max_size=5),
    st.lists(st.sampled_from(("", "\r\n", "  ")), min_size=5, max_size=5),
)
def test_every_later_copy_is_tagged_in_reviewer_order(
    sources: list[int], endings: list[str]
) -> None:
    """Reviewer i submits the report of reviewer sources[i] (with CRLF or trailing spaces);
    only the first of each group of copies stays usable."""
    originals = [_signed(render_phase2(FULL, _column()), role) for role in ROLES]
    p1 = render_phase1(FULL)
    docs: list[tuple[str, str, str | None]] = []
    for role, source, ending in zip(ROLES, sources, endings, strict=True):
        text = originals[source]
        if ending:
            text = text.replace("\n", ending + "\n" if ending == "  " else ending)
        docs.append((role, text, p1))
    outcome = decide_documents(FULL, docs)
    copies = [r for i, r in enumerate(ROLES) if sources[i] in sources[:i]]
    if copies:
        assert outcome.decision is None
        assert outcome.tags == (
            *(_dup_tag(r) for r in copies),
            f"[PANEL-SHRUNK: usable={5 - len(copies)}, panel_size=5]",
        )
    else:
        assert outcome.tags == () and outcome.decision is not None


def test_aborted_and_the_reviewers_phase1_in_the_dict() -> None:
    decided = decide_documents(FULL, _panel([_column()] * 5))
    assert not decided.aborted
    docs = _panel([_column()] * 5)
    role, p2, p1 = docs[2]
    docs[2] = (role, p2.replace("score: pass", "score: fine", 1), p1)
    assert decide_documents(FULL, docs).aborted
    first = decided.details[0].to_dict()
    assert first["phase1"] == decided.details[0].phase1.to_dict()  # type: ignore[union-attr]
    assert first["phase2"] == decided.details[0].phase2.to_dict()  # type: ignore[union-attr]
