"""``check`` fails what ``decide`` refuses: for a reviewer panel contract, ``check`` passes
only if ``decide`` can decide some matrix, in both dialects, on the shipped templates, on
generated contracts and on templates with one field changed."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel import ContractError, KernelError, decide, load_contract, shipped_template
from kernel.contract.templates import TEMPLATE_NAMES
from kernel.contract.warnings import check_contract
from kernel.testing import contracts


def _passes_check(data: dict[str, Any]) -> bool:
    return not any(d.severity == "error" for d in check_contract(data))


def _seat_matrices(data: dict[str, Any]) -> list[dict[str, Any]]:
    """13.2: each eligible seat of every dimension the same value, for each value."""
    out = []
    for value in ("pass", "warn", "block"):
        out.append(
            {
                d["id"]: dict.fromkeys(
                    d["eligible_roles"],
                    "block:repairable"
                    if value == "block" and d["priority"] == "mandatory"
                    else value,
                )
                for d in data["acceptance_dimensions"]
            }
        )
    return out


def _column_matrices(data: dict[str, Any]) -> list[dict[str, Any]]:
    """13: every reviewer the same column, for every column (few dimensions)."""
    ids = [d["id"] for d in data["acceptance_dimensions"]]
    n = data["panel_size"]
    return [
        {d: [s] * n for d, s in zip(ids, column, strict=True)}
        for column in itertools.product(("pass", "warn", "block"), repeat=len(ids))
    ]


def _decides_some_matrix(data: dict[str, Any], dialect: str) -> bool:
    matrices = _seat_matrices(data) if dialect == "13.2" else _column_matrices(data)
    for matrix in matrices:
        try:
            decide(data, matrix)
        except ContractError:
            continue
        return True
    return False


def _agree(data: dict[str, Any]) -> None:
    mode = data.get("mode")
    if not (isinstance(mode, str) and mode.startswith("reviewer_")):
        return
    try:
        dialect = load_contract(data).dialect
    except KernelError:
        assert not _passes_check(data)
        with pytest.raises(ContractError):
            decide(data, {})
        return
    assert _passes_check(data)
    assert _decides_some_matrix(data, dialect), f"check passes {mode} but decide refuses"


@pytest.mark.parametrize("name", sorted(TEMPLATE_NAMES))
def test_check_and_decide_agree_on_every_shipped_template(name: str) -> None:
    data = shipped_template(name)
    assert _passes_check(data)
    _agree(data)


@st.composite
def _changed_templates(draw: st.DrawFn) -> dict[str, Any]:
    """A reviewer template with one of the fields a panel depends on changed."""
    data = copy.deepcopy(shipped_template(draw(st.sampled_from(sorted(TEMPLATE_NAMES)))))
    field = draw(st.sampled_from(["panel_size", "mode", "action"]))
    if field == "panel_size":
        data["panel_size"] = draw(st.integers(1, 7))
    elif field == "mode":
        data["mode"] = draw(st.sampled_from(["reviewer_full", "reviewer_methodology_focus"]))
    else:
        condition = draw(st.sampled_from(data["failure_conditions"]))
        condition["action"] = draw(
            st.sampled_from(["editorial_decision=accept", "editorial_decision=reject"])
        )
    return data


@given(_changed_templates())
def test_check_passes_a_panel_contract_only_if_decide_can_decide_some_matrix(
    data: dict[str, Any],
) -> None:
    _agree(data)


@given(
    st.sampled_from(["13", "13.2"]).flatmap(lambda d: contracts(dialect=d, max_dimensions=4)),
    st.integers(1, 6),
)
def test_generated_panels_of_any_size_agree(data: dict[str, Any], panel: int) -> None:
    data["panel_size"] = panel
    _agree(data)


def test_the_refusal_tag_is_said_once() -> None:
    """Regression: decide printed [CONTRACT-INELIGIBLE: …] in its message and again as a
    tag; now load_contract refuses the contract with the tag on the error only."""
    data = shipped_template("13.2/reviewer/methodology_focus")
    data["panel_size"] = 3
    with pytest.raises(ContractError) as info:
        load_contract(data)
    tag = (
        "[CONTRACT-INELIGIBLE: panel_size=3 inconsistent with "
        "mode=reviewer_methodology_focus; expected 2]"
    )
    assert info.value.tag == tag
    assert "CONTRACT-INELIGIBLE" not in info.value.message
    assert [e for e in info.value.errors if "CONTRACT-INELIGIBLE" in e] == []


@pytest.mark.parametrize("name", sorted(TEMPLATE_NAMES))
def test_check_strict_passes_every_untouched_template(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression (issue 31): each 13.2 reviewer template failed --strict on its SC-15
    single-judge notes, which are information now."""
    from kernel.cli.check import main
    from kernel.cli.scaffold import run

    assert run(main, [name, "--strict"]) == 0
    single_judge = [d for d in check_contract(shipped_template(name)) if d.code == "SC-15"]
    assert all(d.severity == "info" for d in single_judge)
    assert bool(single_judge) == (name in ("13.2/reviewer/full", "13.2/reviewer/methodology_focus"))
    capsys.readouterr()
