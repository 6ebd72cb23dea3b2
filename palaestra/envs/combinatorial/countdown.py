"""Countdown numbers game: combine given numbers with + - * / to hit a target.

The target is the value of a random expression over some of the numbers (all
of them at the top level, where each must be used exactly once), so a solution
always exists; that expression is the reference answer. The verifier reads the
answer with the shared whitelisting expression parser (numbers, ``+ - * /`` and
parentheses only: no powers, functions, names or unary minus; ``×``, ``x``, ``\\times``,
``÷`` and ``\\div`` are read as ``*`` and ``/``), checks that the numbers used are among
those given, respecting multiplicity, and that the exact value equals the target.
**Any** such expression is accepted. A stated result (``(8 + 4) * 7 = 84``, or
``84 = (8 + 4) * 7``) is part of the answer: it must be the target too, so
``(8 + 4) * 7 = 85`` is wrong.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.arithmetic import number_leaves, read_claim, read_expression
from palaestra.verifiers.expressions import evaluate_exact, leaves
from palaestra.verifiers.normalize import read_with_tail

LARGE = (25, 50, 75, 100)
MAX_ANSWER_CHARS = 2_000
EXAMPLE = "(25 - 3) * 8 + 7"  # the prompt's example, whatever the answer
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_LEAF = 3


@register
class Countdown(Task):
    id = "combinatorial/countdown"
    version = 2
    family = "combinatorial"
    description = "Write an expression over given numbers with + - * / that equals a target."
    tags = ("math", "arithmetic", "search", "combinatorial")

    @dataclass(frozen=True)
    class Config:
        numbers: int  # how many numbers are given
        large: int  # how many of them come from 25, 50, 75, 100
        small_max: int  # the others are drawn from 1..small_max
        used_min: int  # the target expression uses this many numbers at least...
        used_max: int  # ...and at most this many
        operators: str
        max_target: int
        exactly_once: bool  # every number must be used exactly once

    def config(self, level: int) -> Config:
        return [
            self.Config(4, 0, 10, 3, 3, "+-*", 100, False),
            self.Config(4, 0, 12, 3, 4, "+-*/", 200, False),
            self.Config(5, 1, 10, 3, 4, "+-*/", 500, False),
            self.Config(6, 1, 10, 4, 5, "+-*/", 999, False),
            self.Config(6, 2, 10, 6, 6, "+-*/", 999, True),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[int], int, str]:
            numbers = rng.sample(LARGE, config.large)
            numbers += [rng.randint(1, config.small_max) for _ in range(config.numbers - config.large)]
            used = rng.sample(numbers, rng.randint(config.used_min, config.used_max))
            target, text = _random_expression(rng, used, config)
            return numbers, target, text

        numbers, target, text = retry(
            draw, lambda d: 10 <= d[1] <= config.max_target and d[1] not in d[0], what="a target in range")
        numbers.sort()
        example = EXAMPLE
        rule = (
            "Use every number exactly once."
            if config.exactly_once
            else "Use each number at most once (you do not have to use all of them)."
        )
        prompt = (
            f"Numbers: {', '.join(map(str, numbers))}\nTarget: {target}\n\n"
            f"Write an arithmetic expression that equals the target using the numbers above. {rule} "
            "A number listed twice may be used twice. Only + - * / and parentheses are allowed: no other "
            "numbers, no powers, no joining digits together and no negative signs. Intermediate results "
            "may be fractions.\n"
            f"Give only the expression, for example: {example}"
        )
        return Problem(
            prompt=prompt,
            answer=text,
            data={"numbers": numbers, "target": target, "exactly_once": config.exactly_once},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
            return Verdict.unparsed("expected an arithmetic expression")
        read = read_with_tail(answer, read_claim)
        if read is None:
            return Verdict.unparsed("expected an expression with numbers, + - * / and parentheses "
                                    "(optionally followed by = and the target)")
        tree, stated = read
        target = problem.data["target"]
        if stated is not None and stated != target:
            return Verdict.wrong(f"the stated result {stated} is not the target {target}")
        numbers = number_leaves(tree)
        if numbers is None:
            return Verdict.wrong("negative signs are not allowed")
        available, used = Counter(problem.data["numbers"]), Counter(numbers)
        extra = sorted(n for n in used if used[n] > available[n])
        if extra:
            return Verdict.wrong(f"{extra[0]} is used more often than it is given")
        if problem.data["exactly_once"] and used != available:
            return Verdict.wrong("every number must be used exactly once")
        value = evaluate_exact(tree)
        if value is None:
            return Verdict.wrong("the expression cannot be evaluated (division by zero?)")
        return Verdict.judge(value == target, f"the expression equals {value}, not the target")

    def difficulty(self, problem: Problem) -> float:
        """Search breadth and plan length: the numbers to choose from plus the numbers the reference combines."""
        return float(len(problem.data["numbers"]) + len(leaves(read_expression(problem.answer or ""))))

    def spellings(self, problem: Problem) -> list[str]:
        gold, target = problem.answer or "", problem.data["target"]
        latex = gold.replace("*", "\\times").replace("/", "\\div")
        return [
            *super().spellings(problem),
            f"{gold} = {target}",
            f"{target} = {gold}",
            f"({gold})",
            f"\\boxed{{{gold}}}",
            f"${latex} = {target}$",
            gold.replace("*", "×").replace("/", "÷"),
            gold.replace("*", "x"),
            gold.replace(" ", ""),
            f"{gold}. That uses only the given numbers.",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold, target = problem.answer or "", problem.data["target"]
        stranger = max(problem.data["numbers"]) + rng.randint(1, 9)
        return [
            f"({gold}) + 1",  # wrong value
            f"({gold}) + ({gold}) - ({gold})",  # right value, numbers reused
            f"({gold}) + {stranger} - {stranger}",  # right value, a number not given
            f"{gold} = {target + 1}",  # a wrong stated result (issue #9)
            f"{target + 1} = {gold}",
            f"({gold}) + 1 = {target}",  # the stated result is right, the expression is not
            str(target),  # the target itself is never one of the numbers
            f"{gold} = {target} = {target + 1}",
            f"{gold}, or maybe ({gold}) + 1",
        ]


def _random_expression(rng: random.Random, numbers: list[int], config: Countdown.Config) -> tuple[int, str]:
    """(value, text) of a random expression using each of ``numbers`` once, with positive integer steps."""
    items = [(n, str(n), _LEAF) for n in numbers]  # (value, text, precedence of the text's top operator)
    limit = 10 * config.max_target
    while len(items) > 1:
        a = items.pop(rng.randrange(len(items)))
        b = items.pop(rng.randrange(len(items)))
        if a[0] < b[0]:
            a, b = b, a
        choices = [op for op in config.operators if _applies(op, a[0], b[0], limit)]
        op = rng.choice(choices) if choices else "+"
        items.append(_combine(a, op, b))
    return items[0][0], items[0][1]


def _applies(op: str, big: int, small: int, limit: int) -> bool:
    """Whether ``big op small`` keeps a positive integer within ``limit`` and is not a no-op."""
    if op == "+":
        return big + small <= limit
    if op == "-":
        return big > small
    if op == "*":
        return small > 1 and big * small <= limit
    return small > 1 and big % small == 0


def _combine(a: tuple[int, str, int], op: str, b: tuple[int, str, int]) -> tuple[int, str, int]:
    value = {"+": a[0] + b[0], "-": a[0] - b[0], "*": a[0] * b[0], "/": a[0] // b[0]}[op]
    precedence = _PRECEDENCE[op]
    left = a[1] if a[2] >= precedence else f"({a[1]})"
    # The right operand also needs brackets at equal precedence after - and /: a - (b + c).
    right_needs = b[2] < precedence or (b[2] == precedence and op in "-/")
    right = f"({b[1]})" if right_needs else b[1]
    return value, f"{left} {op} {right}", precedence
