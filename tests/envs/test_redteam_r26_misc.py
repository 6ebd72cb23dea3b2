"""Red-team regressions, session 26 (misc): three measured leftovers of session 25.

- algorithms/interval_scheduling v2: "keep the activity with the fewest conflicts first" chose a maximum set
  in 1.00 of levels 2 and 4 (it fails on about 1% of random draws), "drop the activity with the most
  conflicts first" in 0.91 of level 2 and 0.65 of level 4; v3 plants a trap both rules fall into.
- spatial/shape_transform v1: six of the eight grid symmetries are their own inverse, so the inverse transform
  was right on 0.71 of level 2 and 0.77 of level 4, the list in reverse order on 0.58 and 0.54; v2 adds wrapping
  shifts from level 1 on and redraws until both readings give another grid.

Each policy is written here from scratch (not imported from the fixed code), so the tests fail on the old
generators.
"""

from __future__ import annotations

import pytest

import palaestra
from palaestra.kit.base import sample

SEEDS = range(12)


def _paid(env_id: str, level: int, policy) -> int:
    return sum(
        palaestra.score(p, f"<answer>{policy(p)}</answer>").correct
        for p in (sample(env_id, level, seed) for seed in SEEDS)
    )


def _conflicts(spans: list[list[int]]) -> list[set[int]]:
    return [
        {j for j, (s, e) in enumerate(spans) if j != i and s < end and start < e}
        for i, (start, end) in enumerate(spans)
    ]


def _fewest_conflicts_first(problem) -> str:
    spans, names = problem.data["spans"], problem.data["names"]
    near, left, kept = _conflicts(spans), set(range(len(spans))), []
    while left:
        pick = min(left, key=lambda i: (len(near[i] & left), spans[i][1], i))
        kept.append(pick)
        left -= near[pick] | {pick}
    return ", ".join(names[i] for i in kept)


def _drop_most_conflicting(problem) -> str:
    spans, names = problem.data["spans"], problem.data["names"]
    near, left = _conflicts(spans), set(range(len(spans)))
    while any(near[i] & left for i in left):
        left.discard(max(left, key=lambda i: (len(near[i] & left), i)))
    return ", ".join(names[i] for i in sorted(left))


@pytest.mark.parametrize("level", [2, 4])
def test_interval_scheduling_conflict_counting_rules_earn_nothing(level):
    assert _paid("algorithms/interval_scheduling", level, _fewest_conflicts_first) == 0
    assert _paid("algorithms/interval_scheduling", level, _drop_most_conflicting) == 0


def test_interval_scheduling_rules_are_real_rules():
    """Both rules solve the easiest level (they are right on most random draws)."""
    assert _paid("algorithms/interval_scheduling", 0, _fewest_conflicts_first) >= 10
    assert _paid("algorithms/interval_scheduling", 0, _drop_most_conflicting) >= 10


_OPPOSITE = {"cw": "ccw", "ccw": "cw", "right": "left", "left": "right", "up": "down", "down": "up"}


def _undo(operation: str) -> str:
    way, _, amount = operation.partition(":")
    return f"{_OPPOSITE.get(way, way)}:{amount}" if amount else _OPPOSITE.get(way, way)


def _turned(grid: list[str], operations: list[str]) -> str:
    """The grid after ``operations``, written from scratch (a cell map, not the env's helpers)."""
    cells = [list(row) for row in grid]
    for name in operations:
        rows, cols = len(cells), len(cells[0])
        way, _, amount = name.partition(":")
        k = int(amount or 0)
        if way == "cw":
            cells = [[cells[rows - 1 - r][c] for r in range(rows)] for c in range(cols)]
        elif way == "ccw":
            cells = [[cells[r][cols - 1 - c] for r in range(rows)] for c in range(cols)]
        elif way == "half":
            cells = [row[::-1] for row in cells[::-1]]
        elif way == "lr":
            cells = [row[::-1] for row in cells]
        elif way == "tb":
            cells = cells[::-1]
        elif way == "tr":
            cells = [[cells[r][c] for r in range(rows)] for c in range(cols)]
        elif way in ("right", "left"):
            k = k if way == "right" else -k
            cells = [[row[(c - k) % cols] for c in range(cols)] for row in cells]
        else:
            k = k if way == "down" else -k
            cells = [cells[(r - k) % rows] for r in range(rows)]
    return "\n".join("".join(row) for row in cells)


def _inverse_transform(problem) -> str:
    return _turned(problem.data["grid"], [_undo(o) for o in reversed(problem.data["operations"])])


def _reverse_order(problem) -> str:
    return _turned(problem.data["grid"], problem.data["operations"][::-1])


@pytest.mark.parametrize("level", [2, 4])
def test_shape_transform_reading_the_list_backwards_earns_nothing(level):
    assert _paid("spatial/shape_transform", level, _inverse_transform) == 0
    assert _paid("spatial/shape_transform", level, _reverse_order) == 0


def test_shape_transform_from_scratch_transform_matches_references():
    for level in (0, 2, 4):
        problem = sample("spatial/shape_transform", level, 0)
        assert _turned(problem.data["grid"], problem.data["operations"]) == problem.answer
    assert _turned(["##.", "#.."], ["cw"]) == "##\n.#\n.."
