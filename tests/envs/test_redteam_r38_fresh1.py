"""Red-team round 38 (fresh1): cheap policies that earned reward, measured at levels 0-4, 40 seeds a level.

- symbolic/cube_rotation (v4): misreading one kind of move (the turns, tips or rolls each applied the other way,
  or the half turns left out) earned, on the sequences it changes, up to 0.26 (turns reversed, level 4),
  0.21 (rolls reversed) and 0.18 (half turns skipped) against 1/23 for a guess -> 0 (such sequences are redrawn).
"""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.symbolic.cube_rotation import describe, misreadings, rotate

CUBE = make_source("symbolic/cube_rotation")


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
