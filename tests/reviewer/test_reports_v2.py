"""Deciding a 13.2 round from its reports: the worked example, panel cardinality, and every
valid round decides as the 13.2 decision on the matrix its reports state."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from support import paths

from kernel import decide, load_contract
from kernel.contract.model import Contract
from kernel.errors import KernelError
from kernel.reviewer.roles import scope_of
from kernel.reviewer.round_v2 import decide_reports_v2
from kernel.testing import RoundV2, contracts, rounds_v2

EXAMPLE = paths.ROOT / "examples" / "full-13.2"
CONTRACT = load_contract(str(EXAMPLE / "contract.json"))
ROLES = ("eic", "methodology", "domain", "perspective", "da")
PHASE1 = {r: (EXAMPLE / f"{r}.phase1.md").read_text() for r in ROLES}
PHASE2 = {r: (EXAMPLE / f"{r}.phase2.md").read_text() for r in ROLES}
SYNTHESIS = (EXAMPLE / "synthesis.md").read_text()


def reports(phase2: dict[str, str] = PHASE2) -> list[tuple[str, str, str | None]]:
    return [(f"{r}.phase2.md", phase2[r], PHASE1[r]) for r in ROLES]


def test_the_worked_round_decides_and_its_synthesis_agrees() -> None:
    outcome = decide_reports_v2(CONTRACT, reports(), synthesis=SYNTHESIS)
    assert outcome.tags == ()
    assert outcome.decision is not None
    assert outcome.decision.action == "editorial_decision=major_revision"
    assert outcome.recomputed is not None
    assert outcome.recomputed.fired == ("F2", "F3", "F4")
    assert outcome.recomputed.critical == ("C1", "C2")
    assert outcome.synthesis is not None and outcome.synthesis.ok
    assert outcome.matrix is not None and outcome.matrix["D6"] == {"da": "block:repairable"}


def test_a_wrong_synthesis_is_named() -> None:
    wrong = SYNTHESIS.replace("editorial_decision=major_revision", "editorial_decision=accept")
    outcome = decide_reports_v2(CONTRACT, reports(), synthesis=wrong)
    assert outcome.synthesis is not None
    assert [f.message for f in outcome.synthesis.findings] == [
        "[PANEL-SYNTHESIS-MISMATCH: decision=editorial_decision=accept, "
        "recomputed=editorial_decision=major_revision] the round's scores give "
        "'editorial_decision=major_revision'",
        "[DA-CRITICAL-VS-ACCEPT-MARKER: expected=1, stated=None] write "
        "'[DA-CRITICAL-VS-ACCEPT: 1 validated/unresolved]' on a line of its own",
    ]


def test_panel_cardinality() -> None:
    four = decide_reports_v2(CONTRACT, reports()[:4])
    assert four.decision is None
    assert four.tags == (
        "[PANEL-CARDINALITY: got=4, panel_size=5]",
        "[PANEL-CARDINALITY: roles ['domain', 'eic', 'methodology', 'perspective'] != "
        "required ['da', 'domain', 'eic', 'methodology', 'perspective']]",
    )
    twice = reports()
    twice[1] = ("eic.phase2.md", *twice[1][1:])
    assert "[PANEL-CARDINALITY: duplicate report paths]" in decide_reports_v2(CONTRACT, twice).tags
    copied = reports()
    copied[4] = ("copy.md", PHASE2["eic"].replace("\n", "\r\n"), PHASE1["eic"])
    tags = decide_reports_v2(CONTRACT, copied).tags
    assert "[PANEL-CARDINALITY: byte-identical report contents (copy.md)]" in tags


def test_an_unusable_report_aborts_the_round_with_its_tag() -> None:
    broken = {**PHASE2, "domain": PHASE2["domain"] + "\neditorial_decision=accept\n"}
    outcome = decide_reports_v2(CONTRACT, reports(broken))
    assert outcome.decision is None
    assert outcome.tags == (
        "[V1-GRAMMAR-RETIRED: domain.phase2.md: bare editorial_decision line is forbidden "
        "under Schema 13.2]",
    )


def test_an_unassessed_dimension_aborts() -> None:
    head = "### D1: methodology_rigor\n\nscore: warn\n"
    assert head in PHASE2["methodology"]
    trigger = next(
        line for line in PHASE2["methodology"].splitlines() if line.startswith("trigger:")
    )
    abstained = PHASE2["methodology"].replace(
        head + trigger + "\n",
        "### D1: methodology_rigor\n\nscore: not_assessed\n"
        "abstain_reason: the design section is missing from the manuscript\n",
    )
    outcome = decide_reports_v2(CONTRACT, reports({**PHASE2, "methodology": abstained}))
    assert outcome.decision is None
    assert outcome.tags == ("[DIMENSION-UNASSESSED: D1]",)


@given(rounds_v2(CONTRACT))
def test_every_valid_round_decides_as_the_13_2_decision(round_: RoundV2) -> None:
    entries = [(f"{r}.md", round_.phase2[r], round_.phase1[r]) for r in ROLES]
    outcome = decide_reports_v2(CONTRACT, entries)
    assert outcome.tags == ()
    assert outcome.matrix == round_.matrix
    matrix: dict[str, Any] = {d: dict(v) for d, v in round_.matrix.items()}
    assert outcome.decision == decide(CONTRACT, matrix)
    assert outcome.recomputed is not None
    assert outcome.recomputed.critical == tuple(f"C{i}" for i in range(1, round_.critical + 1))


def test_the_scope_of_the_shipped_13_2_template() -> None:
    scope = scope_of(load_contract("13.2/reviewer/full"))
    assert scope.roles == ROLES
    assert [d.id for d in scope.eligible("da")] == ["D6"]


@pytest.mark.parametrize("bad", [None, "text", [("a", "b")], [("a", 1, None)]])
def test_malformed_report_lists_are_refused(bad: object) -> None:
    with pytest.raises(Exception, match="reports"):
        decide_reports_v2(CONTRACT, bad)  # type: ignore[arg-type]


@given(
    contracts(dialect="13.2").flatmap(
        lambda c: rounds_v2(load_contract(c)).map(lambda r: (load_contract(c), r))
    )
)
def test_rounds_of_any_13_2_contract_lint_clean_and_decide(
    pair: tuple[Contract, RoundV2],
) -> None:
    contract, round_ = pair
    entries = [(f"{r}.md", round_.phase2[r], round_.phase1[r]) for r in contract.roles]
    outcome = decide_reports_v2(contract, entries)
    assert [f.message for s in outcome.seats for f in s.report.findings] == []
    assert outcome.tags == ()
    matrix: dict[str, Any] = {d: dict(v) for d, v in round_.matrix.items()}
    assert outcome.decision == decide(contract, matrix)


def test_decide_documents_decides_a_13_2_round_with_seats_keyed_by_role() -> None:
    """Regression: decide_documents refused every 13.2 contract (one door per job)."""
    from kernel import decide_documents

    seats = [(r, PHASE2[r], PHASE1[r]) for r in ROLES]
    outcome = decide_documents(CONTRACT, seats)
    assert outcome.decision == decide_reports_v2(CONTRACT, reports()).decision
    assert not outcome.aborted and outcome.tags == ()
    assert [role for role, _ in outcome.reviewers] == list(ROLES)
    assert all(report.ok and report.role == role for role, report in outcome.reviewers)
    # the same matrix decides again, and the order of the seats does not matter
    assert outcome.matrix is not None
    assert decide(CONTRACT, outcome.matrix) == outcome.decision
    backwards = decide_documents(CONTRACT, list(reversed(seats)))
    assert backwards.decision is not None
    assert backwards.decision.action == outcome.decision.action


def test_decide_documents_binds_each_13_2_report_to_the_seat_it_was_given_for() -> None:
    from kernel import decide_documents

    swapped = [
        ("eic", PHASE2["methodology"], PHASE1["methodology"]),
        ("methodology", PHASE2["eic"], PHASE1["eic"]),
        *[(r, PHASE2[r], PHASE1[r]) for r in ROLES[2:]],
    ]
    outcome = decide_documents(CONTRACT, swapped)
    assert outcome.aborted
    assert any(t.startswith("[ROLE-BINDING: report[0] declares methodology") for t in outcome.tags)
    short = decide_documents(CONTRACT, [(r, PHASE2[r], PHASE1[r]) for r in ROLES[:4]])
    assert short.aborted
    assert "[PANEL-CARDINALITY: got=4, panel_size=5]" in short.tags
    endless = ((r, PHASE2["eic"], None) for r in iter(lambda: "eic", None))
    assert decide_documents(CONTRACT, endless).aborted  # at most panel_size + 1 are read


def test_seats_keep_their_names_and_a_single_dissent_is_not_multi() -> None:
    dissent = "## Scoring Plan Dissent\n\ndimension_id: D4\nrationale: the plan missed a case\n\n"
    eic = PHASE2["eic"].replace("## Dimension Scores", dissent + "## Dimension Scores")
    outcome = decide_reports_v2(CONTRACT, reports({**PHASE2, "eic": eic}))
    assert [s.name for s in outcome.seats] == [f"{r}.phase2.md" for r in ROLES]
    assert [s.role for s in outcome.seats] == list(ROLES)
    assert [s.report.multi_dissent for s in outcome.seats] == [False] * 5
    assert [s.report.dissent for s in outcome.seats] == [("D4",), (), (), (), ()]
    assert [s.report.role for s in outcome.seats] == list(ROLES)
    assert outcome.seats[0].report.to_dict()["dissent"] == ["D4"]
    assert outcome.decision is not None


def test_reports_without_their_phase1_are_read() -> None:
    outcome = decide_reports_v2(CONTRACT, [(f"{r}.md", PHASE2[r], None) for r in ROLES])
    assert outcome.decision is not None
    assert [s.report.consistency_checked for s in outcome.seats] == [False] * 5
    with pytest.raises(KernelError, match=r"reports\[0\] must be"):
        decide_reports_v2(CONTRACT, [(5, PHASE2["eic"], PHASE1["eic"])])  # type: ignore[list-item]


@pytest.mark.parametrize("zeros", [0, 5000])
def test_a_marker_count_too_long_to_read_is_an_input_error(zeros: int) -> None:
    from kernel.errors import InputError

    marker = "[DA-CRITICAL-VS-ACCEPT: " + "0" * zeros + "7" * 5000 + " validated/unresolved]"
    with pytest.raises(InputError, match=r"synthesis.md:\d+: .* 5000 digits"):
        decide_reports_v2(
            CONTRACT,
            reports(),
            synthesis=SYNTHESIS + marker + "\n",
            synthesis_source="synthesis.md",
        )
    # leading zeros are not digits of the count (`02` is 2)
    padded = "[DA-CRITICAL-VS-ACCEPT: " + "0" * zeros + "1 validated/unresolved]"
    outcome = decide_reports_v2(CONTRACT, reports(), synthesis=SYNTHESIS + padded + "\n")
    assert outcome.synthesis is not None
    assert [f.tag for f in outcome.synthesis.findings] == [
        "[DA-CRITICAL-VS-ACCEPT-MARKER: marker forbidden in this state]"
    ]


def test_a_13_2_lint_report_carries_its_role() -> None:
    from kernel import lint_phase1, lint_phase2

    p1 = lint_phase1(PHASE1["domain"], CONTRACT, role="domain")
    p2 = lint_phase2(PHASE2["domain"], CONTRACT, PHASE1["domain"], role="domain")
    assert (p1.role, p2.role, p2.dissent) == ("domain", "domain", ())
    assert p1.to_dict()["role"] == "domain" and "dissent" not in p1.to_dict()
    # read from the report when no seat is given
    assert lint_phase2(PHASE2["da"], CONTRACT).role == "da"
    # Schema 13 reports have neither
    thirteen = lint_phase2("## x\n", "reviewer/full")
    assert (thirteen.role, thirteen.dissent) == (None, ())
    assert "role" not in thirteen.to_dict() and "dissent" not in thirteen.to_dict()


def test_decide_documents_checks_a_written_synthesis_in_either_dialect() -> None:
    from kernel import decide_documents

    seats = [(r, PHASE2[r], PHASE1[r]) for r in ROLES]
    assert decide_documents(CONTRACT, seats).synthesis is None
    agreed = decide_documents(CONTRACT, seats, synthesis=SYNTHESIS)
    assert agreed.synthesis is not None and agreed.synthesis.ok
    wrong = SYNTHESIS.replace("[F2, F3, F4]", "[F2, F3]")
    found = decide_documents(CONTRACT, seats, synthesis=wrong).synthesis
    assert found is not None and not found.ok
    thirteen = paths.ROOT / "examples" / "full"
    panel = [
        (r, (thirteen / f"{r}.phase2.md").read_text(), (thirteen / f"{r}.phase1.md").read_text())
        for r in ROLES
    ]
    text = (thirteen / "synthesis.md").read_text()
    outcome = decide_documents("reviewer/full", panel, synthesis=text)
    assert outcome.synthesis is not None and outcome.synthesis.ok
    assert outcome.to_dict()["synthesis"]["ok"] is True
    assert decide_documents("reviewer/full", panel[:4], synthesis=text).synthesis is None
    with pytest.raises(KernelError, match="synthesis must be a str"):
        decide_documents("reviewer/full", panel, synthesis=b"x")  # type: ignore[arg-type]
