"""Red-team round 3, session 26 (second look): planning, temporal and spatial."""

from __future__ import annotations

import palaestra
from palaestra.envs.planning.hanoi import routes

ARROWS = {"U": "↑", "D": "↓", "L": "←", "R": "→"}


def _task(env_id: str):
    return palaestra.make(env_id, level=0).unwrapped.task


def _reward(task, problem, reply: str) -> float:
    return task.check(problem, f"<answer>{reply}</answer>").reward


# --- planning/hanoi: the textbook recursion (the largest differing disk moves once) ------------------------------
def test_hanoi_textbook_recursion_is_not_the_answer_at_the_top() -> None:
    """v3 drew random pairs, on which moving the largest differing disk once is optimal 92% of the time."""
    task = _task("planning/hanoi")
    wins = 0
    for seed in range(30):
        problem = task.sample(4, seed)
        once, twice = routes(problem.data["start"], problem.data["goal"])
        assert len(once) != len(twice)
        wins += _reward(task, problem, ", ".join(f"{a}->{b}" for a, b in once)) == 1.0
        shorter = once if len(once) < len(twice) else twice
        assert _reward(task, problem, ", ".join(f"{a}->{b}" for a, b in shorter)) == 1.0
    assert wins <= 21  # about half; v3: 28 of 30


# --- grid routes written with arrows ------------------------------------------------------------------------------
def test_grid_routes_read_as_arrows() -> None:
    for env_id in ("planning/maze", "planning/keys_doors", "planning/sokoban"):
        task = _task(env_id)
        problem = task.sample(1, 3)
        gold = problem.answer
        assert _reward(task, problem, "".join(ARROWS[m] for m in gold)) == 1.0, env_id
        assert _reward(task, problem, " ".join(ARROWS[m] for m in gold)) == 1.0, env_id
        words = {"U": "up", "D": "down", "L": "left", "R": "right"}
        assert _reward(task, problem, " → ".join(words[m] for m in gold)) == 1.0, env_id  # → still separates
        wrong = "".join(ARROWS[{"U": "D", "D": "U", "L": "R", "R": "L"}[m]] for m in gold)
        assert _reward(task, problem, wrong) == 0.0, env_id


# --- temporal: clock times written 01h48 or 01.48, dates written 2095/12/31 ---------------------------------------
def test_time_zones_reads_h_and_dot_separators() -> None:
    task = _task("temporal/time_zones")
    problem = task.sample(4, 1)
    day, clock = problem.answer.split()
    hours, minutes = clock.split(":")
    assert _reward(task, problem, f"{day} {hours}h{minutes}") == 1.0
    assert _reward(task, problem, f"{day} {hours}.{minutes}") == 1.0
    assert _reward(task, problem, f"{day} {hours}h{int(minutes) ^ 1:02d}") == 0.0


def test_schedule_overlap_reads_dotted_times() -> None:
    task = _task("temporal/schedule_overlap")
    problem = task.sample(4, 1)
    assert _reward(task, problem, problem.answer.replace(":", ".")) == 1.0
    assert _reward(task, problem, problem.answer.replace(":", "h")) == 1.0


def test_recurring_events_reads_slashed_iso_dates() -> None:
    task = _task("temporal/recurring_events")
    problem = task.sample(4, 1)
    assert _reward(task, problem, problem.answer.replace("-", "/")) == 1.0
    year, month, day = problem.answer.split("-")
    assert _reward(task, problem, f"{day}/{month}/{year}") == 0.0  # day first: not the ISO order


# --- spatial: spellings a grader accepts ----------------------------------------------------------------------------
def test_turtle_pose_reads_heading_first_and_position_labels() -> None:
    task = _task("spatial/turtle_pose")
    problem = task.sample(4, 1)
    x, y, heading = problem.data["x"], problem.data["y"], problem.data["heading"]
    assert _reward(task, problem, f"{heading.capitalize()}, ({x}, {y})") == 1.0
    assert _reward(task, problem, f"position ({x}, {y}), heading {heading}") == 1.0
    assert _reward(task, problem, f"facing {heading} at ({x}, {y})") == 1.0
    other = {"north": "south", "south": "north", "east": "west", "west": "east"}[heading]
    assert _reward(task, problem, f"{other}, ({x}, {y})") == 0.0
    assert _reward(task, problem, f"{heading}, ({x + 1}, {y})") == 0.0


def test_relative_positions_reads_row_labels_and_lower_case() -> None:
    task = _task("spatial/relative_positions")
    problem = task.sample(4, 1)
    rows = problem.answer.split("\n")
    assert _reward(task, problem, "\n".join(f"Row {i}: {row}" for i, row in enumerate(rows, 1))) == 1.0
    assert _reward(task, problem, problem.answer.lower()) == 1.0
    assert _reward(task, problem, "\n".join(f"Row {i}: {row[::-1]}" for i, row in enumerate(rows, 1))) == 0.0


def test_hex_distance_reads_arrows_and_numbered_steps() -> None:
    task = _task("spatial/hex_distance")
    problem = task.sample(2, 1)
    steps = problem.answer.split(", ")
    assert _reward(task, problem, " -> ".join(steps)) == 1.0
    assert _reward(task, problem, "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))) == 1.0
    assert _reward(task, problem, " -> ".join(steps[:-1])) == 0.0
