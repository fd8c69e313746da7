"""kernel.round runs a 13.2 round end to end: seats are the mode's roles, documents are
linted for their role, the matrix is dimension -> role -> value, and the events validate."""

from __future__ import annotations

from typing import Any

import pytest
from support import paths

from kernel import decide, load_contract
from kernel.errors import KernelError
from kernel.round import finish, from_jsonl, start, submit, to_jsonl

EXAMPLE = paths.ROOT / "examples" / "full-13.2"
CONTRACT = load_contract(str(EXAMPLE / "contract.json"))
ROLES = ("eic", "methodology", "domain", "perspective", "da")


def test_a_13_2_round_end_to_end() -> None:
    state = start(CONTRACT, ROLES)
    for role in ROLES:
        state, step = submit(state, role, 1, (EXAMPLE / f"{role}.phase1.md").read_text())
        assert step.next == "phase2", step.report.findings
    for role in ROLES:
        state, step = submit(state, role, 2, (EXAMPLE / f"{role}.phase2.md").read_text())
        assert step.next == "done", step.report.findings
    outcome = finish(state)
    assert outcome.decision is not None
    assert outcome.matrix is not None
    matrix: dict[str, Any] = {d: dict(v) for d, v in outcome.matrix.items()}
    assert outcome.decision == decide(CONTRACT, matrix)
    assert outcome.decision.action == "editorial_decision=major_revision"
    events = from_jsonl(to_jsonl(outcome.events))
    assert events[0]["dialect"] == "13.2"
    assert events[-1]["matrix"]["D6"] == {"da": "block:repairable"}


def test_a_seat_with_another_role_is_dropped() -> None:
    state = start(CONTRACT, ROLES)
    state, _ = submit(state, "eic", 1, (EXAMPLE / "eic.phase1.md").read_text())
    state, step = submit(state, "eic", 2, (EXAMPLE / "da.phase2.md").read_text())
    assert step.next == "dropped"
    assert step.tags == (
        "[PROTOCOL-VIOLATION: reviewer=eic, contract=reviewer/reviewer_full/v2, "
        "phase2_lint_failed=report]",
    )


def test_the_seats_are_the_mode_s_roles() -> None:
    with pytest.raises(KernelError) as info:
        start(CONTRACT, ("eic", "methodology", "domain", "perspective", "chair"))
    assert info.value.tag is not None and info.value.tag.startswith("[PANEL-CARDINALITY: roles")
    # the tag is on .tag only (a command line prints it once); the message says what is wrong
    assert info.value.tag not in info.value.message
    assert "chair" in info.value.message and "reviewer_full" in info.value.message


def test_a_13_2_multi_dissent_restarts_the_seat_from_phase1() -> None:
    dissent = (
        "## Scoring Plan Dissent\n\n"
        "dimension_id: D3\nrationale: a\ndimension_id: D4\nrationale: b\n\n"
    )
    report = (
        (EXAMPLE / "eic.phase2.md")
        .read_text()
        .replace("## Dimension Scores", dissent + "## Dimension Scores")
    )
    state = start(CONTRACT, ROLES)
    state, _ = submit(state, "eic", 1, (EXAMPLE / "eic.phase1.md").read_text())
    state, step = submit(state, "eic", 2, report)
    assert step.next == "restart_phase1"
    assert state.next_phase("eic") == 1


def test_an_unassessed_dimension_aborts_the_fold_as_it_aborts_decide_documents() -> None:
    """Regression (issue 30): finish raised MatrixError where decide_documents and
    decide_reports_v2 return an aborted outcome tagged [DIMENSION-UNASSESSED: D1]."""
    from kernel import decide_documents

    texts = {r: (EXAMPLE / f"{r}.phase2.md").read_text() for r in ROLES}
    head = "### D1: methodology_rigor\n\nscore: warn\n"
    trigger = next(x for x in texts["methodology"].splitlines() if x.startswith("trigger:"))
    texts["methodology"] = texts["methodology"].replace(
        head + trigger + "\n",
        "### D1: methodology_rigor\n\nscore: not_assessed\n"
        "abstain_reason: the design section is missing from the manuscript\n",
    )
    phase1 = {r: (EXAMPLE / f"{r}.phase1.md").read_text() for r in ROLES}
    state = start(CONTRACT, ROLES)
    for role in ROLES:
        state, _ = submit(state, role, 1, phase1[role])
        state, step = submit(state, role, 2, texts[role])
        assert step.next == "done", step.report.findings
    outcome = finish(state)
    documents = decide_documents(CONTRACT, [(r, texts[r], phase1[r]) for r in ROLES])
    assert outcome.aborted and documents.aborted
    assert outcome.tags == documents.tags == ("[DIMENSION-UNASSESSED: D1]",)
    last = from_jsonl(to_jsonl(outcome.events))[-1]
    assert last["event"] == "finish"
    assert last["decision"] is None and last["tags"] == ["[DIMENSION-UNASSESSED: D1]"]
    assert last["matrix"]["D1"] == {"methodology": "not_assessed"}
