"""How often: the exact probability of each outcome when reviewers score independently.

Every reviewer scores dimension ``d`` ``pass``/``warn``/``block`` with the prior's
probabilities, independently of the other dimensions and reviewers. The signature method of
:mod:`kernel.analysis.space` runs with weights instead of counts: each dimension's
probabilities are scaled to integers over a common denominator, so the whole computation is
exact integer arithmetic and the results are :class:`fractions.Fraction` values.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

import attrs

from kernel.analysis.columns import Progress, column_table
from kernel.analysis.panel import spread
from kernel.analysis.result import NONE
from kernel.analysis.space import state_decision
from kernel.contract.model import Contract, load_contract
from kernel.errors import PriorError
from kernel.expression.ast import SCORES

__all__ = [
    "Distribution",
    "Prior",
    "PriorError",
    "Probabilities",
    "parse_prior",
    "prior_from_json",
    "probabilities",
]

#: (pass, warn, block) probabilities.
Distribution = tuple[Fraction, Fraction, Fraction]

#: The key of a prior file's default distribution (dimensions not listed by id).
DEFAULT: Final = "*"

_NUMBER = re.compile(r"\s*([0-9]+(\.[0-9]*)?|\.[0-9]+|[0-9]+/[0-9]+)\s*\Z")


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


def _probability(value: object, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise PriorError(f"{where}: expected a probability, got {value!r}")
    text = repr(value) if isinstance(value, float) else str(value)
    if not _NUMBER.match(text):
        raise PriorError(f"{where}: {value!r} is not a probability (0.25, 1/4, ...)")
    p = Fraction(text.strip())
    if p > 1:
        raise PriorError(f"{where}: probability {value!r} is greater than 1")
    return p


def _distribution(scores: Mapping[str, object], where: str) -> Distribution:
    unknown = [k for k in scores if k not in SCORES]
    if unknown:
        raise PriorError(f"{where}: unknown score {unknown[0]!r} (expected pass, warn, block)")
    p = tuple(
        _probability(scores[s], f"{where}.{s}") if s in scores else Fraction(0) for s in SCORES
    )
    if sum(p) != 1:
        raise PriorError(f"{where}: probabilities add up to {sum(p)}, not 1")
    return p[0], p[1], p[2]


def parse_prior(text: str) -> Prior:
    """One distribution for every dimension: ``pass=0.7,warn=0.2,block=0.1`` (omitted → 0)."""
    scores: dict[str, str] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or not name:
            raise PriorError(f"--prior: expected score=probability, got {part.strip()!r}")
        if name in scores:
            raise PriorError(f"--prior: {name} given twice")
        scores[name] = value
    return Prior(default=_distribution(scores, "--prior"))


def prior_from_json(data: object, source: str = "prior") -> Prior:
    """A prior file: ``{"pass": .., "warn": .., "block": ..}`` for every dimension, or
    ``{"D1": {...}, "D2": {...}, "*": {...}}`` per dimension id (``*``: the rest)."""
    if not isinstance(data, Mapping) or not data:
        raise PriorError(f"{source}: expected a JSON object of score probabilities")
    if all(k in SCORES for k in data):
        return Prior(default=_distribution(data, source))
    dims: dict[str, Distribution] = {}
    default = None
    for key, value in data.items():
        if not isinstance(value, Mapping):
            raise PriorError(f"{source}.{key}: expected an object of score probabilities")
        dist = _distribution(value, f"{source}.{key}")
        if key == DEFAULT:
            default = dist
        else:
            dims[key] = dist
    return Prior(default=default, dimensions=dims)


@attrs.frozen
class Probabilities:
    contract_id: str
    prior: Prior
    #: outcome key (condition id, or ``none``) → exact probability; contract order, then none.
    outcomes: Mapping[str, Fraction]

    def to_dict(self) -> dict[str, Any]:
        return {
            "prior": self.prior.to_dict(),
            "precision": "exact fractions; 'probability' is the nearest double",
            "outcomes": {
                k: {"exact": str(p), "probability": float(p)} for k, p in self.outcomes.items()
            },
        }


def probabilities(
    contract: Contract | Mapping[str, Any] | str,
    prior: Prior,
    progress: Progress | None = None,
) -> Probabilities:
    """The exact probability that each condition decides, and of the fallback (``none``)."""
    contract = load_contract(contract)
    unknown = sorted(set(prior.dimensions) - set(contract.dimension_ids))
    if unknown:
        raise PriorError(f"prior: {contract.contract_id} has no dimension {unknown[0]}")
    if prior.default is None:
        missing = [d for d in contract.dimension_ids if d not in prior.dimensions]
        if missing:
            raise PriorError(
                f"prior: no distribution for dimension(s) {', '.join(missing)} "
                f"(and no default {DEFAULT!r})"
            )
    dists = [prior.of(d.id) for d in contract.dimensions]
    table = column_table(contract, progress, group=dists)
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
    layers = spread(table.signatures, by_sig, table.costs, caps, n, progress)
    total = {c.condition_id: 0 for c in contract.conditions} | {NONE: 0}
    for state, w in layers.weights[n].items():
        d = state_decision(contract, layers.counts(state))
        total[NONE if d is None or d.condition_id is None else d.condition_id] += w
    scale = denominator**n
    return Probabilities(
        contract.contract_id, prior, {k: Fraction(v, scale) for k, v in total.items()}
    )
