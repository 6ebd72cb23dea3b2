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
"""

from __future__ import annotations

import ast
import cmath
import math
import re
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, Union

MAX_CHARS = 2_000
MAX_NODES = 400
MAX_DIGITS = 60
MAX_EXPONENT = 256
MAX_RESULT_BITS = 4_096

# Expression trees are nested tuples: ("num", Fraction) | ("var", name) | ("neg", e)
# | (op, left, right) with op in + - * / ** | ("call", name, e).
Expr = tuple[Any, ...]
Number = Union[Fraction, complex, float]

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


class _Reject(Exception):
    """The text is not an allowed expression."""


def normalise(text: str) -> str:
    """Common notations to Python syntax: ``^``, ``×``, ``÷``, ``−``, simple LaTeX."""
    text = text.strip().rstrip(".").strip("$").strip()
    for old, new in (("^", "**"), ("×", "*"), ("·", "*"), ("÷", "/"), ("−", "-"), ("\\cdot", "*"),
                     ("\\times", "*"), ("\\left", ""), ("\\right", ""), ("\\pi", "pi"), ("π", "pi")):
        text = text.replace(old, new)
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
