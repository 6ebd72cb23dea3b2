"""Add two or three whole numbers written in digits.

The smallest task that needs computing: the sum is in neither operand, so it
cannot be copied from the prompt. Level 1 (two digits from 1 to 9) is the
CPU learning demonstration of ``palaestra train``: an untrained model is at
chance there (about one answer in twenty), and the tiny model learns it by RL
in a few minutes. Operand size and count are the difficulty knobs; the
difficulty measure is the number of digit columns added plus the carries.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.numeric import parse_number


@register
class Addition(Task):
    id = "arithmetic/addition"
    family = "arithmetic"
    description = "Add two or three whole numbers (single digits at the lowest levels)."
    tags = ("math", "arithmetic", "starter")

    @dataclass(frozen=True)
    class Config:
        operands: int
        low: int  # every operand is in [low, high]: never 0, so no operand is ever the sum
        high: int

    def config(self, level: int) -> Config:
        return [
            self.Config(operands=2, low=1, high=4),
            self.Config(operands=2, low=1, high=9),
            self.Config(operands=2, low=10, high=99),
            self.Config(operands=2, low=100, high=999),
            self.Config(operands=3, low=100, high=9999),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        numbers = [rng.randint(config.low, config.high) for _ in range(config.operands)]
        total = sum(numbers)
        # The operands stand last, right before the answer-format line: a model that reads only
        # the prompt's tail still sees them. Every sum is at least 2, so the example is never the answer.
        prompt = ("Add the numbers and write the sum as a whole number in digits (like 1 for 0+1).\n\n"
                  f"Input: {'+'.join(map(str, numbers))}")
        return Problem(prompt=prompt, answer=str(total), data={"numbers": numbers, "sum": total})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = parse_number(answer)
        if value is None:
            return Verdict.unparsed("the answer is not a number")
        return Verdict.judge(value == problem.data["sum"], "wrong sum")

    def difficulty(self, problem: Problem) -> float:
        """Digit columns added (over all operands) plus the carries made on the way."""
        numbers: list[int] = problem.data["numbers"]
        columns = sum(len(str(n)) for n in numbers)
        carries, carry = 0, 0
        for place in range(max(len(str(n)) for n in numbers)):
            column = sum(n // 10**place % 10 for n in numbers) + carry
            carry = column // 10
            carries += carry > 0
        return float(columns + carries)
