"""What both dialects' priors share: the probability literal, the limits on exact
arithmetic, and the result value (:class:`Probabilities`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final, Protocol

import attrs

from kernel.errors import PriorError

__all__ = [
    "MAX_DENOMINATOR_BITS",
    "MAX_PROBABILITY_CHARS",
    "PriorLike",
    "Probabilities",
    "assignments",
    "probability",
    "shown_value",
]

#: The longest probability literal accepted (``0.1234…`` or ``p/q``): exact arithmetic on
#: longer ones only makes numbers too large to print.
MAX_PROBABILITY_CHARS: Final = 40

#: At most this many bits in the common denominator of every outcome's probability (its
#: decimal form stays below Python's 4,300-digit conversion limit).
MAX_DENOMINATOR_BITS: Final = 13_000

_NUMBER = re.compile(r"\s*([0-9]+(\.[0-9]*)?|\.[0-9]+|[0-9]+/[0-9]+)\s*\Z")


def probability(value: object, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise PriorError(f"{where}: expected a probability, got {shown_value(value)}")
    if isinstance(value, int) and not 0 <= value <= 1:
        raise PriorError(f"{where}: probability {shown_value(value)} is not between 0 and 1")
    text = repr(value) if isinstance(value, float) else str(value)
    if len(text) > MAX_PROBABILITY_CHARS:
        raise PriorError(
            f"{where}: {shown_value(value)} has {len(text)} characters; a probability is written "
            f"in at most {MAX_PROBABILITY_CHARS}"
        )
    if not _NUMBER.match(text):
        raise PriorError(f"{where}: {shown_value(value)} is not a probability (0.25, 1/4, ...)")
    _, slash, denominator = text.strip().partition("/")
    if slash and int(denominator) == 0:
        raise PriorError(f"{where}: {shown_value(value)} divides by zero")
    p = Fraction(text.strip())
    if p > 1:
        raise PriorError(f"{where}: probability {shown_value(value)} is greater than 1")
    return p


def shown_value(value: object) -> str:
    """``repr`` cut to a readable length (and safe for integers of any size)."""
    if isinstance(value, int) and value.bit_length() > 128:
        return f"an integer of {value.bit_length()} bits"
    try:
        text = repr(value)
    except ValueError:  # an integer inside, over Python's digit limit
        return f"a {type(value).__name__} too large to print"
    return text if len(text) <= 40 else text[:36] + "...'"


class PriorLike(Protocol):
    """What a prior shows of itself: a Schema 13 :class:`Prior`, or a 13.2
    :class:`~kernel.analysis.seat_prior.SeatPrior`."""

    def to_dict(self) -> dict[str, Any]: ...


@attrs.frozen
class Probabilities:
    contract_id: str
    prior: PriorLike
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


def assignments(text: str, what: str) -> dict[str, str]:
    """``--prior`` text split into ``name=probability`` parts (the probabilities still text):
    each part must name something, and once."""
    from kernel.strict import shown

    found: dict[str, str] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or not name:
            raise PriorError(f"--prior: expected {what}=probability, got {shown(part.strip())}")
        if name in found:
            raise PriorError(f"--prior: {name} given twice")
        found[name] = value
    return found
