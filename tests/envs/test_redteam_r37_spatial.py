"""Red team, round 3 session 37 (second look at spatial, geometry, biology, arithmetic): one-clause-blind policies.

- biology/population_growth v2: a solver ignoring the stated rounding rule (round down after every step) and
  rounding down only at the end was right on 0.40 / 0.43 / 0.55 / 0.38 / 0.20 of levels 0-4 (40 seeds), and
  rounding to nearest after every step on 0.17 / 0.25 / 0.25 / 0.20 / 0.05; models are now redrawn until no
  misreading of the rule gives the answer: 0 / 0 / 0 / 0 / 0 for both.
- spatial/shape_transform v5: reading every wrapping shift the opposite way was right on 0.35 / 0.26 / 0.14 / 0.05
  of the lists holding a shift at levels 1-4 (a shift by half the side undoes itself, two shifts can cancel
  either way); lists are now redrawn until that misreading gives another grid: 0 at every level.
- spatial/relative_positions v2: reading "immediately left of" as "somewhere left of" still left exactly one
  layout (the answer) on 0.60 / 0.63 / 0.67 / 0.50 / 0.73 of levels 0-4 (30 seeds); clue sets are now redrawn until
  each one-clause misreading (that one, "directly above" as "somewhere above", "between" in any rows) leaves two
  layouts or more: 0 at every level.
- biology/translation v2: translating every codon past the stop (stops skipped) was right on 0.48 / 0.25 / 0.33 of
  levels 1-3 (40 seeds), the letters after the stop being often less than a codon; a whole codon now always follows
  the stop there: 0.05 / 0 / 0.03.
"""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

from palaestra.core.registry import make_source
from palaestra.envs.biology.common import translate
from palaestra.envs.spatial.shape_transform import transformed

GROWTH = "biology/population_growth"
SHAPES = "spatial/shape_transform"
SEEDS = range(30)


def _number(prompt: str, name: str) -> Fraction:
    return Fraction(re.search(re.escape(name) + r" = ([0-9.]+)", prompt).group(1))


def _population(problem, settle) -> str:
    """The asked population read off the prompt alone, ``settle`` applied after every step."""
    text, steps, kind = problem.prompt, problem.data["steps"], problem.data["kind"]
    if kind == "exponential":
        value = _number(text, "N(0)")
        for _ in range(steps):
            value = settle(_number(text, "R") * value)
        return str(math.floor(value))
    if kind == "logistic":
        rate, capacity, value = _number(text, "rate r"), _number(text, "K"), _number(text, "N(0)")
        for _ in range(steps):
            value = settle(value + rate * value * (1 - value / capacity))
        return str(math.floor(value))
    a, b, c, d = (_number(text, name) for name in "abcd")
    prey, predators = _number(text, "H(0)"), _number(text, "P(0)")
    for _ in range(steps):
        prey, predators = settle(prey + a * prey - b * prey * predators), settle(predators + c * b * prey * predators
                                                                                   - d * predators)
    return str(math.floor(predators))


def _wins(env: str, policy, level: int) -> int:
    source = make_source(env)
    return sum(source.verify(problem, policy(problem)).correct for problem in (source.sample(level, seed)
                                                                              for seed in SEEDS))


def test_population_growth_rounding_misreadings_never_win():
    def unrounded(value):
        return value

    def nearest(value):
        return math.floor(value + Fraction(1, 2))

    for level in range(5):
        assert _wins(GROWTH, lambda p: _population(p, unrounded), level) == 0, level
        assert _wins(GROWTH, lambda p: _population(p, nearest), level) == 0, level


def test_population_growth_stated_rule_solves():
    for level in range(5):
        assert _wins(GROWTH, lambda p: _population(p, math.floor), level) == len(SEEDS), level
        assert _wins(GROWTH, lambda p: p.answer, level) == len(SEEDS), level


def _shifts_backwards(problem) -> str:
    opposite = {"left": "right", "right": "left", "up": "down", "down": "up"}
    operations = [f"{opposite[op.split(':')[0]]}:{op.split(':')[1]}" if ":" in op else op
                  for op in problem.data["operations"]]
    return "\n".join(transformed(tuple(problem.data["grid"]), operations))


def test_shape_transform_shifts_read_backwards_never_win():
    source = make_source(SHAPES)
    for level in range(5):
        shifted = [p for p in (source.sample(level, seed) for seed in SEEDS) if any(":" in op for op in p.data["operations"])]
        assert shifted, level
        assert sum(source.verify(p, _shifts_backwards(p)).correct for p in shifted) == 0, level


def test_shape_transform_reference_solves():
    for level in range(5):
        solve = lambda p: "\n".join(transformed(tuple(p.data["grid"]), p.data["operations"]))  # noqa: E731
        assert _wins(SHAPES, solve, level) == len(SEEDS), level


POSITIONS = "spatial/relative_positions"


def _one_row_layouts(problem, weaker: dict[str, str]) -> list[str]:
    """Every one-row layout the clues allow with each clue kind in ``weaker`` read as the weaker kind it names."""
    data = problem.data

    def holds(clue, column) -> bool:
        kind, *objects = clue
        kind = weaker.get(kind, kind)
        a, b = column[objects[0]], column[objects[1]]
        if kind == "left":
            return a == b - 1
        if kind == "west":
            return a < b
        return min(b, column[objects[2]]) < a < max(b, column[objects[2]])

    layouts = []
    for order in itertools.permutations(range(len(data["names"]))):
        column = {obj: c for c, obj in enumerate(order)}
        if all(holds(tuple(clue), column) for clue in data["clues"]):
            layouts.append("".join(data["names"][obj] for obj in order))
    return layouts


def test_relative_positions_immediately_left_read_loosely_leaves_the_layout_open():
    source = make_source(POSITIONS)
    for level in (0, 1, 3):  # the one-row levels, searched by brute force here
        for seed in range(20):
            problem = source.sample(level, seed)
            assert _one_row_layouts(problem, {}) == [problem.answer], (level, seed)
            if any(clue[0] == "left" for clue in problem.data["clues"]):
                assert len(_one_row_layouts(problem, {"left": "west"})) > 1, (level, seed)


TRANSLATION = "biology/translation"


def _skipping_stops(problem) -> str:
    """The given strand translated from its first ATG to its end, stop codons skipped instead of ending it."""
    sequence = problem.data["sequence"].replace("U", "T")
    start = sequence.find("ATG")
    return "".join(translate(sequence[k:k + 3]) for k in range(start, len(sequence) - 2, 3)
                   if sequence[k:k + 3] not in ("TAA", "TAG", "TGA"))


def test_translation_reading_past_the_stop_rarely_wins():
    for level in (1, 2, 3):
        assert _wins(TRANSLATION, _skipping_stops, level) <= 3, level
        assert _wins(TRANSLATION, lambda p: p.answer, level) == len(SEEDS), level
