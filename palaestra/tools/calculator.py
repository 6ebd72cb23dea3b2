"""A calculator tool: exact arithmetic on an expression, never ``eval``.

The expression is read by the allow-list parser of :mod:`palaestra.verifiers.expressions`
(numbers, ``+ - * / ** ^``, parentheses, ``sqrt exp log ln sin cos tan abs``, ``pi`` and ``e``)
with its bounds on size, digits and exponents, so ``9**9**9**9`` is refused, not computed.
Rational results are exact (``1/3 + 1/6`` gives ``1/2 (= 0.5)``); anything else is a float.

Example::

    >>> Calculator().call({"expression": "(3 + 5) * 2 - 1/4"})
    '63/4 (= 15.75)'
    >>> Calculator().call({"expression": "sqrt(2)"})
    '1.4142135623731'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from palaestra.tools.base import Tool
from palaestra.verifiers import expressions


class Calculator(Tool):
    name = "calculator"
    description = (
        "Evaluate an arithmetic expression exactly. Supports + - * / ** (or ^), parentheses, "
        "sqrt, exp, log, ln, sin, cos, tan, abs, pi and e. Fractions stay exact."
    )
    parameters = {
        "type": "object",
        "properties": {"expression": {"type": "string", "description": "e.g. (17 * 23 + 5) / 4"}},
        "required": ["expression"],
        "additionalProperties": False,
    }

    def run(self, arguments: dict[str, Any]) -> str:
        text = arguments["expression"]
        tree = expressions.parse_expression(text, implicit_multiplication=False)
        if tree is None:
            return (
                "error: not a supported expression (use numbers, + - * / ** ( ), "
                "sqrt exp log ln sin cos tan abs, pi, e; at most "
                f"{expressions.MAX_CHARS} characters and exponents up to {expressions.MAX_EXPONENT})"
            )
        exact = expressions.evaluate_exact(tree)
        if exact is not None:
            return _format_exact(exact)
        value = expressions.evaluate_float(tree)
        if value is None:
            return "error: undefined or too large (division by zero, overflow, or a result out of bounds)"
        if abs(value.imag) > 1e-12 * max(1.0, abs(value.real)):
            sign = "-" if value.imag < 0 else "+"
            return f"{_float(value.real)} {sign} {_float(abs(value.imag))}i"
        return _float(value.real)


def _format_exact(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator} (= {_float(float(value))})"


def _float(x: float) -> str:
    text = f"{x:.14g}"
    return text
