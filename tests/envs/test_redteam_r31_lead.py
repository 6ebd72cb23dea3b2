"""Red team r31 (lead): grading fixes in shared readers that the session's helpers reported."""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.service.common import judge_dollars


def test_lead_r31_an_amount_after_its_currency_code_is_read() -> None:
    problem = make_source("service/subscription_changes").sample(2, 0)
    amount = (problem.answer or "").lstrip("-$")
    sign = "-" if (problem.answer or "").startswith("-") else ""
    assert judge_dollars(problem, f"{sign}USD {amount}").correct
    assert judge_dollars(problem, f"{sign}US${amount}").correct
    assert not judge_dollars(problem, f"{sign}USD {amount} or $0.00").correct
    assert not judge_dollars(problem, "USD 0.01" if problem.answer != "$0.01" else "USD 0.02").correct


def test_lead_r31_snake_reads_a_move_in_a_sentence() -> None:
    snake = make_source("games/snake")
    problem = snake.sample(1, 0)
    state = snake.initial_state(problem)
    for move in ("left", "up", "right", "down"):
        said = snake.play(problem, state, f"I move {move}.")
        plain = snake.play(problem, state, move)
        assert said.observation == plain.observation and said.state == plain.state
    assert "Invalid move" in snake.play(problem, state, "I move up or left").observation


def test_lead_r31_peg_solitaire_reads_its_own_wording_of_a_jump() -> None:
    pegs = make_source("games/peg_solitaire")
    problem = pegs.sample(0, 0)
    state = pegs.initial_state(problem)
    move = pegs.legal_moves(problem, state)[0]
    plain = pegs.play(problem, state, move)
    said = plain.observation.split(".")[0] + "."  # "The peg on e3 jumps over e4 into e5."
    assert pegs.play(problem, state, said).state == plain.state
    start, end = move.split()[0], move.split()[-1]
    assert "Invalid move" in pegs.play(problem, state, f"{start} jumps over {start} into {end}").observation


def test_lead_r31_maze_guards_reads_a_move_in_a_sentence() -> None:
    maze = make_source("games/maze_guards")
    problem = maze.sample(0, 0)
    state = maze.initial_state(problem)
    move = maze.oracle(problem, state)
    assert maze.play(problem, state, f"I move {move}.").state == maze.play(problem, state, move).state
