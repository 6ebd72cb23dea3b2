"""Red-team round 38 (fresh1): cheap policies that earned reward, measured at levels 0-4, 40 seeds a level.

- symbolic/cube_rotation (v4): misreading one kind of move (the turns, tips or rolls each applied the other way,
  or the half turns left out) earned, on the sequences it changes, up to 0.26 (turns reversed, level 4),
  0.21 (rolls reversed) and 0.18 (half turns skipped) against 1/23 for a guess -> 0 (such sequences are redrawn).
- puzzles/zebra (v2): reading "somewhere to the left of" as "directly left of" (a SAT solve of the misread clues)
  solved 0.74, 0.61, 0.55, 0.46, 0.32 of the puzzles with such a clue at levels 0-4 -> 0 ("somewhere to the
  left" clues never name neighbours).
"""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.symbolic.cube_rotation import describe, misreadings, rotate

CUBE = make_source("symbolic/cube_rotation")
ZEBRA = make_source("puzzles/zebra")


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
