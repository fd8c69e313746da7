"""The AST as a public value: constructor guards for direct callers, each atom's column test and
bitmask source against a plain reading of R4, and the compiler's scope resolution."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.strategies import atoms, dimension_ids, expressions, priorities, scores

from kernel import ExpressionUnrecognised
from kernel.expression.ast import (
    PRIORITIES,
    SCORE_RANK,
    SCORES,
    AnyScores,
    Atom,
    DimensionScores,
    EveryScores,
    Expression,
    Lane,
    MaskWriter,
    TwoOrMore,
)
from kernel.expression.compiler import compile_expression

PRIORITY_FORMS = (AnyScores, TwoOrMore, EveryScores)


def test_vocabulary_constants() -> None:
    assert SCORES == ("pass", "warn", "block")
    assert SCORE_RANK == {"pass": 0, "warn": 1, "block": 2}
    assert PRIORITIES == ("mandatory", "high", "normal")
    assert (Lane.PASS, Lane.WARN, Lane.BLOCK, Lane.WORSE) == (0, 1, 2, 3)


@pytest.mark.parametrize("form", PRIORITY_FORMS)
@pytest.mark.parametrize("bad", ["Mandatory", "critical", "", "high-priority", None, 1])
def test_priority_guard(form: Any, bad: Any) -> None:
    with pytest.raises(ValueError) as info:
        form(bad, "pass")
    assert str(info.value) == (
        f"priority must be one of ('mandatory', 'high', 'normal'), got {bad!r}"
    )


@pytest.mark.parametrize("form", PRIORITY_FORMS)
@pytest.mark.parametrize("bad", ["Pass", "fail", "", "'pass'", None])
def test_score_guard(form: Any, bad: Any) -> None:
    with pytest.raises(ValueError) as info:
        form("high", bad)
    assert str(info.value) == f"score must be one of ('pass', 'warn', 'block'), got {bad!r}"
    with pytest.raises(ValueError) as info:
        DimensionScores("D1", bad)
    assert str(info.value) == f"score must be one of ('pass', 'warn', 'block'), got {bad!r}"


@pytest.mark.parametrize(
    "bad",
    ["D0", "D01", "D100", "D", "", "d1", "X1", "1", "D1a", "D-1", "D\u0661", "D²", " D1", "DD1"],
)
def test_dimension_guard(bad: str) -> None:
    with pytest.raises(ValueError) as info:
        DimensionScores(bad, "pass")
    assert str(info.value) == f"dimension must be D1…D99, got {bad!r}"


@given(dimension_ids, scores)
def test_every_valid_dimension_id_is_accepted(dim: str, score: str) -> None:
    atom = DimensionScores(dim, score)  # type: ignore[arg-type]
    assert str(atom) == f"{dim} scores '{score}'"


@pytest.mark.parametrize("bad", [(), [], None, [AnyScores("high", "pass")], "D1 scores 'pass'"])
def test_expression_needs_a_non_empty_tuple(bad: Any) -> None:
    with pytest.raises(ValueError) as info:
        Expression(bad)
    assert str(info.value) == "atoms must be a non-empty tuple of atoms"


@pytest.mark.parametrize(
    "bad", [1, "D1 scores 'pass'", None, Expression((AnyScores("high", "pass"),))]
)
def test_expression_holds_only_atoms(bad: Any) -> None:
    with pytest.raises(ValueError) as info:
        Expression((AnyScores("high", "pass"), bad))
    assert str(info.value) == f"atoms holds a non-atom: {bad!r}"


def test_canonical_text() -> None:
    assert str(AnyScores("mandatory", "block")) == "any mandatory dimension scores 'block'"
    assert str(AnyScores("high", "warn")) == "any high-priority dimension scores 'warn'"
    assert str(TwoOrMore("normal", "warn")) == (
        "two or more normal-priority dimensions score 'warn' or worse"
    )
    assert str(TwoOrMore("mandatory", "pass")) == (
        "two or more mandatory dimensions score 'pass' or worse"
    )
    assert str(EveryScores("high", "pass")) == "every high-priority dimension scores 'pass'"
    assert str(DimensionScores("D12", "block")) == "D12 scores 'block'"
    assert str(Expression((DimensionScores("D1", "pass"), EveryScores("normal", "warn")))) == (
        "D1 scores 'pass' AND every normal-priority dimension scores 'warn'"
    )


# --- meaning: each atom against a plain reading of R4 --------------------------------------


def _oracle(atom: Atom, dims: Sequence[tuple[str, str]], column: Sequence[int]) -> bool:
    """R4 read literally over one reviewer's column of ranks."""
    rank = SCORE_RANK[atom.score]
    if isinstance(atom, DimensionScores):
        return column[[d for d, _ in dims].index(atom.dimension)] == rank
    mine = [column[i] for i, (_, p) in enumerate(dims) if p == atom.priority]
    if isinstance(atom, AnyScores):
        return rank in mine
    if isinstance(atom, EveryScores):
        return all(r == rank for r in mine)
    return len([r for r in mine if r >= rank]) >= 2


@st.composite
def panels(draw: st.DrawFn) -> tuple[list[tuple[str, str]], Atom, list[list[int]]]:
    """Contract dimensions, an atom over them and a panel of reviewer columns."""
    ids = draw(st.lists(dimension_ids, min_size=1, max_size=6, unique=True))
    dims: list[tuple[str, str]] = [(d, draw(priorities)) for d in ids]
    atom = draw(atoms(st.sampled_from(ids)))
    reviewers = draw(st.integers(1, 6))
    ranks = st.lists(st.integers(0, 2), min_size=len(dims), max_size=len(dims))
    columns = draw(st.lists(ranks, min_size=reviewers, max_size=reviewers))
    return dims, atom, columns


def _run_mask(atom: Atom, scope: tuple[int, ...], columns: list[list[int]]) -> int:
    out = MaskWriter(full=(1 << len(columns)) - 1)
    result = atom.mask(scope, out)
    env: dict[str, int] = {}
    for position, lane in out.read:
        bits = 0
        for j, column in enumerate(columns):
            rank = column[position]
            if rank == lane or (lane == Lane.WORSE and rank >= SCORE_RANK["warn"]):
                bits |= 1 << j
        env[f"m{position}_{lane}"] = bits
    exec("\n".join([*out.lines, f"result = {result}"]), {}, env)
    return env["result"]


@given(panels())
def test_atom_test_and_mask_follow_r4(
    panel: tuple[list[tuple[str, str]], Atom, list[list[int]]],
) -> None:
    dims, atom, columns = panel
    (scope,) = compile_expression(Expression((atom,)), dims).scopes
    assert scope == atom.scope(dims)
    check = atom.test(scope)
    expected = [_oracle(atom, dims, column) for column in columns]
    assert [check(column) for column in columns] == expected
    mask = _run_mask(atom, scope, columns)
    assert mask == sum(1 << j for j, held in enumerate(expected) if held)


def test_scopes() -> None:
    dims = [("D1", "high"), ("D2", "mandatory"), ("D3", "high"), ("D4", "normal")]
    assert AnyScores("high", "pass").scope(dims) == (0, 2)
    assert TwoOrMore("mandatory", "pass").scope(dims) == (1,)
    assert EveryScores("normal", "pass").scope(dims) == (3,)
    assert EveryScores("normal", "pass").scope(dims[:3]) == ()
    assert DimensionScores("D3", "pass").scope(dims) == (2,)
    with pytest.raises(LookupError):
        DimensionScores("D5", "pass").scope(dims)


def test_mask_writer_stays_flat() -> None:
    out = MaskWriter(full=7)
    assert out.fold("|", [], "0") == "0"
    assert out.fold("|", ["a"], "0") == "a"
    assert out.fold("&", ["a", "b", "c"], "7") == "t1"
    assert out.lines == ["t1 = a", "t1 &= b", "t1 &= c"]
    assert out.lane(3, Lane.WORSE) == "m3_3"
    assert out.read == {(3, 3)}
    assert out.temp() == "t2"
    assert TwoOrMore("high", "warn").mask((0,), out) == "0"
    assert TwoOrMore("high", "pass").mask((0, 1), out) == "7"
    assert EveryScores("high", "pass").mask((), out) == "7"
    assert AnyScores("high", "pass").mask((), out) == "0"


# --- the compiler ------------------------------------------------------------------------


def test_unknown_dimension_message() -> None:
    expression = Expression((AnyScores("high", "pass"), DimensionScores("D9", "warn")))
    with pytest.raises(ExpressionUnrecognised) as info:
        compile_expression(expression, [("D1", "high"), ("D2", "normal")])
    assert info.value.message == "D9 names no dimension of the contract (dimensions: D1, D2)"
    assert info.value.expression == str(expression)
    with pytest.raises(ExpressionUnrecognised) as info:
        compile_expression(Expression((DimensionScores("D1", "pass"),)), [])
    assert info.value.message == "D1 names no dimension of the contract (dimensions: none)"


@given(st.data(), expressions(st.sampled_from(["D1", "D2", "D3"])))
def test_predicate_is_the_conjunction_of_its_atoms(data: st.DataObject, e: Expression) -> None:
    dims = [("D1", data.draw(priorities)), ("D2", data.draw(priorities)), ("D3", "high")]
    predicate = compile_expression(e, dims)
    assert predicate.expression == e
    assert predicate.scopes == tuple(atom.scope(dims) for atom in e.atoms)
    assert predicate.reads == frozenset(p for atom in e.atoms for p in atom.scope(dims))
    column = data.draw(st.lists(st.integers(0, 2), min_size=3, max_size=3))
    schema13 = AnyScores | TwoOrMore | EveryScores | DimensionScores
    atoms = [a for a in e.atoms if isinstance(a, schema13)]
    assert len(atoms) == len(e.atoms)  # the strategy draws Schema 13 atoms
    assert predicate.holds(column) == all(_oracle(a, dims, column) for a in atoms)
