"""Round-3e multi-turn games: hand-checked positions, refused moves and plans, the oracles winning."""

from __future__ import annotations

from palaestra.core import Problem
from palaestra.core.registry import make_source


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


# --- Lights out on a graph ---------------------------------------------------

def path_problem() -> Problem:
    """Lamps 1-2-3 on a path, lamps 1 and 2 lit: pressing lamp 1 (toggles 1 and 2) clears the board."""
    data = {"lamps": 3, "wires": [[0, 1], [1, 2]], "lit": 0b011, "fewest": 1, "turns": 3}
    return Problem(env_id="games/lights_out_graph", level=0, seed=0, data=data)


def test_lights_out_graph_press_toggles_the_wired_lamps() -> None:
    source = make_source("games/lights_out_graph")
    problem = path_problem()
    state = source.initial_state(problem)
    middle = source.play(problem, state, "press 2")  # toggles 1, 2, 3: only lamp 3 stays lit
    assert not middle.done and middle.observation.endswith("Lit lamps: 3")
    won = source.play(problem, state, "Lamp 1.")
    assert won.done and won.verdict.correct and won.verdict.reward == 1


def test_lights_out_graph_refuses_unknown_lamps_and_plans() -> None:
    source = make_source("games/lights_out_graph")
    problem = path_problem()
    state = source.initial_state(problem)
    for move in ("press 4", "press 0", "1 or 2"):
        outcome = source.play(problem, state, move)
        assert not outcome.verdict.parsed and outcome.state == state
    plan = source.advance(problem, state, source.format_answer("press 1, then press 2"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()


def test_lights_out_graph_oracle_wins_within_the_fewest_presses() -> None:
    source = make_source("games/lights_out_graph")
    for level in range(5):
        problem = source.sample(level, 3)
        reward, won, turns = oracle_episode("games/lights_out_graph", level, 3)
        assert won and reward == 1 and turns == problem.data["fewest"]
