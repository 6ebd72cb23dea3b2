"""Red team, session 30 (gamesE): textbook rules of the planning games that earned reward.

games/lights_out v1: the declared downward chase won every level-0 (4x4) game within the four spare presses; boards
any chase (from any side) clears within the budget are now redrawn and level 0 keeps one spare press.
games/guard_maze v1: from level 2 only the north-preferring waiting rule was filtered; the rule "the move not caught
this turn nearest the exit, east preferred among ties" won 0.68 and 0.65 of the games at levels 2 and 4.
"""

from __future__ import annotations

import random
from typing import Any

from palaestra.core import Problem
from palaestra.core.registry import make_source


def _wins(task: Any, problem: Problem, policy: Any) -> bool:
    state, rng = task.initial_state(problem), random.Random(0)
    history: tuple[tuple[str, str], ...] = ()
    for _ in range(task.max_turns(problem)):
        move = policy(problem, state, history, rng)
        outcome = task.play(problem, state, move)
        history = (*history, (move, outcome.observation))
        state = outcome.state
        if outcome.done:
            return outcome.verdict.correct
    return False


def _chase_from(side: int) -> Any:
    """The chase turned ``side`` quarter turns: press the light just past the first lit light, line by line."""
    from palaestra.envs.games import lights_out

    def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
        n, board = problem.data["size"], state["lights"]
        for _ in range(side):
            board = lights_out._rotate(n, board)
        lit = next((cell for cell in range(n * (n - 1)) if board >> cell & 1), 0)
        mask = 1 << (lit + n)
        for _ in range((4 - side) % 4):
            mask = lights_out._rotate(n, mask)
        cell = mask.bit_length() - 1
        return lights_out.cell_name(cell // n, cell % n)

    return policy


def test_lights_out_no_chase_wins_level_0() -> None:
    source = make_source("games/lights_out")
    for seed in range(12):
        problem = source.sample(0, seed)
        assert problem.data["turns"] == problem.data["fewest"] + 1
        for side in range(4):
            assert not _wins(source, problem, _chase_from(side)), (seed, side)
        assert not _wins(source, problem, source.heuristics()["chase the lights down"])
    assert _wins(source, source.sample(0, 3), lambda p, s, h, r: source.oracle(p, s))


def test_guard_maze_nearest_safe_rules_lose_from_level_2() -> None:
    source = make_source("games/guard_maze")
    rules = source.heuristics()
    assert {"nearest safe move, north first", "nearest safe move, east first"} <= set(rules)
    for level in (2, 4):
        for seed in range(6):
            problem = source.sample(level, seed)
            for name, rule in rules.items():
                assert not _wins(source, problem, rule), (level, seed, name)
