"""The named multi-turn outcomes of the core: an invalid move and a move after which the game goes on."""

from __future__ import annotations

import palaestra
from palaestra.core import Outcome, Verdict


def test_invalid_keeps_the_state_and_spends_the_turn_unparsed() -> None:
    state = {"board": [1, 2]}
    outcome = Outcome.invalid(state, "write one cell, e.g. b3")
    assert outcome.state is state and not outcome.done
    assert outcome.verdict == Verdict.unparsed("write one cell, e.g. b3")
    assert outcome.observation == "Invalid move: write one cell, e.g. b3."
    assert Outcome.invalid(state, "name a product", "command").observation == "Invalid command: name a product."


def test_goes_on_is_read_but_not_rewarded_and_not_done() -> None:
    outcome = Outcome.goes_on({"turn": 2}, "Your move.")
    assert (outcome.verdict.reward, outcome.verdict.correct, outcome.verdict.parsed) == (0.0, False, True)
    assert outcome.verdict == Verdict.ongoing() and outcome.verdict.feedback == "game goes on"
    assert outcome.observation == "Your move." and not outcome.done


def test_a_legal_non_final_move_of_a_board_game_goes_on() -> None:
    env = palaestra.make("games/tic_tac_toe")
    env.reset(seed=3, options={"level": 4})
    _, reward, terminated, _, info = env.step(env.oracle_action())
    assert not terminated  # one move (and the reply) cannot end a game of tic-tac-toe
    assert info["verdict"] == Verdict.ongoing() and reward == 0.0


def test_an_unreadable_move_is_invalid_through_the_env() -> None:
    env = palaestra.make("games/tic_tac_toe")
    env.reset(seed=3)
    observation, reward, terminated, _, info = env.step("<answer>somewhere in the middle</answer>")
    assert observation.startswith("Invalid move: ") and not info["verdict"].parsed
    assert reward == 0.0 and not terminated
