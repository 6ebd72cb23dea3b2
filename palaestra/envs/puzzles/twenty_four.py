"""The 24 game (make a target): combine four numbers, each exactly once, with + - * / to reach a target.

The four numbers are a multiset drawn uniformly from all multisets of the level's range; it is
kept only when some expression reaches the target (an exhaustive search over every way of
combining two values at a time: 6 pair choices, 6 operations, 3 pairs, 6, 1, 6 = 3,888 complete
evaluations). Values are compared with a 1e-9 tolerance in floating point, which is exact here:
distinct rationals with these small numerators and denominators differ by far more, and the
reference expression is re-checked in exact rational arithmetic. The classic levels aim at 24;
upper levels draw a target in 10-99 and keep only rare solutions (few of the 3,888 evaluations
hit it), which is the difficulty measure.

The answer is one expression; **any** expression using each given number exactly once (no other
numbers, no unary minus, no joined digits) whose exact value is the target is accepted. It is
read by the whitelisting parser of :mod:`palaestra.verifiers.expressions` (never ``eval``);
``×``, ``÷``, ``x``, ``\\times``, ``\\div`` and ``\\cdot`` are read as ``*`` and ``/``, and a stated
result (``(8 - 4) * 6 = 24``) must be the target.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

import numpy as np

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.arithmetic import number_leaves, read_claim, read_expression
from palaestra.verifiers.expressions import evaluate_exact
from palaestra.verifiers.normalize import read_with_tail

EVALUATIONS = 3_888  # complete evaluations of four numbers by pairwise combination
MAX_ANSWER_CHARS = 1_000
_TOLERANCE = 1e-9
_EXAMPLE = "(7 - 3) * (2 + 4)"


@register
class TwentyFour(Task):
    id = "puzzles/twenty_four"
    version = 2
    family = "puzzles"
    description = "Make the target (24 in the classic game) from four numbers, each used once, with + - * /."
    tags = ("puzzle", "math", "arithmetic", "search")

    @dataclass(frozen=True)
    class Config:
        highest: int  # numbers are drawn from 1..highest
        targets: tuple[int, int]  # the target is drawn from this inclusive range
        min_hits: int  # keep the numbers when between min_hits and max_hits evaluations reach the target
        max_hits: int

    def config(self, level: int) -> Config:
        return [
            self.Config(highest=9, targets=(24, 24), min_hits=16, max_hits=EVALUATIONS),
            self.Config(highest=13, targets=(24, 24), min_hits=1, max_hits=EVALUATIONS),
            self.Config(highest=13, targets=(10, 99), min_hits=1, max_hits=EVALUATIONS),
            self.Config(highest=13, targets=(10, 99), min_hits=1, max_hits=16),
            self.Config(highest=13, targets=(10, 99), min_hits=1, max_hits=4),
        ][level]

    def space_size(self, level: int) -> int | None:
        config = self.level_config(level)
        if config.targets[0] != config.targets[1]:
            return None
        return sum(1 for numbers in _multisets(config.highest) if _fits(numbers, config.targets[0], config))

    def generate(self, rng: random.Random, config: Config) -> Problem:
        pool = _multisets(config.highest)

        def draw() -> tuple[tuple[int, ...], int]:
            return pool[rng.randrange(len(pool))], rng.randint(*config.targets)

        numbers, target = retry(draw, accept=lambda d: _fits(d[0], d[1], config), what="numbers that reach the target")
        answer = _expression(numbers, target)
        if answer is None or evaluate_exact(read_expression(answer)) != target:
            raise AssertionError(f"the search's expression for {numbers} -> {target} is not exact")  # a bug
        example = _EXAMPLE  # a fixed placeholder: independent of the answer
        prompt = (
            f"Numbers: {', '.join(map(str, numbers))}\nTarget: {target}\n\n"
            f"Write an arithmetic expression that equals {target} using each of the four numbers exactly once. "
            "Only + - * / and parentheses are allowed: no other numbers, no powers, no joining digits together "
            "and no negative signs. Intermediate results may be fractions.\n"
            f"Give only the expression, for example: {example}"
        )
        hits = _hits(numbers, target)
        return Problem(prompt=prompt, answer=answer, data={"numbers": list(numbers), "target": target, "hits": hits})

    def difficulty(self, problem: Problem) -> float:
        """Rarity of solutions: log2(3,888 / the evaluations that reach the target)."""
        return math.log2(EVALUATIONS / problem.data["hits"])

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
            return Verdict.unparsed("expected an arithmetic expression")
        read = read_with_tail(answer, read_claim)
        if read is None:
            return Verdict.unparsed("expected an expression with the four numbers, + - * / and parentheses")
        tree, stated = read
        target = problem.data["target"]
        if stated is not None and stated != target:
            return Verdict.wrong(f"the stated result {stated} is not the target {target}")
        leaves = number_leaves(tree)
        if leaves is None:
            return Verdict.wrong("negative signs are not allowed")
        if Counter(leaves) != Counter(Fraction(n) for n in problem.data["numbers"]):
            return Verdict.wrong("each of the four numbers must be used exactly once, and no other number")
        value = evaluate_exact(tree)
        if value is None:
            return Verdict.wrong("the expression cannot be evaluated (division by zero?)")
        return Verdict.judge(value == target, f"the expression equals {value}, not {target}")

    def spellings(self, problem: Problem) -> list[str]:
        gold, target = problem.answer or "", problem.data["target"]
        latex = gold.replace("*", " \\times ").replace("/", " \\div ")
        return [
            *super().spellings(problem),
            f"{gold} = {target}",
            f"{target} = {gold}",
            f"({gold})",
            gold.replace("*", "×").replace("/", "÷"),
            gold.replace(" ", ""),
            f"${latex}$",
            f"{gold}. Each number is used once.",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold, target, numbers = problem.answer or "", problem.data["target"], problem.data["numbers"]
        return [
            f"({gold}) + 1",
            f"({gold}) * 1" if 1 not in numbers else f"({gold}) * ({gold}) / ({gold})",  # a number too many
            f"{gold} = {target + 1}",
            f"({gold}) - {numbers[0]} + {numbers[0]}",
            str(target),
            f"{gold}, or maybe ({gold}) + 1",
        ]


@cache
def _multisets(highest: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.combinations_with_replacement(range(1, highest + 1), 4))


def _fits(numbers: tuple[int, ...], target: int, config: TwentyFour.Config) -> bool:
    if not _reachable(tuple(float(n) for n in numbers), float(target)):
        return False
    return config.min_hits <= _hits(numbers, target) <= config.max_hits


@cache
def _values(items: tuple[float, ...]) -> frozenset[float]:
    """Every value some expression over ``items`` (a sorted multiset of at most three) takes."""
    if len(items) == 1:
        return frozenset(items)
    found: set[float] = set()
    for a, b in _splits(items):
        for x in _values(a):
            for y in _values(b):
                found.update(_results(x, y))
    return frozenset(found)


def _splits(items: tuple[float, ...]) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
    """The ways to cut a multiset in two non-empty parts (each part sorted)."""
    n = len(items)
    return [(tuple(items[i] for i in left), tuple(items[i] for i in range(n) if i not in left))
            for k in range(1, n // 2 + 1) for left in itertools.combinations(range(n), k)]


def _results(x: float, y: float) -> list[float]:
    return [x + y, x * y, x - y, y - x] + ([x / y] if y else []) + ([y / x] if x else [])


def _reachable(items: tuple[float, ...], target: float) -> bool:
    """Whether some expression over the four ``items`` reaches ``target`` (the last step is not cached:
    the value sets of four numbers are large and seldom shared)."""
    return any(abs(v - target) < _TOLERANCE
               for a, b in _splits(tuple(sorted(items)))
               for x in _values(a) for y in _values(b) for v in _results(x, y))


def _hits(numbers: tuple[int, ...] | list[int], target: int) -> int:
    """How many of the 3,888 complete evaluations reach ``target``."""
    return _count(tuple(sorted(numbers)), target)


@lru_cache(maxsize=8_192)
def _count(numbers: tuple[int, ...], target: int) -> int:
    """Every evaluation at once, as arrays: each step replaces two values of every row by each of
    the six ways to combine them (a division by zero gives NaN, which never reaches the target)."""
    values = np.array([numbers], dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        for _ in range(len(numbers) - 1):
            steps = []
            for i, j in itertools.combinations(range(values.shape[1]), 2):
                a, b = values[:, i], values[:, j]
                rest = np.delete(values, [i, j], axis=1)
                divided = np.where(b != 0, a / b, np.nan), np.where(a != 0, b / a, np.nan)
                steps += [np.column_stack([rest, v]) for v in (a + b, a * b, a - b, b - a, *divided)]
            values = np.concatenate(steps)
    return int(np.count_nonzero(np.abs(values[:, 0] - target) < _TOLERANCE))


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_LEAF = 3


def _expression(numbers: tuple[int, ...], target: int) -> str | None:
    """One expression reaching ``target`` (the first the search meets), minimally bracketed."""

    def search(items: list[tuple[float, str, int]]) -> str | None:
        if len(items) == 1:
            return items[0][1] if abs(items[0][0] - target) < _TOLERANCE else None
        for i, j in itertools.combinations(range(len(items)), 2):
            rest = [v for k, v in enumerate(items) if k != i and k != j]
            for left, right in ((items[i], items[j]), (items[j], items[i])):
                for op in "+-*/":
                    if op in "+*" and left is items[j]:
                        continue  # commutative: one order is enough
                    if op == "/" and right[0] == 0:
                        continue
                    found = search(rest + [_combine(left, op, right)])
                    if found is not None:
                        return found
        return None

    return search([(float(n), str(n), _LEAF) for n in numbers])


def _combine(a: tuple[float, str, int], op: str, b: tuple[float, str, int]) -> tuple[float, str, int]:
    value = {"+": a[0] + b[0], "-": a[0] - b[0], "*": a[0] * b[0], "/": a[0] / b[0] if b[0] else 0.0}[op]
    precedence = _PRECEDENCE[op]
    left = a[1] if a[2] >= precedence else f"({a[1]})"
    right = f"({b[1]})" if b[2] < precedence or (b[2] == precedence and op in "-/") else b[1]
    return value, f"{left} {op} {right}", precedence


