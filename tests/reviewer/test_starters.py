"""Starter documents (``templates show NAME --document …``): for every shipped reviewer
template and seat they lint clean, decide the all-pass round, and the synthesis passes its
check; ``render_synthesis`` writes what ``check_synthesis`` accepts for any round."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kernel import decide, lint_phase1, lint_phase2, load_contract
from kernel.contract.templates import TEMPLATE_NAMES
from kernel.errors import KernelError
from kernel.reviewer.render import render_phase2
from kernel.reviewer.render_synthesis import ADJUDICATIONS, render_synthesis
from kernel.reviewer.review import decide_documents
from kernel.reviewer.starters import all_pass, starter
from kernel.reviewer.synthesis import check_synthesis
from kernel.testing import contracts

REVIEWER_TEMPLATES = [n for n in TEMPLATE_NAMES if load_contract(n).panel_size]


def _seats(name: str) -> Sequence[str | None]:
    contract = load_contract(name)
    if contract.dialect == "13":
        return [None]
    return sorted({r for d in contract.dimensions for r in d.eligible_roles})


@pytest.mark.parametrize("name", REVIEWER_TEMPLATES)
def test_every_starter_lints_clean_and_the_round_decides_as_all_pass(name: str) -> None:
    contract = load_contract(name)
    reviewers: list[tuple[str, str, str | None]] = []
    for role in _seats(name):
        one = starter(contract, "phase1", role)
        two = starter(contract, "phase2", role)
        r1 = lint_phase1(one, contract, role=role)
        r2 = lint_phase2(two, contract, one, role=role)
        assert r1.ok and r2.ok, (role, [str(f) for f in (*r1.findings, *r2.findings)])
        if role is None:  # Schema 13: one report per reviewer, each in its own words
            reviewers = [
                (f"r{j}", two.replace("## Review Body\n", f"## Review Body\n\nReader {j}.\n"), one)
                for j in range(contract.panel_size)
            ]
        else:
            reviewers.append((role, two, one))
    synthesis = starter(contract, "synthesis")
    outcome = decide_documents(contract, reviewers, synthesis=synthesis)
    expected = decide(contract, all_pass(contract))
    assert outcome.decision is not None
    assert outcome.decision.action == expected.action
    assert outcome.synthesis is not None
    assert outcome.synthesis.ok, outcome.synthesis.to_dict()


def test_a_starter_asks_for_what_it_needs() -> None:
    with pytest.raises(KernelError, match=r"a 13\.2 phase1 is a seat's; reviewer_full seats eic"):
        starter("13.2/reviewer/full", "phase1")
    with pytest.raises(KernelError, match="13 has no roles"):
        starter("reviewer/full", "phase2", "eic")
    with pytest.raises(KernelError, match="the editor's"):
        starter("13.2/reviewer/full", "synthesis", "eic")
    with pytest.raises(KernelError, match="expected phase1, phase2, synthesis"):
        starter("reviewer/full", "phase3")
    with pytest.raises(KernelError, match="seats no reviewer panel"):
        starter("13.2/writer/full", "phase1")


@given(
    contracts(dialect="13.2", max_dimensions=3, max_conditions=4),
    st.data(),
)
def test_a_rendered_synthesis_passes_its_check(data: dict[str, Any], draw: st.DataObject) -> None:
    contract = load_contract(data)
    assume(contract.panel_size)
    matrix = {
        d.id: {
            r: draw.draw(
                st.sampled_from(
                    ["pass", "warn", "block"]
                    if d.priority != "mandatory"
                    else ["pass", "warn", "block:repairable", "block:fatal"]
                )
            )
            for r in d.eligible_roles
        }
        for d in contract.dimensions
    }
    decision = decide(contract, matrix)
    assume(decision.action is not None)
    roles = {r for d in contract.dimensions for r in d.eligible_roles}
    critical = draw.draw(st.integers(0, 3))
    adjudications = {
        f"C{i}": draw.draw(st.sampled_from(ADJUDICATIONS)) for i in range(1, critical + 1)
    }
    da = None
    if "da" in roles:
        eligible = [d.id for d in contract.dimensions if "da" in d.eligible_roles]
        da = (
            render_phase2(contract, dict.fromkeys(eligible, "pass"), role="da")
            if not critical
            else None
        )
        from kernel.reviewer.render_v2 import render_phase2_v2
        from kernel.reviewer.roles import scope_of

        da = render_phase2_v2(
            scope_of(contract), "da", dict.fromkeys(eligible, "pass"), critical=critical
        )
    else:
        adjudications = {}
    text = render_synthesis(contract, decision, adjudications=adjudications)
    report = check_synthesis(contract, decision, text, da_report=da)
    assert report.ok, [str(f) for f in report.findings]


def test_render_synthesis_refuses_what_no_check_would_pass() -> None:
    contract = load_contract("13.2/reviewer/full")
    decision = decide(contract, all_pass(contract))
    with pytest.raises(KernelError, match="not one of VALIDATED"):
        render_synthesis(contract, decision, adjudications={"C1": "MAYBE"})
    with pytest.raises(KernelError, match="not a CRITICAL id"):
        render_synthesis(contract, decision, adjudications={"X1": "VALIDATED"})
    with pytest.raises(KernelError, match="not adjudicated"):
        render_synthesis(contract, decision, rationales={"C1": "no"})
    with pytest.raises(KernelError, match="one line"):
        render_synthesis(contract, decision, summary="two\nlines")
    with pytest.raises(KernelError, match="not a decision of this contract"):
        render_synthesis("reviewer/full", decision)
    with pytest.raises(KernelError, match=r"belong to a 13\.2 synthesis"):
        old = load_contract("reviewer/full")
        render_synthesis(old, decide(old, all_pass(old)), adjudications={"C1": "VALIDATED"})


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kernel", "templates", "show", *argv],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_command_prints_each_starter_and_refuses_what_is_missing() -> None:
    done = _cli("13.2/reviewer/full", "--document", "phase1", "--role", "da")
    assert done.returncode == 0 and done.stdout == starter("13.2/reviewer/full", "phase1", "da")
    done = _cli("13.2/reviewer/full", "--document", "synthesis", "--format", "json")
    assert done.returncode == 0
    assert json.loads(done.stdout) == {
        "name": "13.2/reviewer/full",
        "document": "synthesis",
        "role": None,
        "ars": "main",
        "text": starter("13.2/reviewer/full", "synthesis"),
    }
    done = _cli("13.2/reviewer/full", "--document", "phase2")
    assert done.returncode == 2
    assert done.stderr == (
        "sprint-kernel templates show: error: no role: a 13.2 phase2 is a seat's; reviewer_full "
        "seats eic, methodology, domain, perspective, da\n"
    )
    done = _cli("13.2/reviewer/full", "--role", "da")
    assert done.returncode == 2 and "--role goes with --document" in done.stderr
