r"""Exact answers that may contain square roots: reading, canonical text and other spellings.

:func:`read_radical` reads a number that is a rational or a sum of rational multiples of
square roots (:class:`palaestra.verifiers.expressions.Surd`) from any spelling a careful
grader accepts: a numeral (``7/2``, ``3.5``), ``3*sqrt(2)/2``, ``\frac{3\sqrt{2}}{2}``,
``(3/2)√2``, ``1.5√2``, ``sqrt(9/2)``, ``2 + √3``. The number of numbers written is
bounded (``max_numbers``), so the question's own computation typed back
(``sqrt((1 + 4 + 9)/3)``) is not an answer. Values compare exactly: a rounded decimal
(``2.1213``) is never equal to ``3√2/2``.

Example::

    >>> read_radical(r"\frac{3\sqrt{2}}{2}") == read_radical("sqrt(9/2)") == read_radical("1.5√2")
    True
    >>> read_radical("2.1213") == read_radical("3*sqrt(2)/2"), read_radical("sqrt((1 + 4 + 9)/3 - 1)")
    (False, None)
    >>> format_radical(read_radical("2 - 3sqrt(5)/4")), radical_spellings(read_radical("sqrt(8)"))[:3]
    ('2 - 3*sqrt(5)/4', ['2√2', '2\\sqrt{2}', '\\sqrt{8}'])
"""

from __future__ import annotations

import math
from fractions import Fraction

from palaestra.verifiers.expressions import Surd, evaluate_surd, leaves, parse_expression
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import decimal_agrees, read_exact, split_exact_and_decimal, strip_name

MAX_CHARS = 300


def _read(text: str, max_numbers: int) -> Surd | None:
    value = read_exact(text, max_digits=60)
    if value is not None:
        return Surd.rational(value)
    s = text.strip()
    for prefix in ("=",):
        s = s.removeprefix(prefix).strip()
    tree = parse_expression(s, constants=False, functions=("sqrt",))
    if tree is None or sum(1 for leaf in leaves(tree) if leaf[0] == "num") > max_numbers:
        return None
    return evaluate_surd(tree)


def read_radical(text: str, *, max_numbers: int = 4) -> Surd | None:
    """The exact value of ``text`` as a :class:`Surd`, or ``None`` (see the module docstring).

    A lead-in such as ``x =`` or ``Answer:`` and a short trailing sentence are read past.
    """
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None
    return read_answer(text, lambda s: _read_with_decimal(s, max_numbers))


def _read_with_decimal(text: str, max_numbers: int) -> Surd | None:
    """The value alone, or followed by ``≈`` and its decimal (rounded or truncated: ``3*sqrt(2) ≈ 4.243``); a
    decimal that is not the value makes the answer a second one, unreadable."""
    text = _drop_name(text)
    pair = split_exact_and_decimal(text)
    if pair is None:
        return _read(text, max_numbers)
    value, decimal = _read(pair[0], max_numbers), read_exact(pair[1])
    if value is None or decimal is None:
        return None
    approximately = sum(float(q) * math.sqrt(d) for d, q in value.terms.items())
    return value if decimal_agrees(Fraction(approximately), decimal, pair[1]) else None


def _drop_name(text: str) -> str:
    """``x = ...``, ``AB = ...``, ``\\sigma = ...``, ``s^2 = ...``: the part after a short name and ``=``."""
    if (named := strip_name(text)) is not text:
        return named.strip()
    head, sep, tail = text.partition("=")
    name = head.strip().lstrip("\\").replace("_", "").replace("{", "").replace("}", "")
    if sep and tail.strip() and 0 < len(name) <= 12 and name.isalnum():
        return tail.strip()
    return text


def _fraction_text(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _term(q: Fraction, d: int) -> str:
    """``|q|*sqrt(d)`` without its sign: ``sqrt(2)``, ``3*sqrt(2)``, ``sqrt(2)/2``, ``3*sqrt(2)/2``."""
    size = abs(q)
    if d == 1:
        return _fraction_text(size)
    root = f"sqrt({d})"
    top = root if size.numerator == 1 else f"{size.numerator}*{root}"
    return top if size.denominator == 1 else f"{top}/{size.denominator}"


def format_radical(value: Surd) -> str:
    """Canonical text: the rational part first, then roots by increasing radicand (``2 - 3*sqrt(5)/4``)."""
    terms = sorted(value.terms.items())
    if not terms:
        return "0"
    out = []
    for d, q in terms:
        text = _term(q, d)
        if not out:
            out.append(("-" if q < 0 else "") + text)
        else:
            out.append((" - " if q < 0 else " + ") + text)
    return "".join(out)


def radical_spellings(value: Surd) -> list[str]:
    """Other spellings of ``value`` that :func:`read_radical` reads to the same number."""
    terms = sorted(value.terms.items())
    if value.is_rational():
        q = value.rational_part()
        out = [_fraction_text(q), f"{_fraction_text(q)}.", f"\\boxed{{{_fraction_text(q)}}}"]
        if q.denominator != 1:
            out.append(f"\\frac{{{q.numerator}}}{{{q.denominator}}}")
        return out
    out: list[str] = []
    if len(terms) == 1:
        d, q = terms[0]
        size = abs(q)
        sign = "-" if q < 0 else ""
        coefficient = "" if size.numerator == 1 else str(size.numerator)
        if size.denominator == 1:
            out += [f"{sign}{coefficient}√{d}", f"{sign}{coefficient}\\sqrt{{{d}}}",
                    f"{sign}\\sqrt{{{d * size.numerator ** 2}}}"]
        else:
            out += [f"{sign}{coefficient}√{d}/{size.denominator}",
                    f"{sign}\\frac{{{coefficient}\\sqrt{{{d}}}}}{{{size.denominator}}}",
                    f"{sign}({_fraction_text(size)})√{d}"]
            inside = size * size * d
            if inside.numerator * inside.denominator <= 10**8:  # within the reader's radicand bound
                out.append(f"{sign}sqrt({_fraction_text(inside)})")
    text = format_radical(value)
    out += [text.replace("sqrt(", "√(").replace("*", ""), text.replace("*", " * "), f"{text}."]
    return out
