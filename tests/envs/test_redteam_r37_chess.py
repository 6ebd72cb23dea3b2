"""Red team round 37: cheap rules that mated or won short races in two board games.

- games/chess_endgame v2: positions came from random draws of the level's mate length, where the
  declared rule "squeeze the king's squares" mated 0.17 of the games at level 0 and the undeclared
  textbook "squeeze, then bring the king closer" 0.47 / 0.28 / 0.27 at levels 0-2 (exact). Positions now
  come from a catalogue where every rule of ``RULES`` mates at most one time in ten: on average
  0.03-0.05 (exact), at most 0.03 in 60 games a level.
- games/breakthrough v2: the kit's "last listed move" won 0.165 at level 0 (the listing runs in the catalogue's
  orientation, so it always pushed the same most advanced piece), "win, else capture, else advance the most
  advanced piece" 0.155 and "win, else capture, else any move" 0.135 at level 2 (200 seeds). The catalogue now
  also keeps only positions where the first move in every reading order and the first and last listed moves lose,
  and the capturing and most-advanced rules win at most 15%: the fixed orders 0, the rules at most 0.05
  (200 seeds a level).
"""

from __future__ import annotations

import random

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.games import _breakthrough_catalogue as breakthrough_catalogue
from palaestra.envs.games import breakthrough, chess_endgame
from palaestra.generators.breakthrough import capture_or_advance, moves, solver_for
from palaestra.generators.lone_king import white_to_move_mate_in
from palaestra.kit.play import oracle_moves, play_episode

CHESS = "games/chess_endgame"
BREAKTHROUGH = "games/breakthrough"
SEEDS = 30


def _wins(env_id: str, level: int, policy, seeds: int = SEEDS) -> float:
    source = make_source(env_id)
    won = 0
    for seed in range(seeds):
        problem = source.sample(level, seed)
        rng = random.Random(seed)
        won += play_episode(source, problem, lambda state, history: policy(problem, state, history, rng))[1]
    return won / seeds


@pytest.mark.parametrize("level", [0, 1, 2])
def test_chess_squeezing_rules_seldom_mate(level: int) -> None:
    """Squeezing mated 0.17 at level 0, squeezing with the king brought closer 0.47 / 0.28 / 0.27 at levels 0-2."""
    heuristics = make_source(CHESS).heuristics()
    for name in chess_endgame.RULES:
        assert _wins(CHESS, level, heuristics[name]) <= 0.1, (level, name)


def test_chess_catalogue_positions_keep_the_bound_exactly() -> None:
    """A sample of level-0 positions: the mate length of the level, each rule's exact chance within RULE_BOUND."""
    config = chess_endgame.ChessEndgame.presets[0]
    for wk, bk, p in chess_endgame.catalogue()[(config.piece, *config.mate_in)][:25]:
        depth = white_to_move_mate_in(config.piece, wk, bk, p)
        assert config.mate_in[0] <= depth <= config.mate_in[1]
        for rank in chess_endgame.RULES.values():
            turns = depth + chess_endgame.SPARE_MOVES
            assert chess_endgame.rule_mate_chance(config.piece, (wk, bk, p), turns, rank, {}) <= 0.1


@pytest.mark.parametrize("level", range(5))
def test_chess_oracle_still_mates(level: int) -> None:
    source = make_source(CHESS)
    for seed in range(10):
        assert oracle_moves(source, source.sample(level, seed))[1] == 1.0, (level, seed)


def _listed(end: int):
    source = make_source(BREAKTHROUGH)
    return lambda problem, state, history, rng: source.legal_moves(problem, state)[end]


def _rule(picks):
    def policy(problem, state, history, rng):
        data = problem.data
        return breakthrough._name(data, rng.choice(picks(data["cols"], data["rows"], state["mine"], state["theirs"],
                                                           True)))

    return policy


def _view_first(problem, state, history, rng):
    """The first legal move in the model's reading order (rank 1 first, file a first)."""
    def key(name: str) -> tuple[int, str]:
        origin, target = name.replace("x", "-").split("-")
        return int(origin[1:]), origin[0] + target[0]

    return min(make_source(BREAKTHROUGH).legal_moves(problem, state), key=key)


@pytest.mark.parametrize("level", [0, 1, 2])
def test_breakthrough_listed_and_reading_order_moves_lose(level: int) -> None:
    """The last listed move won 0.165 at level 0; now no deterministic order wins a game."""
    for policy in (_listed(0), _listed(-1), _view_first):
        assert _wins(BREAKTHROUGH, level, policy) == 0.0, level


@pytest.mark.parametrize("level", [0, 2])
def test_breakthrough_capturing_rules_seldom_win(level: int) -> None:
    """"Win, else capture, else advance" won 0.155 at level 0, "win, else capture" 0.135 at level 2 (200 seeds)."""
    for picks in (capture_or_advance, breakthrough_catalogue.captures_first, breakthrough_catalogue.most_advanced):
        assert _wins(BREAKTHROUGH, level, _rule(picks), seeds=60) <= 0.1, (level, picks.__name__)


def test_breakthrough_catalogue_keeps_the_bounds_exactly() -> None:
    config = make_source(BREAKTHROUGH).presets[0]
    solver = solver_for(config.cols, config.rows)
    for white, black, _ in breakthrough._entries(config)[:40]:
        assert moves(config.cols, config.rows, white, black, True)
        for picks in breakthrough_catalogue.ORDERS:
            assert breakthrough_catalogue.policy_win_chance(solver, white, black, picks) == 0.0
        for picks in breakthrough_catalogue.RULES:
            assert breakthrough_catalogue.policy_win_chance(solver, white, black, picks) <= 0.15


@pytest.mark.parametrize("level", range(5))
def test_breakthrough_oracle_still_wins(level: int) -> None:
    source = make_source(BREAKTHROUGH)
    for seed in range(10):
        assert oracle_moves(source, source.sample(level, seed))[1] == 1.0, (level, seed)
