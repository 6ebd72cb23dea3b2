"""Red-team regressions (r3s26, games): one-ply threat rules with random ties that won connect_four's top level."""

from __future__ import annotations

import random

from palaestra.core.registry import make_source
from palaestra.envs.games import connect_four as c4
from palaestra.kit.base import sample
from palaestra.kit.play import play_episode


def _threats_then_cells(problem, state, history, rng) -> str:
    """Win, else block, else the column not handing over a win that makes the most threats now, then the most cells
    completing a four anywhere on the board; ties at random (written here from the rules, not the env's RULES)."""
    me, board = state["me"], state["board"]
    them = board ^ me
    forced = c4._wins_at(me, board) or c4._wins_at(them, board)
    if forced:
        return str(rng.choice(forced) + 1)

    def rank(column: int) -> tuple[bool, int, int]:
        drop = c4._drop(board, column)
        mine, after = me | drop, board | drop
        return (
            not c4._wins_at(them, after),
            len(c4._wins_at(mine, after)),
            bin(c4._completing_cells(mine) & ~after).count("1"),
        )

    ranks = {column: rank(column) for column in c4._columns(board)}
    best = max(ranks.values())
    return str(rng.choice([column for column, value in ranks.items() if value == best]) + 1)


def test_connect_four_threat_rule_with_random_ties_loses_the_top_level():
    # v2: this rule won 0.58 of level 4's games (0.90 at level 0), half of them after a move threatening nothing that
    # the opponent answered at random; the plain rule with random ties won 0.50. v3 refutes such moves from level 2 on
    # and keeps no position where a random-tie rule wins by forced play on RULE_SHARE of its ties: 0.37 / 0.26 (100
    # games at level 4).
    source = make_source("games/connect_four")
    wins = 0
    for level in (3, 4):
        for seed in range(20):
            problem = sample("games/connect_four", level, seed)
            rng = random.Random(seed * 7 + 1)
            wins += play_episode(source, problem, lambda s, h, p=problem: _threats_then_cells(p, s, h, rng))[1]
    assert wins <= 13  # v2: 18 of these 40 games (v3: 11)


def test_connect_four_declares_random_tie_rules_and_keeps_positions_they_rarely_force():
    rules = make_source("games/connect_four").heuristics()
    for name in c4.RULES:
        assert name in rules
    for level in (2, 4):
        for seed in range(4):
            data = sample("games/connect_four", level, seed).data
            assert data["refute"]
            for rule in range(len(c4.RULES)):
                assert c4._rule_share(data["me"], data["board"], data["moves"] + data["spare"], rule) < c4.RULE_SHARE


def test_connect_four_opponent_refutes_a_move_that_threatens_nothing():
    source = make_source("games/connect_four")
    checked = 0
    for seed in range(6):
        problem = sample("games/connect_four", 3, seed)
        state = source.initial_state(problem)
        me, board = state["me"], state["board"]
        # a quiet first move: no threat, no block needed, nothing handed over
        for column in c4._columns(board):
            drop = c4._drop(board, column)
            mine, after = me | drop, board | drop
            if c4._wins_at(mine, after) or c4._wins_at(after ^ mine, after):
                continue
            if c4._winning_column(after ^ mine, after, 3) is not None:
                continue
            left = problem.data["moves"] + problem.data["spare"] - 1
            safe = [c for c in c4._columns(after) if not c4._wins_at(mine, after | c4._drop(after, c))]
            refuting = [c for c in safe if not c4._shortest_win(mine, after | c4._drop(after, c), left)]
            if not refuting:
                continue
            outcome = source.advance(problem, state, source.format_answer(str(column + 1)))
            reply = outcome.state["board"] ^ after
            assert any(reply == c4._drop(after, c) for c in refuting)
            checked += 1
            break
    assert checked >= 3


def test_gomoku_declares_the_random_four_rule_that_blocks_fives():
    # "five, else block a five, else a double four, else a random four" won 0.55 at level 1 and 0.29 at level 4 (100
    # games): no position can beat it on every tie (its ties are every four), so it is declared and the kit keeps the
    # top level below its limit; the reading-order rules score 0.00 from level 1.
    from palaestra.envs.games import gomoku

    source = make_source("games/gomoku")
    rule = source.heuristics()[gomoku.RANDOM_FOUR]
    wins = 0
    for seed in range(8):
        problem = sample("games/gomoku", 4, seed)
        rng = random.Random(seed)
        wins += play_episode(source, problem, lambda s, h, p=problem: rule(p, s, h, rng))[1]
    assert wins < 4


def test_connect_four_reads_a_move_named_in_a_sentence_and_still_refuses_hedges():
    source = make_source("games/connect_four")
    problem = sample("games/connect_four", 2, 1)
    state = source.initial_state(problem)
    move = source.oracle(problem, state)
    for reply in (
        f"I play column {move}.",
        f"I'll drop in column {move}",
        f"My move is {move}.",
        f"I will play {move}",
    ):
        outcome = source.advance(problem, state, source.format_answer(reply))
        assert outcome.verdict.parsed, reply
    for reply in (f"{move} or 4", f"not {move}", f"I play {move} then 4", f"my move is {move} 5"):
        assert not source.advance(problem, state, source.format_answer(reply)).verdict.parsed, reply
