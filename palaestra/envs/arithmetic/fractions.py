"""Exact fraction arithmetic: reduce a fraction, then evaluate expressions of fractions.

Level 0 reduces one fraction to lowest terms (the numerator and denominator share a
factor drawn first, so reducing is never a no-op). From level 1 the question is an
expression over fractions with ``+ - × ÷`` and, from level 3, brackets and negative
numbers; the operand count and the denominators grow with the level. Values are
computed with :class:`fractions.Fraction`, so the answer is exact.

The answer is the exact value in lowest terms (:func:`palaestra.verifiers.rationals.read_lowest_terms`):
``-7/12``, ``\\frac{-7}{12}``, ``-\\dfrac{7}{12}``, a mixed number ``1 5/12`` or an equal
terminating decimal ``1.25``; never an unreduced fraction (``14/24``), a rounded
decimal (``0.583``) or an expression (``7/12 - 1``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.rationals import format_fraction, other_spellings, read_lowest_terms

_EXAMPLE = Fraction(-7, 12)
_SYMBOL = {"+": "+", "-": "−", "*": "×", "/": "÷"}
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
MAX_DENOMINATOR = 10**6  # answers stay readable


@register
class Fractions(Task):
    id = "arithmetic/fractions"
    version = 3
    family = "arithmetic"
    description = "Reduce a fraction, or evaluate an expression of fractions, exactly and in lowest terms."
    tags = ("math", "arithmetic", "fractions")

    @dataclass(frozen=True)
    class Config:
        operands: int  # fractions in the expression (1: reduce one fraction)
        max_denominator: int  # denominators of the operands are 2..this
        operators: str  # drawn from these
        brackets: bool  # random tree shapes with brackets, and negative operands

    presets = (
        Config(operands=1, max_denominator=0, operators="", brackets=False),
        Config(operands=2, max_denominator=16, operators="+-", brackets=False),  # 12 repeated 5% of 1,000 problems
        Config(operands=3, max_denominator=12, operators="+-*/", brackets=False),
        Config(operands=4, max_denominator=16, operators="+-*/", brackets=True),
        Config(operands=6, max_denominator=24, operators="+-*/", brackets=True),
    )
    # Past 14 operands the values outgrow the readable size and every draw is refused: the size stops at level 12's.
    growth = Growth(steps={"operands": 1, "max_denominator": 4}, limits={"operands": 14, "max_denominator": 56})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        if config.operands == 1:
            question, value, denominators = _reduction(rng)
        else:
            # At the capped sizes a readable value takes ~120 draws (the 99th percentile ~720): 1,000 failed at ~0.3%
            # of seeds. Seeds that found one before find the same one.
            tree = retry(lambda: _tree(rng, config), _acceptable, attempts=5_000,
                         what="an expression with a readable value")
            question = f"Compute {_render(tree)}."
            value = _value(tree)
            denominators = [leaf.denominator for leaf in _leaves(tree)]
        example = _EXAMPLE  # a fixed placeholder: independent of the answer
        prompt = (
            f"{question}\n\nGive the exact result as a fraction in lowest terms (an integer if it is whole), "
            f"e.g. {format_fraction(example)}."
        )
        return Problem(
            prompt=prompt,
            answer=format_fraction(value),
            # "common": the operands' common denominator, or the factor a reduction removes
            data={"value": format_fraction(value), "operands": config.operands, "common": math.lcm(*denominators)},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value, reduced = read_lowest_terms(answer)
        if value is None:
            return Verdict.unparsed("the answer is not a number")
        if value != Fraction(problem.data["value"]):
            return Verdict.wrong("wrong value")
        return Verdict.judge(reduced, "the fraction is not in lowest terms")

    def difficulty(self, problem: Problem) -> float:
        """Twice the operations plus the digits of the common denominator (a reduction: one step plus the
        digits of the common factor removed)."""
        return 2 * max(0.5, problem.data["operands"] - 1) + len(str(problem.data["common"]))

    def spellings(self, problem: Problem) -> list[str]:
        value = Fraction(problem.data["value"])
        return [*super().spellings(problem), *other_spellings(value), f"x = {problem.answer}",
                f"{problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = Fraction(problem.data["value"])
        wrong = [*super().corruptions(problem, rng), format_fraction(value + 1), format_fraction(-value - 1),
                 f"{value.numerator * 2}/{value.denominator * 2}",
                 f"{format_fraction(value)} or {format_fraction(value + 1)}"]
        if value.numerator:
            wrong.append(format_fraction(1 / value) if abs(value) != 1 else format_fraction(value * 2))
        if (value * 10**4).denominator != 1:
            wrong.append(f"{float(value):.4f}")
        return wrong


def _reduction(rng: random.Random) -> tuple[str, Fraction, list[int]]:
    """A fraction whose numerator and denominator share a factor of 2-60 (numbers of up to four digits)."""
    value = Fraction(rng.randint(1, 150), rng.randint(2, 150))
    factor = rng.randint(2, 60)
    numerator, denominator = value.numerator * factor, value.denominator * factor
    return f"Write {numerator}/{denominator} as a fraction in lowest terms.", value, [factor]


# An expression tree: a Fraction leaf, or (operator, left, right).
Tree = Fraction | tuple


def _operand(rng: random.Random, config: Fractions.Config) -> Fraction:
    """A reduced proper or improper fraction (now and then a whole number), negative now and then."""
    sign = -1 if config.brackets and rng.random() < 0.25 else 1
    if rng.random() < 0.1:
        return Fraction(sign * rng.randint(1, 9))
    denominator = rng.randint(2, config.max_denominator)
    numerator = rng.choice([n for n in range(1, 2 * denominator) if math.gcd(n, denominator) == 1])
    return Fraction(sign * numerator, denominator)


def _tree(rng: random.Random, config: Fractions.Config) -> Tree:
    nodes: list[Tree] = [_operand(rng, config) for _ in range(config.operands)]
    while len(nodes) > 1:  # bounded: one node fewer each pass
        i = rng.randrange(len(nodes) - 1) if config.brackets else 0
        op = rng.choice(config.operators)
        nodes[i : i + 2] = [(op, nodes[i], nodes[i + 1])]
    return nodes[0]


def _value(tree: Tree) -> Fraction:
    if isinstance(tree, Fraction):
        return tree
    op, left, right = tree
    a, b = _value(left), _value(right)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise ZeroDivisionError
    return a / b


def _acceptable(tree: Tree) -> bool:
    try:
        value = _value(tree)
    except ZeroDivisionError:
        return False
    return value.denominator <= MAX_DENOMINATOR and abs(value.numerator) <= MAX_DENOMINATOR


def _leaves(tree: Tree) -> list[Fraction]:
    return [tree] if isinstance(tree, Fraction) else [*_leaves(tree[1]), *_leaves(tree[2])]


def _render(tree: Tree, parent: str | None = None, right: bool = False) -> str:
    if isinstance(tree, Fraction):
        text = format_fraction(tree).replace("-", "−")
        needs = tree < 0 or (tree.denominator != 1 and parent in ("*", "/"))
        return f"({text})" if needs else text
    op, left, right_tree = tree
    text = f"{_render(left, op)} {_SYMBOL[op]} {_render(right_tree, op, True)}"
    if parent is None:
        return text
    weaker = _PRECEDENCE[op] < _PRECEDENCE[parent]
    same_but_right = right and _PRECEDENCE[op] == _PRECEDENCE[parent] and parent in ("-", "/")
    return f"({text})" if weaker or same_but_right else text
