"""How often, under dialect 13.2: the exact probability of each outcome when every eligible
seat gives each dimension a value independently, with probabilities per role, per dimension
and per value.

A seat's values on a dimension are those the 13.2 analyzer counts
(:func:`~kernel.analysis.dimensionwise.seat_values`): ``pass``, ``warn``, ``block`` on a
dimension that is not mandatory, and ``pass``, ``warn``, ``block:repairable``,
``block:fatal`` on a mandatory one. A distribution names ``pass``, ``warn`` and ``block``
(adding up to 1), and may split ``block`` by naming ``block:fatal`` and/or
``block:repairable`` (``block`` may then be left out: it is their sum). A mandatory
dimension needs the split: a distribution whose blocks could be either class, read for a
mandatory dimension, is refused rather than guessed.

A prior maps *keys* to distributions: ``*`` (every seat of every dimension), a dimension id
(``D1``), a role (``methodology``) or both (``D1/methodology``). The seat of role ``r`` on
dimension ``d`` reads ``d/r``, else ``d``, else ``r``, else ``*``: the dimension's own
distribution comes before the role's.

The count is the 13.2 analyzer's, weighted: each dimension's seat assignments are weighed
by the product of their seats' probabilities, scaled to integers, so the arithmetic is exact
and every result a :class:`fractions.Fraction`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

import attrs

from kernel.analysis.budget import Budget, int_steps
from kernel.analysis.dimensionwise import seat_values, weighted_outcomes
from kernel.analysis.exact import (
    MAX_DENOMINATOR_BITS,
    MAX_PROBABILITY_CHARS,
    Probabilities,
    assignments,
)
from kernel.analysis.exact import probability as _probability
from kernel.analysis.exact import shown_value as _shown
from kernel.contract.dialects import ROLES
from kernel.contract.model import Contract
from kernel.errors import PriorError
from kernel.io import label
from kernel.strict import shown

__all__ = [
    "SEAT_VALUES",
    "SeatPrior",
    "parse_seat_prior",
    "seat_prior_from_json",
    "seat_probabilities",
]

#: The value names a distribution may give.
SEAT_VALUES: Final = ("pass", "warn", "block", "block:repairable", "block:fatal")
DEFAULT: Final = "*"
_SPLIT: Final = ("block:repairable", "block:fatal")

#: A distribution as written: value name -> probability (``block`` filled in).
SeatDistribution = Mapping[str, Fraction]


def _distribution(scores: Mapping[Any, object], where: str) -> dict[str, Fraction]:
    unknown = [k for k in scores if k not in SEAT_VALUES]
    if unknown:
        raise PriorError(
            f"{where}: unknown value {_shown(unknown[0])} (expected {', '.join(SEAT_VALUES)})"
        )
    dist = {k: _probability(v, f"{where}.{k}") for k, v in scores.items()}
    split = sum((dist[k] for k in _SPLIT if k in dist), Fraction(0))
    if "block" not in dist:
        dist["block"] = split
    elif split > dist["block"]:
        raise PriorError(
            f"{where}: block:fatal and block:repairable add up to {split}, more than "
            f"block={dist['block']}"
        )
    total = dist.get("pass", Fraction(0)) + dist.get("warn", Fraction(0)) + dist["block"]
    if total != 1:
        raise PriorError(f"{where}: pass, warn and block add up to {total}, not 1")
    return dist


def _key(key: object, where: str) -> str:
    if not isinstance(key, str):
        raise PriorError(f"{where}: key {_shown(key)} is not *, a dimension id or a role")
    dim, slash, role = key.partition("/")
    dim_ok = dim == DEFAULT or (dim[:1] == "D" and dim[1:].isdecimal() and len(dim) <= 3)
    if not (dim_ok and dim != DEFAULT and role in ROLES if slash else dim_ok or key in ROLES):
        raise PriorError(
            f"{where}: key {shown(key)} is not *, a dimension id (D1), a role "
            f"({', '.join(ROLES)}) or a dimension and a role (D1/methodology)"
        )
    return key


@attrs.frozen
class SeatPrior:
    """Value probabilities of a 13.2 panel's seats, by key (see the module's docstring)."""

    distributions: Mapping[str, SeatDistribution]

    def of(self, dim_id: str, role: str) -> SeatDistribution | None:
        """The distribution the seat of ``role`` on ``dim_id`` reads, or ``None``."""
        for key in (f"{dim_id}/{role}", dim_id, role, DEFAULT):
            found = self.distributions.get(key)
            if found is not None:
                return found
        return None

    def to_dict(self) -> dict[str, dict[str, str]]:
        return {k: {v: str(p) for v, p in d.items()} for k, d in self.distributions.items()}


def parse_seat_prior(text: str) -> SeatPrior:
    """One distribution for every seat: ``pass=0.7,warn=0.2,block=0.1,block:fatal=0.02``."""
    if not isinstance(text, str):
        raise PriorError(f"--prior: expected text, got {type(text).__name__}")
    if len(text) > 8 * MAX_PROBABILITY_CHARS:
        raise PriorError(f"--prior: {len(text)} characters; a prior is written in fewer")
    scores = assignments(text, "value")
    return SeatPrior({DEFAULT: _distribution(scores, "--prior")})


def seat_prior_from_json(data: object, source: str = "prior") -> SeatPrior:
    """A prior file: one distribution (``{"pass": .., "warn": .., "block": ..}``), or an
    object of distributions by key (``*``, ``D1``, ``methodology``, ``D1/methodology``)."""
    source = label(source, "source")
    if not isinstance(data, Mapping) or not data:
        raise PriorError(f"{source}: expected a JSON object of value probabilities")
    if all(k in SEAT_VALUES for k in data):
        return SeatPrior({DEFAULT: _distribution(data, source)})
    out: dict[str, dict[str, Fraction]] = {}
    for key, value in data.items():
        key = _key(key, source)
        if not isinstance(value, Mapping):
            raise PriorError(f"{source}.{key}: expected an object of value probabilities")
        out[key] = _distribution(value, f"{source}.{key}")
    return SeatPrior(out)


def _exact(dist: object) -> bool:
    """A distribution as the parsers give it: exact, with ``block``, adding up to 1."""
    if not isinstance(dist, Mapping) or "block" not in dist or not set(dist) <= set(SEAT_VALUES):
        return False
    values = list(dist.values())
    if not all(isinstance(q, Fraction | int) and not isinstance(q, bool) for q in values):
        return False
    if not all(0 <= q <= 1 for q in values):
        return False
    split = sum(dist.get(k, 0) for k in _SPLIT)
    return bool(dist.get("pass", 0) + dist.get("warn", 0) + dist["block"] == 1) and bool(
        split <= dist["block"]
    )


def _check(contract: Contract, prior: object) -> SeatPrior:
    if not isinstance(prior, SeatPrior):
        raise PriorError(
            "prior: a 13.2 contract takes a SeatPrior (parse_seat_prior, seat_prior_from_json), "
            f"got {type(prior).__name__}"
        )
    if not isinstance(prior.distributions, Mapping):
        raise PriorError("prior: distributions must map keys to distributions")
    for key, dist in prior.distributions.items():
        _key(key, "prior")
        if not _exact(dist):
            raise PriorError(
                f"prior.{key}: expected value -> Fraction, with block given, adding up to 1; "
                f"got {_shown(dist)}"
            )
    ids = set(contract.dimension_ids)
    for key in prior.distributions:
        dim = key.partition("/")[0]
        if dim != DEFAULT and dim not in ROLES and dim not in ids:
            raise PriorError(f"prior: {contract.contract_id} has no dimension {dim}")
        role = key.partition("/")[2]
        if role and not any(d.id == dim and role in d.eligible_roles for d in contract.dimensions):
            raise PriorError(f"prior: role {role} is not eligible on {dim}")
    return prior


def _seat_weights(contract: Contract, prior: SeatPrior) -> tuple[list[list[dict[str, int]]], int]:
    """Per dimension, per eligible seat: value -> integer weight; and the denominator."""
    weights: list[list[dict[str, int]]] = []
    denominator = 1
    for d in contract.dimensions:
        seats = []
        for role in d.eligible_roles:
            dist = prior.of(d.id, role)
            if dist is None:
                raise PriorError(
                    f"prior: no distribution for {d.id}/{role} (give {d.id}/{role}, {d.id}, "
                    f"{role} or {DEFAULT})"
                )
            values = seat_values(d.priority)
            if d.priority == "mandatory":
                if dist["block"] and not any(k in dist for k in _SPLIT):
                    raise PriorError(
                        f"prior: {d.id} is mandatory: say how its blocks split, with "
                        "block:fatal (or block:repairable); the rest of block is the other class"
                    )
                fatal = dist.get("block:fatal", dist["block"] - dist.get("block:repairable", 0))
                probs = {
                    "pass": dist.get("pass", Fraction(0)),
                    "warn": dist.get("warn", Fraction(0)),
                    "block:repairable": dist["block"] - fatal,
                    "block:fatal": fatal,
                }
            else:
                probs = {v: dist.get(v, Fraction(0)) for v in values}
            scale = math.lcm(*(Fraction(p).denominator for p in probs.values()))
            seats.append({v: int(probs[v] * scale) for v in values})
            denominator *= scale
        weights.append(seats)
    return weights, denominator


def seat_probabilities(
    contract: Contract, prior: SeatPrior | object, budget: Budget | None = None
) -> Probabilities:
    """The exact probability that each condition of a 13.2 reviewer contract decides, and
    of the fallback (``none``), under ``prior``; work past ``budget`` is refused first."""
    prior = _check(contract, prior)
    weights, denominator = _seat_weights(contract, prior)
    bits = denominator.bit_length()
    if bits > MAX_DENOMINATOR_BITS:
        raise PriorError(
            f"prior: the exact probabilities would have a denominator of {bits} bits; at most "
            f"{MAX_DENOMINATOR_BITS}: use probabilities with smaller denominators"
        )
    budget = Budget() if budget is None else budget
    totals = weighted_outcomes(contract, weights, budget, int_steps(bits))
    return Probabilities(
        contract.contract_id,
        prior,
        {k: Fraction(v, denominator) for k, v in totals.items()},
    )
