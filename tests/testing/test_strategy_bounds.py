"""What the public strategies can draw, at their bounds: each documented range is reached at
both ends and never left. (These are the properties the strategies promise their users; a
strategy that silently narrowed or widened would pass every test that only draws from it.)"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from kernel import decide, load_contract
from kernel.errors import EmptyDirectory
from kernel.expression.ast import DimensionScores, Expression
from kernel.expression.parser import parse_expression
from kernel.testing import (
    RoundV2,
    contracts,
    expressions,
    matrices,
    phase2_documents,
    rounds_v2,
    spelled,
)

_WHITESPACE_RUN = re.compile(r"[ \t]+")
_ONE_ATOM = Expression((DimensionScores("D1", "warn"), DimensionScores("D2", "pass")))


def _find(strategy: st.SearchStrategy[Any], condition: Any) -> Any:
    """A draw that satisfies ``condition`` (explicitly searched; fails when none exists)."""
    from hypothesis import find

    return find(strategy, condition, settings=settings(max_examples=2000, database=None))


@given(spelled(_ONE_ATOM))
def test_a_spelling_separates_words_by_one_to_three_blanks_and_pads_by_at_most_two(
    text: str,
) -> None:
    inner = text.strip(" \t")
    assert all(1 <= len(run) <= 3 for run in _WHITESPACE_RUN.findall(inner))
    assert len(text) - len(text.lstrip(" \t")) <= 2
    assert len(text) - len(text.rstrip(" \t")) <= 2


def test_a_spelling_reaches_the_ends_of_its_ranges() -> None:
    strategy = spelled(_ONE_ATOM)
    _find(strategy, lambda t: t == t.strip() and " ".join(t.split()) == t)  # single spaces
    _find(strategy, lambda t: any(len(r) == 3 for r in _WHITESPACE_RUN.findall(t.strip())))
    _find(strategy, lambda t: len(t) - len(t.lstrip(" \t")) == 2)


@given(expressions())
def test_expressions_have_one_to_three_atoms_by_default(expression: Expression) -> None:
    assert 1 <= len(expression.atoms) <= 3


def test_expressions_reach_three_atoms() -> None:
    _find(expressions(), lambda e: len(e.atoms) == 3)


@given(contracts())
def test_dimension_ids_stay_within_d1_to_d99(data: dict[str, Any]) -> None:
    ids = [int(d["id"][1:]) for d in data["acceptance_dimensions"]]
    assert all(1 <= i <= 99 for i in ids)


def test_dimension_ids_reach_d1_and_d99() -> None:
    for dialect in ("13", "13.2"):
        for wanted in ("D1", "D99"):
            _find(
                contracts(dialect=dialect),
                lambda c, w=wanted: any(d["id"] == w for d in c["acceptance_dimensions"]),
            )


@given(contracts(dialect="13.2"))
def test_a_13_2_condition_has_one_or_two_atoms(data: dict[str, Any]) -> None:
    for condition in data["failure_conditions"]:
        assert 1 <= condition["expression"].count(" AND ") + 1 <= 2


def test_a_13_2_condition_reaches_two_atoms() -> None:
    _find(
        contracts(dialect="13.2"),
        lambda c: any(" AND " in f["expression"] for f in c["failure_conditions"]),
    )


def test_a_dissent_has_one_to_four_words() -> None:
    full = load_contract("reviewer/full")
    dissents = phase2_documents(full).map(
        lambda text: [
            line.removeprefix("- reason:").strip()
            for line in text.splitlines()
            if line.startswith("- reason:")
        ]
    )
    _find(dissents, lambda found: any(len(d.split()) == 4 for d in found))
    _find(dissents, lambda found: any(len(d.split()) == 1 for d in found))


def test_a_dissent_never_has_more_than_four_words() -> None:
    dissents = phase2_documents(load_contract("reviewer/full")).map(
        lambda text: [
            line.removeprefix("- reason:").split()
            for line in text.splitlines()
            if line.startswith("- reason:")
        ]
    )
    with pytest.raises(NoSuchExample):  # searched, not sampled: a long one would be found
        _find(dissents, lambda found: any(len(words) > 4 for words in found))


def test_a_13_2_condition_can_have_a_single_atom_and_a_dimension_fatal_atom() -> None:
    strategy = contracts(dialect="13.2")
    _find(strategy, lambda c: any(" AND " not in f["expression"] for f in c["failure_conditions"]))
    _find(
        strategy,
        lambda c: any(
            re.match(r"D\d+ has a fatal block", atom)
            for f in c["failure_conditions"]
            for atom in f["expression"].split(" AND ")
        ),
    )


FULL_13_2 = load_contract("13.2/reviewer/full")


@given(matrices(FULL_13_2))
def test_13_2_matrices_give_classed_blocks_on_mandatory_dimensions_only(
    matrix: dict[str, Any],
) -> None:
    priorities = {d.id: d.priority for d in FULL_13_2.dimensions}
    for dim, seats in matrix.items():
        for value in seats.values():
            if value.startswith("block"):
                assert (value != "block") == (priorities[dim] == "mandatory")
    decide(FULL_13_2, matrix)  # and every one decides


@settings(max_examples=5)
@given(rounds_v2(FULL_13_2))
def test_rounds_v2_draws_rounds_of_every_role(drawn: RoundV2) -> None:
    assert isinstance(drawn, RoundV2)
    assert set(drawn.phase1) == set(drawn.phase2) == set(FULL_13_2.roles)


def test_an_empty_directory_error_keeps_its_path() -> None:
    error = EmptyDirectory("reviews/", "*.phase1.md")
    assert error.path == "reviews/" and "reviews/: is a directory" in error.message


def test_a_lazy_package_refuses_a_name_it_does_not_export() -> None:
    import kernel.contract

    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        kernel.contract.no_such_name  # noqa: B018


def _most_atoms(data: dict[str, Any]) -> int:
    return max(len(parse_expression(c["expression"]).atoms) for c in data["failure_conditions"])


def test_a_13_condition_reaches_two_atoms() -> None:
    _find(contracts(), lambda c: _most_atoms(c) == 2)


@given(contracts())
def test_a_13_condition_has_at_most_two_atoms(data: dict[str, Any]) -> None:
    assert 1 <= _most_atoms(data) <= 2
