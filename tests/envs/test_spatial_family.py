"""Spatial envs: hand-checked instances beyond the contract kit."""

from __future__ import annotations

import dataclasses

from palaestra.core.registry import make_source
from palaestra.envs.spatial.shape_transform import effective_steps, symmetry_images, transformed


def _with_data(env_id: str, **data: object) -> tuple[object, object]:
    task = make_source(env_id)
    problem = task.sample(1, 0)
    return task, dataclasses.replace(problem, data={**problem.data, **data})


def test_shape_transform_hand_checked_operations() -> None:
    grid = ("##.", "#..")
    assert transformed(grid, ["cw"]) == ("##", ".#", "..")
    assert transformed(grid, ["ccw"]) == ("..", "#.", "##")
    assert transformed(grid, ["half"]) == ("..#", ".##")
    assert transformed(grid, ["lr"]) == (".##", "..#")
    assert transformed(grid, ["tb"]) == ("#..", "##.")
    assert transformed(grid, ["tr"]) == ("##", "#.", "..")
    assert transformed(grid, ["cw", "lr"]) == transformed(grid, ["tr"])  # a turn then a mirror is a diagonal mirror
    assert effective_steps(["cw", "ccw", "lr"]) == 1 and effective_steps(["lr", "tb"]) == 2
    assert len(set(symmetry_images(("#.", "..")))) == 4  # a corner cell has a diagonal mirror symmetry


def test_shape_transform_grades_the_grid_in_other_spellings() -> None:
    grid, result = ["##.", "#.."], ["##", ".#", ".."]
    task, problem = _with_data("spatial/shape_transform", grid=grid, operations=["cw"], result=result)
    problem = dataclasses.replace(problem, answer="\n".join(result))
    for right in ("##\n.#\n..", "# #\n. #\n. .", "```\n##\n.#\n..\n```", "11\n01\n00", "Answer:\n##\n.#\n.."):
        assert task.verify(problem, right).correct, right
    assert "1 cell(s) differ" in task.verify(problem, "##\n##\n..").feedback
    assert "3 rows and 2 columns" in task.verify(problem, "##.\n#..").feedback
    assert not task.verify(problem, "##\n.#\n..\nor\n..\n#.\n##").correct
