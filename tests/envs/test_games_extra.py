"""Extra multi-turn games (issue 27): hand-checked positions, refused moves, replays, the oracles winning."""

from __future__ import annotations

import random

import palaestra
from palaestra.core import Problem
from palaestra.core.registry import make_source


def oracle_replies(env_id: str, level: int, seed: int) -> tuple[Problem, list[str], float, bool]:
    """The oracle's game through ``advance`` (full replies, as a model's): problem, replies, total reward, won."""
    source = make_source(env_id)
    problem = source.sample(level, seed)
    state, total, replies = source.initial_state(problem), 0.0, []
    for _ in range(source.max_turns(problem)):
        replies.append(source.format_answer(source.oracle(problem, state)))
        outcome = source.advance(problem, state, replies[-1])
        state, total = outcome.state, total + outcome.verdict.reward
        if outcome.done:
            return problem, replies, total, bool(outcome.verdict.correct)
    return problem, replies, total, False


def random_legal_reward(env_id: str, level: int, seed: int) -> float:
    source = make_source(env_id)
    problem, rng = source.sample(level, seed), random.Random(seed)
    state, total = source.initial_state(problem), 0.0
    for _ in range(source.max_turns(problem)):
        outcome = source.advance(problem, state, source.format_answer(rng.choice(source.legal_moves(problem, state))))
        state, total = outcome.state, total + outcome.verdict.reward
        if outcome.done:
            break
    return total


# --- Set ---------------------------------------------------------------------

def small_set_problem() -> Problem:
    """Six cards of a three-attribute deck: 1, 2, 3 red diamonds (A B C: a set), 1 green diamond (D),
    1 red oval (E), 1 red squiggle (F: A E F is a set too). One set to collect."""
    data = {"attributes": 3, "deck": [0, 1, 2, 3, 9, 18], "table": 6, "goal": 1, "turns": 2, "oracle_bits": 0.0}
    return Problem(env_id="games/set_game", level=0, seed=0, data=data)


def test_set_game_names_the_attributes_that_break_a_triple() -> None:
    source = make_source("games/set_game")
    problem = small_set_problem()
    state = source.initial_state(problem)
    assert state["table"] == [0, 1, 2, 3, 9, 18]
    wrong = source.play(problem, state, "A B D")  # numbers 1, 2, 1 and colours red, red, green
    assert wrong.verdict.parsed and not wrong.verdict.correct and wrong.state == state
    assert "number: 1, 2, 1" in wrong.observation and "colour: red, red, green" in wrong.observation
    assert "shape" not in wrong.observation.split("Broken by")[1]
    won = source.play(problem, state, "cards a, b and c.")
    assert won.done and won.verdict.correct and won.verdict.reward == 1


def test_set_game_refuses_unreadable_moves_and_plans() -> None:
    source = make_source("games/set_game")
    problem = small_set_problem()
    state = source.initial_state(problem)
    for move in ("A B", "A B C D", "A B Z", "A A B", "A B C or A E F", "1 2 3"):
        outcome = source.play(problem, state, move)
        assert not outcome.verdict.parsed and outcome.state == state, move
    assert "three different cards" in source.play(problem, state, "A A B").observation
    plan = source.advance(problem, state, source.format_answer("A B C, then A E F"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()


def test_set_game_goal_is_what_every_game_reaches() -> None:
    from palaestra.envs.games.set_game import guaranteed_sets

    # Cap sets: 9 cards with three attributes, 20 with four (18 is the largest multiple of 3 away from 81).
    assert guaranteed_sets(3, 27) == 6 and guaranteed_sets(4, 81) == 21 and guaranteed_sets(4, 36) == 6


def test_set_game_oracle_wins_replays_and_random_triples_lose() -> None:
    for level in (0, 4):
        for seed in range(3):
            problem, replies, total, won = oracle_replies("games/set_game", level, seed)
            assert won and total == 1 and len(replies) == problem.data["goal"]
            assert palaestra.score(problem, replies).reward == 1.0
            assert palaestra.score(problem, replies[:-1]).reward == 0.0
    assert sum(random_legal_reward("games/set_game", 4, seed) for seed in range(5)) == 0


# --- Jotto -------------------------------------------------------------------

def small_jotto_problem() -> Problem:
    """Three listed candidates; the secret is grape."""
    data = {"secret": "grape", "candidates": ["brick", "grape", "mount"], "turns": 3, "honest_guesses": 1,
            "candidate_count": 3}
    return Problem(env_id="games/jotto", level=0, seed=0, data=data)


def test_jotto_counts_shared_letters_position_ignored() -> None:
    from palaestra.envs.games.jotto import common_letters

    assert common_letters("geese", "grape") == 2  # g and e; the secret's e counts once
    assert common_letters("pager", "grape") == 5 and common_letters("blind", "grape") == 0
    source = make_source("games/jotto")
    problem = small_jotto_problem()
    state = source.initial_state(problem)
    outcome = source.play(problem, state, "Geese")
    assert outcome.observation == "geese: 2 letters in common." and not outcome.done
    assert outcome.state["history"] == [["geese", 2]]
    won = source.play(problem, outcome.state, "grape.")
    assert won.done and won.verdict.correct and won.verdict.reward == 1


def test_jotto_refuses_unknown_words_and_plans() -> None:
    source = make_source("games/jotto")
    problem = small_jotto_problem()
    state = source.initial_state(problem)
    unknown = source.play(problem, state, "zzzzz")
    assert unknown.verdict.parsed and not unknown.verdict.correct and "not in the word list" in unknown.observation
    assert unknown.state == state
    assert not source.play(problem, state, "grape or brick").verdict.parsed
    plan = source.advance(problem, state, source.format_answer("brick, then grape"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()


def test_jotto_honest_player_reads_only_the_view() -> None:
    """The honest player's move depends on the listed candidates and the counts seen, not on the secret."""
    source = make_source("games/jotto")
    problem = small_jotto_problem()
    other = Problem(env_id="games/jotto", level=0, seed=0, data={**problem.data, "secret": "mount"})
    history = (("brick", "brick: 0 letters in common."),)
    assert source.honest_move(source.view(problem, history)) == source.honest_move(source.view(other, history))
    # brick shares r with grape and nothing with mount: a count of 0 leaves mount.
    assert source.honest_move(source.view(other, history)) == "mount"


def test_jotto_oracle_wins_replays_and_ignoring_feedback_loses_at_the_top() -> None:
    for level in (0, 4):
        for seed in range(3):
            problem, replies, total, won = oracle_replies("games/jotto", level, seed)
            assert won and total == 1 and len(replies) == problem.data["honest_guesses"]
            assert palaestra.score(problem, replies).reward == 1.0
    source = make_source("games/jotto")
    in_order = source.heuristics()["the candidates in order"]
    wins = 0
    for seed in range(5):
        problem, rng = source.sample(4, seed), random.Random(seed)
        state = source.initial_state(problem)
        for _ in range(source.max_turns(problem)):
            outcome = source.play(problem, state, in_order(problem, state, (), rng))
            state, wins = outcome.state, wins + outcome.verdict.correct
    assert wins == 0


# --- Atari Go ----------------------------------------------------------------

def corner_problem() -> Problem:
    """O at a1; X at b2 and a3. X b1 puts a1 in atari and its escape a2 would have no liberty (suicide),
    so a1 falls next move: a forced capture in two."""
    board = ["."] * 25
    board[0], board[6], board[10] = "O", "X", "X"  # a1, b2, a3 (point = row * 5 + column)
    data = {"size": 5, "board": "".join(board), "depth": 2, "turns": 3, "search": 0, "noise": 0.0,
            "difficulty": 0.0}
    return Problem(env_id="games/atari_go", level=0, seed=0, data=data)


def test_atari_go_forced_capture_in_the_corner() -> None:
    from palaestra.envs.games.atari_go import MODEL, capture_points, forced_capture

    problem = corner_problem()
    board = problem.data["board"]
    assert not capture_points(board, 5, MODEL) and forced_capture(board, 5, MODEL, 1) is None
    assert forced_capture(board, 5, MODEL, 2) in (1, 5)  # b1 or a2: both give atari with no escape
    source = make_source("games/atari_go")
    state = source.initial_state(problem)
    first = source.play(problem, state, "play b1")
    assert not first.done and "O plays" in first.observation and first.state["board"][1] == "X"
    won = source.play(problem, first.state, "A2")
    assert won.done and won.verdict.correct and "capture 1 O stone" in won.observation


def test_atari_go_refuses_occupied_points_and_plans() -> None:
    source = make_source("games/atari_go")
    problem = corner_problem()
    state = source.initial_state(problem)
    occupied = source.play(problem, state, "b2")
    assert not occupied.verdict.parsed and occupied.state == state and "occupied" in occupied.observation
    for move in ("f1", "b1 or a2", "z9"):
        assert not source.play(problem, state, move).verdict.parsed
    plan = source.advance(problem, state, source.format_answer("b1, then a2"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()


def test_atari_go_oracle_wins_replays_and_random_legal_loses() -> None:
    for level in (1, 4):
        for seed in range(3):
            problem, replies, total, won = oracle_replies("games/atari_go", level, seed)
            assert won and total == 1 and len(replies) <= problem.data["depth"]
            assert palaestra.score(problem, replies).reward == 1.0
    assert sum(random_legal_reward("games/atari_go", 4, seed) for seed in range(5)) == 0


# --- Fox and geese -----------------------------------------------------------

def cornered_fox_problem() -> Problem:
    """The fox on d1 (the tip of the top arm), geese on c1, e1, c2 and d3: c2-d2 shuts its only way out,
    and d3 stops the jump over d2 (b1 and f1 are off the cross)."""
    geese = sum(1 << p for p in (2, 4, 9, 17))  # c1, e1, c2, d3 (point = row * 7 + column)
    data = {"geese": geese, "fox": 3, "depth": 1, "turns": 2, "search": 1, "noise": 0.0, "difficulty": 0.0}
    return Problem(env_id="games/fox_and_geese", level=0, seed=0, data=data)


def test_fox_and_geese_trap_at_the_tip_of_an_arm() -> None:
    from palaestra.envs.games.fox_and_geese import forced_trap, fox_moves

    problem = cornered_fox_problem()
    geese, fox = problem.data["geese"], problem.data["fox"]
    assert fox_moves(geese, fox) == [(10, None)]  # only d2
    assert forced_trap(geese, fox, 1) == (9, 10)
    source = make_source("games/fox_and_geese")
    state = source.initial_state(problem)
    won = source.play(problem, state, "c2-d2")
    assert won.done and won.verdict.correct and "cannot move" in won.observation
    elsewhere = source.play(problem, state, "move c2 to c3")
    assert not elsewhere.done and elsewhere.state["fox"] == 10 and "from d1 to d2" in elsewhere.observation


def test_fox_and_geese_refuses_illegal_steps_and_plans() -> None:
    source = make_source("games/fox_and_geese")
    problem = cornered_fox_problem()
    state = source.initial_state(problem)
    for move, why in (("d3 d2", "not one"), ("e1 d1", "not one"), ("d2 d3", "no goose"), ("a1 a2", "write")):
        outcome = source.play(problem, state, move)
        assert not outcome.verdict.parsed and outcome.state == state and why in outcome.observation, move
    plan = source.advance(problem, state, source.format_answer("c2 d2, then e1 e2"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()


def test_fox_and_geese_oracle_wins_replays_and_random_legal_loses() -> None:
    for level in (0, 4):
        for seed in range(3):
            problem, replies, total, won = oracle_replies("games/fox_and_geese", level, seed)
            assert won and total == 1 and len(replies) <= problem.data["depth"]
            assert palaestra.score(problem, replies).reward == 1.0
    assert sum(random_legal_reward("games/fox_and_geese", 4, seed) for seed in range(5)) == 0


def test_moves_read_in_the_spellings_a_grader_accepts() -> None:
    from palaestra.envs.games.fox_and_geese import read_step
    from palaestra.envs.games.set_game import read_labels

    for move in ("Set: A, C, F", "{A, C, F}", "cards a, c and f.", "A-C-F", "\\boxed{A, C, F}", "Answer: A C F"):
        assert read_labels(move, 12) == (0, 2, 5), move
    for move in ("A C F or B D E", "A, C, F, B", "A C", "A C M"):
        assert read_labels(move, 12) is None, move
    for move in ("d3 d4", "d3-d4", "d3d4", "move d3 to d4", "D3 → D4"):
        assert read_step(move) == (17, 24), move
    for move in ("d3 d4 d5", "d3 or d4", "a1 a2"):
        assert read_step(move) is None, move
