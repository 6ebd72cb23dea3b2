"""Evaluate a multi-step integer expression with + - * / and parentheses.

Divisions are generated exact, so the answer is always an integer; the
verifier accepts any numeral equal to it (``42``, ``42.0``, ``84/2``) but never
an expression, so echoing the question earns nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.numeric import parse_number

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


@register
class Expression(Task):
    id = "arithmetic/expression"
    family = "arithmetic"
    description = "Evaluate a multi-step integer arithmetic expression."
    tags = ("math", "arithmetic")

    @dataclass(frozen=True)
    class Config:
        operations: int  # binary operators in the expression
        max_operand: int
        operators: str
        allow_negative: bool

    def config(self, level: int) -> Config:
        return [
            self.Config(operations=2, max_operand=10, operators="+-", allow_negative=False),
            self.Config(operations=3, max_operand=20, operators="+-*", allow_negative=False),
            self.Config(operations=4, max_operand=50, operators="+-*/", allow_negative=True),
            self.Config(operations=6, max_operand=100, operators="+-*/", allow_negative=True),
            self.Config(operations=9, max_operand=500, operators="+-*/", allow_negative=True),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        text, value = _expression(rng, config, config.operations)
        answer = str(value)
        return Problem(
            prompt=f"Evaluate the expression and give the result as an integer:\n\n{text}",
            answer=answer,
            data={"expression": text, "value": answer},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = parse_number(answer)
        if value is None:
            return Verdict.unparsed("the answer is not a number")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong value")


def _below(rng: random.Random, n: int) -> int:
    """Uniform in [0, n); ``random()`` is several times cheaper than ``randrange`` and generation is hot."""
    return int(rng.random() * n)


def _operand(rng: random.Random, config: Expression.Config) -> int:
    value = 1 + _below(rng, config.max_operand)
    return -value if config.allow_negative and rng.random() < 0.2 else value


def _expression(rng: random.Random, config: Expression.Config, operations: int) -> tuple[str, int]:
    """(text, exact value) of a random expression with ``operations`` binary operators."""
    if operations == 0:
        value = _operand(rng, config)
        return (f"({value})" if value < 0 else str(value)), value
    op = config.operators[_below(rng, len(config.operators))]
    if op == "/":  # divide a compound left side by one of its small exact divisors
        left, left_value = _expression(rng, config, operations - 1)
        divisors = [d for d in range(2, 13) if left_value % d == 0]
        if divisors:
            d = divisors[_below(rng, len(divisors))]
            return _join(left, op, str(d), True), left_value // d  # exact by construction
        op = "+"  # no small exact divisor: add a leaf instead
        right_value = _operand(rng, config)
        right = f"({right_value})" if right_value < 0 else str(right_value)
        return _join(left, op, right, True), left_value + right_value
    left_ops = _below(rng, operations)
    left, left_value = _expression(rng, config, left_ops)
    right, right_value = _expression(rng, config, operations - 1 - left_ops)
    value = {"+": left_value + right_value, "-": left_value - right_value, "*": left_value * right_value}[op]
    return _join(left, op, right, operations - 1 - left_ops == 0), value


def _join(left: str, op: str, right: str, right_is_leaf: bool) -> str:
    # Parenthesise every compound right operand and compound left operands of * and /,
    # which keeps the reading unambiguous without a precedence puzzle.
    if _PRECEDENCE[op] == 2 and not left.strip("()-").isdigit():
        left = f"({left})"
    if not right_is_leaf:
        right = f"({right})"
    return f"{left} {op} {right}"
