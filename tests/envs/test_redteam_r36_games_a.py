"""Red-team regressions, session 36 (games A): fox_and_geese's hemming rule.

fox_and_geese v1 -> v2: the textbook rule "move the goose that leaves the fox the fewest moves (and no capture)"
won 0.70, 0.68, 0.36, 0.33 and 0.20 of the games at levels 0-4 (random play 0-0.07): in every drawn position with
a two- or three-move trap the trap's first move was among the rule's picks. Version 2 deals catalogued four- and
five-move traps whose first move the rule never picks; it now wins 0.03, 0.04, 0.04, 0.03 and 0.04 (random play 0-0.01).
"""

import random

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.games import fox_and_geese

SEEDS = range(30)


def _play(task, problem, choose, seed):
    """Whether ``choose(problem, state, rng)`` traps the fox within the turns (moves played through ``play``)."""
    rng, state = random.Random(seed), task.initial_state(problem)
    for _ in range(task.max_turns(problem)):
        outcome = task.play(problem, state, choose(problem, state, rng))
        if outcome.done:
            return bool(outcome.verdict.correct)
        state = outcome.state
    return False


@pytest.mark.parametrize("level", range(5))
def test_fox_and_geese_hemming_rule_loses(level):
    """v1: the hemming rule won 0.70 / 0.68 / 0.36 / 0.33 / 0.20 at levels 0-4."""
    task = make_source("games/fox_and_geese")
    hem = task.heuristics()["leave the fox the fewest moves"]
    wins = sum(_play(task, task.sample(level, seed), lambda p, s, rng: hem(p, s, (), rng), seed) for seed in SEEDS)
    assert wins / len(SEEDS) <= 0.15, (level, wins)


@pytest.mark.parametrize("level", range(5))
def test_fox_and_geese_no_hemming_move_starts_a_trap_and_the_oracle_wins(level):
    task = make_source("games/fox_and_geese")
    for seed in range(0, 30, 3):
        problem = task.sample(level, seed)
        geese, fox, depth = problem.data["geese"], problem.data["fox"], problem.data["depth"]
        assert fox_and_geese.forced_trap(geese, fox, depth) is not None
        assert fox_and_geese.forced_trap(geese, fox, depth - 1) is None
        for move in fox_and_geese.hemming_moves(geese, fox):
            assert not fox_and_geese._starts_trap(geese, fox, move, problem.data["turns"]), (level, seed, move)
        assert _play(task, problem, lambda p, s, rng: task.oracle(p, s), seed), (level, seed)
