"""Reading numeric final answers: integers, decimals, fractions, a few LaTeX forms.

Only numerals are accepted, never expressions: an arithmetic task must not
accept the question's own expression typed back as the "answer".

Example::

    >>> parse_number("-7/2"), parse_number("1,234"), parse_number(r"\\frac{3}{4}"), parse_number("2+2")
    (Fraction(-7, 2), Fraction(1234, 1), Fraction(3, 4), None)
    >>> format_decimal(Fraction(-1, 4)), format_decimal(Fraction(535, 7))
    ('-0.25', '535/7')
"""

from __future__ import annotations

import re
from fractions import Fraction

MAX_NUMBER_CHARS = 80
_DECIMAL = r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_NUMERAL = re.compile(rf"^({_DECIMAL})(?:\s*/\s*({_DECIMAL}))?$")
_LATEX_FRAC = re.compile(r"^([+-]?)\\[dt]?frac\{\s*([+-]?\d+)\s*\}\{\s*([+-]?\d+)\s*\}$")
_PREFIX = re.compile(r"^\s*(?:[a-zA-Z]\s*=\s*)")


def parse_number(text: str) -> Fraction | None:
    """An exact number from a numeral, or ``None``."""
    if not isinstance(text, str) or len(text) > MAX_NUMBER_CHARS:
        return None
    s = _PREFIX.sub("", text.strip().strip("$").strip().rstrip(".")).strip().replace("−", "-")
    latex = _LATEX_FRAC.match(s)
    if latex:
        sign, num, den = latex.groups()
        return None if int(den) == 0 else Fraction(int(sign + num), int(den))
    match = _NUMERAL.match(s)
    if not match:
        return None
    num = Fraction(match.group(1).replace(",", ""))
    if match.group(2) is None:
        return num
    den = Fraction(match.group(2).replace(",", ""))
    return None if den == 0 else num / den


def format_number(value: Fraction) -> str:
    """Canonical text for an exact number: ``12``, ``-7/2``."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def format_decimal(value: Fraction) -> str:
    """An exact terminating decimal (``12.5``, ``-0.25``) where one exists, else a fraction (``535/7``)."""
    for places in range(12):
        scaled = value * 10**places
        if scaled.denominator == 1:
            digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
            whole, fraction = digits[: len(digits) - places], digits[len(digits) - places :]
            return ("-" if value < 0 else "") + whole + (f".{fraction}" if fraction else "")
    return format_number(value)


def same_number(text: str, expected: Fraction | int) -> bool:
    value = parse_number(text)
    return value is not None and value == Fraction(expected)
