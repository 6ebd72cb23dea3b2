"""Red-team round 38 (fresh1): cheap policies that earned reward, measured at levels 0-4, 40 seeds a level.

- symbolic/cube_rotation (v4): misreading one kind of move (the turns, tips or rolls each applied the other way,
  or the half turns left out) earned, on the sequences it changes, up to 0.26 (turns reversed, level 4),
  0.21 (rolls reversed) and 0.18 (half turns skipped) against 1/23 for a guess -> 0 (such sequences are redrawn).
- puzzles/zebra (v2): reading "somewhere to the left of" as "directly left of" (a SAT solve of the misread clues)
  solved 0.74, 0.61, 0.55, 0.46, 0.32 of the puzzles with such a clue at levels 0-4 -> 0 ("somewhere to the
  left" clues never name neighbours). Reading "next to" as "directly left of" solved 0.26 and 0.15 of the
  puzzles it changes at levels 3 and 4 -> 0.08 and 0.05 ("next to" clues name the left and the right neighbour
  first in turn, so with two or more of them both one-sided readings break a clue).
- algebra/polynomial_factorization (v4, grammar): "6x^2 + 7x + 2 = (2x + 1)(3x + 2)", the polynomial restated
  before the factorisation, was refused (a right answer rejected); it is now read, and only a left side worth
  the polynomial itself is passed over.
"""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.symbolic.cube_rotation import describe, misreadings, rotate

CUBE = make_source("symbolic/cube_rotation")
ZEBRA = make_source("puzzles/zebra")
POLY = make_source("algebra/polynomial_factorization")


def test_cube_rotation_misreading_one_kind_of_move_earns_nothing():
    for level in range(5):
        for seed in range(30):
            problem = CUBE.sample(level, seed)
            moves = problem.data["moves"]
            assert CUBE.verify(problem, problem.answer).correct
            for name, rule in misreadings().items():
                misread = rule(moves)
                if misread != moves:  # (a misreading of a kind the sequence lacks is solving it)
                    answer = describe(rotate(problem.data["start"], misread))
                    assert not CUBE.verify(problem, answer).correct, (level, seed, name)


def _houses(problem) -> dict[tuple[int, int], int]:
    """The reference's house (0-based) of each (attribute, value) pair."""
    values = problem.data["values"]
    where = {}
    for h, line in enumerate((problem.answer or "").split("\n")):
        for a, word in enumerate(line.split(": ", 1)[1].split(", ")):
            where[(a, values[a].index(word))] = h
    return where


def test_zebra_reading_somewhere_left_as_directly_left_breaks_the_solution():
    seen = 0
    for level in range(5):
        for seed in range(30):
            problem = ZEBRA.sample(level, seed)
            assert ZEBRA.verify(problem, problem.answer).correct
            where = _houses(problem)
            for kind, first, second, *_ in problem.data["clues"]:
                if kind == "before":  # misread as "directly left of", this clue would fail on the solution
                    seen += 1
                    assert where[tuple(second)] - where[tuple(first)] >= 2, (level, seed)
    assert seen >= 50


def test_zebra_reading_next_to_as_one_side_breaks_a_clue_when_there_are_two():
    seen = 0
    for level in range(5):
        for seed in range(30):
            problem = ZEBRA.sample(level, seed)
            where = _houses(problem)
            sides = {where[tuple(second)] - where[tuple(first)]
                     for kind, first, second, *_ in problem.data["clues"] if kind == "next"}
            count = sum(clue[0] == "next" for clue in problem.data["clues"])
            if count >= 2:  # some clue's second value is to the right, and some clue's to the left
                seen += 1
                assert sides == {-1, 1}, (level, seed)
    assert seen >= 20


def test_polynomial_factorization_reads_the_polynomial_restated_before_an_equals_sign():
    for level in range(5):
        for seed in range(6):
            problem = POLY.sample(level, seed)
            polynomial = problem.prompt.split("integers: ")[1].split("\n")[0]
            expanded_twice = polynomial.replace(" + ", " + 0 + ", 1)
            assert POLY.verify(problem, problem.answer).correct
            assert POLY.verify(problem, f"{polynomial} = {problem.answer}").correct  # refused before v4
            assert not POLY.verify(problem, f"{polynomial} = {polynomial}").correct
            assert not POLY.verify(problem, f"{expanded_twice} = 2{problem.answer}").correct
            assert not POLY.verify(problem, f"{problem.answer} = {polynomial}").correct
