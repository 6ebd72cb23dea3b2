"""games/peg_solitaire: jump spellings, illegal jumps, lost boards, and the oracle's search."""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.games.peg_solitaire import _jumps, _solve

SOURCE = make_source("games/peg_solitaire")


def _board(n: int, cells: list[tuple[int, int]]) -> int:
    return sum(1 << (r * n + c) for r, c in cells)


@pytest.mark.parametrize("move", ["a1 c1", "a1-c1", "A1 C1", "jump a1 to c1", "a1 → c1", "a1->c1", "move from a1 to c1"])
def test_a_jump_is_read_in_the_spellings_a_player_uses(move):
    problem = SOURCE.sample(0, 0)
    n = problem.data["size"]
    state = {"board": _board(n, [(0, 0), (0, 1)])}
    outcome = SOURCE.play(problem, state, move)
    assert outcome.done and outcome.verdict.correct, outcome.observation
    assert outcome.state["board"] == _board(n, [(0, 2)])


@pytest.mark.parametrize("move, why", [("a1 c3", "exactly two cells"), ("b1 d1", "no peg on c1 to jump over"), ("c2 a2", "no peg on c2"),
                                       ("a1 b1", "not empty"), ("a2 a4", "no peg on a2")])
def test_illegal_jumps_cost_a_turn_and_leave_the_board(move, why):
    problem = SOURCE.sample(0, 0)
    n = problem.data["size"]
    state = {"board": _board(n, [(0, 0), (0, 1), (1, 1)])}
    outcome = SOURCE.play(problem, state, move)
    assert outcome.verdict.parsed and not outcome.verdict.correct and not outcome.done
    assert outcome.state == state and why in outcome.observation


def test_two_jumps_in_one_message_are_unreadable_and_a_stuck_board_is_lost():
    problem = SOURCE.sample(0, 0)
    n = problem.data["size"]
    state = {"board": _board(n, [(0, 0), (0, 1), (3, 3)])}
    assert not SOURCE.play(problem, state, "a1 c1 d4 d2").verdict.parsed
    outcome = SOURCE.play(problem, state, "a1 c1")
    assert outcome.done and not outcome.verdict.correct and "you lose" in outcome.observation


def test_the_generators_line_solves_the_board_and_the_oracle_finds_its_own():
    for level in range(5):
        for seed in range(5):
            problem = SOURCE.sample(level, seed)
            n, board = problem.data["size"], problem.data["board"]
            for source, over, target in problem.data["solution"]:
                assert (source, over, target) in _jumps(n, board)
                board = board & ~(1 << source) & ~(1 << over) | 1 << target
            assert bin(board).count("1") == 1
            assert len(_solve(n, problem.data["board"])) == problem.data["pegs"] - 1
