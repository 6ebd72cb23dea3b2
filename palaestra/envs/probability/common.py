"""Helpers shared by the probability envs: exact answers, their spellings and near misses.

Example::

    >>> from fractions import Fraction
    >>> value = Fraction(5, 36)
    >>> grade_exact("5/36", value), grade_exact("0.1389", value), grade_exact("10/72", value)
    (True, False, True)
"""

from __future__ import annotations

import random
from fractions import Fraction

from palaestra.core import Verdict
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction, other_spellings

PROBABILITY_EXAMPLES = (Fraction(5, 36), Fraction(7, 12))


def example_for(value: Fraction, examples: tuple[Fraction, ...] = PROBABILITY_EXAMPLES) -> str:
    """The prompt's example spelling: the first of ``examples``, whatever ``value`` is (an example chosen
    to avoid the answer would tell something about it)."""
    return format_fraction(examples[0])


def grade_exact(text: str, value: Fraction, units: tuple[str, ...] | None = None) -> bool | None:
    """Whether ``text`` is exactly ``value`` (any exact spelling: ``5/36``, ``10/72``, ``\\frac{5}{36}``,
    an equal decimal; with ``units``, one of them may follow: ``7/2 dollars``); ``None`` when unreadable."""
    read = read_exact(text, mixed=True, max_digits=200, units=units)  # "P(B | D) = 5/16" too (numeric's names)
    return None if read is None else read == value


def verdict_exact(text: str, value: Fraction, units: tuple[str, ...] | None = None) -> Verdict:
    graded = grade_exact(text, value, units)
    if graded is None:
        return Verdict.unparsed("the answer is not an exact number (write a fraction such as 5/36)")
    return Verdict.judge(graded, "wrong value")


def exact_spellings(value: Fraction) -> list[str]:
    """Other exact spellings: LaTeX, an unreduced fraction, a decimal when it terminates, a lead-in."""
    text = format_fraction(value)
    out = [*other_spellings(value), f"P = {text}", f"{text}."]
    if value.denominator != 1:
        out.append(f"{value.numerator * 3}/{value.denominator * 3}")
    return out


def exact_corruptions(value: Fraction, rng: random.Random) -> list[str]:
    """Near misses: off by a little, the complement, a rounded decimal, a hedge."""
    wrong = [format_fraction(value + Fraction(1, value.denominator + 1)), format_fraction(value * 2 + 1),
             f"{format_fraction(value)} or {format_fraction(value / 2 + Fraction(1, 7))}"]
    if value != Fraction(1, 2) and 0 <= value <= 1:
        wrong.append(format_fraction(1 - value))
    if (value * 10**4).denominator != 1:
        wrong.append(f"{float(value):.4f}")
    if value.numerator and value.numerator != value.denominator:
        wrong.append(format_fraction(Fraction(value.denominator, value.numerator)))
    return [w for w in wrong if read_exact(w, mixed=True) != value]
