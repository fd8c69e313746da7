"""Whole 13.2 rounds under each ARS reading: a generated round rendered for a reading passes
under it, with a synthesis written as its recomputation says; under ``main`` the synthesis
may fence or code its audit lines. A fork-era methodology card (no receipts) fails under
``main`` only."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from support import paths

from kernel import load_contract
from kernel.reviewer.lint.dialects import lint_phase1, lint_phase2
from kernel.reviewer.review import decide_documents
from kernel.reviewer.round_v2 import RoundV2Outcome
from kernel.testing import RoundV2, rounds_v2

CONTRACT = load_contract(str(paths.ROOT / "examples" / "full-13.2" / "contract.json"))


def synthesis(outcome: RoundV2Outcome, critical: int, shape: str) -> str:
    """The synthesis the recomputation calls for, its audit lines shown as ``shape``."""
    assert outcome.recomputed is not None
    r = outcome.recomputed
    states = {f"C{i}": ("REJECTED" if i % 2 == 0 else "VALIDATED") for i in range(1, critical + 1)}
    verdicts = ", ".join(f"{d}={v}" for d, v in r.verdicts.items())
    audit = [
        f"fired_conditions: [{', '.join(r.fired)}]",
        f"dimension_verdicts: [{verdicts}]",
        f"da_critical_adjudications: [{', '.join(f'{c}={s}' for c, s in states.items())}]",
        r.action,
    ]
    shown = {
        "plain": "\n".join(audit),
        "fence": "```text\n" + "\n".join(audit) + "\n```",
        "spans": "\n\n".join(f"`{line}`" for line in audit),
    }[shape]
    rationales = [f"{c} rejection rationale: the report answers it." for c, s in states.items()
                  if s == "REJECTED"]
    open_issues = sum(1 for s in states.values() if s == "VALIDATED")
    marker = (
        [f"[DA-CRITICAL-VS-ACCEPT: {open_issues} validated/unresolved]"]
        if r.action == "editorial_decision=accept" and open_issues
        else []
    )
    return "\n\n".join(["# Synthesis", "The panel reported.", shown, *rationales, *marker]) + "\n"


def _round(round_: RoundV2, ars: str, text: str | None = None) -> RoundV2Outcome:
    seats = [(r, round_.phase2[r], round_.phase1[r]) for r in round_.scope.roles]
    outcome = decide_documents(CONTRACT, seats, synthesis=text, ars=ars)
    assert isinstance(outcome, RoundV2Outcome)
    return outcome


@given(st.sampled_from(["main", "fork"]).flatmap(lambda a: rounds_v2(CONTRACT, ars=a)))
def test_a_round_rendered_for_a_reading_passes_under_it(round_: RoundV2) -> None:
    ars = round_.ars
    for role in round_.scope.roles:
        assert lint_phase1(round_.phase1[role], CONTRACT, role=role, ars=ars).ok
        report = lint_phase2(round_.phase2[role], CONTRACT, round_.phase1[role], role=role, ars=ars)
        assert report.errors == (), report.errors
    outcome = _round(round_, ars)
    assert outcome.decision is not None, outcome.tags
    assert outcome.ars == ars
    shapes = ["plain", "fence", "spans"] if ars == "main" else ["plain"]
    for shape in shapes:
        checked = _round(round_, ars, synthesis(outcome, round_.critical, shape)).synthesis
        assert checked is not None and checked.ok, (shape, checked)


@given(rounds_v2(CONTRACT, ars="fork"))
def test_a_fork_round_fails_main_only_by_its_methodology_card(round_: RoundV2) -> None:
    outcome = _round(round_, "main")
    assert outcome.decision is None
    unusable = [s for s in outcome.seats if not s.report.ok]
    assert [s.name for s in unusable] == ["methodology"]
    assert unusable[0].report.errors[0].code == "P2-141"  # RECEIPT-MISSING
