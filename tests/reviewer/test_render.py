"""Renderers: documents the lints accept, and refusal of values that would not survive."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.contract.model import load_contract
from kernel.errors import KernelError
from kernel.reviewer.lint import lint_phase1, lint_phase2
from kernel.reviewer.render import default_plan, expected_decision, render_phase1, render_phase2

FULL = load_contract("reviewer/full")
PASS = dict.fromkeys(FULL.dimension_ids, "pass")


@pytest.mark.parametrize("name", ["reviewer/full", "reviewer/methodology_focus"])
def test_defaults_lint_clean(name: str) -> None:
    contract = load_contract(name)
    p1 = render_phase1(contract)
    assert lint_phase1(p1, contract).findings == ()
    scores = dict.fromkeys(contract.dimension_ids, "warn")
    report = lint_phase2(render_phase2(contract, scores), contract, p1)
    assert report.findings == ()
    assert set(default_plan(contract)) == set(contract.dimension_ids)


@pytest.mark.parametrize(
    "value", ["", "two\nlines", "cr\rhere", " leading", "trailing\t", "nul\x00"]
)
def test_bad_values(value: str) -> None:
    plan = default_plan(FULL)
    plan["D1"]["what_to_look_for"] = value
    with pytest.raises(KernelError):
        render_phase1(FULL, plan)
    with pytest.raises(KernelError):
        render_phase1(FULL, paraphrase={"D1": value})
    with pytest.raises(KernelError):
        render_phase2(FULL, PASS, dissent={"D1": value})


@pytest.mark.parametrize(
    "body",
    [
        "```\nunclosed fence",
        "## Editorial Decision",
        "# Title",
        "Setext\n---",
        "<!-- open comment",
        "   \n\n",
    ],
)
def test_body_that_breaks_structure(body: str) -> None:
    with pytest.raises(KernelError):
        render_phase2(FULL, PASS, body=body)


@given(st.text(alphabet=st.sampled_from("ab #`~-*>\n<!"), max_size=30))
def test_any_accepted_body_keeps_the_structure(body: str) -> None:
    try:
        text = render_phase2(FULL, PASS, body=body)
    except KernelError:
        return
    report = lint_phase2(text, FULL)
    assert {f.check for f in report.errors} == set(), report.findings
    assert dict(report.scores or {}) == PASS


def test_bad_inputs() -> None:
    plan = default_plan(FULL)
    del plan["D2"]["what_triggers_warn"]
    with pytest.raises(KernelError, match="what_triggers_warn"):
        render_phase1(FULL, plan)
    bad_key = default_plan(FULL)
    bad_key["D1"]["bad key"] = "x"
    with pytest.raises(KernelError):
        render_phase1(FULL, bad_key)
    with pytest.raises(KernelError):
        render_phase2(FULL, {"D1": "pass"})
    with pytest.raises(KernelError):
        render_phase2(FULL, PASS | {"D1": "fine"})
    with pytest.raises(KernelError):
        render_phase2(FULL, PASS, fired={"F1": True})


def test_expected_decision_fallback() -> None:
    assert expected_decision(FULL, dict.fromkeys(("F1", "F2", "F3", "F0"), False)) == (
        "editorial_decision=accept"
    )
    assert expected_decision(FULL, {"F1": True, "F2": True, "F3": True, "F0": True}) == (
        "editorial_decision=reject_or_major_revision"
    )


def test_render_phase2_refuses_fired_flags_that_are_not_booleans() -> None:
    fired = dict.fromkeys(("F1", "F2", "F3", "F0"), False) | {"F0": "yes"}
    accept = "editorial_decision=accept"
    with pytest.raises(KernelError) as info:
        render_phase2(FULL, PASS, fired=fired, decision=accept)  # type: ignore[arg-type]
    assert info.value.message == "every fired flag must be True or False"
    with pytest.raises(KernelError) as info:
        render_phase2(FULL, PASS, fired={"F1": True}, decision=accept)
    assert info.value.message == "fired must give exactly the contract's condition ids"
