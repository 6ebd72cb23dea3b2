"""A whitelisting reader for arithmetic and algebraic expressions written by a model.

The text is parsed with :func:`ast.parse` (parsing never runs code) and the
syntax tree is walked with an allow-list: numbers, named variables, ``+ - * /
**``, unary minus and a few functions. Anything else (attribute access, calls to
other names, subscripts, lambdas, ...) rejects the whole answer. Size, node count,
digit count and exponents are bounded so evaluation is cheap whatever the input:
``9**9**9**9`` is refused, not computed.

Example::

    >>> e = parse_expression("(3 + 5) * 2 - 1/4")
    >>> evaluate_exact(e)
    Fraction(63, 4)
    >>> parse_expression("__import__('os').system('ls')") is None
    True
    >>> evaluate_exact(parse_expression("9**9**9**9")) is None
    True
    >>> round(evaluate_float(parse_expression("2x^2 + sqrt(x)", variables={"x"}), {"x": 4.0}).real, 6)
    34.0

Exact surds: :func:`evaluate_surd` computes sums of rational multiples of square roots
exactly (:class:`Surd`), so ``(1 + √5)/2``, ``1/2 + sqrt(5/4)`` and ``2/(sqrt(5) - 1)``
are the same number and ``1.6180339887`` is not::

    >>> evaluate_surd(parse_expression("(1 + √5)/2")) == evaluate_surd(parse_expression("2/(sqrt(5) - 1)"))
    True
    >>> evaluate_surd(parse_expression("(1 + √5)/2")) == evaluate_surd(parse_expression("1.6180339887"))
    False
"""

from __future__ import annotations

import ast
import cmath
import functools
import math
import re
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

MAX_CHARS = 2_000
MAX_NODES = 400
MAX_DIGITS = 60
MAX_EXPONENT = 256
MAX_RESULT_BITS = 4_096

# Expression trees are nested tuples: ("num", Fraction) | ("var", name) | ("neg", e)
# | (op, left, right) with op in + - * / ** | ("call", name, e).
Expr = tuple[Any, ...]
Number = Fraction | complex | float

FUNCTIONS = {
    "sqrt": cmath.sqrt,
    "exp": cmath.exp,
    "log": cmath.log,
    "ln": cmath.log,
    "sin": cmath.sin,
    "cos": cmath.cos,
    "tan": cmath.tan,
    "abs": abs,
}
CONSTANTS = {"pi": math.pi, "e": math.e}
_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
# "2x", "3(x+1)", ")(" -> explicit "*"; "1e5" stays a number.
_IMPLICIT_MULT = re.compile(r"(?<=[\d)])\s*(?=(?![eE][+-]?\d)[A-Za-z_(])")
_LATEX_FRAC = re.compile(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}")
_LATEX_SQRT = re.compile(r"\\sqrt\{([^{}]*)\}")
# "√5", "√x", "2√3" -> sqrt(5)...; "√(" and "√{" keep their brackets
_ROOT_SIGN_OPERAND = re.compile(r"√\s*(\d+(?:\.\d+)?|[A-Za-z_]\w*)")
_ROOT_SIGN_BRACKET = re.compile(r"√\s*(?=[({])")
_BARE_SQRT = re.compile(r"\bsqrt\s*(\d+(?:\.\d+)?)")  # "sqrt19", "sqrt 2"


class _Reject(Exception):
    """The text is not an allowed expression."""


def normalise(text: str) -> str:
    """Common notations to Python syntax: ``^``, ``×``, ``÷``, ``−``, simple LaTeX."""
    text = text.strip().rstrip(".").strip("$").strip()
    for old, new in (("^", "**"), ("×", "*"), ("·", "*"), ("⋅", "*"), ("÷", "/"), ("−", "-"), ("\\cdot", "*"),
                     ("\\times", "*"), ("\\div", "/"), ("\\left", ""), ("\\right", ""), ("\\pi", "pi"),
                     ("π", "pi")):
        text = text.replace(old, new)
    text = _ROOT_SIGN_BRACKET.sub("sqrt", _ROOT_SIGN_OPERAND.sub(r"sqrt(\1)", text))
    text = _BARE_SQRT.sub(r"sqrt(\1)", text)
    for _ in range(3):  # nested \frac up to a small depth
        text = _LATEX_FRAC.sub(r"((\1)/(\2))", text)
        text = _LATEX_SQRT.sub(r"sqrt(\1)", text)
    return text.replace("{", "(").replace("}", ")")


def parse_expression(
    text: str,
    *,
    variables: Iterable[str] = (),
    functions: Iterable[str] | None = None,
    operators: Iterable[str] = ("+", "-", "*", "/", "**"),
    constants: bool = True,
    implicit_multiplication: bool = True,
) -> Expr | None:
    """Parse ``text`` into an expression tree, or ``None`` if it is not an allowed expression."""
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None
    source = normalise(text)
    if implicit_multiplication:
        source = _IMPLICIT_MULT.sub("*", source)
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None
    walker = _Walker(set(variables), set(FUNCTIONS if functions is None else functions), set(operators), constants)
    try:
        return walker.visit(tree.body)
    except (_Reject, RecursionError):
        return None


class _Walker:
    def __init__(self, variables: set[str], functions: set[str], operators: set[str], constants: bool) -> None:
        self.variables, self.functions, self.operators, self.constants = variables, functions, operators, constants
        self.nodes = 0

    def visit(self, node: ast.AST) -> Expr:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Reject
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            if len(repr(node.value)) > MAX_DIGITS or not math.isfinite(node.value):
                raise _Reject
            return ("num", Fraction(repr(node.value)) if isinstance(node.value, float) else Fraction(node.value))
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS and _BINOPS[type(node.op)] in self.operators:
            return (_BINOPS[type(node.op)], self.visit(node.left), self.visit(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = self.visit(node.operand)
            return ("neg", inner) if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.Name):
            if node.id in self.variables:
                return ("var", node.id)
            if self.constants and node.id in CONSTANTS:
                return ("const", node.id)
            raise _Reject
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in self.functions
            and len(node.args) == 1
            and not node.keywords
        ):
            return ("call", node.func.id, self.visit(node.args[0]))
        raise _Reject


def evaluate_exact(expr: Expr | None, values: Mapping[str, Fraction] | None = None) -> Fraction | None:
    """Exact rational value, or ``None`` (not rational, division by zero, or out of bounds)."""
    if expr is None:
        return None
    try:
        return _exact(expr, values or {})
    except (_Reject, ZeroDivisionError, KeyError, RecursionError):
        return None


def _exact(e: Expr, values: Mapping[str, Fraction]) -> Fraction:
    kind = e[0]
    if kind == "num":
        return e[1]
    if kind == "var":
        return Fraction(values[e[1]])
    if kind == "neg":
        return -_exact(e[1], values)
    if kind in ("const", "call"):
        raise _Reject
    a, b = _exact(e[1], values), _exact(e[2], values)
    if kind == "+":
        result = a + b
    elif kind == "-":
        result = a - b
    elif kind == "*":
        result = a * b
    elif kind == "/":
        result = a / b
    else:
        result = _exact_power(a, b)
    if max(result.numerator.bit_length(), result.denominator.bit_length()) > MAX_RESULT_BITS:
        raise _Reject
    return result


def _exact_power(base: Fraction, exponent: Fraction) -> Fraction:
    if exponent.denominator != 1 or abs(exponent) > MAX_EXPONENT:
        raise _Reject
    bits = max(base.numerator.bit_length(), base.denominator.bit_length())
    if bits * abs(int(exponent)) > MAX_RESULT_BITS:
        raise _Reject
    return base ** int(exponent)


def evaluate_float(expr: Expr | None, values: Mapping[str, complex] | None = None) -> complex | None:
    """Numeric (complex) value, or ``None`` if undefined or overflowing."""
    if expr is None:
        return None
    try:
        value = _float(expr, values or {})
    except (ZeroDivisionError, OverflowError, ValueError, KeyError, RecursionError, _Reject):
        return None
    if not (cmath.isfinite(value)):
        return None
    return value


def _float(e: Expr, values: Mapping[str, complex]) -> complex:
    kind = e[0]
    if kind == "num":
        return complex(float(e[1]))
    if kind == "var":
        return complex(values[e[1]])
    if kind == "const":
        return complex(CONSTANTS[e[1]])
    if kind == "neg":
        return -_float(e[1], values)
    if kind == "call":
        return complex(FUNCTIONS[e[1]](_float(e[2], values)))
    a, b = _float(e[1], values), _float(e[2], values)
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    if kind == "/":
        return a / b
    if abs(b) > MAX_EXPONENT or (abs(a) > 1e6 and abs(b) > 64):
        raise _Reject
    if a == 0:
        return complex(0.0) if b.real > 0 else complex(float("inf"))
    if b.imag == 0 and b.real == int(b.real) and a.imag == 0:
        return complex(a.real ** int(b.real))
    return a**b


def leaves(expr: Expr) -> list[Expr]:
    """The number, variable and constant leaves of a tree, left to right."""
    if expr[0] in ("num", "var", "const"):
        return [expr]
    children = expr[2:] if expr[0] == "call" else expr[1:]
    return [leaf for child in children for leaf in leaves(child)]


def close(a: complex | None, b: complex | None, rel: float = 1e-9, abs_tol: float = 1e-9) -> bool:
    """Numeric closeness that treats ``None`` (undefined) as unequal to everything."""
    if a is None or b is None:
        return False
    return abs(a - b) <= max(abs_tol, rel * max(abs(a), abs(b)))


# --- exact surds ---------------------------------------------------------------

MAX_SURD_TERMS = 16  # distinct square roots in one value
MAX_SURD_ROOTS = 16  # square roots taken while evaluating one expression
MAX_RADICAND = 10**9  # a square-free part's bound (square factors and primes are found by trial division)


class Surd:
    """An exact real number ``q0 + q1*sqrt(d1) + ... + qk*sqrt(dk)``: rationals ``q`` and distinct
    square-free integers ``d > 1``.

    Square roots of distinct square-free integers are linearly independent over the
    rationals, so two surds are equal exactly when their terms are: equality and hashing
    are exact, never a floating-point tolerance.

    >>> Surd.sqrt(Fraction(8)) == 2 * Surd.sqrt(Fraction(2)), float(Surd.sqrt(Fraction(5, 4)))
    (True, 1.118033988749895)
    """

    __slots__ = ("terms",)

    def __init__(self, terms: Mapping[int, Fraction] | None = None) -> None:
        self.terms: dict[int, Fraction] = {d: Fraction(q) for d, q in (terms or {}).items() if q}
        if len(self.terms) > MAX_SURD_TERMS:
            raise _Reject
        for q in self.terms.values():
            if max(q.numerator.bit_length(), q.denominator.bit_length()) > MAX_RESULT_BITS:
                raise _Reject

    @classmethod
    def rational(cls, value: Fraction | int) -> Surd:
        return cls({1: Fraction(value)})

    @classmethod
    def sqrt(cls, value: Fraction) -> Surd:
        """The square root of a non-negative rational (raises ``ValueError`` when negative or too big)."""
        if value < 0:
            raise ValueError("square root of a negative number")
        value = Fraction(value)
        exact = _rational_sqrt(value)
        if exact is not None:
            return cls.rational(exact)
        radicand = value.numerator * value.denominator  # sqrt(p/q) = sqrt(p*q)/q
        if radicand > MAX_RADICAND:
            raise ValueError("radicand too large")
        square, free = _square_part(radicand)
        return cls({free: Fraction(square, value.denominator)})

    def is_rational(self) -> bool:
        return set(self.terms) <= {1}

    def rational_part(self) -> Fraction:
        return self.terms.get(1, Fraction(0))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (int, Fraction)):
            other = Surd.rational(other)
        return isinstance(other, Surd) and self.terms == other.terms

    def __hash__(self) -> int:
        return hash(frozenset(self.terms.items()))

    def __float__(self) -> float:
        return float(sum(float(q) * math.sqrt(d) for d, q in self.terms.items()))

    def __repr__(self) -> str:
        parts = [str(q) if d == 1 else f"{q}*sqrt({d})" for d, q in sorted(self.terms.items())]
        return f"Surd({' + '.join(parts) or '0'})"

    def __neg__(self) -> Surd:
        return Surd({d: -q for d, q in self.terms.items()})

    def __add__(self, other: Surd) -> Surd:
        terms = dict(self.terms)
        for d, q in other.terms.items():
            terms[d] = terms.get(d, Fraction(0)) + q
        return Surd(terms)

    def __sub__(self, other: Surd) -> Surd:
        return self + (-other)

    def __mul__(self, other: Surd | Fraction | int) -> Surd:
        if not isinstance(other, Surd):
            other = Surd.rational(other)
        terms: dict[int, Fraction] = {}
        for d1, q1 in self.terms.items():
            for d2, q2 in other.terms.items():
                common = math.gcd(d1, d2)  # sqrt(d1)*sqrt(d2) = common*sqrt(d1*d2/common^2)
                d = d1 // common * (d2 // common)
                if d > MAX_RADICAND:
                    raise _Reject
                terms[d] = terms.get(d, Fraction(0)) + q1 * q2 * common
        return Surd(terms)

    __rmul__ = __mul__

    def _conjugate(self, prime: int) -> Surd:
        """The image under sqrt(prime) -> -sqrt(prime), a field automorphism."""
        return Surd({d: (-q if d % prime == 0 else q) for d, q in self.terms.items()})

    def __truediv__(self, other: Surd) -> Surd:
        """Exact division: the denominator is rationalised one prime of its radicands at a time."""
        if not other.terms:
            raise ZeroDivisionError
        numerator, denominator = self, other
        primes = sorted({p for d in other.terms if d > 1 for p in _prime_factors(d)})
        if len(primes) > 4:
            raise _Reject
        for prime in primes:
            conjugate = denominator._conjugate(prime)
            numerator, denominator = numerator * conjugate, denominator * conjugate
        if not denominator.is_rational() or not denominator.terms:
            raise _Reject  # cannot happen for a non-zero value; kept as a guard
        return numerator * (1 / denominator.rational_part())

    def root(self) -> Surd:
        """The square root of this value when it is a rational or a denestable ``a + b*sqrt(d)``.

        ``sqrt(a + b*sqrt(d)) = sqrt((a + c)/2) + sign(b)*sqrt((a - c)/2)`` with ``c = sqrt(a^2 - b^2 d)``
        rational; other nested radicals raise ``_Reject``, negative values ``ValueError``.
        """
        if self.is_rational():
            return Surd.sqrt(self.rational_part())
        irrational = [d for d in self.terms if d != 1]
        if len(irrational) != 1:
            raise _Reject
        d = irrational[0]
        a, b = self.rational_part(), self.terms[d]
        c_squared = a * a - b * b * d
        if c_squared < 0:
            raise ValueError("square root of a negative number")
        c = _rational_sqrt(c_squared)
        if c is None or a - c < 0:
            raise _Reject if c is None else ValueError("square root of a negative number")
        first, second = Surd.sqrt((a + c) / 2), Surd.sqrt((a - c) / 2)
        return first + second if b > 0 else first - second


def _square_part(n: int) -> tuple[int, int]:
    """``(s, f)`` with ``n = s*s*f`` and ``f`` square-free (``n <= MAX_RADICAND``).

    Trial division up to the cube root; what is left then has at most two prime factors,
    so it is square-free unless it is a prime squared.
    """
    if n == 0:
        return 0, 1
    square, free, p = 1, 1, 2
    while p * p * p <= n:
        while n % (p * p) == 0:
            n //= p * p
            square *= p
        if n % p == 0:
            n //= p
            free *= p
        p += 1 if p == 2 else 2
    root = math.isqrt(n)
    if root * root == n:
        return square * root, free
    return square, free * n


@functools.lru_cache(maxsize=256)
def _prime_factors(n: int) -> tuple[int, ...]:
    factors, p = [], 2
    while p * p <= n:
        if n % p == 0:
            factors.append(p)
            while n % p == 0:
                n //= p
        p += 1 if p == 2 else 2
    return (*factors, *([n] if n > 1 else []))


def _rational_sqrt(value: Fraction) -> Fraction | None:
    if value < 0:
        return None
    num, den = math.isqrt(value.numerator), math.isqrt(value.denominator)
    return Fraction(num, den) if num * num == value.numerator and den * den == value.denominator else None


def evaluate_surd(expr: Expr | None, values: Mapping[str, Fraction] | None = None) -> Surd | None:
    """The exact value of an expression built from rationals, ``+ - * /``, integer powers and square
    roots (``sqrt(x)``, ``x**(1/2)``), with variables set to the rational ``values``; ``None`` for
    anything else (other functions, constants such as ``pi``, a variable without a value, a
    negative radicand, division by zero, or out of bounds).

    >>> evaluate_surd(parse_expression("(3 - sqrt(8))/2")) == evaluate_surd(parse_expression("3/2 - √2"))
    True
    >>> evaluate_surd(parse_expression("sqrt(-4)")), evaluate_surd(parse_expression("pi"))
    (None, None)
    """
    if expr is None:
        return None
    roots = [0]
    try:
        return _surd(expr, roots, values or {})
    except (_Reject, ZeroDivisionError, ValueError, RecursionError, OverflowError, KeyError):
        return None


def _surd(e: Expr, roots: list[int], values: Mapping[str, Fraction]) -> Surd:
    kind = e[0]
    if kind == "num":
        return Surd.rational(e[1])
    if kind == "var":
        return Surd.rational(Fraction(values[e[1]]))
    if kind == "neg":
        return -_surd(e[1], roots, values)
    if kind == "call":
        if e[1] != "sqrt":
            raise _Reject
        return _take_root(_surd(e[2], roots, values), roots)
    if kind == "const":
        raise _Reject
    a, b = _surd(e[1], roots, values), _surd(e[2], roots, values)
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    if kind == "/":
        return a / b
    if not b.is_rational():
        raise _Reject
    exponent = b.rational_part()
    if exponent.denominator == 2:  # x**(k/2) = sqrt(x)**k
        a, exponent = _take_root(a, roots), exponent * 2
    if exponent.denominator != 1 or abs(exponent) > 64:
        raise _Reject
    result = Surd.rational(1)
    for _ in range(abs(int(exponent))):
        result = result * a
    return Surd.rational(1) / result if exponent < 0 else result


def _take_root(value: Surd, roots: list[int]) -> Surd:
    roots[0] += 1
    if roots[0] > MAX_SURD_ROOTS:
        raise _Reject
    return value.root()
