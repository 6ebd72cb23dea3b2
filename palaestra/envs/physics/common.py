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

import re
from collections.abc import Mapping
from fractions import Fraction

from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

MAX_DIGITS = 160  # digits in one answer: capacitor networks past the presets reach ~80 (60 refused their references)
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


_NUM = r"(?:\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)?)"
_COMPLEX_FORMS = (
    re.compile(rf"(?P<re>[+-]?{_NUM})?(?P<sign>[+-])(?P<im>{_NUM})?\*?[ij]"),  # 3 - 4j, 3 - j, -4j
    re.compile(rf"(?P<re>[+-]?{_NUM})?(?P<sign>[+-])[ij]\*?(?P<im>{_NUM})"),  # 3 - j4
    re.compile(rf"(?P<re>[+-]?{_NUM})"),  # purely real
)
_UNIT_TAIL = ("ohms", "ohm", "Ω", "\\Omega")


def read_complex(text: str) -> tuple[Fraction, Fraction] | None:
    """``(real part, imaginary part)`` of an exact complex number written ``a + bj`` (or ``i``, ``jb``), optionally
    named (``Z = ...``) and followed by ohms; else None. Input is bounded before the fixed pattern runs."""
    return read_answer(text, _complex_core) if isinstance(text, str) and len(text) <= 300 else None


def _complex_core(text: str) -> tuple[Fraction, Fraction] | None:
    s = strip_wrappers(unify(text)).strip()
    for name in ("Z =", "Z=", "I =", "I="):
        if s.startswith(name):
            s = s[len(name):]
    s = s.replace(" ", "").replace("·", "").replace("\\cdot", "")
    for unit in _UNIT_TAIL:
        if s.endswith(unit):
            s = s[: -len(unit)]
            break
    if s.startswith(("j", "i")) or (s[:1] in "+-" and s[1:2] in ("j", "i")):
        s = "0" + ("+" if s[0] in "ji" else "") + s
    elif s.endswith(("j", "i")) and not any(c in s[1:] for c in "+-"):
        s = "0+" + s if not s.startswith("-") else "0" + s
    for form in _COMPLEX_FORMS:
        match = form.fullmatch(s)
        if match is None:
            continue
        groups = match.groupdict()
        real = Fraction(groups["re"]) if groups.get("re") else Fraction(0)
        if "sign" not in groups:
            return real, Fraction(0)
        size = Fraction(groups["im"]) if groups.get("im") else Fraction(1)
        return real, size if groups["sign"] == "+" else -size
    return None
