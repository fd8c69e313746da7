"""The 13.2 prior: exact outcome probabilities per role, per dimension and per value, equal
to the weighted enumeration of every seat assignment; and every malformed prior refused."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from test_analysis_13_2 import _every_matrix

from kernel import decide, load_contract, shipped_template
from kernel.analysis import PriorError, probabilities
from kernel.analysis.dimensionwise import space_size
from kernel.analysis.seat_prior import SeatPrior, parse_seat_prior, seat_prior_from_json
from kernel.cli import analyze as command
from kernel.contract.model import Contract
from kernel.testing import contracts

FOCUS = "13.2/reviewer/methodology_focus"


def _weight(prior: SeatPrior, dim: str, role: str, value: str) -> Fraction:
    dist = prior.of(dim, role)
    assert dist is not None
    if value == "block:fatal":
        return dist.get("block:fatal", dist["block"] - dist.get("block:repairable", 0))
    if value == "block:repairable":
        return dist["block"] - _weight(prior, dim, role, "block:fatal")
    return dist.get(value, Fraction(0))


def _brute(contract: Contract, prior: SeatPrior) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for m in _every_matrix(contract):
        w = Fraction(1)
        for dim, seats in m.items():
            for role, value in seats.items():
                w *= _weight(prior, dim, role, value)
        key = decide(contract, m).condition_id or "none"
        out[key] = out.get(key, Fraction(0)) + w
    return out


_P = st.fractions(min_value=0, max_value=1, max_denominator=12)


@st.composite
def _distribution(draw: st.DrawFn) -> dict[str, str]:
    a, b = sorted((draw(_P), draw(_P)))
    block = 1 - b
    fatal = draw(st.fractions(min_value=0, max_value=block, max_denominator=12))
    return {"pass": str(a), "warn": str(b - a), "block": str(block), "block:fatal": str(fatal)}


@given(
    contracts(dialect="13.2", max_dimensions=3, max_conditions=4),
    st.dictionaries(
        st.sampled_from(["D1", "D2", "D3", "eic", "methodology", "da", "D1/methodology"]),
        _distribution(),
        max_size=3,
    ),
    _distribution(),
)
@example(
    shipped_template(FOCUS),
    {"D1/methodology": {"pass": "1/3", "warn": "1/3", "block": "1/3", "block:fatal": "1/9"}},
    {"pass": "1/2", "warn": "1/4", "block": "1/4", "block:fatal": "1/8"},
)
def test_the_probabilities_are_the_weighted_enumeration(
    data: dict[str, Any], keyed: dict[str, dict[str, str]], default: dict[str, str]
) -> None:
    contract = load_contract(data)
    assume(space_size(contract) <= 2000)
    roles = {r for d in contract.dimensions for r in d.eligible_roles}
    ids = set(contract.dimension_ids)
    keyed = {
        k: v
        for k, v in keyed.items()
        if (k.partition("/")[0] in ids or k in roles)
        and (
            "/" not in k
            or any(
                d.id == k.partition("/")[0] and k.partition("/")[2] in d.eligible_roles
                for d in contract.dimensions
            )
        )
    }
    prior = seat_prior_from_json({**keyed, "*": default})
    p = probabilities(contract, prior)
    assert sum(p.outcomes.values()) == 1
    assert {k: q for k, q in p.outcomes.items() if q} == {
        k: q for k, q in _brute(contract, prior).items() if q
    }


def test_the_dimension_comes_before_the_role_and_the_pair_before_both() -> None:
    prior = seat_prior_from_json(
        {
            "*": {"pass": 1},
            "methodology": {"warn": 1},
            "D1": {"block": 1, "block:fatal": "1/2"},
            "D1/eic": {"pass": "1/2", "warn": "1/2"},
        }
    )
    assert prior.of("D2", "methodology") == {"warn": Fraction(1), "block": Fraction(0)}
    assert prior.of("D1", "methodology") == {"block": 1, "block:fatal": Fraction(1, 2)}
    assert prior.of("D1", "eic") == {
        "pass": Fraction(1, 2),
        "warn": Fraction(1, 2),
        "block": 0,
    }
    assert prior.of("D3", "da") == {"pass": Fraction(1), "block": Fraction(0)}


def test_every_seat_passing_for_sure_decides_the_all_pass_outcome() -> None:
    contract = load_contract(FOCUS)
    p = probabilities(contract, parse_seat_prior("pass=1"))
    all_pass = {d.id: dict.fromkeys(d.eligible_roles, "pass") for d in contract.dimensions}
    key = decide(contract, all_pass).condition_id or "none"
    assert p.outcomes[key] == 1 and sum(p.outcomes.values()) == 1


@pytest.mark.parametrize(
    ("prior", "message"),
    [
        ("pass=0.7,warn=0.2,block=0.1", "D1 is mandatory: say how its blocks split"),
        ("pass=0.5,warn=0.2,block=0.1,block:fatal=0.02", "add up to 4/5, not 1"),
        ("pass=0.7,warn=0.2,block=0.1,block:fatal=0.2", "more than block=1/10"),
        ("pass=0.7,warn=0.2,fatal=0.1", "unknown value 'fatal'"),
        ("pass=1,pass=0", "pass given twice"),
        ("pass=" + "1" * 50, "a probability is written in at most"),
    ],
)
def test_a_bad_text_prior_is_refused_with_what_is_wrong(prior: str, message: str) -> None:
    with pytest.raises(PriorError, match=message):
        probabilities(FOCUS, parse_seat_prior(prior))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"D9": {"pass": 1}}, "has no dimension D9"),
        ({"chair": {"pass": 1}}, "key 'chair' is not"),
        ({"D1/da": {"pass": 1}, "*": {"pass": 1}}, "role da is not eligible on D1"),
        ({"D1/*": {"pass": 1}}, "is not"),
        ({"methodology": {"pass": 1}}, "no distribution for D2/eic"),
        ({"*": [1]}, "expected an object of value probabilities"),
        ([], "expected a JSON object"),
    ],
)
def test_a_bad_prior_file_is_refused_with_what_is_wrong(data: Any, message: str) -> None:
    with pytest.raises(PriorError, match=message):
        probabilities(FOCUS, seat_prior_from_json(data))


@pytest.mark.parametrize(
    "distributions",
    [
        {"*": {"pass": 0.5, "warn": 0.5, "block": 0}},  # floats
        {"*": {"pass": Fraction(3, 2), "block": 0}},  # sums to 3/2
        {"*": {"pass": Fraction(1)}},  # no block
        {"*": {"pass": True, "block": 0}},
        {7: {"pass": Fraction(1), "block": 0}},
    ],
)
def test_a_hand_built_seat_prior_is_checked_as_the_parsers_check(distributions: Any) -> None:
    with pytest.raises(PriorError):
        probabilities(FOCUS, SeatPrior(distributions))


def test_a_denominator_past_the_limit_is_refused_before_any_work() -> None:
    tiny = Fraction(1, 2**2000 + 1)  # a hand-built prior: no literal limit applies
    prior = SeatPrior({"*": {"pass": tiny, "block": 1 - tiny, "block:fatal": Fraction(0)}})
    with pytest.raises(PriorError, match=r"denominator of [0-9]+ bits; at most 13000"):
        probabilities("13.2/reviewer/full", prior)


def test_the_command_prints_the_probabilities_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prior = "pass=1/2,warn=1/4,block=1/4,block:fatal=1/8"
    assert command.main([FOCUS, "--prior", prior]) == 0
    out = capsys.readouterr().out
    exact = probabilities(FOCUS, parse_seat_prior(prior)).outcomes
    assert "probabilities (prior: every dimension: pass=1/2, warn=1/4, block=1/4, " in out
    for key, q in exact.items():
        assert f"\n  {key:<8} {float(q):.6g}\n" in out
    assert command.main([FOCUS, "--prior", prior, "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["probabilities"]["outcomes"] == {
        k: {"exact": str(q), "probability": float(q)} for k, q in exact.items()
    }
    page = tmp_path / "p.html"
    assert command.main([FOCUS, "--prior", prior, "--format", "html", "-o", str(page)]) == 0
    assert "Probabilities under the prior" in page.read_text()
    file = tmp_path / "prior.json"
    file.write_text(
        json.dumps({"*": {"pass": "1/2", "warn": "1/2"}, "D1": {"block": 1, "block:fatal": 1}})
    )
    assert command.main([FOCUS, "--prior-file", str(file), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["probabilities"]["prior"]["D1"] == {
        "block": "1",
        "block:fatal": "1",
    }


def test_the_command_refuses_a_mandatory_block_without_its_class(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert command.main([FOCUS, "--prior", "pass=0.7,warn=0.2,block=0.1"]) == 2
    err = capsys.readouterr().err
    assert "D1 is mandatory: say how its blocks split" in err
