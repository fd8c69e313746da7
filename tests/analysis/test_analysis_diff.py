"""analyze_diff() against brute force: every matrix of small contracts decided under both."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support.analysis_brute import brute_diff, matrix_cost
from support.strategies import contracts, expressions, spelled
from test_analysis_space import _condition, _dims, _template

from kernel import analyze_diff as top_level
from kernel.analysis import Diff, analyze, analyze_diff
from kernel.contract.model import Contract, load_contract
from kernel.contract.quantifiers import ACTIONS, QUANTIFIERS
from kernel.decision.decision import decide
from kernel.errors import ContractError, KernelError

# At most 3 x 2 cells (729 matrices) per generated pair; the 3 x 3 cases are named below.
small_contracts = contracts(max_dimensions=3, max_conditions=4, panel_sizes=st.integers(1, 2))


def _outcome(contract: Contract, matrix: Any) -> tuple[str, str | None]:
    try:
        d = decide(contract, {k: list(v) for k, v in matrix.items()})
    except ContractError:
        return "none", None
    return d.condition_id or "none", d.action


def check_diff(old_data: Any, new_data: Any) -> Diff:
    old, new = load_contract(old_data), load_contract(new_data)
    d = analyze_diff(old, new)
    b = brute_diff(old, new)
    assert d.space == 3 ** (len(old.dimensions) * old.panel_size)
    assert dict(d.transitions) == dict(b.transitions)
    assert sum(d.transitions.values()) == d.space
    assert (d.changed, d.action_changed) == (b.changed, b.action_changed)
    for t in d.rows:
        assert t.matrices > 0
        c = t.counterexample
        # The counterexample makes its transition, and nothing makes it with fewer non-passes.
        assert _outcome(old, c.matrix) == (t.old, t.old_action)
        assert _outcome(new, c.matrix) == (t.new, t.new_action)
        assert (c.old.condition_id or "none", c.new.condition_id or "none") == (t.old, t.new)
        assert matrix_cost(c.matrix) == b.cost[t.old, t.new]
    return d


def _mutated(data: dict[str, Any], change: str, rnd: random.Random) -> dict[str, Any]:
    new = copy.deepcopy(data)
    conds = new["failure_conditions"]
    i, j = rnd.randrange(len(conds)), rnd.randrange(len(conds))
    if change == "severity swap":
        conds[i]["severity"], conds[j]["severity"] = conds[j]["severity"], conds[i]["severity"]
    elif change == "quantifier":
        conds[i]["cross_reviewer_quantifier"] = rnd.choice(QUANTIFIERS)
    elif change in ("action", "drop condition"):
        # R18: an amendment keeps the accept-grade F0, or the contract is invalid.
        others = [k for k, c in enumerate(conds) if c["condition_id"] != "F0"]
        if not others:
            return new
        k = rnd.choice(others)
        if change == "drop condition":
            del conds[k]
        else:
            conds[k]["action"] = rnd.choice(ACTIONS)
    elif change == "priority":
        dim = rnd.choice(new["acceptance_dimensions"])
        dim["priority"] = rnd.choice(["mandatory", "high", "normal"])
    elif change == "reorder dimensions":
        rnd.shuffle(new["acceptance_dimensions"])
    return new


@st.composite
def amended_pairs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A small contract and an amendment: structural edits, and new expressions."""
    old = draw(small_contracts)
    new = old
    changes = ["severity swap", "quantifier", "action", "priority", "reorder dimensions"]
    for change in draw(st.lists(st.sampled_from([*changes, "drop condition", "expression"]))):
        if change == "expression":
            new = copy.deepcopy(new)
            ids = [d["id"] for d in new["acceptance_dimensions"]]
            cond = draw(st.sampled_from(new["failure_conditions"]))
            cond["expression"] = draw(spelled(draw(expressions(st.sampled_from(ids), 2))))
        else:
            new = _mutated(new, change, random.Random(draw(st.integers(0, 2**32))))
    return old, new


# Two severity-ordered conditions swap precedence: the overlap region changes hands.
SWAP_OLD = _template(
    panel_size=2,
    acceptance_dimensions=_dims("mandatory", "high"),
    failure_conditions=[
        _condition("F1", 90, "any mandatory dimension scores 'block'", "any", "reject"),
        _condition("F2", 70, "any high-priority dimension scores 'warn'", "any", "major_revision"),
        _condition("F0", 10, "every mandatory dimension scores 'pass'", "all", "accept"),
    ],
)
SWAP_NEW = copy.deepcopy(SWAP_OLD)
SWAP_NEW["failure_conditions"][0]["severity"] = 60
# The same predicate under another quantifier: one shared counter in the joint state.
QUANTIFIER_NEW = copy.deepcopy(SWAP_OLD)
QUANTIFIER_NEW["failure_conditions"][0]["cross_reviewer_quantifier"] = "majority"
# A changed expression, and a stricter accept-grade F0.
EXPRESSION_NEW = copy.deepcopy(SWAP_OLD)
EXPRESSION_NEW["failure_conditions"][1]["expression"] = "D2 scores 'block'"
EXPRESSION_NEW["failure_conditions"][2]["expression"] = "every high dimension scores 'pass'"
# D2 moves from mandatory to high: the old contract's interchangeable mandatory pair is not
# interchangeable in the joint table.
PRIORITY_OLD = _template(
    panel_size=2,
    acceptance_dimensions=_dims("mandatory", "mandatory", "normal"),
    failure_conditions=[
        _condition("F1", 90, "any mandatory dimension scores 'block'", "any", "reject"),
        _condition("F2", 70, "any high-priority dimension scores 'warn'", "any", "major_revision"),
        _condition("F0", 10, "every mandatory dimension scores 'pass'", "all", "accept"),
    ],
)
PRIORITY_NEW = copy.deepcopy(PRIORITY_OLD)
PRIORITY_NEW["acceptance_dimensions"][1]["priority"] = "high"
# 3 dimensions x 3 reviewers: 19,683 matrices; priorities change and dimensions reorder.
BIG_OLD = _template(
    panel_size=3,
    acceptance_dimensions=_dims("mandatory", "mandatory", "high"),
    failure_conditions=[
        _condition("F1", 90, "any mandatory dimension scores 'block'", "any", "reject"),
        _condition(
            "F2",
            70,
            "two or more mandatory dimensions score 'warn' or worse",
            "majority",
            "major_revision",
        ),
        _condition("F3", 60, "D3 scores 'block'", "any", "major_revision"),
        _condition("F0", 10, "every mandatory dimension scores 'pass'", "all", "accept"),
    ],
)
BIG_NEW = copy.deepcopy(BIG_OLD)
BIG_NEW["failure_conditions"][1]["cross_reviewer_quantifier"] = "any"
BIG_NEW["acceptance_dimensions"][2]["priority"] = "mandatory"
BIG_NEW["acceptance_dimensions"].reverse()


@given(amended_pairs())
@example((SWAP_OLD, SWAP_NEW))
@example((SWAP_OLD, QUANTIFIER_NEW))
@example((SWAP_OLD, EXPRESSION_NEW))
@example((EXPRESSION_NEW, SWAP_OLD))
@example((PRIORITY_OLD, PRIORITY_NEW))
@example((PRIORITY_NEW, PRIORITY_OLD))
def test_diff_matches_brute_force(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    check_diff(*pair)


@given(small_contracts, st.data())
def test_diff_of_unrelated_contracts_over_the_same_matrices(
    old: dict[str, Any], data: st.DataObject
) -> None:
    other = data.draw(small_contracts)
    new = copy.deepcopy(other)
    ids = [d["id"] for d in old["acceptance_dimensions"]]
    new["acceptance_dimensions"] = copy.deepcopy(old["acceptance_dimensions"])
    new["panel_size"] = old["panel_size"]
    for cond in new["failure_conditions"]:
        cond["expression"] = data.draw(spelled(data.draw(expressions(st.sampled_from(ids), 2))))
    check_diff(old, new)


@pytest.mark.parametrize("new", [SWAP_NEW, QUANTIFIER_NEW, EXPRESSION_NEW])
def test_named_amendments_change_something(new: dict[str, Any]) -> None:
    d = check_diff(SWAP_OLD, new)
    assert d.changed > 0
    assert any(t.old != t.new for t in d.rows)


def test_severity_swap_moves_the_overlap_only() -> None:
    d = check_diff(SWAP_OLD, SWAP_NEW)
    assert {k for k, v in d.transitions.items() if k[0] != k[1]} == {("F1", "F2")}
    assert d.changed == d.action_changed  # reject -> major_revision


def test_identical_pair_changes_nothing() -> None:
    d = check_diff(BIG_OLD, BIG_OLD)
    assert d.changed == d.action_changed == 0
    assert all(t.old == t.new for t in d.rows)
    a = analyze(BIG_OLD)
    assert {t.old: t.matrices for t in d.rows} == {
        o.key: o.matrices for o in a.outcomes if o.matrices
    }
    d = analyze_diff("reviewer/full", "reviewer/full")
    assert d.changed == 0 and d.space == 3**25


def test_three_by_three_with_priority_change_and_reordered_dimensions() -> None:
    d = check_diff(BIG_OLD, BIG_NEW)
    assert d.space == 19_683 and d.changed > 0


def test_majority_to_any_on_reviewer_full() -> None:
    new = copy.deepcopy(dict(load_contract("reviewer/full").to_dict()))
    new["failure_conditions"][1]["cross_reviewer_quantifier"] = "any"
    d = analyze_diff("reviewer/full", new)
    old_a, new_a = analyze("reviewer/full"), analyze(new)
    # Each side's margins are that contract's own outcome counts.
    for key in old_a.outcomes:
        assert sum(v for (a, _), v in d.transitions.items() if a == key.key) == key.matrices
    for key in new_a.outcomes:
        assert sum(v for (_, b), v in d.transitions.items() if b == key.key) == key.matrices
    # Only matrices where F2 now fires with fewer than a majority move, and only into F2.
    assert {b for (a, b) in d.transitions if a != b} == {"F2"}
    assert d.changed > 0 and top_level is analyze_diff


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"panel_size": 4}, "panel_size differs: .* has 5, .* has 4"),
        (
            {"acceptance_dimensions": _dims("mandatory", "mandatory", "mandatory", "high")},
            "dimension ids differ: only in .* \\(old\\): D5",
        ),
    ],
)
def test_different_matrices_are_refused(change: dict[str, Any], message: str) -> None:
    new = _template(**change)
    with pytest.raises(KernelError, match=message):
        analyze_diff("reviewer/full", new)


def test_renamed_dimension_is_named() -> None:
    new = _template()
    new["acceptance_dimensions"][4]["id"] = "D9"
    with pytest.raises(KernelError, match=r"only in .* \(old\): D5; only in .* \(new\): D9"):
        analyze_diff("reviewer/full", new)


junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


@given(
    st.one_of(small_contracts, junk, st.sampled_from(["reviewer/full", "no/such/template"])),
    st.one_of(small_contracts, junk, st.sampled_from(["reviewer/full"])),
)
@example("reviewer/full", _template(panel_size=10**100))
@example(_template(panel_size=10**100), _template(panel_size=10**100))
def test_diff_raises_only_kernel_errors(old: Any, new: Any) -> None:
    try:
        d = analyze_diff(old, new)
    except KernelError as exc:
        assert exc.message
    else:
        assert sum(d.transitions.values()) == d.space
