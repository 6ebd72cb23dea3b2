"""Evaluate a multi-step integer expression with + - * / and parentheses.

Divisions are generated exact, so the answer is always an integer; the
verifier accepts any numeral equal to it (``42``, ``42.0``, ``84/2``, ``(42)``,
``\\boxed{42}``, ``4.2e1``, ``42. That is the result.``, a worked ``6 * 7 = 42`` whose
left side does equal the right) but never an expression alone, so echoing the question
earns nothing, and never an inexact decimal (``42.000001``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.expressions import evaluate_exact, parse_expression
from palaestra.verifiers.numeric import read_exact

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


@register
class Expression(Task):
    id = "arithmetic/expression"
    family = "arithmetic"
    description = "Evaluate a multi-step integer arithmetic expression."
    tags = ("math", "arithmetic")
    version = 3

    @dataclass(frozen=True)
    class Config:
        operations: int  # binary operators in the expression
        max_operand: int
        operators: str
        allow_negative: bool

    presets = (
        Config(operations=2, max_operand=20, operators="+-", allow_negative=False),
        Config(operations=3, max_operand=20, operators="+-*", allow_negative=False),
        Config(operations=4, max_operand=50, operators="+-*/", allow_negative=True),
        Config(operations=6, max_operand=100, operators="+-*/", allow_negative=True),
        Config(operations=9, max_operand=500, operators="+-*/", allow_negative=True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        text, value = _expression(rng.random, config, config.operations)
        answer = str(value)
        example = -17  # a fixed placeholder: independent of the answer
        return Problem(
            prompt=f"Evaluate the expression and give the result as an integer in digits, e.g. {example}:\n\n{text}",
            answer=answer,
            data={"expression": text, "value": answer},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_exact(answer, max_digits=200)
        if value is None:
            value = _worked_result(answer)
        if value is None:
            return Verdict.unparsed("the answer is not a number")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Operations to carry out plus the operand digits they work on."""
        expression = problem.data["expression"]
        operators = sum(expression.count(f" {op} ") for op in "+-*/")
        return float(operators + sum(char.isdigit() for char in expression))

    def spellings(self, problem: Problem) -> list[str]:
        value = int(problem.data["value"])
        spellings = [*super().spellings(problem), f"({value})", f"\\boxed{{{value}}}", f"{value}e0", f"{value}.0",
                     f"${value}$", f"**{value}**", f"{value}.", f"The result is {value}.",
                     f"{2 * value}/2", f"{problem.data['expression']} = {value}"]
        if abs(value) >= 1000:
            spellings.append(f"{value:,}")
        if value < 0:
            spellings.append(f"−{-value}")  # a unicode minus sign
        return spellings

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = int(problem.data["value"])
        return [*super().corruptions(problem, rng), f"{value}.000001", f"{value + 1}", f"{value}.5",
                f"{value} or {value + 1}", f"{value}, or maybe {value - 1}", problem.data["expression"],
                f"{value} = {value + 1}", f"{problem.data['expression']} = {value + 1}"]


def _worked_result(answer: str) -> Fraction | None:
    """The result of ``<expression> = <number>`` when the expression does equal that number, else None.

    A worked answer such as ``7 * (2 + 3) = 35`` states its result; a wrong equation
    (``7 * 5 = 36``) and an expression alone (the question echoed back) are not read.
    """
    if len(answer) > 2_000 or answer.count("=") != 1:
        return None
    work, result = answer.split("=")
    value = read_exact(result, max_digits=200)
    if value is None:
        return None
    worked = evaluate_exact(parse_expression(work, functions=(), constants=False, implicit_multiplication=False))
    return value if worked == value else None


def _operand(rand: Callable[[], float], config: Expression.Config) -> int:
    value = 1 + int(rand() * config.max_operand)
    return -value if config.allow_negative and rand() < 0.2 else value


def _expression(rand: Callable[[], float], config: Expression.Config, operations: int) -> tuple[str, int]:
    """(text, exact value) of a random expression with ``operations`` binary operators.

    ``rand`` is the problem rng's ``random``: ``int(rand() * n)`` is several times cheaper than
    ``randrange(n)`` and generation is hot.
    """
    if operations == 0:
        value = _operand(rand, config)
        return (f"({value})" if value < 0 else str(value)), value
    operators = config.operators
    op = operators[int(rand() * len(operators))]
    if op == "/":  # divide a compound left side by one of its small exact divisors
        left, left_value = _expression(rand, config, operations - 1)
        divisors = [d for d in range(2, 13) if left_value % d == 0]
        if divisors:
            d = divisors[int(rand() * len(divisors))]
            return _join(left, op, str(d), operations == 1, True), left_value // d  # exact by construction
        op = "+"  # no small exact divisor: add a leaf instead
        right_value = _operand(rand, config)
        right = f"({right_value})" if right_value < 0 else str(right_value)
        return _join(left, op, right, operations == 1, True), left_value + right_value
    left_ops = int(rand() * operations)
    left, left_value = _expression(rand, config, left_ops)
    right, right_value = _expression(rand, config, operations - 1 - left_ops)
    if op == "+":
        value = left_value + right_value
    elif op == "-":
        value = left_value - right_value
    else:
        value = left_value * right_value
    return _join(left, op, right, left_ops == 0, operations - 1 - left_ops == 0), value


def _join(left: str, op: str, right: str, left_is_leaf: bool, right_is_leaf: bool) -> str:
    # Parenthesise every compound right operand and compound left operands of * and /,
    # which keeps the reading unambiguous without a precedence puzzle.
    if not left_is_leaf and _PRECEDENCE[op] == 2:
        left = f"({left})"
    if not right_is_leaf:
        right = f"({right})"
    return f"{left} {op} {right}"
