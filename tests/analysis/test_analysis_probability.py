"""probabilities() against brute force, and the prior parsers."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.analysis_brute import brute_probabilities
from support.strategies import contracts

from kernel.analysis import PriorError, parse_prior, prior_from_json, probabilities
from kernel.analysis.probability import Prior
from kernel.contract.model import load_contract

ONE, ZERO = Fraction(1), Fraction(0)

small_contracts = contracts(max_dimensions=3, max_conditions=3, panel_sizes=st.integers(1, 3))


@st.composite
def distributions(draw: st.DrawFn) -> tuple[Fraction, Fraction, Fraction]:
    weights = draw(st.lists(st.integers(0, 5), min_size=3, max_size=3).filter(any))
    total = sum(weights)
    return Fraction(weights[0], total), Fraction(weights[1], total), Fraction(weights[2], total)


@st.composite
def contracts_with_priors(draw: st.DrawFn) -> tuple[dict[str, Any], Prior]:
    data = draw(small_contracts)
    ids = [d["id"] for d in data["acceptance_dimensions"]]
    listed = draw(st.lists(st.sampled_from(ids), unique=True))
    default = draw(distributions()) if len(listed) < len(ids) else draw(st.none())
    return data, Prior(default=default, dimensions={d: draw(distributions()) for d in listed})


@given(contracts_with_priors())
def test_probabilities_match_brute_force(case: tuple[dict[str, Any], Prior]) -> None:
    data, prior = case
    contract = load_contract(data)
    got = probabilities(contract, prior)
    scores = {"pass": 0, "warn": 1, "block": 2}
    expected = brute_probabilities(contract, lambda d, s: prior.of(d)[scores[s]])
    assert {k: v for k, v in got.outcomes.items() if v} == dict(expected)
    assert sum(got.outcomes.values()) == 1
    assert all(v >= 0 for v in got.outcomes.values())


def test_uniform_prior_is_the_share_of_matrices() -> None:
    from kernel.analysis import analyze

    third = Fraction(1, 3)
    got = probabilities("reviewer/full", Prior(default=(third, third, third)))
    a = analyze("reviewer/full")
    assert got.outcomes == {o.key: Fraction(o.matrices, a.space) for o in a.outcomes}


def test_parse_prior() -> None:
    p = parse_prior("pass=0.7, warn=0.2,block=0.1")
    assert p.default == (Fraction(7, 10), Fraction(1, 5), Fraction(1, 10))
    assert parse_prior("pass=1").default == (ONE, ZERO, ZERO)
    assert parse_prior("pass=1/3,warn=2/3").default == (Fraction(1, 3), Fraction(2, 3), ZERO)
    for bad in ["", "pass=0.5", "pass=0.7,warn=0.2,block=0.2", "pass", "pass=x", "fail=1",
                "pass=0.5,pass=0.5", "pass=-0.5,warn=1.5", "pass=nan", "pass=1e0"]:  # fmt: skip
        with pytest.raises(PriorError):
            parse_prior(bad)


def test_prior_from_json() -> None:
    one = prior_from_json({"pass": 0.7, "warn": 0.2, "block": 0.1})
    assert one.default == (Fraction(7, 10), Fraction(1, 5), Fraction(1, 10))
    per = prior_from_json({"D1": {"pass": 1}, "*": {"warn": "1/2", "block": 0.5}})
    assert per.of("D1") == (ONE, ZERO, ZERO)
    assert per.of("D2") == (ZERO, Fraction(1, 2), Fraction(1, 2))
    with pytest.raises(PriorError, match="no distribution for dimension D2"):
        prior_from_json({"D1": {"pass": 1}}).of("D2")
    for bad in [[], {}, {"D1": 1}, {"pass": True, "warn": 0}, {"D1": {"pass": 0.5}}]:
        with pytest.raises(PriorError):
            prior_from_json(bad)
    with pytest.raises(PriorError, match="no dimension D9"):
        probabilities("reviewer/full", prior_from_json({"D9": {"pass": 1}, "*": {"pass": 1}}))
    with pytest.raises(PriorError, match="D2, D3, D4, D5"):
        probabilities("reviewer/full", prior_from_json({"D1": {"pass": 1}}))


def test_to_dict_states_precision() -> None:
    d = probabilities("reviewer/full", parse_prior("pass=0.7,warn=0.2,block=0.1")).to_dict()
    assert set(d["outcomes"]) == {"F1", "F2", "F3", "F0", "none"}
    for v in d["outcomes"].values():
        assert float(Fraction(v["exact"])) == v["probability"]
    assert "exact" in d["precision"]
