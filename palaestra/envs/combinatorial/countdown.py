"""Countdown numbers game: combine given numbers with + - * / to hit a target.

The target is the value of a random expression over some of the numbers (all
of them at the top level, where each must be used exactly once), so a solution
always exists; that expression is the reference answer. The verifier reads the
answer with the shared whitelisting expression parser (numbers, ``+ - * /`` and
parentheses only: no powers, functions, names or unary minus), checks that the
numbers used are among those given, respecting multiplicity, and that the exact
value equals the target. **Any** such expression is accepted; a trailing
``= target`` is ignored.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.expressions import Expr, evaluate_exact, parse_expression

LARGE = (25, 50, 75, 100)
MAX_ATTEMPTS = 200
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_LEAF = 3


@register
class Countdown(Task):
    id = "combinatorial/countdown"
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
        for _ in range(MAX_ATTEMPTS):
            numbers = rng.sample(LARGE, config.large)
            numbers += [rng.randint(1, config.small_max) for _ in range(config.numbers - config.large)]
            used = rng.sample(numbers, rng.randint(config.used_min, config.used_max))
            target, text = _random_expression(rng, used, config)
            if 10 <= target <= config.max_target and target not in numbers:
                break
        numbers.sort()
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
            "Give only the expression, for example: (25 - 3) * 8 + 7"
        )
        return Problem(
            prompt=prompt,
            answer=text,
            data={"numbers": numbers, "target": target, "exactly_once": config.exactly_once},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str):
            return Verdict.unparsed("expected an arithmetic expression")
        tree = parse_expression(
            answer.split("=", 1)[0],
            operators=("+", "-", "*", "/"),
            functions=(),
            constants=False,
            implicit_multiplication=False,
        )
        if tree is None:
            return Verdict.unparsed("expected an expression with numbers, + - * / and parentheses")
        leaves: list[Fraction] = []
        if not _collect_leaves(tree, leaves):
            return Verdict.wrong("negative signs are not allowed")
        available, used = Counter(problem.data["numbers"]), Counter(leaves)
        extra = sorted(n for n in used if used[n] > available[n])
        if extra:
            return Verdict.wrong(f"{extra[0]} is used more often than it is given")
        if problem.data["exactly_once"] and used != available:
            return Verdict.wrong("every number must be used exactly once")
        value = evaluate_exact(tree)
        if value is None:
            return Verdict.wrong("the expression cannot be evaluated (division by zero?)")
        return Verdict.judge(value == problem.data["target"], f"the expression equals {value}, not the target")

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        stranger = max(problem.data["numbers"]) + rng.randint(1, 9)
        return [
            f"({gold}) + 1",  # wrong value
            f"({gold}) + ({gold}) - ({gold})",  # right value, numbers reused
            f"({gold}) + {stranger} - {stranger}",  # right value, a number not given
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


def _collect_leaves(tree: Expr, leaves: list[Fraction]) -> bool:
    """Gather the number leaves; False if the tree contains a unary minus."""
    kind = tree[0]
    if kind == "neg":
        return False
    if kind == "num":
        leaves.append(tree[1])
        return True
    return all(_collect_leaves(child, leaves) for child in tree[1:])
