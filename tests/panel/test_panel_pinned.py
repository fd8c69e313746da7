"""Panel helpers pinned: git's C-quoted escapes, line and column of an offset, the ledger at
its exact total, a guarded finding's dict, the convergence threshold."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kernel.errors import KernelError
from kernel.panel import budget
from kernel.panel.convergence import CONVERGENCE_THRESHOLD
from kernel.panel.delta_mode import _unquote_git
from kernel.panel.guardrails import GuardedFinding
from kernel.panel.scan import position
from kernel.text.injection import scan_injection


def test_git_c_quoted_escapes() -> None:
    assert _unquote_git('"a\\ab\\rc\\td\\"e"', 1) == 'a\x07b\rc\td"e'
    assert _unquote_git("plain", 1) == "plain"


def test_position_is_one_based() -> None:
    assert position([5], 0) == (1, 1)
    assert position([5], 5) == (1, 6)
    assert position([5], 6) == (2, 1)
    assert position([], 3) == (1, 4)
    assert position([2, 5], 4) == (2, 2)


def test_a_charge_of_exactly_what_is_left_is_accepted() -> None:
    ledger = budget.open_ledger(["a"], 10)
    done = budget.charge(ledger, "a", "review", 10)
    assert done.accepted and done.stops is None
    assert budget.charge(ledger, "a", "review", 11).accepted is False
    with pytest.raises(KernelError, match=r"^ledger must come from open_ledger$"):
        budget.charge("ledger", "a", "review", 1)  # type: ignore[arg-type]


def test_a_guarded_finding_lists_its_destructive_passages() -> None:
    (finding,) = scan_injection("rm -rf /")
    guarded = GuardedFinding("F1", "a", "x", "high", True, ("G1",), (finding,))
    data = guarded.to_dict()
    assert data["destructive"] == [finding.to_dict()]
    assert data["codes"] == ["G1"]


def test_the_convergence_threshold_is_one_tenth() -> None:
    assert Fraction(1, 10) == CONVERGENCE_THRESHOLD
