"""``decide_documents(..., reports=)``: the reports a caller has just linted are used instead of
linting the same documents again, with the same outcome; a report of other text is refused."""

from __future__ import annotations

from typing import Any

import pytest
from support import golden

from kernel import load_contract
from kernel.errors import KernelError
from kernel.reviewer.lint import LintReport, lint_phase1, lint_phase2
from kernel.reviewer.review import decide_documents

ROUNDS = [c for c in golden.cases() if c.kind == "round"][::6]


def _reports(case: golden.Case, contract: Any) -> list[tuple[LintReport, LintReport]]:
    """Each seat linted as the decision lints it (13.2: named as the decision names it)."""
    out = []
    for name, p2, p1 in case.seats:
        assert p1 is not None
        names: dict[str, Any] = (
            {} if case.dialect == "13" else {"source": name, "phase1_source": f"{name} (Phase 1)"}
        )
        out.append(
            (
                lint_phase1(p1, contract, role=None if case.dialect == "13" else name),
                lint_phase2(p2, contract, p1, **names),
            )
        )
    return out


@pytest.mark.parametrize("case", ROUNDS, ids=lambda c: c.id)
def test_given_reports_decide_as_linting_again_does(case: golden.Case) -> None:
    contract = load_contract(golden.DIALECTS[case.dialect][0])
    again = decide_documents(contract, case.seats, synthesis=case.synthesis)
    reports = _reports(case, contract)
    given = decide_documents(contract, case.seats, synthesis=case.synthesis, reports=reports)
    assert given.to_dict() == again.to_dict()
    assert [r for _, r in given.reviewers] == [r for _, r in again.reviewers]
    # Only the Phase 2 reports, or a None for a seat, decide the same way too.
    mixed: list[Any] = [two for _, two in reports]
    mixed[0] = None
    assert (
        decide_documents(contract, case.seats, synthesis=case.synthesis, reports=mixed).to_dict()
        == again.to_dict()
    )


@pytest.mark.parametrize("dialect", ["13", "13.2"])
def test_a_report_of_other_text_is_refused(dialect: str) -> None:
    case = next(c for c in ROUNDS if c.dialect == dialect)
    contract = load_contract(golden.DIALECTS[dialect][0])
    reports: list[Any] = _reports(case, contract)
    swapped = [reports[1], reports[0], *reports[2:]]
    with pytest.raises(KernelError, match=r"reports\[0\]: the Phase 1 report is not"):
        decide_documents(contract, case.seats, reports=swapped)
    # A report against no Phase 1, where the reviewer has one, is another lint.
    alone = lint_phase2(case.seats[0][1], contract)
    with pytest.raises(KernelError, match=r"reports\[0\]: the Phase 2 report is not"):
        decide_documents(contract, case.seats, reports=[alone, *reports[1:]])
    # A report the lints did not make (equal in value) is refused as well.
    made = reports[0][1]
    copy = LintReport(
        made.phase,
        made.findings,
        made.multi_dissent,
        made.scores,
        made.fired,
        made.decision,
        made.consistency_checked,
        made.role,
        made.dissent,
    )
    with pytest.raises(KernelError, match=r"reports\[0\]: the Phase 2 report is not"):
        decide_documents(contract, case.seats, reports=[copy, *reports[1:]])
    # A smaller work bound is another lint.
    with pytest.raises(KernelError, match=r"reports\[0\]"):
        decide_documents(contract, case.seats, reports=reports, max_bytes=500_000)


@pytest.mark.parametrize(
    ("reports", "message"),
    [
        ("abc", "reports must be a list"),
        ([None], "1 items for 5 reviewers"),
        ([1, None, None, None, None], r"reports\[0\] must be a LintReport"),
        ([(None, None, None)] * 5, r"reports\[0\] must be a LintReport"),
    ],
)
def test_bad_reports_are_refused(reports: Any, message: str) -> None:
    case = ROUNDS[0]
    contract = load_contract(golden.DIALECTS[case.dialect][0])
    with pytest.raises(KernelError, match=message):
        decide_documents(contract, case.seats, reports=reports)
