"""What the round-3 physics environments share: reading exact quantities with units, and their spellings.

Not an environment (nothing here is registered). An answer is one exact number in the asked unit
(``-60/7``, ``-60/7 cm``, ``8.5 °C``) or several named ones (``v = -60/7 cm, m = 3/7``), read through
the shared readers (:func:`palaestra.verifiers.numeric.read_exact`, :func:`read_values`), so wrappers,
``Answer:`` lead-ins and a closing full stop are accepted, and hedges and retractions are not.

Example::

    >>> read_quantity("12.5 cm", {"cm": 1, "m": 100}), read_quantity("0.125 m", {"cm": 1, "m": 100})
    (Fraction(25, 2), Fraction(25, 2))
    >>> read_quantities("v = 30 cm, m = -2", {"v": {"cm": 1}, "m": {}})
    {'v': Fraction(30, 1), 'm': Fraction(-2, 1)}
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

MAX_DIGITS = 60
Units = Mapping[str, Fraction | int]


def read_quantity(text: str, units: Units) -> Fraction | None:
    """The exact number written, converted to the asked unit (a unit in ``units`` or none), else None."""
    return read_exact(text, units=dict(units) or None, mixed=True, max_digits=MAX_DIGITS)


def read_quantities(text: str, units: Mapping[str, Units]) -> dict[str, Fraction] | None:
    """``{name: value}`` for every name of ``units`` (each read in its own accepted units), else None."""
    raw = read_values(text, list(units), lambda s: s.strip() or None)
    if raw is None:
        return None
    values = {name: read_quantity(str(raw[name]), units[name]) for name in units}
    return None if any(v is None for v in values.values()) else values  # type: ignore[return-value]


def fraction_text(value: Fraction) -> str:
    """The exact value as an integer or a reduced fraction (``-60/7``)."""
    return format_fraction(value)


def terminating(value: Fraction) -> bool:
    """Whether the value has a finite decimal expansion (its denominator has only the factors 2 and 5)."""
    d = value.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def decimal_text(value: Fraction) -> str | None:
    """The exact decimal spelling of a terminating value (``8.5``), else None."""
    if not terminating(value):
        return None
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
    text = f"{abs(value) * 10**places // 1}"
    if places:
        text = text.rjust(places + 1, "0")
        text = f"{text[:-places]}.{text[-places:]}"
    return ("-" if value < 0 else "") + text
