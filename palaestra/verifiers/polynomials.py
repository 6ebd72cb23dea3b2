"""Exact polynomials and rational functions read from expression trees, and the forms answers take.

A polynomial is a dict from exponent tuples (one exponent per variable, in the order
the caller names the variables) to non-zero :class:`~fractions.Fraction` coefficients.
:func:`to_polynomial` turns a parsed tree (:mod:`palaestra.verifiers.expressions`,
:mod:`palaestra.verifiers.formulas`) into one, exactly, under degree and size bounds;
:func:`to_rational` turns a tree into a numerator/denominator pair *without cancelling*,
so the degree of what a model wrote is visible (``(x^2-1)/(x-1)`` keeps its degrees).

Form checks, for tasks where the form is the point:

- :func:`expanded_terms`: the tree is a sum of monomials with like terms combined
  (``3x^2 - x + 4``, in any order; ``x(x+1)`` or ``2x + 3x`` are not expanded);
- :func:`product_factors`: the non-constant factors of a product, with multiplicity
  (``-2(x-1)^2(x+3)`` -> ``(x-1)`` twice and ``(x+3)``), for factorisation answers.

Example::

    >>> from palaestra.verifiers.formulas import read_formula
    >>> p = to_polynomial(read_formula("(x + 1)^2 - 1", ["x"]), ["x"])
    >>> format_polynomial(p, ["x"]), expanded_terms(read_formula("x^2 + 2x", ["x"]), ["x"]) == p
    ('x^2 + 2x', True)
    >>> expanded_terms(read_formula("x(x + 2)", ["x"]), ["x"]) is None
    True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

from palaestra.verifiers.expressions import Expr

Monomial = tuple[int, ...]
Polynomial = dict[Monomial, Fraction]

MAX_DEGREE = 64  # total degree of any polynomial built
MAX_TERMS = 600  # monomials in any polynomial built
MAX_COEFFICIENT_BITS = 2_048


class _NotPolynomial(Exception):
    pass


def constant(value: Fraction | int, n: int) -> Polynomial:
    return {(0,) * n: Fraction(value)} if value else {}


def add(p: Polynomial, q: Polynomial, sign: int = 1) -> Polynomial:
    out = dict(p)
    for m, c in q.items():
        v = out.get(m, Fraction(0)) + sign * c
        if v:
            out[m] = v
        else:
            out.pop(m, None)
    return out


def multiply(p: Polynomial, q: Polynomial) -> Polynomial:
    if len(p) * len(q) > MAX_TERMS * 40:
        raise _NotPolynomial
    out: Polynomial = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            m = tuple(a + b for a, b in zip(m1, m2))
            v = out.get(m, Fraction(0)) + c1 * c2
            if v:
                out[m] = v
            else:
                out.pop(m, None)
    _check(out)
    return out


def power(p: Polynomial, exponent: int) -> Polynomial:
    if exponent < 0:
        raise _NotPolynomial
    if p and degree(p) * exponent > MAX_DEGREE:
        raise _NotPolynomial
    result = constant(1, len(next(iter(p))) if p else 0) if p else {}
    if not p:
        return {} if exponent > 0 else result
    for _ in range(exponent):
        result = multiply(result, p)
    return result


def _check(p: Polynomial) -> None:
    if len(p) > MAX_TERMS or (p and degree(p) > MAX_DEGREE):
        raise _NotPolynomial
    for c in p.values():
        if max(c.numerator.bit_length(), c.denominator.bit_length()) > MAX_COEFFICIENT_BITS:
            raise _NotPolynomial


def degree(p: Polynomial, variable: int | None = None) -> int:
    """Total degree (or the degree in one variable); ``-1`` for the zero polynomial."""
    if not p:
        return -1
    return max(sum(m) if variable is None else m[variable] for m in p)


def _integer_exponent(e: Expr) -> int:
    if e[0] == "num" and e[1].denominator == 1 and 0 <= e[1] <= MAX_DEGREE:
        return int(e[1])
    raise _NotPolynomial


def _numeric(e: Expr) -> Fraction | None:
    """The value of a tree with no variables built from numbers and + - * / and integer powers."""
    kind = e[0]
    if kind == "num":
        return e[1]
    if kind == "neg":
        inner = _numeric(e[1])
        return None if inner is None else -inner
    if kind in ("+", "-", "*", "/", "**"):
        a, b = _numeric(e[1]), _numeric(e[2])
        if a is None or b is None:
            return None
        if kind == "**":
            if b.denominator != 1 or abs(b) > MAX_DEGREE or (a == 0 and b < 0):
                return None
            return a ** int(b)
        if kind == "/":
            return None if b == 0 else a / b
        return a + b if kind == "+" else a - b if kind == "-" else a * b
    return None


def _poly(e: Expr, index: dict[str, int]) -> Polynomial:
    n = len(index)
    kind = e[0]
    if kind == "num":
        return constant(e[1], n)
    if kind == "var":
        if e[1] not in index:
            raise _NotPolynomial
        return {tuple(1 if i == index[e[1]] else 0 for i in range(n)): Fraction(1)}
    if kind == "neg":
        return {m: -c for m, c in _poly(e[1], index).items()}
    if kind in ("+", "-"):
        return add(_poly(e[1], index), _poly(e[2], index), 1 if kind == "+" else -1)
    if kind == "*":
        return multiply(_poly(e[1], index), _poly(e[2], index))
    if kind == "/":
        divisor = _numeric(e[2])
        if divisor is None or divisor == 0:
            raise _NotPolynomial
        return {m: c / divisor for m, c in _poly(e[1], index).items()}
    if kind == "**":
        return power(_poly(e[1], index), _integer_exponent(e[2]))
    raise _NotPolynomial


def to_polynomial(expr: Expr | None, variables: Sequence[str]) -> Polynomial | None:
    """The polynomial a tree denotes (division only by non-zero constants, non-negative integer
    powers), or ``None``. Bounded by :data:`MAX_DEGREE`, :data:`MAX_TERMS` and coefficient size."""
    if expr is None:
        return None
    try:
        return _poly(expr, {v: i for i, v in enumerate(variables)})
    except (_NotPolynomial, RecursionError, ZeroDivisionError):
        return None


Rational = tuple[Polynomial, Polynomial]


def _rational(e: Expr, index: dict[str, int]) -> Rational:
    n = len(index)
    kind = e[0]
    if kind in ("num", "var"):
        return _poly(e, index), constant(1, n)
    if kind == "neg":
        top, bottom = _rational(e[1], index)
        return {m: -c for m, c in top.items()}, bottom
    if kind in ("+", "-"):
        (a, b), (c, d) = _rational(e[1], index), _rational(e[2], index)
        if b == d:
            return add(a, c, 1 if kind == "+" else -1), b
        return add(multiply(a, d), multiply(c, b), 1 if kind == "+" else -1), multiply(b, d)
    if kind == "*":
        (a, b), (c, d) = _rational(e[1], index), _rational(e[2], index)
        return multiply(a, c), multiply(b, d)
    if kind == "/":
        (a, b), (c, d) = _rational(e[1], index), _rational(e[2], index)
        if not c:
            raise _NotPolynomial
        return multiply(a, d), multiply(b, c)
    if kind == "**":
        if e[2][0] == "neg" and e[2][1][0] == "num":
            k = _integer_exponent(e[2][1])
            top, bottom = _rational(e[1], index)
            if not top:
                raise _NotPolynomial
            return power(bottom, k), power(top, k)
        if e[2][0] == "num" and e[2][1] < 0:
            k = _integer_exponent(("num", -e[2][1]))
            top, bottom = _rational(e[1], index)
            if not top:
                raise _NotPolynomial
            return power(bottom, k), power(top, k)
        k = _integer_exponent(e[2])
        top, bottom = _rational(e[1], index)
        return power(top, k), power(bottom, k)
    raise _NotPolynomial


def to_rational(expr: Expr | None, variables: Sequence[str]) -> Rational | None:
    """``(numerator, denominator)`` polynomials of a tree built with + - * / and integer powers,
    computed without cancelling common factors, or ``None``."""
    if expr is None:
        return None
    try:
        top, bottom = _rational(expr, {v: i for i, v in enumerate(variables)})
    except (_NotPolynomial, RecursionError, ZeroDivisionError):
        return None
    return (top, bottom) if bottom else None


def same_rational(a: Rational, b: Rational) -> bool:
    """Whether ``a[0]/a[1] == b[0]/b[1]`` as rational functions (cross-multiplied, exactly)."""
    try:
        return multiply(a[0], b[1]) == multiply(b[0], a[1])
    except _NotPolynomial:
        return False


# --- forms --------------------------------------------------------------------


def _signed_terms(e: Expr, sign: int, out: list[tuple[int, Expr]]) -> None:
    if e[0] == "+":
        _signed_terms(e[1], sign, out)
        _signed_terms(e[2], sign, out)
    elif e[0] == "-":
        _signed_terms(e[1], sign, out)
        _signed_terms(e[2], -sign, out)
    elif e[0] == "neg":
        _signed_terms(e[1], -sign, out)
    else:
        out.append((sign, e))


def _monomial(e: Expr, index: dict[str, int], seen: set[str]) -> Fraction:
    """The coefficient of one written monomial (numbers, variables, variable^k, / number); raises if not one."""
    kind = e[0]
    if kind == "num":
        return e[1]
    if kind == "neg":
        return -_monomial(e[1], index, seen)
    if kind == "var" or (kind == "**" and e[1][0] == "var"):
        name = e[1] if kind == "var" else e[1][1]
        if name not in index or name in seen:
            raise _NotPolynomial
        if kind == "**" and _integer_exponent(e[2]) < 1:
            raise _NotPolynomial
        seen.add(name)
        return Fraction(1)
    if kind == "*":
        return _monomial(e[1], index, seen) * _monomial(e[2], index, seen)
    if kind == "/" and e[2][0] == "num" and e[2][1] != 0:
        return _monomial(e[1], index, seen) / e[2][1]
    raise _NotPolynomial


def expanded_terms(expr: Expr | None, variables: Sequence[str]) -> Polynomial | None:
    """The polynomial of a tree written in expanded form, or ``None`` when it is not one: a sum of
    monomials (a number, variables each at most once with positive integer powers, division by a
    number), no two with the same variables and powers, none with a zero coefficient."""
    if expr is None:
        return None
    index = {v: i for i, v in enumerate(variables)}
    terms: list[tuple[int, Expr]] = []
    try:
        _signed_terms(expr, 1, terms)
        if len(terms) > MAX_TERMS:
            return None
        result: Polynomial = {}
        for sign, term in terms:
            coefficient = sign * _monomial(term, index, set())
            monomial = next(iter(_poly(term, index))) if coefficient else None
            if monomial is None or monomial in result:
                return None
            result[monomial] = coefficient
        return result
    except (_NotPolynomial, RecursionError, StopIteration):
        return None


def product_factors(
    expr: Expr | None, variables: Sequence[str]
) -> tuple[Fraction, list[tuple[Polynomial, int]]] | None:
    """``(constant, [(factor, multiplicity), ...])`` of a tree written as a product, or ``None``.

    Products, quotients by numbers, signs and integer powers are flattened; every other
    node with a variable is one factor (its polynomial). Factors are not merged, so
    ``(x-1)(x-1)`` gives two factors of multiplicity 1.
    """
    if expr is None:
        return None
    index = {v: i for i, v in enumerate(variables)}
    out: list[tuple[Polynomial, int]] = []
    scale = [Fraction(1)]

    def walk(e: Expr, multiplicity: int) -> None:
        if len(out) > 64 or multiplicity > MAX_DEGREE:
            raise _NotPolynomial
        value = _numeric(e)
        if value is not None:
            if value == 0:
                raise _NotPolynomial
            scale[0] *= value**multiplicity
            return
        kind = e[0]
        if kind == "neg":
            scale[0] *= (-1) ** multiplicity
            walk(e[1], multiplicity)
        elif kind == "*":
            walk(e[1], multiplicity)
            walk(e[2], multiplicity)
        elif kind == "/" and _numeric(e[2]) not in (None, 0):
            walk(e[1], multiplicity)
            scale[0] /= _numeric(e[2]) ** multiplicity  # type: ignore[operator]
        elif kind == "**":
            walk(e[1], multiplicity * _integer_exponent(e[2]))
        else:
            p = _poly(e, index)
            if degree(p) < 1:
                raise _NotPolynomial
            out.append((p, multiplicity))

    try:
        walk(expr, 1)
    except (_NotPolynomial, RecursionError, ZeroDivisionError):
        return None
    return scale[0], out


def content(p: Polynomial) -> Fraction:
    """The positive rational ``c`` with ``p / c`` having coprime integer coefficients (0 for zero)."""
    if not p:
        return Fraction(0)
    denominators = math.lcm(*(c.denominator for c in p.values()))
    numerators = math.gcd(*(int(c * denominators) for c in p.values()))
    return Fraction(numerators, denominators)


def is_primitive(p: Polynomial) -> bool:
    """Integer coefficients with greatest common divisor 1."""
    return all(c.denominator == 1 for c in p.values()) and content(p) == 1


# --- one variable ---------------------------------------------------------------


def coefficients(p: Polynomial) -> list[Fraction]:
    """Coefficients of a one-variable polynomial, constant term first."""
    if not p:
        return []
    out = [Fraction(0)] * (degree(p) + 1)
    for (k,), c in p.items():
        out[k] = c
    return out


def from_coefficients(values: Iterable[Fraction | int]) -> Polynomial:
    return {(k,): Fraction(c) for k, c in enumerate(values) if c}


def divide(p: Polynomial, q: Polynomial) -> tuple[Polynomial, Polynomial]:
    """Quotient and remainder of one-variable polynomials (``q`` non-zero)."""
    remainder = coefficients(p)
    divisor = coefficients(q)
    quotient = [Fraction(0)] * max(1, len(remainder) - len(divisor) + 1)
    while len(remainder) >= len(divisor) and any(remainder):
        shift = len(remainder) - len(divisor)
        factor = remainder[-1] / divisor[-1]
        quotient[shift] = factor
        for i, c in enumerate(divisor):
            remainder[shift + i] -= factor * c
        remainder.pop()
        while remainder and remainder[-1] == 0:
            remainder.pop()
    return from_coefficients(quotient), from_coefficients(remainder)


def gcd(p: Polynomial, q: Polynomial) -> Polynomial:
    """Monic greatest common divisor of one-variable polynomials."""
    a, b = p, q
    for _ in range(4 * MAX_DEGREE):
        if not b:
            break
        a, b = b, divide(a, b)[1]
    if not a:
        return {}
    lead = coefficients(a)[-1]
    return {m: c / lead for m, c in a.items()}


# --- printing -----------------------------------------------------------------


def _monomial_text(m: Monomial, variables: Sequence[str]) -> str:
    return "".join(v if k == 1 else f"{v}^{k}" for v, k in zip(variables, m) if k)


def format_polynomial(p: Polynomial, variables: Sequence[str], order: Sequence[Monomial] | None = None) -> str:
    """Expanded text, highest total degree first (then lexicographic), e.g. ``3x^2y - x + 1/2``.

    >>> format_polynomial({(2, 1): Fraction(3), (1, 0): Fraction(-1), (0, 0): Fraction(1, 2)}, ["x", "y"])
    '3x^2y - x + 1/2'
    """
    if not p:
        return "0"
    monomials = list(order) if order is not None else sorted(p, key=lambda m: (-sum(m), tuple(-k for k in m)))
    out: list[str] = []
    for m in monomials:
        c = p[m]
        body = _monomial_text(m, variables)
        size = abs(c)
        if not body:
            text = str(size.numerator) if size.denominator == 1 else f"{size.numerator}/{size.denominator}"
        elif size == 1:
            text = body
        elif size.denominator == 1:
            text = f"{size.numerator}{body}"
        else:
            text = f"({size.numerator}/{size.denominator}){body}"
        if not out:
            out.append(("-" if c < 0 else "") + text)
        else:
            out.append((" - " if c < 0 else " + ") + text)
    return "".join(out)
