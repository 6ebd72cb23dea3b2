"""Round-3 multi-turn games: hand-checked positions, refused moves and plans, the oracles winning."""

from __future__ import annotations

import random

import numpy as np
import pytest

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games import bulls_and_cows, rush_hour
from palaestra.envs.games import hex as hex_game
from palaestra.kit.play import play_episode


def oracle_episode(env_id: str, level: int, seed: int) -> tuple[float, bool, int]:
    """(total reward, won, turns) of the oracle's game through ``advance`` (full replies, as a model's)."""
    source = make_source(env_id)
    problem = source.sample(level, seed)
    state, total = source.initial_state(problem), 0.0
    for turn in range(1, source.max_turns(problem) + 1):
        outcome = source.advance(problem, state, source.format_answer(source.oracle(problem, state)))
        state, total = outcome.state, total + outcome.verdict.reward
        if outcome.done:
            return total, bool(outcome.verdict.correct), turn
    return total, False, source.max_turns(problem)


def hex_problem(board: list[str], noise: float = 0.0) -> Problem:
    rows = len(board)
    return Problem(env_id="games/hex", level=0, seed=0,
                   data={"rows": rows, "board": "".join(board), "noise": noise, "turns": 20})


# --- Hex ---------------------------------------------------------------------

def test_hex_pairing_is_an_involution_without_fixed_points() -> None:
    for rows in range(2, 9):
        cells = rows * (rows + 1)
        for i in range(cells):
            assert hex_game.partner(i, rows) != i
            assert hex_game.partner(hex_game.partner(i, rows), rows) == i
            assert 0 <= hex_game.partner(i, rows) < cells


def test_hex_pairing_beats_every_opponent_line_on_a_3x4_board() -> None:
    """Exhaustively: whatever O plays, answering in the partner cell never lets O join left and right."""
    rows = 3

    def holds(board: str) -> bool:
        for cell in (i for i, c in enumerate(board) if c == "."):
            after = board[:cell] + "O" + board[cell + 1:]
            if hex_game._connected(after, rows, "O"):
                return False
            answer = hex_game.partner(cell, rows)
            assert after[answer] == "."
            after = after[:answer] + "X" + after[answer + 1:]
            if not hex_game._connected(after, rows, "X") and not holds(after):
                return False
        return True

    assert holds("." * 12)


def test_hex_hand_checked_win_and_opponent_block() -> None:
    source = make_source("games/hex")
    # 2 x 3 board, X on b1: a2 (below-left of b1) is O's, so a2 is refused as taken; b2 (below) joins the rows.
    problem = hex_problem([".XO", "O.."])
    state = {"board": problem.data["board"], "last": 2}
    outcome = source.play(problem, state, "a2")
    assert outcome.verdict.parsed and not outcome.done and outcome.state == state
    outcome = source.play(problem, state, "b2")
    assert outcome.done and outcome.verdict.correct and "you win" in outcome.observation
    # 3 x 4 board, X on a1 and a2: a3 is the only cell finishing X's chain, and the opponent (no noise) takes it.
    problem = hex_problem(["X...", "X...", "...."])
    assert hex_game._distance(problem.data["board"], 3, "X") == 1
    assert hex_game._reply(problem, problem.data["board"]) == 8


def test_hex_refuses_bad_moves_and_plans() -> None:
    source = make_source("games/hex")
    problem = source.sample(1, 3)
    state = source.initial_state(problem)
    for bad in ("z9", "c", "c2 d3", "c2, d3", "c2 then d3"):
        outcome = source.advance(problem, state, source.format_answer(bad))
        assert not outcome.verdict.parsed and outcome.state == state
        assert "column letter then a row number" in outcome.observation
    taken = next(i for i, c in enumerate(problem.data["board"]) if c != ".")
    cols = problem.data["rows"] + 1
    name = hex_game.cell_name(taken // cols, taken % cols)
    outcome = source.advance(problem, state, source.format_answer(name))
    assert outcome.state == state and "is taken" in outcome.observation


@pytest.mark.parametrize("level", [0, 2, 4])
def test_hex_oracle_wins(level: int) -> None:
    for seed in range(3):
        total, won, _ = oracle_episode("games/hex", level, seed)
        assert won and total == 1.0


def test_hex_random_play_loses_at_the_top_level() -> None:
    source = make_source("games/hex")
    wins = 0
    for seed in range(6):
        problem, rng = source.sample(4, seed), random.Random(seed)
        state = source.initial_state(problem)
        for _ in range(source.max_turns(problem)):
            cell = rng.choice([i for i, c in enumerate(state["board"]) if c == "."])
            outcome = source.play(problem, state, hex_game.cell_name(cell // 9, cell % 9))
            state = outcome.state
            if outcome.done:
                wins += outcome.verdict.correct
                break
    assert wins <= 1


# --- Bulls and Cows ----------------------------------------------------------

@pytest.mark.parametrize("guess, secret, expected", [
    ("crane", "nacre", (1, 4)),  # e in place; c, r, a, n elsewhere
    ("llama", "plane", (2, 0)),  # l and a in place; the second l and a count nothing more
    ("tough", "crane", (0, 0)),
    ("stare", "rates", (0, 5)),
])
def test_bulls_and_cows_score(guess: str, secret: str, expected: tuple[int, int]) -> None:
    assert bulls_and_cows.score(guess, secret) == expected


def test_bulls_and_cows_reply_table_matches_score() -> None:
    index, rng = bulls_and_cows.word_index(), random.Random(5)
    guesses = rng.sample(bulls_and_cows.words(), 40)
    secrets = rng.sample(bulls_and_cows.isograms(), 40)
    table = bulls_and_cows._reply_codes(np.array([index[g] for g in guesses]), np.array([index[s] for s in secrets]))
    for i, g in enumerate(guesses):
        for j, s in enumerate(secrets):
            bulls, cows = bulls_and_cows.score(g, s)
            assert table[i, j] == bulls * 6 + cows


def test_bulls_and_cows_refuses_bad_moves_and_plans() -> None:
    source = make_source("games/bulls_and_cows")
    problem = source.sample(1, 2)
    state = source.initial_state(problem)
    outcome = source.advance(problem, state, source.format_answer("zzzzq"))
    assert outcome.verdict.parsed and not outcome.verdict.correct and "not in the word list" in outcome.observation
    for bad in ("crane stare", "crane, stare", "cranes", "crane then stare"):
        outcome = source.advance(problem, state, source.format_answer(bad))
        assert not outcome.verdict.parsed and outcome.state == state and "five-letter word" in outcome.observation


def test_bulls_and_cows_feedback_leaks_only_counts() -> None:
    source = make_source("games/bulls_and_cows")
    problem = source.sample(0, 1)
    secret = problem.data["secret"]
    guess = next(w for w in bulls_and_cows.words() if w != secret and set(w) & set(secret))
    outcome = source.play(problem, source.initial_state(problem), guess)
    bulls, cows = bulls_and_cows.score(guess, secret)
    assert outcome.observation.startswith(f"{guess.upper()}: {bulls} bull")
    assert secret not in outcome.observation.lower()


@pytest.mark.parametrize("level", [0, 4])
def test_bulls_and_cows_honest_player_and_oracle_win(level: int) -> None:
    source = make_source("games/bulls_and_cows")
    for seed in range(3):
        problem = source.sample(level, seed)
        won = play_episode(source, problem, lambda state, history, p=problem: source.honest_move(source.view(p, history)))[1]
        assert won
        total, won, _ = oracle_episode("games/bulls_and_cows", level, seed)
        assert won and total == 1.0


# --- Rush Hour ---------------------------------------------------------------

RUSH_BOARD = (  # car A needs B (vertical, column 5) out of row 3: B down 2 frees it, then A right 4
    "......"
    "....B."
    "AA..B."
    "......"
    "CC...."
    "......"
)


def rush_problem(board: str = RUSH_BOARD) -> Problem:
    return Problem(env_id="games/rush_hour", level=0, seed=0, data={"board": board, "distance": 2, "turns": 5})


def test_rush_hour_hand_checked_solution() -> None:
    source = make_source("games/rush_hour")
    problem = rush_problem()
    layout, start = rush_hour._parse(RUSH_BOARD)
    assert rush_hour._solution_distances(layout, start)[start] == 2  # B out of the way, then A out
    state = source.initial_state(problem)
    outcome = source.play(problem, state, "A right 3")  # B is in the way
    assert outcome.state == state and "run into another car" in outcome.observation
    outcome = source.play(problem, state, "B left 1")
    assert outcome.state == state and "vertical and cannot move left" in outcome.observation
    outcome = source.play(problem, state, "b down 2")
    assert outcome.verdict.parsed and not outcome.done
    outcome = source.play(problem, outcome.state, "move car A right 4")
    assert outcome.done and outcome.verdict.correct


def test_rush_hour_refuses_unreadable_moves_and_plans() -> None:
    source = make_source("games/rush_hour")
    problem = rush_problem()
    state = source.initial_state(problem)
    for bad in ("B down 1, A right 4", "B down 1 then A right 4", "B sideways", "down 2", "B down 9"):
        outcome = source.advance(problem, state, source.format_answer(bad))
        assert not outcome.verdict.parsed and outcome.state == state and "B down 2" in outcome.observation
    outcome = source.play(problem, state, "Z up 1")
    assert outcome.state == state and "no car Z" in outcome.observation


def test_rush_hour_catalogue_records_its_longest_solutions() -> None:
    for board, farthest in rush_hour.catalogue()[:12]:
        assert max(rush_hour._solution_distances(*rush_hour._parse(board)).values()) == farthest >= 12
    built = rush_hour.build_catalogue(random.Random(0), 2, 3, max_positions=200)
    for board, farthest in built:
        assert farthest >= 3 and rush_hour._reachable_count(board, 200) <= 200


@pytest.mark.parametrize("level", [0, 4])
def test_rush_hour_oracle_solves_in_the_shortest_number_of_slides(level: int) -> None:
    source = make_source("games/rush_hour")
    for seed in range(3):
        total, won, turns = oracle_episode("games/rush_hour", level, seed)
        assert won and total == 1.0 and turns == source.sample(level, seed).data["distance"]
