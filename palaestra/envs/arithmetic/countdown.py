"""Countdown numbers game and the 24 game: combine given numbers with + - * / to hit a target.

One skill, two games (``game`` task option; by default levels 0-1 are Countdown and levels 2-4 draw
either game per problem; the retired id ``puzzles/twenty_four`` resolves to ``game="make_target"``):

- **countdown**: up to six numbers (some from 25, 50, 75, 100), each used at most once (exactly once
  at the top level), and a target up to 999;
- **make_target** (the 24 game): four numbers each used exactly once; the classic levels aim at 24,
  upper levels draw a target in 10-99 and keep only rare solutions (see below).

Countdown: the target is the value of a random expression over some of the numbers (all
of them at the top level, where each must be used exactly once), so a solution
always exists; that expression is the reference answer. The verifier reads the
answer with the shared whitelisting expression parser (numbers, ``+ - * /`` and
parentheses only: no powers, functions, names or unary minus; ``×``, ``x``, ``\\times``,
``÷`` and ``\\div`` are read as ``*`` and ``/``), checks that the numbers used are among
those given, respecting multiplicity, and that the exact value equals the target.
**Any** such expression is accepted. A stated result (``(8 + 4) * 7 = 84``, or
``84 = (8 + 4) * 7``) is part of the answer: it must be the target too, so
``(8 + 4) * 7 = 85`` is wrong. A naming label (``Expression:``) may come first (refused as unreadable
before version 3).

Make-target: the four numbers are a multiset drawn uniformly from all multisets of the level's range;
it is kept only when some expression reaches the target (an exhaustive search over every way of
combining two values at a time: 6 pair choices, 6 operations, 3 pairs, 6, 1, 6 = 3,888 complete
evaluations). Values are compared with a 1e-9 tolerance in floating point, which is exact here:
distinct rationals with these small numerators and denominators differ by far more, and the
reference expression is re-checked in exact rational arithmetic. How rarely the evaluations hit the
target is part of the difficulty measure.

Generation speed: about 1,050 problems/s at level 4. Nearly all the time goes to the make-target problems (about half
at level 4): about 5 multisets are drawn per problem, each kept only after an exhaustive search over every way of
combining the four numbers reaches the target rarely enough, and a search then finds the reference expression;
those searches prove a solution exists and measure the difficulty.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.arithmetic import number_leaves, read_claim, read_expression
from palaestra.verifiers.expressions import evaluate_exact, leaves
from palaestra.verifiers.normalize import read_answer

LARGE = (25, 50, 75, 100)
EXAMPLE = "(25 - 3) * 8 + 7"  # the prompt's example: a fixed placeholder of the answer's shape
GAMES = ("countdown", "make_target")
EVALUATIONS = 3_888  # complete evaluations of four numbers by pairwise combination
_TOLERANCE = 1e-9
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_LEAF = 3
# A naming label before the expression ("Expression: (8 + 4) * 7"), read past only at the start: what follows must
# still be one expression, so a remark or a second expression after it stays unreadable.
_LABEL = re.compile(r"(?:my\s+)?(?:expression|calculation|equation|working)\s*:\s*", re.IGNORECASE)


@dataclass(frozen=True)
class MakeTarget:
    """The 24 game's settings at one level."""

    highest: int  # numbers are drawn from 1..highest
    targets: tuple[int, int]  # the target is drawn from this inclusive range
    min_hits: int  # keep the numbers when between min_hits and max_hits evaluations reach the target
    max_hits: int


MAKE_TARGET_LEVELS = (
    MakeTarget(highest=9, targets=(24, 24), min_hits=16, max_hits=EVALUATIONS),
    MakeTarget(highest=13, targets=(24, 24), min_hits=1, max_hits=EVALUATIONS),
    MakeTarget(highest=13, targets=(10, 99), min_hits=1, max_hits=EVALUATIONS),
    MakeTarget(highest=13, targets=(10, 99), min_hits=1, max_hits=16),
    MakeTarget(highest=13, targets=(10, 99), min_hits=1, max_hits=4),
)


@register
class Countdown(Task):
    id = "arithmetic/countdown"
    family = "arithmetic"
    seed_id = "combinatorial/countdown"  # moved from combinatorial/ in round 3; same problems
    description = "Write an expression over given numbers with + - * / that equals a target (Countdown, the 24 game)."
    tags = ("math", "arithmetic", "search", "combinatorial", "puzzle")
    max_answer_chars = 2_000
    option_variants = tuple({"game": game} for game in GAMES)
    version = 3  # v2: merged with puzzles/twenty_four (v1), the make-target game; a fixed example; v3: "Expression:" read
    aliases = {"combinatorial/countdown": {"version": 2}, "puzzles/twenty_four": {"version": 1, "kwargs": {"game": "make_target"}}}

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
        make_target: MakeTarget  # the 24 game at this level
        games: tuple[str, ...]  # the games drawn at this level (unless the task option names one)

    def __init__(self, answer_format: str | None = None, game: str | None = None) -> None:
        super().__init__(answer_format)
        if game is not None and game not in GAMES:
            raise ValueError(f"game must be one of {GAMES}, got {game!r}")
        self.game = game

    presets = (
        Config(4, 0, 10, 3, 3, "+-*", 100, False, MAKE_TARGET_LEVELS[0], ("countdown",)),
        Config(4, 0, 12, 3, 4, "+-*/", 200, False, MAKE_TARGET_LEVELS[1], ("countdown",)),
        Config(5, 1, 10, 3, 4, "+-*/", 500, False, MAKE_TARGET_LEVELS[2], ("countdown", "make_target")),
        Config(6, 1, 10, 4, 5, "+-*/", 999, False, MAKE_TARGET_LEVELS[3], ("countdown", "make_target")),
        Config(6, 2, 10, 6, 6, "+-*/", 999, True, MAKE_TARGET_LEVELS[4], ("countdown", "make_target")),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def space_size(self, level: int) -> int | None:
        settings = self.level_config(level).make_target
        if self.game != "make_target" or settings.targets[0] != settings.targets[1]:
            return None
        return sum(1 for numbers in _multisets(settings.highest) if _fits(numbers, settings.targets[0], settings))

    def generate(self, rng: random.Random, config: Config) -> Problem:
        game = self.game or rng.choice(config.games)
        if game == "make_target":
            return _make_target_problem(rng, config.make_target)

        def draw() -> tuple[list[int], int, str]:
            numbers = rng.sample(LARGE, config.large)
            numbers += [rng.randint(1, config.small_max) for _ in range(config.numbers - config.large)]
            used = rng.sample(numbers, rng.randint(config.used_min, config.used_max))
            target, text = _random_expression(rng, used, config)
            return numbers, target, text

        numbers, target, text = retry(
            draw, lambda d: 10 <= d[1] <= config.max_target and d[1] not in d[0], what="a target in range")
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
            f"Give only the expression, for example: {EXAMPLE}"
        )
        return Problem(
            prompt=prompt,
            answer=text,
            data={"numbers": numbers, "target": target, "exactly_once": config.exactly_once},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("expected an arithmetic expression")
        read = read_answer(answer, _read_labelled)
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
        if problem.data.get("exactly_once", True) and used != available:  # twenty_four-v1 problems: always
            return Verdict.wrong("every number must be used exactly once")
        value = evaluate_exact(tree)
        if value is None:
            return Verdict.wrong("the expression cannot be evaluated (division by zero?)")
        return Verdict.judge(value == target, f"the expression equals {value}, not the target")

    def difficulty(self, problem: Problem) -> float:
        """Search breadth and plan length: the numbers to choose from plus the numbers the reference combines,
        plus half its multiplications and divisions; for the make-target game, plus a quarter of the rarity of
        solutions, log2(3,888 / the evaluations that reach the target)."""
        tree = read_expression(problem.answer or "")
        base = len(problem.data["numbers"]) + len(leaves(tree)) + sum(c in "*/" for c in problem.answer or "") / 2
        if "hits" in problem.data:
            return base + math.log2(EVALUATIONS / problem.data["hits"]) / 4
        return float(base)

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
            f"{gold}.",
            f"Expression: {gold} = {target}",
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


def _read_labelled(text: str) -> tuple[Any, int | None] | None:
    """The expression and its stated result (:func:`read_claim`), after an optional naming label."""
    label = _LABEL.match(text)
    return read_claim(text[label.end():] if label else text)


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
    return value, _joined(a, op, b), _PRECEDENCE[op]


def _joined(a: tuple[Any, str, int], op: str, b: tuple[Any, str, int]) -> str:
    """``a op b`` written with the brackets it needs (operands as (value, text, precedence))."""
    precedence = _PRECEDENCE[op]
    left = a[1] if a[2] >= precedence else f"({a[1]})"
    # The right operand also needs brackets at equal precedence after - and /: a - (b + c).
    right = f"({b[1]})" if b[2] < precedence or (b[2] == precedence and op in "-/") else b[1]
    return f"{left} {op} {right}"

def _make_target_problem(rng: random.Random, settings: MakeTarget) -> Problem:
    """A 24-game problem: four numbers, each used exactly once, reaching the target."""
    pool = _multisets(settings.highest)

    def draw() -> tuple[tuple[int, ...], int]:
        return pool[rng.randrange(len(pool))], rng.randint(*settings.targets)

    numbers, target = retry(draw, accept=lambda d: _fits(d[0], d[1], settings), what="numbers that reach the target")
    answer = _make_target_expression(numbers, target)
    if answer is None or evaluate_exact(read_expression(answer)) != target:
        raise AssertionError(f"the search's expression for {numbers} -> {target} is not exact")  # a bug
    prompt = (
        f"Numbers: {', '.join(map(str, numbers))}\nTarget: {target}\n\n"
        f"Write an arithmetic expression that equals {target} using each of the four numbers exactly once. "
        "Only + - * / and parentheses are allowed: no other numbers, no powers, no joining digits together "
        "and no negative signs. Intermediate results may be fractions.\n"
        "Give only the expression, for example: (7 - 3) * (2 + 4)"
    )
    return Problem(prompt=prompt, answer=answer, data={"numbers": list(numbers), "target": target,
                                                       "exactly_once": True, "hits": _hits(numbers, target)})


@cache
def _multisets(highest: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.combinations_with_replacement(range(1, highest + 1), 4))


def _fits(numbers: tuple[int, ...], target: int, config: MakeTarget) -> bool:
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


def _make_target_expression(numbers: tuple[int, ...], target: int) -> str | None:
    """One expression reaching ``target`` (the first the search meets), minimally bracketed.

    The search carries each partial result's value and how it was made; only the expression found is written out
    (writing every partial expression as text cost more than the search)."""

    def search(items: list[tuple]) -> tuple | None:
        if len(items) == 1:
            return items[0] if abs(items[0][0] - target) < _TOLERANCE else None
        for i, j in itertools.combinations(range(len(items)), 2):
            rest = [v for k, v in enumerate(items) if k != i and k != j]
            for left, right in ((items[i], items[j]), (items[j], items[i])):
                for op in "+-*/":
                    if op in "+*" and left is items[j]:
                        continue  # commutative: one order is enough
                    if op == "/" and right[0] == 0:
                        continue
                    found = search(rest + [(_apply_float(left[0], op, right[0]), (left, op, right))])
                    if found is not None:
                        return found
        return None

    def written(item: tuple) -> tuple[float, str, int]:
        if isinstance(item[1], str):
            return item[0], item[1], _LEAF
        left, op, right = item[1]
        return _combine_float(written(left), op, written(right))

    found = search([(float(n), str(n)) for n in numbers])
    return None if found is None else written(found)[1]


def _apply_float(a: float, op: str, b: float) -> float:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return a / b if b else 0.0


def _combine_float(a: tuple[float, str, int], op: str, b: tuple[float, str, int]) -> tuple[float, str, int]:
    return _apply_float(a[0], op, b[0]), _joined(a, op, b), _PRECEDENCE[op]


