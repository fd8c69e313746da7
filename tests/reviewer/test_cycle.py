"""The reviewer cycle state machine: every path terminates within the seed's call bounds,
no reviewer is dropped without a tag, and a shrunk panel always carries PANEL-SHRUNK."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.errors import KernelError
from kernel.reviewer.cycle import (
    MAX_CALLS,
    ReviewerState,
    exhaust,
    panel_tags,
    protocol_violation_tag,
    retry_hint,
    start,
    step,
)
from kernel.reviewer.lint.report import Finding, LintReport

CID = "reviewer/reviewer_full/v1"

P1_OK = LintReport(1, ())
P1_FAIL = LintReport(1, (Finding("P1-008", "no subsection '### D3: x'", 9, "scoring_plan"),))
P2_OK = LintReport(2, ())
P2_MULTI = LintReport(2, (Finding("P2-031", "multi-dissent", 1, "dissent"),), multi_dissent=True)
P2_CONSISTENCY = LintReport(2, (Finding("P2-040", "no trigger word", 20, "consistency"),))
P2_MULTI_AND_DECISION = LintReport(
    2,
    (
        Finding("P2-031", "multi-dissent", 1, "dissent"),
        Finding("P2-052", "wrong decision", 40, "editorial_decision"),
    ),
    multi_dissent=True,
)
OUTCOMES = {
    "phase1": (P1_OK, P1_FAIL),
    "phase2": (P2_OK, P2_MULTI, P2_CONSISTENCY, P2_MULTI_AND_DECISION),
}
TAG = re.compile(
    r"\[PROTOCOL-VIOLATION: reviewer=eic, contract=reviewer/reviewer_full/v1, "
    r"(phase1_lint_failed=true|phase2_lint_failed=[a-z_]+|multi_dissent=true)\]"
)


def _all_paths() -> list[tuple[list[LintReport], ReviewerState]]:
    """Every sequence of lint outcomes, explored exhaustively."""
    done: list[tuple[list[LintReport], ReviewerState]] = []
    frontier: list[tuple[list[LintReport], ReviewerState]] = [([], start("eic", CID))]
    while frontier:
        path, state = frontier.pop()
        assert len(path) <= MAX_CALLS
        if state.done:
            done.append((path, state))
            continue
        assert state.next_call is not None
        for report in OUTCOMES[state.next_call]:
            frontier.append(([*path, report], step(state, report)))
    return done


def test_every_path_terminates_within_bounds() -> None:
    paths = _all_paths()
    assert paths
    for path, state in paths:
        phase1 = sum(1 for r in path if r.phase == 1)
        phase2 = sum(1 for r in path if r.phase == 2)
        assert phase1 <= 4 and phase2 <= 2
        assert state.calls == len(path) <= MAX_CALLS
        if state.usable:
            assert state.tag is None
            assert path[-1] is P2_OK
        else:
            assert state.tag is not None and TAG.fullmatch(state.tag), state.tag


def test_phase1_retry_once_then_violation() -> None:
    s = start("eic", CID)
    s = step(s, P1_FAIL)
    assert s.next_call == "phase1" and s.hint is not None and "P1-008" in s.hint
    assert "line 9" in s.hint
    s = step(s, P1_FAIL)
    assert s.done and not s.usable
    assert s.tag == f"[PROTOCOL-VIOLATION: reviewer=eic, contract={CID}, phase1_lint_failed=true]"


def test_phase1_retry_then_success() -> None:
    s = step(step(step(start("eic", CID), P1_FAIL), P1_OK), P2_OK)
    assert s.usable and s.calls == 3


def test_multi_dissent_restarts_once() -> None:
    s = step(step(start("eic", CID), P1_OK), P2_MULTI)
    assert s.next_call == "phase1" and s.round == 2 and s.hint
    s = step(step(s, P1_OK), P2_MULTI)
    assert s.tag == f"[PROTOCOL-VIOLATION: reviewer=eic, contract={CID}, multi_dissent=true]"


def test_multi_dissent_then_usable() -> None:
    s = step(step(step(step(start("eic", CID), P1_OK), P2_MULTI), P1_OK), P2_OK)
    assert s.usable


@pytest.mark.parametrize(
    ("report", "check"),
    [(P2_CONSISTENCY, "consistency"), (P2_MULTI_AND_DECISION, "editorial_decision")],
)
def test_other_phase2_failure_no_retry(report: LintReport, check: str) -> None:
    s = step(step(start("eic", CID), P1_OK), report)
    assert s.done and not s.usable
    assert (
        s.tag == f"[PROTOCOL-VIOLATION: reviewer=eic, contract={CID}, phase2_lint_failed={check}]"
    )


def test_wrong_phase_report_is_error() -> None:
    with pytest.raises(KernelError):
        step(start("eic", CID), P2_OK)
    done = step(step(start("eic", CID), P1_OK), P2_OK)
    with pytest.raises(KernelError):
        step(done, P2_OK)


def test_exhaust_gives_the_pending_tag() -> None:
    retry = step(start("eic", CID), P1_FAIL)
    assert exhaust(retry).tag is not None and "phase1_lint_failed=true" in str(exhaust(retry).tag)
    restart = step(step(start("eic", CID), P1_OK), P2_MULTI)
    assert "multi_dissent=true" in str(exhaust(restart).tag)
    usable = step(step(start("eic", CID), P1_OK), P2_OK)
    assert exhaust(usable) == usable


@pytest.mark.parametrize("role", ["", " eic", "a]b", "a,b", "a=b", "a\nb", "[x"])
def test_roles_that_would_break_a_tag(role: str) -> None:
    with pytest.raises(KernelError):
        start(role, CID)
    with pytest.raises(KernelError):
        protocol_violation_tag(role, CID, "multi_dissent=true")


def test_retry_hint_limits_and_counts() -> None:
    many = LintReport(1, tuple(Finding(f"P1-0{i:02d}", "m", i, "sections") for i in range(15)))
    hint = retry_hint(many, limit=3)
    assert "and 12 more" in hint and hint.count("\n- ") == 4


@given(st.integers(1, 5), st.lists(st.lists(st.integers(0, 3), max_size=8), min_size=1, max_size=5))
def test_panel_tags(panel_size: int, choices: list[list[int]]) -> None:
    states = []
    for i, picks in enumerate(choices[:panel_size]):
        s = start(f"r{i}", CID)
        for pick in picks:
            if s.done:
                break
            options = OUTCOMES[s.next_call or "phase1"]
            s = step(s, options[pick % len(options)])
        states.append(exhaust(s))
    tags = panel_tags(states, panel_size)
    unusable = [s for s in states if not s.usable]
    usable = len(states) - len(unusable)
    assert list(tags[: len(unusable)]) == [s.tag for s in unusable]
    if usable < panel_size:
        assert tags[-1] == f"[PANEL-SHRUNK: usable={usable}, panel_size={panel_size}]"
        assert len(tags) == len(unusable) + 1
    else:
        assert len(tags) == len(unusable) == 0


def test_panel_tags_rejects_unfinished_and_oversize() -> None:
    with pytest.raises(KernelError):
        panel_tags([start("a", CID)], 2)
    done = [step(step(start(r, CID), P1_OK), P2_OK) for r in ("a", "b", "c")]
    with pytest.raises(KernelError):
        panel_tags(done, 2)
    with pytest.raises(KernelError):
        panel_tags([done[0], done[0]], 2)


def test_retry_hint_lists_ten_errors_by_default() -> None:
    many = LintReport(1, tuple(Finding(f"P1-0{i:02d}", "m", i, "sections") for i in range(12)))
    hint = retry_hint(many)
    assert hint.count("\n- ") == 11 and "and 2 more" in hint
    ten = LintReport(1, tuple(Finding(f"P1-0{i:02d}", "m", i, "sections") for i in range(10)))
    assert "more" not in retry_hint(ten) and retry_hint(ten).count("\n- ") == 10
