"""Add two or three whole numbers written in digits.

The smallest task that needs computing: the sum is in neither operand, so it
cannot be copied from the prompt. Level 0 (two digits whose sum is a single
digit: 36 problems, 8 possible answers, each answer equally likely) is the CPU
learning demonstration of ``palaestra train``: an untrained model is at chance
there, and the tiny model learns it by RL in a few minutes. Operand size and
count are the difficulty knobs from level 1 on; the difficulty measure is the
number of digit columns added plus the carries.
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
    description = "Add two or three whole numbers (two digits with a one-digit sum at level 0)."
    tags = ("math", "arithmetic", "starter", "demo")  # a demonstration task: not counted among the envs

    @dataclass(frozen=True)
    class Config:
        ranges: tuple[tuple[int, int], ...]  # each operand's [low, high]; never 0, so no operand is the sum
        single_digit_sum: bool = False  # level 0: the sum is drawn first (2..9, uniform), then split in two

    presets = (
        Config(ranges=((1, 8), (1, 8)), single_digit_sum=True),
        Config(ranges=((10, 999), (10, 99))),
        Config(ranges=((100, 9_999), (100, 9_999))),
        Config(ranges=((10_000, 999_999), (10_000, 999_999))),
        Config(ranges=((1_000, 999_999),) * 3),
    )

    def extrapolate(self, level: int) -> Config:
        """Past the presets, three operands of up to ``level + 2`` digits (level 4 has up to 6)."""
        digits = level + 2
        return self.Config(ranges=((10 ** (digits - 3), 10**digits - 1),) * 3)

    def space_size(self, level: int) -> int | None:
        return 36 if level == 0 else None  # the pairs of digits from 1 to 8 whose sum is at most 9

    def generate(self, rng: random.Random, config: Config) -> Problem:
        if config.single_digit_sum:
            total = rng.randint(2, 9)
            first = rng.randint(1, total - 1)
            numbers = [first, total - first]
        else:
            numbers = [rng.randint(low, high) for low, high in config.ranges]
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
