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


# --- Hex minesweeper ---------------------------------------------------------

def test_hex_neighbours_follow_the_shifted_rows() -> None:
    from palaestra.envs.games.hex_minesweeper import hex_neighbours

    around = hex_neighbours(3, 3)
    # b1 (row index 0, unshifted): a1, c1 beside it; a2 and b2 below (columns c-1 and c).
    assert sorted(around[1]) == [0, 2, 3, 4]
    # b2 (row index 1, shifted right): a2, c2 beside; b1, c1 above and b3, c3 below (columns c and c+1).
    assert sorted(around[4]) == [1, 2, 3, 5, 7, 8]
    assert all(len(cells) <= 6 for cells in around)


def hex_problem() -> Problem:
    """A 3x3 hex board with one mine at b2 (in the shifted row 2); the first click at a1 opens a1, b1 and a2."""
    data = {"rows": 3, "cols": 3, "mines": [4], "first": 0, "clicks": 3, "turns": 6}
    return Problem(env_id="games/hex_minesweeper", level=0, seed=0, data=data)


def test_hex_minesweeper_counts_six_neighbours_and_wins() -> None:
    source = make_source("games/hex_minesweeper")
    problem = hex_problem()
    state = source.initial_state(problem)
    assert [i for i, mark in enumerate(state["mask"]) if mark == "o"] == [0, 1, 3]
    # a3 touches a2 and b3 only (row 3 is unshifted: columns c-1 and c above), not the mine at b2 as a square
    # board's a3 would: it shows no number and floods on to b3.
    opened = source.play(problem, state, "reveal a3")
    assert not opened.done and opened.observation.splitlines()[-1] == "3 . 1 #"
    state = opened.state
    for move in ("c1", "Reveal C2.", "reveal c3"):
        outcome = source.play(problem, state, move)
        state = outcome.state
    assert outcome.done and outcome.verdict.correct and outcome.verdict.reward == 1


def test_hex_minesweeper_refuses_bad_moves_and_loses_on_a_mine() -> None:
    source = make_source("games/hex_minesweeper")
    problem = hex_problem()
    state = source.initial_state(problem)
    for move in ("reveal d1", "reveal a1 b1", "row 2"):
        outcome = source.play(problem, state, move)
        assert outcome.verdict.reward == 0 and outcome.state == state and not outcome.done
    plan = source.advance(problem, state, source.format_answer("reveal c1, then reveal c2"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()
    lost = source.play(problem, state, "reveal b2")
    assert lost.done and not lost.verdict.correct and "mine" in lost.observation


def test_hex_minesweeper_honest_player_reads_the_drawn_board() -> None:
    source = make_source("games/hex_minesweeper")
    for level in (0, 3):
        problem = source.sample(level, 11)
        state, history = source.initial_state(problem), []
        for _ in range(source.max_turns(problem)):
            move = source.honest_move(source.view(problem, tuple(history)))
            outcome = source.play(problem, state, move)
            state = outcome.state
            history.append((move, outcome.observation))
            if outcome.done:
                break
        assert outcome.done and outcome.verdict.correct


# --- Maze with guards --------------------------------------------------------

def corridor_problem() -> Problem:
    """A straight corridor b2..h2 with the exit at h2; guard A patrols the side room e4-e3 (seeing e2 from e3)."""
    grid = ["#########",
            "#.......#",
            "####.####",
            "####.####",
            "#########"]
    guard = {"route": [[3, 4], [2, 4]], "phase": 0}  # e4 at time 0, e3 at odd times, e4 at even times
    data = {"grid": grid, "start": [1, 1], "goal": [1, 7], "guards": [guard], "fewest": 7, "turns": 9}
    return Problem(env_id="games/maze_guards", level=0, seed=0, data=data)


def test_maze_guards_timing_decides_whether_the_guard_sees_you() -> None:
    from palaestra.envs.games.maze_guards import _fewest

    source = make_source("games/maze_guards")
    problem = corridor_problem()
    assert _fewest(problem.data) == 7  # the six steps along the corridor and one wait before e2
    state = source.initial_state(problem)
    for move in ("right", "east"):
        state = source.play(problem, state, move).state
    assert state == {"at": [1, 3], "time": 2}
    caught = source.play(problem, state, "right")  # e2 at time 3, right above the guard at e3
    assert caught.done and not caught.verdict.correct and "caught" in caught.observation
    state = source.play(problem, state, "wait").state  # d2 at time 3: diagonal to e3, unseen
    for move in ("right", "right", "right", "move right"):  # e2 at time 4 (guard back at e4), then on to h2
        outcome = source.play(problem, state, move)
        assert not outcome.done or outcome.verdict.correct
        state = outcome.state
    assert outcome.done and outcome.verdict.correct and outcome.verdict.reward == 1


def test_maze_guards_refuses_walls_words_and_plans() -> None:
    source = make_source("games/maze_guards")
    problem = corridor_problem()
    state = source.initial_state(problem)
    for move in ("up", "left", "jump", "up or down"):
        outcome = source.play(problem, state, move)
        assert not outcome.verdict.parsed and outcome.state == state
    plan = source.advance(problem, state, source.format_answer("right, right, right"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()


def test_maze_guards_oracle_meets_the_fewest_turns_and_simple_rules_are_caught() -> None:
    from palaestra.envs.games.maze_guards import _caught_walking, _greedy_escapes
    from palaestra.generators.grids import shortest_route

    source = make_source("games/maze_guards")
    for level in range(5):
        problem = source.sample(level, 5)
        data = problem.data
        assert _caught_walking(data, shortest_route(data["grid"], tuple(data["start"]), tuple(data["goal"])))
        assert not _greedy_escapes(data, data["turns"])  # waiting whenever watched is not enough
        reward, won, turns = oracle_episode("games/maze_guards", level, 5)
        assert won and reward == 1 and turns == data["fewest"]


# --- Irregular battleships ---------------------------------------------------

def test_irregular_battleships_shapes_turn_and_mirror() -> None:
    from palaestra.envs.games.irregular_battleships import _orientations, _placements

    counts = {name: len(_orientations(name)) for name in ("block", "cross", "corner", "tee", "zigzag", "hook", "flag")}
    assert counts == {"block": 1, "cross": 1, "corner": 4, "tee": 4, "zigzag": 4, "hook": 8, "flag": 8}
    assert len(_placements(3, "block")) == 4 and len(_placements(3, "cross")) == 1


def corner_problem() -> Problem:
    """A 4x4 board with one corner ship on a1, a2, b2 (cells 0, 4, 5)."""
    data = {"size": 4, "ships": ["corner"], "fleet": [0b110001], "turns": 8, "spare": 5}
    return Problem(env_id="games/irregular_battleships", level=0, seed=0, data=data)


def test_irregular_battleships_reports_hits_and_sinking() -> None:
    source = make_source("games/irregular_battleships")
    problem = corner_problem()
    state = source.initial_state(problem)
    said = []
    for move in ("fire at a1", "c3", "A2", "fire at b2"):
        outcome = source.play(problem, state, move)
        state = outcome.state
        said.append(outcome.observation.splitlines()[0])
    assert said[:3] == ["Shot a1: hit.", "Shot c3: miss.", "Shot a2: hit."]
    assert said[3].startswith("Shot b2: hit, and the corner is sunk.")
    assert outcome.done and outcome.verdict.correct and outcome.verdict.reward == 1
    repeat = source.play(problem, source.initial_state(problem), "e1")
    assert not repeat.verdict.parsed


def test_irregular_battleships_honest_player_chases_a_hit() -> None:
    source = make_source("games/irregular_battleships")
    problem = corner_problem()
    state = source.initial_state(problem)
    hit = source.play(problem, state, "a1")
    move = source.honest_move(source.view(problem, (("a1", hit.observation),)))
    # A corner through a1 lies in the box a1-b2: the only cells it can continue to, each in two of its three fits.
    assert move in ("fire at b1", "fire at a2", "fire at b2")


def test_irregular_battleships_textbook_rule_chases_hits_then_hunts_a_checkerboard() -> None:
    from palaestra.envs.games.irregular_battleships import _hunt_and_target

    assert _hunt_and_target(4, []) == "fire at a1"
    assert _hunt_and_target(4, [("a1", "Shot a1: hit.")]) == "fire at b1"
    assert _hunt_and_target(4, [("a1", "Shot a1: miss.")]) == "fire at c1"
