r"""Exact rational answers that must be written in lowest terms.

:func:`read_lowest_terms` reads a number exactly (:func:`palaestra.verifiers.numeric.read_exact`,
mixed numbers allowed) and also says whether every fraction written in it is reduced:
``3/4``, ``\frac{3}{4}``, ``-\dfrac{3}{4}``, ``1 1/2``, ``1½`` and ``0.75`` are; ``6/8``,
``\frac{6}{8}``, ``4/1``, ``1.5/2`` are not. An integer or a terminating decimal has no
fraction to reduce. This is for prompts that ask for "a fraction in lowest terms";
elsewhere an exact value in any spelling is enough.

Example::

    >>> read_lowest_terms("-\\frac{3}{4}"), read_lowest_terms("6/8"), read_lowest_terms("0.75")
    ((Fraction(-3, 4), True), (Fraction(3, 4), False), (Fraction(3, 4), True))
    >>> read_lowest_terms("3/4 or 1/2")
    (None, False)
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from palaestra.verifiers.normalize import simplify_latex, unify
from palaestra.verifiers.numeric import read_exact

_SLASH = re.compile(r"(\d+(?:[.,]\d+)*)\s*/\s*-?\s*(\d+(?:[.,]\d+)*)")
_LATEX = re.compile(r"\\frac\s*\{\s*-?\s*(\d+(?:[.,]\d+)*)\s*\}\s*\{\s*-?\s*(\d+(?:[.,]\d+)*)\s*\}")
_SHORTHAND = re.compile(r"\\frac\s*(\d)\s*(\d)")
_HALF_BRACED = re.compile(r"\\frac\s*(\d)\s*\{\s*(\d+)\s*\}")  # \frac1{117}
_HALF_BRACED_BELOW = re.compile(r"\\frac\s*\{\s*(\d+)\s*\}\s*(\d)")  # \frac{12}5
MAX_CHARS = 400


def _reduced(numerator: str, denominator: str) -> bool:
    numerator, denominator = numerator.replace(",", ""), denominator.replace(",", "")
    if not numerator.isdigit() or not denominator.isdigit():
        return False  # "1.5/2": a fraction of decimals is not in lowest terms
    top, bottom = int(numerator), int(denominator)
    return bottom > 1 and math.gcd(top, bottom) == 1


def written_fractions_reduced(text: str) -> bool:
    """Whether every fraction spelled in ``text`` (``a/b``, ``\\frac{a}{b}``, ``\\frac ab``) is in lowest terms.

    >>> written_fractions_reduced("1 1/2"), written_fractions_reduced("\\\\frac{2}{4}"), written_fractions_reduced("7")
    (True, False, True)
    """
    if len(text) > MAX_CHARS:
        return False
    s = simplify_latex(unify(text))
    pairs = (_SLASH.findall(s) + _LATEX.findall(s) + _SHORTHAND.findall(s) + _HALF_BRACED.findall(s)
             + _HALF_BRACED_BELOW.findall(s))
    return all(_reduced(a, b) for a, b in pairs)


def read_lowest_terms(text: str) -> tuple[Fraction | None, bool]:
    """``(exact value or None, whether every written fraction is reduced)``.

    Never raises; ``(None, False)`` for unreadable or over-long text.
    """
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None, False
    value = read_exact(text, mixed=True, max_digits=120)
    if value is None:
        return None, False
    return value, written_fractions_reduced(text)


def format_fraction(value: Fraction) -> str:
    """``7/12``, ``-3``: the canonical spelling."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def other_spellings(value: Fraction) -> list[str]:
    """Other ways a careful grader accepts to write ``value`` exactly in lowest terms.

    >>> other_spellings(Fraction(-7, 4))
    ['-\\\\frac{7}{4}', '\\\\frac{-7}{4}', '$-\\\\dfrac{7}{4}$', '-7 / 4', '(-7/4)', '-1 3/4', '-1.75']
    """
    out: list[str] = []
    if value.denominator == 1:
        n = value.numerator
        return [f"{n}.0", f"({n})", f"\\boxed{{{n}}}"]
    sign = "-" if value < 0 else ""
    a, b = abs(value.numerator), value.denominator
    out += [f"{sign}\\frac{{{a}}}{{{b}}}", f"\\frac{{{sign}{a}}}{{{b}}}", f"${sign}\\dfrac{{{a}}}{{{b}}}$",
            f"{sign}{a} / {b}", f"({sign}{a}/{b})"]
    if a > b:
        out.append(f"{sign}{a // b} {a % b}/{b}")
    scaled = value * 10**12
    if scaled.denominator == 1:
        text = f"{abs(value.numerator) / value.denominator:.12f}".rstrip("0")
        if Fraction(text) == abs(value):
            out.append(sign + text)
    return out
