"""Integration templates shared by the calculus envs: integrands with known antiderivatives.

Each template draws its parameters and returns a :class:`Piece`: the integrand and one
antiderivative as (coefficient, term) lists for
:func:`palaestra.verifiers.formulas.linear_combination`, the interval on which both are
defined and continuous, and a weight (how many techniques the piece needs). An integrand
is a sum of pieces; its antiderivative is the sum of theirs. Everything is written as text
the formula reader reads, so checks go through the same reader as the model's answers.

Example::

    >>> import random
    >>> piece = TEMPLATES["by_parts_exp"](random.Random(1), 2)
    >>> piece.integrand, piece.antiderivative
    ([(Fraction(-1, 1), 'x*e^(2x)')], [(Fraction(-1, 2), 'x*e^(2x)'), (Fraction(1, 4), 'e^(2x)')])
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from palaestra.verifiers.expressions import Expr
from palaestra.verifiers.formulas import linear_combination

Terms = list[tuple[Fraction, str]]
WIDE = (Fraction(-3), Fraction(3))


@dataclass(frozen=True)
class Piece:
    integrand: Terms
    antiderivative: Terms
    low: Fraction  # both are defined and continuous on (low, high)
    high: Fraction
    weight: int  # techniques needed: 1 a power, 2 another simple term, 4 a substitution, 6 by parts, 8 harder


def coefficient(rng: random.Random, top: int = 9) -> Fraction:
    return Fraction(rng.choice([v for v in range(-top, top + 1) if v]))


def linear(p: int, q: int) -> str:
    """``2x - 3`` for p = 2, q = -3."""
    return linear_combination([(p, "x"), (q, "1")])


def _k(rng: random.Random, top: int = 4) -> int:
    return rng.choice([v for v in range(-top, top + 1) if v])


def _kx(k: int) -> str:
    return "x" if k == 1 else "-x" if k == -1 else f"{k}x"


def power(rng: random.Random, top: int) -> Piece:
    a, n = coefficient(rng, top), rng.randint(0, 5)
    body = {0: "1", 1: "x"}.get(n, f"x^{n}")
    after = "x" if n == 0 else f"x^{n + 1}"
    return Piece([(a, body)], [(a / (n + 1), after)], *WIDE, 1)


def reciprocal(rng: random.Random, top: int) -> Piece:
    a = coefficient(rng, top)
    return Piece([(a, "1/x")], [(a, "ln|x|")], Fraction(1, 2), Fraction(5), 2)


def negative_power(rng: random.Random, top: int) -> Piece:
    a, n = coefficient(rng, top), rng.randint(2, 4)
    after = "1/x" if n == 2 else f"1/x^{n - 1}"
    return Piece([(a, f"1/x^{n}")], [(a / (1 - n), after)], Fraction(1, 2), Fraction(5), 2)


def square_root(rng: random.Random, top: int) -> Piece:
    a = coefficient(rng, top)
    return Piece([(a, "sqrt(x)")], [(a * Fraction(2, 3), "x^(3/2)")], Fraction(1, 2), Fraction(5), 2)


def exponential(rng: random.Random, top: int) -> Piece:
    a, k = coefficient(rng, top), _k(rng)
    body = f"e^({_kx(k)})" if k != 1 else "e^x"
    return Piece([(a, body)], [(a / k, body)], *WIDE, 2)


def sine(rng: random.Random, top: int) -> Piece:
    a, k = coefficient(rng, top), rng.randint(1, 4)
    return Piece([(a, f"sin({_kx(k)})")], [(-a / k, f"cos({_kx(k)})")], *WIDE, 2)


def cosine(rng: random.Random, top: int) -> Piece:
    a, k = coefficient(rng, top), rng.randint(1, 4)
    return Piece([(a, f"cos({_kx(k)})")], [(a / k, f"sin({_kx(k)})")], *WIDE, 2)


def _shift(rng: random.Random) -> tuple[int, int]:
    return rng.choice([2, 3, 4, 5, -2, -3]), rng.choice([v for v in range(-6, 7) if v])


def linear_power(rng: random.Random, top: int) -> Piece:
    a, (p, q), n = coefficient(rng, top), _shift(rng), rng.randint(2, 5)
    inner = linear(p, q)
    return Piece([(a, f"({inner})^{n}")], [(a / (p * (n + 1)), f"({inner})^{n + 1}")], *WIDE, 4)


def linear_reciprocal(rng: random.Random, top: int) -> Piece:
    a, (p, q) = coefficient(rng, top), _shift(rng)
    inner = linear(p, q)
    root = Fraction(-q, p)
    return Piece([(a, f"1/({inner})")], [(a / p, f"ln|{inner}|")], root + Fraction(1, 2), root + 5, 4)


def linear_exponential(rng: random.Random, top: int) -> Piece:
    a, (p, q) = coefficient(rng, top), _shift(rng)
    body = f"e^({linear(p, q)})"
    return Piece([(a, body)], [(a / p, body)], Fraction(-1), Fraction(1), 4)


def linear_trig(rng: random.Random, top: int) -> Piece:
    a, (p, q) = coefficient(rng, top), _shift(rng)
    inner = linear(p, q)
    if rng.random() < 0.5:
        return Piece([(a, f"sin({inner})")], [(-a / p, f"cos({inner})")], *WIDE, 4)
    return Piece([(a, f"cos({inner})")], [(a / p, f"sin({inner})")], *WIDE, 4)


def by_parts_exp(rng: random.Random, top: int) -> Piece:
    a, k = coefficient(rng, top), _k(rng, 3)
    e = f"e^({_kx(k)})" if k != 1 else "e^x"
    return Piece([(a, f"x*{e}")], [(a / k, f"x*{e}"), (-a / (k * k), e)], Fraction(-2), Fraction(2), 6)


def by_parts_trig(rng: random.Random, top: int) -> Piece:
    a, k = coefficient(rng, top), rng.randint(1, 3)
    s, c = f"sin({_kx(k)})", f"cos({_kx(k)})"
    if rng.random() < 0.5:
        return Piece([(a, f"x*{s}")], [(-a / k, f"x*{c}"), (a / (k * k), s)], *WIDE, 6)
    return Piece([(a, f"x*{c}")], [(a / k, f"x*{s}"), (a / (k * k), c)], *WIDE, 6)


def by_parts_log(rng: random.Random, top: int) -> Piece:
    a, n = coefficient(rng, top), rng.randint(0, 3)
    body = "ln(x)" if n == 0 else "x*ln(x)" if n == 1 else f"x^{n}*ln(x)"
    after = "x" if n == 0 else f"x^{n + 1}"
    return Piece([(a, body)], [(a / (n + 1), f"{after}*ln(x)"), (-a / (n + 1) ** 2, after)], Fraction(1, 2),
                 Fraction(5), 6)


def chain_power(rng: random.Random, top: int) -> Piece:
    a, q, n = coefficient(rng, top), rng.randint(1, 9) * rng.choice([1, -1]), rng.randint(2, 4)
    inner = f"x^2 {'+' if q > 0 else '-'} {abs(q)}"
    return Piece([(a, f"x*({inner})^{n}")], [(a / (2 * (n + 1)), f"({inner})^{n + 1}")], *WIDE, 6)


def chain_exp(rng: random.Random, top: int) -> Piece:
    a, k = coefficient(rng, top), _k(rng, 3)
    body = f"e^({_kx(k)}^2)" if abs(k) != 1 else ("e^(x^2)" if k == 1 else "e^(-x^2)")
    return Piece([(a, f"x*{body}")], [(a / (2 * k), body)], Fraction(-1), Fraction(1), 6)


def chain_log(rng: random.Random, top: int) -> Piece:
    a, q = coefficient(rng, top), rng.randint(1, 9)
    inner = f"x^2 + {q}"
    return Piece([(a, f"x/({inner})")], [(a / 2, f"ln({inner})")], *WIDE, 6)


def arctangent(rng: random.Random, top: int) -> Piece:
    a, q = coefficient(rng, top), rng.randint(1, 6)
    inner = f"x^2 + {q * q}"
    after = "atan(x)" if q == 1 else f"atan(x/{q})"
    return Piece([(a, f"1/({inner})")], [(a / q, after)], *WIDE, 6)


def trig_power(rng: random.Random, top: int) -> Piece:
    a, n = coefficient(rng, top), rng.randint(1, 4)
    s, c = ("sin(x)", "cos(x)") if rng.random() < 0.5 else ("cos(x)", "sin(x)")
    sign = 1 if s == "sin(x)" else -1
    body = f"{s}*{c}" if n == 1 else f"{s}^{n}*{c}"
    return Piece([(a, body)], [(sign * a / (n + 1), f"{s}^{n + 1}")], *WIDE, 6)


def partial_fractions(rng: random.Random, top: int) -> Piece:
    a, b = rng.sample([v for v in range(-6, 7) if v], 2)
    p, q = rng.randint(0, 5), rng.randint(-6, 6)
    if p * a + q == 0 or p * b + q == 0:  # the fraction would cancel (or vanish): make the numerator a constant
        p, q = 0, rng.choice([1, 2, 3, 5])
    numerator = linear(p, q) if p else str(q)
    first, second = linear(1, -a), linear(1, -b)
    integrand = f"({numerator})/(({first})({second}))" if p else f"{q}/(({first})({second}))"
    after = [(Fraction(p * a + q, a - b), f"ln|{first}|"), (Fraction(p * b + q, b - a), f"ln|{second}|")]
    low = Fraction(max(a, b)) + Fraction(1, 2)
    return Piece([(Fraction(1), integrand)], after, low, low + 4, 8)


def by_parts_twice(rng: random.Random, top: int) -> Piece:
    a, k = coefficient(rng, top), _k(rng, 3)
    e = f"e^({_kx(k)})" if k != 1 else "e^x"
    after = [(a / k, f"x^2*{e}"), (-2 * a / k**2, f"x*{e}"), (2 * a / k**3, e)]
    return Piece([(a, f"x^2*{e}")], after, Fraction(-2), Fraction(2), 8)


def exp_trig(rng: random.Random, top: int) -> Piece:
    a, p, q = coefficient(rng, top), _k(rng, 3), rng.randint(1, 3)
    e = f"e^({_kx(p)})" if p != 1 else "e^x"
    s, c = f"sin({_kx(q)})", f"cos({_kx(q)})"
    scale = a / (p * p + q * q)
    if rng.random() < 0.5:
        return Piece([(a, f"{e}*{s}")], [(scale * p, f"{e}*{s}"), (-scale * q, f"{e}*{c}")], Fraction(-2),
                     Fraction(2), 8)
    return Piece([(a, f"{e}*{c}")], [(scale * p, f"{e}*{c}"), (scale * q, f"{e}*{s}")], Fraction(-2), Fraction(2), 8)


def trig_square(rng: random.Random, top: int) -> Piece:
    a, k = coefficient(rng, top), rng.randint(1, 3)
    name = "sin" if rng.random() < 0.5 else "cos"
    sign = -1 if name == "sin" else 1
    after = [(a / 2, "x"), (sign * a / (4 * k), f"sin({_kx(2 * k)})")]
    return Piece([(a, f"{name}({_kx(k)})^2")], after, *WIDE, 8)


TEMPLATES: dict[str, Callable[[random.Random, int], Piece]] = {
    "power": power,
    "reciprocal": reciprocal,
    "negative_power": negative_power,
    "square_root": square_root,
    "exponential": exponential,
    "sine": sine,
    "cosine": cosine,
    "linear_power": linear_power,
    "linear_reciprocal": linear_reciprocal,
    "linear_exponential": linear_exponential,
    "linear_trig": linear_trig,
    "by_parts_exp": by_parts_exp,
    "by_parts_trig": by_parts_trig,
    "by_parts_log": by_parts_log,
    "chain_power": chain_power,
    "chain_exp": chain_exp,
    "chain_log": chain_log,
    "arctangent": arctangent,
    "trig_power": trig_power,
    "partial_fractions": partial_fractions,
    "by_parts_twice": by_parts_twice,
    "exp_trig": exp_trig,
    "trig_square": trig_square,
}
SIMPLE = ("power", "reciprocal", "negative_power", "square_root", "exponential", "sine", "cosine")
SUBSTITUTION = ("linear_power", "linear_reciprocal", "linear_exponential", "linear_trig")
PARTS = ("by_parts_exp", "by_parts_trig", "by_parts_log", "chain_power", "chain_exp", "chain_log", "arctangent",
         "trig_power")
HARD = ("partial_fractions", "by_parts_twice", "exp_trig", "trig_square")


# --- parts of formulas (answer checks) ---------------------------------------


def x_parts(tree: Expr, out: dict[Expr, None], constants: bool = False) -> bool:
    """Collect into ``out`` every subtree of ``tree`` that contains x (with ``constants``, every subtree; in
    order, once each); whether ``tree`` contains x."""
    kind = tree[0]
    if kind == "var":
        has = True
    elif kind in ("num", "const"):
        has = False
    else:
        children = tree[2:] if kind == "call" else tree[1:]
        has = False
        for child in children:
            has = x_parts(child, out, constants) or has
    if has or constants:
        out[tree] = None
    return has


def bind_x(pattern: Expr, tree: Expr, found: list[Expr]) -> bool:
    """Whether ``tree`` is ``pattern`` with every x replaced by one same subtree (kept in ``found``)."""
    if pattern == ("var", "x"):
        if found and found[0] != tree:
            return False
        if not found:
            found.append(tree)
        return True
    if pattern[0] != tree[0] or len(pattern) != len(tree):
        return False
    if pattern[0] in ("num", "const", "var"):
        return pattern == tree
    if pattern[0] == "call" and pattern[1] != tree[1]:
        return False
    start = 2 if pattern[0] == "call" else 1
    return all(bind_x(p, t, found) for p, t in zip(pattern[start:], tree[start:], strict=True))


def moved_parts(tree: Expr, function: Expr, values: Callable[[Expr], list[Any] | None],
                moved_by: Callable[[Any, Any], bool]) -> bool:
    """Whether the answer ``tree`` holds one part of ``function`` (not affine in x) at two or more
    arguments a*x + b other than x itself for which ``moved_by(a, b)``: a quadrature or a difference formula
    (f(0), f(x/2), f(x); f(x + 1), f(x - 1)) is exact for polynomials, so it matches a derivative or an
    antiderivative of f without one being taken. ``values`` gives a part's values at x = 0, 1, 2 (``None``
    where undefined)."""
    inner: dict[Expr, None] = {}
    x_parts(function, inner)
    mine: dict[Expr, None] = {}
    x_parts(tree, mine, constants=True)
    def affine(seen: list[Any]) -> bool:
        first, second = seen[1] - seen[0], seen[2] - seen[1]
        return bool(abs(first - second) <= 1e-20 * max(1, abs(first)))

    for pattern in inner:
        shape = values(pattern)
        if shape is not None and affine(shape):
            continue  # x, -x, 2x + 1: a number or any affine part is such a part at some argument
        moved: set[Expr] = set()
        for part in mine:
            found: list[Expr] = []
            if not bind_x(pattern, part, found) or found[0] == ("var", "x") or found[0] in moved:
                continue
            seen = values(found[0])
            if seen is None:
                continue
            if not affine(seen) or not moved_by(seen[1] - seen[0], seen[0]):
                continue
            moved.add(found[0])
            if len(moved) >= 2:
                return True
    return False
