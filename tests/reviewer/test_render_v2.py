"""render_phase1/render_phase2 under 13.2: a seat's documents, which lint clean for its role."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel import lint_phase1, lint_phase2, load_contract, render_phase1, render_phase2
from kernel.contract.model import Contract
from kernel.errors import KernelError
from kernel.reviewer.roles import scope_of
from kernel.testing import contracts


@st.composite
def seats(draw: st.DrawFn) -> tuple[Contract, str, dict[str, str]]:
    contract = load_contract(draw(contracts(dialect="13.2")))
    role = draw(st.sampled_from(contract.roles))
    values = {}
    for d in scope_of(contract).eligible(role):
        blocks = ["block:fatal", "block:repairable"] if d.priority == "mandatory" else ["block"]
        values[d.id] = draw(st.sampled_from(["pass", "warn", "not_assessed", *blocks]))
    return contract, role, values


@given(seats())
def test_a_rendered_seat_lints_clean(seat: tuple[Contract, str, dict[str, str]]) -> None:
    contract, role, values = seat
    phase1 = render_phase1(contract, role=role)
    phase2 = render_phase2(contract, values, role=role)
    assert lint_phase1(phase1, contract, role=role).findings == ()
    report = lint_phase2(phase2, contract, phase1, role=role)
    assert report.findings == ()
    assert report.scores is not None
    assert {d: report.scores[d] for d in values} == values


def test_the_role_belongs_to_13_2_only() -> None:
    v2 = load_contract("13.2/reviewer/full")
    with pytest.raises(KernelError, match="give role="):
        render_phase1(v2)
    with pytest.raises(KernelError, match="13 reviewer has no role"):
        render_phase1("reviewer/full", role="eic")
    with pytest.raises(KernelError, match=r"decision: not part of a 13\.2 report"):
        render_phase2(v2, {}, role="eic", decision="editorial_decision=accept")
    with pytest.raises(KernelError, match="cannot score"):
        render_phase2(v2, {"D3": "block"}, role="eic")  # a mandatory block needs its class


@pytest.mark.parametrize(
    "prose",
    [
        "```",
        "~~~ text",
        "<!-- aside",
        "<!-- a closed aside -->",
        "## Scoring Plan",
        "# Title",
        "> quoted",
        "---",
        "-",
        "<div>",
    ],
)
def test_paraphrase_prose_that_is_no_plain_paragraph_is_refused(prose: str) -> None:
    v2 = load_contract("13.2/reviewer/full")
    with pytest.raises(KernelError, match=r"paraphrase of D1 must be one plain paragraph"):
        render_phase1(v2, role="eic", paraphrase={"D1": prose})


@pytest.mark.parametrize("prose", ["what_to_look_for: the plan's own field"])
def test_paraphrase_prose_the_lint_refuses_is_refused(prose: str) -> None:
    v2 = load_contract("13.2/reviewer/full")
    with pytest.raises(KernelError, match=r"would fail its own lint"):
        render_phase1(v2, role="eic", paraphrase={"D1": prose})


@given(st.text(st.characters(codec="utf-8", exclude_characters="\n\r\x00"), min_size=1))
def test_a_rendered_paraphrase_lints_clean_or_is_refused(prose: str) -> None:
    v2 = load_contract("13.2/reviewer/full")
    try:
        phase1 = render_phase1(v2, role="eic", paraphrase={"D1": prose})
    except KernelError:
        return
    assert lint_phase1(phase1, v2, role="eic").ok
