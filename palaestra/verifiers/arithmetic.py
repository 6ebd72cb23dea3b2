"""Arithmetic expressions over given numbers as people write them, with an optional stated result.

For make-a-target puzzles (Countdown, 24): the answer is an expression such as ``(8 - 4) × 6`` or
``\\frac{8}{2} \\cdot 6 = 24``. :func:`read_expression` reads one over numbers with ``+ - * /`` and
parentheses (square brackets too), after the shared normalisation (unicode operators, LaTeX,
``x`` between numbers as a times sign); :func:`read_claim` also reads a result stated with it
(``expr = N`` or ``N = expr``), so that a wrong stated result can be judged. Nothing is ever
evaluated by Python: the tree comes from the bounded parser in :mod:`palaestra.verifiers.expressions`.

Example::

    >>> from palaestra.verifiers.expressions import evaluate_exact
    >>> evaluate_exact(read_expression("(8 - 4) x 6")), evaluate_exact(read_expression("[3 + 5] ∗ 3"))
    (Fraction(24, 1), Fraction(24, 1))
    >>> tree, stated = read_claim("24 = 4 * 6")
    >>> stated
    24
"""

from __future__ import annotations

import re
from fractions import Fraction

from palaestra.verifiers.expressions import Expr, parse_expression
from palaestra.verifiers.normalize import simplify_latex, unify
from palaestra.verifiers.numeric import read_exact

_TIMES_LETTER = re.compile(r"(?<=[\d)\s])[xX](?=[\s\d(])")  # "(8 - 4) x 6"
MAX_CHAIN = 6  # sides of a chain of equalities read
_SYMBOLS = str.maketrans({"∗": "*", "[": "(", "]": ")"})  # the asterisk operator; square brackets as parentheses


def read_expression(text: str) -> Expr | None:
    """An expression over numbers with + - * / and parentheses, or None."""
    text = _TIMES_LETTER.sub("*", simplify_latex(unify(text))).translate(_SYMBOLS)
    return parse_expression(text, operators=("+", "-", "*", "/"), functions=(), constants=False)


def read_claim(text: str) -> tuple[Expr, int | None] | None:
    """The expression and the result stated with it (``expr = N`` or ``N = expr``; None if none is stated).

    The result may be restated in a chain (``expr = 84 = 84``, ``84 = expr = 84``; up to :data:`MAX_CHAIN` sides):
    one side is the expression and every other side a number; numbers that differ are a wrong result.

    A stated result that is not a whole number is returned as -1, which never equals a target.
    """
    sides = text.split("=", MAX_CHAIN)
    if len(sides) == 1:
        tree = read_expression(text)
        return None if tree is None else (tree, None)
    if len(sides) == 2:
        for expression, result in (sides, sides[::-1]):
            stated, tree = read_exact(result), read_expression(expression)
            if stated is not None and tree is not None:
                return tree, int(stated) if stated.denominator == 1 else -1
        return None
    if len(sides) > MAX_CHAIN:
        return None
    # a chain restating the result ("expr = 84 = 84", "84 = expr = 84"): one expression, every other side a
    # number; numbers that differ state no one result, so they count as a wrong one
    values = [read_exact(side) for side in sides]
    expressions = [side for side, value in zip(sides, values, strict=True) if value is None]
    chained = read_expression(expressions[0]) if len(expressions) == 1 else None
    if chained is None:
        return None
    results = {value for value in values if value is not None}
    agreed = results.pop() if len(results) == 1 else None
    return chained, int(agreed) if agreed is not None and agreed.denominator == 1 else -1


def number_leaves(tree: Expr) -> list[Fraction] | None:
    """The numbers an expression uses, in order; None if it negates anything (``-3`` is not a given number).

    >>> number_leaves(read_expression("(8 - 4) * 6")), number_leaves(read_expression("-4 * -6"))
    ([Fraction(8, 1), Fraction(4, 1), Fraction(6, 1)], None)
    """
    found: list[Fraction] = []
    stack = [tree]
    while stack:  # each node is visited once
        node = stack.pop()
        if node[0] == "neg":
            return None
        if node[0] == "num":
            found.append(node[1])
        else:
            stack.extend(reversed(node[1:]))
    return found
