"""Exact ratios: thresholds are rationals, never binary floats (companions §B)."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import Final

from kernel.errors import KernelError
from kernel.io import label
from kernel.strict import shown

__all__ = ["MAX_DIGITS", "RatioLike", "to_fraction", "to_ratio"]

RatioLike = Fraction | int | float | str | Decimal

#: Longest numerator, denominator, mantissa or exponent a ratio text may have.
MAX_DIGITS: Final = 50

_TOO_LONG: Final = 10**MAX_DIGITS
_DECIMAL: Final = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
_QUOTIENT: Final = re.compile(r"([+-]?[0-9]+)/([0-9]+)")


def _from_text(text: str, what: str) -> Fraction:
    body = text.strip()
    quotient = _QUOTIENT.fullmatch(body)
    if quotient is not None:
        num, den = quotient.group(1).lstrip("+-"), quotient.group(2)
        if len(num) > MAX_DIGITS or len(den) > MAX_DIGITS:
            raise KernelError(f"{what}: {shown(text)} has more than {MAX_DIGITS} digits")
        if int(den) == 0:
            raise KernelError(f"{what}: {shown(text)} divides by zero")
        return Fraction(int(quotient.group(1)), int(den))
    decimal = _DECIMAL.fullmatch(body)
    if decimal is None:
        raise KernelError(
            f"{what}: {shown(text)} is not a decimal (like 0.67) or a quotient (like 2/3)"
        )
    mantissa, _, exponent = body.lower().partition("e")
    digits = sum(ch.isdigit() for ch in mantissa)
    if (
        digits > MAX_DIGITS
        or len(exponent.lstrip("+-")) > 3
        or abs(int(exponent or 0)) > MAX_DIGITS
    ):
        raise KernelError(f"{what}: {shown(text)} is too long or its exponent too large")
    return Fraction(body)


def to_fraction(value: object, what: str = "ratio") -> Fraction:
    """Read ``value`` exactly as a rational.

    ``Fraction`` and ``int`` as they are (each term under ``MAX_DIGITS`` digits); ``str`` as a
    decimal (``"0.67"`` is 67/100, exponents allowed) or a quotient (``"2/3"``); ``Decimal``
    exactly; ``float`` as its shortest ``repr``
    (``0.1`` is 1/10, not the binary 3602879701896397/36028797018963968). Booleans, NaN,
    infinities and anything else raise ``KernelError``.
    """
    what = label(what, "what")
    if isinstance(value, bool):
        raise KernelError(f"{what}: a boolean is not a number")
    if isinstance(value, Fraction | int):
        ratio = Fraction(value)
        if max(abs(ratio.numerator), ratio.denominator) >= _TOO_LONG:
            raise KernelError(f"{what}: {_written(ratio)} has more than {MAX_DIGITS} digits")
        return ratio
    if isinstance(value, float):
        if not math.isfinite(value):
            raise KernelError(f"{what}: {shown(value)} is not a finite number")
        return Fraction(repr(value))
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise KernelError(f"{what}: {value} is not a finite number")
        return _from_text(str(value), what)
    if isinstance(value, str):
        return _from_text(value, what)
    raise KernelError(
        f"{what}: expected a Fraction, int, float, decimal or str, got {type(value).__name__}"
    )


def to_ratio(value: object, what: str, *, allow_zero: bool = False) -> Fraction:
    """``to_fraction`` restricted to (0, 1], or [0, 1] with ``allow_zero``."""
    ratio = to_fraction(value, what)
    low_ok = ratio >= 0 if allow_zero else ratio > 0
    if not (low_ok and ratio <= 1):
        interval = "[0, 1]" if allow_zero else "(0, 1]"
        raise KernelError(f"{what}: {_written(ratio)} is outside {interval}")
    return ratio


def _written(ratio: Fraction) -> str:
    """``3/2`` as it reads, or its short repr when its terms are too long to write."""
    bits = max(ratio.numerator.bit_length(), ratio.denominator.bit_length())
    return str(ratio) if bits <= 200 else f"a number with terms of {bits} bits"
