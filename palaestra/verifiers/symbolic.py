"""Symbolic answers: the bounded expression reader, then SymPy, under a hard time limit.

Model text is never given to ``sympify``: it is read by
:func:`palaestra.verifiers.expressions.parse_expression` (an allow-list walker)
and the resulting tree is built into SymPy objects node by node. Equivalence is
decided exactly where both sides are surds (rationals and square roots) at random
rational points, so a rounded coefficient (``2.000000001*x`` for ``2*x``, ``1.4142135624``
for ``sqrt(2)``) is not equivalent; otherwise it is tested numerically at random points
(fast, and enough for generated problems); SymPy simplification is the last resort and
runs under ``time_limit``.

Example::

    >>> import sympy
    >>> x = sympy.Symbol("x")
    >>> equivalent_to("(x+1)^2", (x + 1) ** 2 - 0, ["x"])
    True
    >>> equivalent_to("x^2 + 2x", (x + 1) ** 2, ["x"])
    False
    >>> equivalent_to("2.000000001*x", 2 * x, ["x"]), equivalent_to("(1 + √5)/2", (1 + sympy.sqrt(5)) / 2)
    (False, True)
"""

from __future__ import annotations

import contextlib
import random
import signal
import threading
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from palaestra.verifiers.expressions import (
    MAX_EXPONENT,
    Expr,
    close,
    evaluate_float,
    evaluate_surd,
    leaves,
    parse_expression,
)

DEFAULT_SECONDS = 1.0


class TimeLimitExceeded(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`TimeLimitExceeded` in the block after ``seconds`` of wall time.

    A real interrupt (``SIGALRM`` timer) in the main thread, so pure-Python work
    such as SymPy simplification is stopped. Off the main thread, signals are not
    available; callers there rely on the size bounds of the parser instead.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise TimeLimitExceeded(f"exceeded {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def to_sympy(expr: Expr) -> Any:
    """Build a SymPy expression from a parsed (already allow-listed and bounded) tree."""
    import sympy

    kind = expr[0]
    if kind == "num":
        return sympy.Rational(expr[1].numerator, expr[1].denominator)
    if kind == "var":
        return sympy.Symbol(expr[1])
    if kind == "const":
        return {"pi": sympy.pi, "e": sympy.E}[expr[1]]
    if kind == "neg":
        return -to_sympy(expr[1])
    if kind == "call":
        fn = {"sqrt": sympy.sqrt, "exp": sympy.exp, "log": sympy.log, "ln": sympy.log, "sin": sympy.sin,
              "cos": sympy.cos, "tan": sympy.tan, "abs": sympy.Abs}[expr[1]]
        return fn(to_sympy(expr[2]))
    if kind == "**" and not _bounded_exponent(expr[2]):
        raise ValueError("exponent out of bounds")
    a, b = to_sympy(expr[1]), to_sympy(expr[2])
    return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b, "**": lambda: a**b}[kind]()


def _bounded_exponent(exponent: Expr) -> bool:
    """SymPy evaluates numeric powers eagerly, so constant exponents must be small."""
    if any(leaf[0] == "var" for leaf in leaves(exponent)):
        return True
    value = evaluate_float(exponent)
    return value is not None and abs(value) <= MAX_EXPONENT


def parse_symbolic(text: str, variables: Sequence[str] = (), seconds: float = DEFAULT_SECONDS) -> Any | None:
    """A SymPy expression from model text, or ``None`` (not allowed, or too slow to build)."""
    tree = parse_expression(text, variables=variables)
    if tree is None:
        return None
    try:
        with time_limit(seconds):
            return to_sympy(tree)
    except (TimeLimitExceeded, ZeroDivisionError, ValueError, TypeError, OverflowError, RecursionError):
        return None


def equivalent_to(
    text: str, reference: Any, variables: Sequence[str] = (), samples: int = 6, seconds: float = DEFAULT_SECONDS
) -> bool:
    """Whether model text denotes the same function of ``variables`` as the SymPy ``reference``."""
    import sympy

    tree = parse_expression(text, variables=variables)
    if tree is None:
        return False
    exact = _exact_verdict(tree, reference, variables, samples, seconds)
    if exact is not None:
        return exact
    symbols = [sympy.Symbol(v) for v in variables]
    reference_fn = sympy.lambdify(symbols, reference, modules="cmath") if symbols else None
    rng = random.Random(0)
    agree = 0
    for _ in range(samples):
        point = {v: complex(rng.uniform(0.5, 2.5), 0) for v in variables}
        try:
            ref = complex(reference_fn(*point.values())) if reference_fn else complex(sympy.N(reference))
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            continue
        got = evaluate_float(tree, point)
        if got is None:
            continue
        if not close(got, ref, rel=1e-8, abs_tol=1e-9):
            return False
        agree += 1
    if agree:
        return True
    try:  # no point was defined on both sides: let SymPy decide, bounded in time
        with time_limit(seconds):
            return sympy.simplify(to_sympy(tree) - reference) == 0
    except Exception:
        return False


def _exact_verdict(tree: Expr, reference: Any, variables: Sequence[str], samples: int, seconds: float) -> bool | None:
    """Equal or not, decided exactly at random rational points where both sides are surds; None if undecided.

    The reference's value at a point is SymPy's exact value written out by SymPy and read
    back by the same allow-list reader (our own text, never model text).
    """
    import sympy

    rng = random.Random(1)
    agreed = 0
    for _ in range(samples):
        point = {v: Fraction(rng.randint(3, 60), rng.randint(2, 9)) for v in variables}
        mine = evaluate_surd(tree, point)
        if mine is None:
            return None
        try:
            with time_limit(seconds):
                value = reference.subs({sympy.Symbol(v): sympy.Rational(q.numerator, q.denominator)
                                        for v, q in point.items()})
                theirs = evaluate_surd(parse_expression(sympy.sstr(value), variables=()))
        except Exception:
            return None
        if theirs is None:
            return None
        if mine != theirs:
            return False
        agreed += 1
    return True if agreed else None
