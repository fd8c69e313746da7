"""How often: the exact probability of each outcome when reviewers score independently.

Every reviewer scores dimension ``d`` ``pass``/``warn``/``block`` with the prior's
probabilities, independently of the other dimensions and reviewers. The signature method of
:mod:`kernel.analysis.space` runs with weights instead of counts: each dimension's
probabilities are scaled to integers over a common denominator, so the whole computation is
exact integer arithmetic and the results are :class:`fractions.Fraction` values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

import attrs

from kernel.analysis.budget import Budget, check_cells, checked_budget, checked_progress
from kernel.analysis.columns import Progress, column_table, columns_of
from kernel.analysis.exact import (
    MAX_DENOMINATOR_BITS,
    MAX_PROBABILITY_CHARS,
    PriorLike,
    Probabilities,
    assignments,
)
from kernel.analysis.exact import probability as _probability
from kernel.analysis.exact import shown_value as _shown
from kernel.analysis.panel import spread
from kernel.analysis.result import NONE
from kernel.analysis.space import verdict
from kernel.contract.model import Contract, load_contract
from kernel.errors import PriorError, PriorTooLarge
from kernel.expression.ast import SCORES
from kernel.io import label
from kernel.strict import shown

__all__ = [
    "MAX_DENOMINATOR_BITS",
    "MAX_PROBABILITY_CHARS",
    "Distribution",
    "Prior",
    "PriorError",
    "PriorLike",
    "Probabilities",
    "parse_prior",
    "prior_distributions",
    "prior_from_json",
    "probabilities",
]

#: (pass, warn, block) probabilities.
Distribution = tuple[Fraction, Fraction, Fraction]

#: The key of a prior file's default distribution (dimensions not listed by id).
DEFAULT: Final = "*"

def _seat_probabilities(contract: Contract, prior: object, budget: Budget) -> Probabilities:
    from kernel.analysis.seat_prior import seat_probabilities

    return seat_probabilities(contract, prior, budget)


#: The prior of each dialect decided per dimension, not by reviewers' columns.
_SEAT_PRIORS: Final = {"13.2": _seat_probabilities}


@attrs.frozen
class Prior:
    """Score probabilities: ``default`` for every dimension not in ``dimensions``."""

    default: Distribution | None = None
    dimensions: Mapping[str, Distribution] = attrs.field(factory=dict)

    def of(self, dim_id: str) -> Distribution:
        found = self.dimensions.get(dim_id, self.default)
        if found is None:
            raise PriorError(f"prior: no distribution for dimension {dim_id} (and no default)")
        return found

    def to_dict(self) -> dict[str, Any]:
        out = {k: _dist_dict(v) for k, v in self.dimensions.items()}
        if self.default is not None:
            out[DEFAULT] = _dist_dict(self.default)
        return out


def _dist_dict(dist: Distribution) -> dict[str, str]:
    return {s: str(p) for s, p in zip(SCORES, dist, strict=True)}


def _distribution(scores: Mapping[Any, object], where: str) -> Distribution:
    unknown = [k for k in scores if k not in SCORES]
    if unknown:
        raise PriorError(
            f"{where}: unknown score {_shown(unknown[0])} (expected pass, warn, block)"
        )
    p = tuple(
        _probability(scores[s], f"{where}.{s}") if s in scores else Fraction(0) for s in SCORES
    )
    if sum(p) != 1:
        raise PriorError(f"{where}: probabilities add up to {sum(p)}, not 1")
    return p[0], p[1], p[2]


def parse_prior(text: str) -> Prior:
    """One distribution for every dimension: ``pass=0.7,warn=0.2,block=0.1`` (omitted → 0)."""
    if not isinstance(text, str):
        raise PriorError(
            f"--prior: expected text like pass=0.7,warn=0.2,block=0.1, got "
            f"{type(text).__name__} (for a mapping use prior_from_json)"
        )
    scores = assignments(text, "score")
    return Prior(default=_distribution(scores, "--prior"))


def prior_from_json(data: object, source: str = "prior") -> Prior:
    """A prior file: ``{"pass": .., "warn": .., "block": ..}`` for every dimension, or
    ``{"D1": {...}, "D2": {...}, "*": {...}}`` per dimension id (``*``: the rest)."""
    source = label(source, "source")
    if not isinstance(data, Mapping) or not data:
        raise PriorError(f"{source}: expected a JSON object of score probabilities")
    if all(k in SCORES for k in data):
        return Prior(default=_distribution(data, source))
    dims: dict[str, Distribution] = {}
    default = None
    for key, value in data.items():
        if not isinstance(key, str):
            raise PriorError(f"{source}: key {_shown(key)} is not a dimension id or {DEFAULT!r}")
        if not isinstance(value, Mapping):
            raise PriorError(f"{source}.{key}: expected an object of score probabilities")
        dist = _distribution(value, f"{source}.{key}")
        if key == DEFAULT:
            default = dist
        else:
            dims[key] = dist
    return Prior(default=default, dimensions=dims)


def _check_prior(prior: object) -> Prior:
    """A :class:`Prior` built by hand holds what the parsers would give: exact distributions."""
    if not isinstance(prior, Prior):
        raise PriorError(
            f"prior: expected a Prior (parse_prior, prior_from_json), got {type(prior).__name__}"
        )
    if not isinstance(prior.dimensions, Mapping):
        raise PriorError("prior: dimensions must map dimension ids to distributions")
    listed = [(DEFAULT, prior.default)] if prior.default is not None else []
    for key, dist in [*listed, *prior.dimensions.items()]:
        if not isinstance(key, str):
            raise PriorError(f"prior: key {_shown(key)} is not a dimension id")
        exact = isinstance(dist, tuple) and len(dist) == 3
        exact = exact and all(
            isinstance(q, Fraction | int) and not isinstance(q, bool) and q >= 0 for q in dist
        )
        if not exact or sum(dist) != 1:
            raise PriorError(
                f"prior.{key}: expected (pass, warn, block) as non-negative Fractions adding "
                f"up to 1, got {_shown(dist)}"
            )
    return prior


def prior_distributions(given: object, contract: Contract) -> list[Distribution]:
    """Per dimension of ``contract`` (in order), the distribution ``given`` gives it, the
    prior checked first (a hand-built :class:`Prior` as the parsers would build it); refused
    at once when the exact probabilities would have a denominator of more than
    :data:`MAX_DENOMINATOR_BITS` bits (unprintable, and slow to compute)."""
    prior = _check_prior(given)
    unknown = sorted(set(prior.dimensions) - set(contract.dimension_ids))
    if unknown:
        raise PriorError(f"prior: {contract.contract_id} has no dimension {unknown[0]}")
    if prior.default is None:
        missing = [d for d in contract.dimension_ids if d not in prior.dimensions]
        if missing:
            raise PriorError(
                f"prior: no distribution for dimension(s) {', '.join(missing)} "
                f"(and no default {shown(DEFAULT)})"
            )
    dists = [prior.of(d.id) for d in contract.dimensions]
    scales = [math.lcm(*(Fraction(q).denominator for q in dist)) for dist in dists]
    bits = contract.panel_size * sum(x.bit_length() for x in scales)
    if bits > MAX_DENOMINATOR_BITS:
        raise PriorTooLarge(
            f"prior: the exact probabilities would have a denominator of about {bits} bits "
            f"({contract.panel_size} reviewers x {len(dists)} dimensions); at most "
            f"{MAX_DENOMINATOR_BITS}: use probabilities with smaller denominators"
        )
    return [(Fraction(a), Fraction(b), Fraction(c)) for a, b, c in dists]


def probabilities(
    contract: Contract | Mapping[str, Any] | str,
    prior: PriorLike,
    progress: Progress | None = None,
    budget: Budget | None = None,
) -> Probabilities:
    """The exact probability that each condition decides, and of the fallback (``none``).

    Under a 13.2 contract ``prior`` is a :class:`~kernel.analysis.seat_prior.SeatPrior`
    (value probabilities per role, per dimension), and the count is the 13.2 analyzer's."""
    loaded = load_contract(contract)
    by_seat = _SEAT_PRIORS.get(loaded.dialect)
    if by_seat is not None:
        return by_seat(loaded, prior, checked_budget(budget, "probabilities"))
    contract = columns_of(loaded, "probabilities")
    budget = checked_budget(budget, "probabilities")
    progress = checked_progress(progress, "probabilities")
    check_cells(contract.contract_id, len(contract.dimensions), contract.panel_size)
    dists = prior_distributions(prior, contract)
    table = column_table(contract, progress, group=dists, budget=budget)
    weight = [1]
    denominator = 1
    for axis in table.axes:
        dist = dists[axis.positions[0]]
        scale = math.lcm(*(q.denominator for q in dist))
        nums = [int(q * scale) for q in dist]
        per_state = [
            m * nums[0] ** a * nums[1] ** b * nums[2] ** c
            for m, (a, b, c) in zip(axis.multiplicity, axis.composition, strict=True)
        ]
        weight = [x * y for x in weight for y in per_state]
        denominator *= scale ** len(axis.positions)
    by_sig = [0] * len(table.signatures)
    for index, w in zip(table.by_index, weight, strict=True):
        by_sig[index] += w
    n = contract.panel_size
    caps = [c.threshold for c in contract.conditions]
    layers = spread(table.signatures, by_sig, table.costs, caps, n, progress, budget=budget)
    total = {c.condition_id: 0 for c in contract.conditions} | {NONE: 0}
    for state, w in layers.final.items():
        total[verdict(contract, layers.fired(state))[0]] += w
    scale = denominator**n
    return Probabilities(
        contract.contract_id, prior, {k: Fraction(v, scale) for k, v in total.items()}
    )
