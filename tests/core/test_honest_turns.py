"""``MultiTurnTask.honest_turns``: how many turns the honest player takes to win, the check that generators with a
turn budget fixed by the level (not by the hidden state) use to redraw a problem the budget does not fit."""

from __future__ import annotations

from palaestra.core.registry import make_source


def test_honest_turns_counts_the_honest_players_winning_game_and_stops_at_the_limit() -> None:
    task = make_source("interactive/text_adventure")
    problem = task.sample(1, 0)
    budget = task.max_turns(problem)
    turns = task.honest_turns(problem, budget)
    assert turns is not None and 1 <= turns <= budget
    assert task.honest_turns(problem, turns) == turns  # the limit is inclusive
    assert task.honest_turns(problem, turns - 1) is None  # not won within fewer turns
    # replaying the honest player's moves through `play` ends in a win on that turn
    state, history = task.initial_state(problem), ()
    for _ in range(turns):
        move = task.honest_move(task.view(problem, history))
        outcome = task.play(problem, state, move)
        state, history = outcome.state, (*history, (move, outcome.observation))
    assert outcome.done and outcome.verdict.correct
