"""What the generation speed-ups of farm_sim, ... rely on: each fast path equals the plain rules it replaces."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.games import farm_sim


def _farm_game(level: int, seed: int) -> tuple[farm_sim.Game, farm_sim.State]:
    data = make_source("games/farm_sim").sample(level=level, seed=seed).data
    return farm_sim._game(data), farm_sim._start(data)


@pytest.mark.parametrize("level, seed", [(0, 1), (2, 3), (4, 5)])
def test_farm_playouts_draw_what_the_legal_move_loop_drew(level: int, seed: int) -> None:
    game, start = _farm_game(level, seed)
    fast_rng, plain_rng = random.Random(seed), random.Random(seed)
    plain = [farm_sim._final(game, start, lambda g, s: plain_rng.choice(farm_sim._legal(g, s)))
             for _ in range(farm_sim.PLAYOUTS)]
    assert farm_sim._random_profits(game, start, fast_rng) == plain
    assert fast_rng.random() == plain_rng.random()  # the same draws were used up


@pytest.mark.parametrize("level, seed", [(1, 0), (3, 2)])
def test_farm_packed_search_equals_the_search_over_the_rules(level: int, seed: int) -> None:
    game, start = _farm_game(level, seed)

    @functools.lru_cache(maxsize=None)
    def most(state: farm_sim.State) -> int:
        if state[0] >= game[2]:
            return state[3]
        return max(most(farm_sim._apply(game, state, action)) for action in farm_sim._legal(game, state))

    state: Any = start
    for action in ("plant 0", farm_sim.WATER, farm_sim.WAIT):  # a few states off the start as well
        assert farm_sim._best(game, state) == most(state)
        state = farm_sim._apply(game, state, action)
