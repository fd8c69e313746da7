"""13.2 reviewer inputs: the seat's role and its dimensions, and nothing of the paper in
Phase 1."""

from __future__ import annotations

import pytest
from support import paths

from kernel import load_contract
from kernel.errors import InputError, KernelError
from kernel.reviewer.phase_inputs import phase1_from_input, phase1_input, phase2_input

V2 = load_contract(str(paths.ROOT / "examples" / "full-13.2" / "contract.json"))
META = {"title": "On completion", "field": "education", "word_count": 5400}


def test_phase1_input_names_the_seat() -> None:
    text = phase1_input(V2, META, role="methodology")
    seat = text[text.index("## Your seat") : text.index("## Paper metadata")]
    assert "contract_role: methodology\n" in seat
    assert "Plan and score: D1 (methodology_rigor), D5 (writing_and_structure)." in seat
    assert "what_triggers_fatal: D1." in seat


def test_phase2_input_names_the_seat_and_keeps_phase1_recoverable() -> None:
    text = phase2_input(V2, "## Contract Paraphrase\n", "The paper.", role="da")
    assert "contract_role: da\n" in text
    assert phase1_from_input(text) == "## Contract Paraphrase\n"


def test_the_role_is_required_under_13_2_and_refused_under_13() -> None:
    with pytest.raises(KernelError, match="give role="):
        phase1_input(V2, META)
    with pytest.raises(KernelError, match="a 13 reviewer has no role"):
        phase2_input("reviewer/full", "x", "y", role="eic")
    with pytest.raises(InputError) as info:
        phase1_input(V2, META, role="chair")
    assert info.value.tag == "[ROLE-BINDING: --role chair is invalid for reviewer_full]"


def test_13_inputs_are_unchanged() -> None:
    assert "## Your seat" not in phase1_input("reviewer/full", META)


def test_a_13_input_has_nothing_between_the_contract_and_the_next_section() -> None:
    text = phase1_input("reviewer/full", META)
    assert "None" not in text
    assert text[: text.index("## Paper metadata")].endswith("```\n\n")
    second = phase2_input("reviewer/full", "plan", "paper")
    assert second[: second.index("## Your Phase 1 output")].endswith("```\n\n")
