"""Find a shortest route through a grid maze from S to G.

Mazes are carved by a randomized depth-first search; from level 1 on some extra
walls are knocked out, so loops appear and several shortest routes may exist.
The goal is placed far from the start. The answer is a string of moves ``U D L R``
(spaces or commas between them are fine); the verifier walks it and accepts
**any** route that stays on open cells, ends on G and has the optimal length
(found by breadth-first search at generation).
"""

from __future__ import annotations

import random
import re
from collections import deque
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register

STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
MAX_ANSWER_CHARS = 20_000
_FILLER = re.compile(r"[\s,;\[\]()'\"-]+")


@register
class Maze(Task):
    id = "search/maze"
    family = "search"
    description = "Give a shortest route of U/D/L/R moves through a grid maze from S to G."
    tags = ("search", "planning", "grid")

    @dataclass(frozen=True)
    class Config:
        cell_rows: int  # the grid has 2 * cell_rows + 1 rows of characters
        cell_cols: int
        extra_openings: float  # fraction of the remaining inner walls knocked out, making loops

    def config(self, level: int) -> Config:
        return [
            self.Config(cell_rows=4, cell_cols=4, extra_openings=0.0),
            self.Config(cell_rows=5, cell_cols=6, extra_openings=0.05),
            self.Config(cell_rows=7, cell_cols=7, extra_openings=0.1),
            self.Config(cell_rows=9, cell_cols=10, extra_openings=0.15),
            self.Config(cell_rows=12, cell_cols=12, extra_openings=0.2),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        grid = _carve(rng, config)
        cells = [(r, c) for r in range(1, len(grid), 2) for c in range(1, len(grid[0]), 2)]
        start = rng.choice(cells)
        distance, parent = _bfs(grid, start)
        farthest = max(distance.values())
        goal = rng.choice(sorted(cell for cell in cells if distance[cell] >= 0.75 * farthest))
        grid[start[0]][start[1]], grid[goal[0]][goal[1]] = "S", "G"
        rows = ["".join(row) for row in grid]
        prompt = (
            "Here is a maze. '#' is a wall, '.' is open floor, S is the start and G is the goal:\n\n"
            + "\n".join(rows)
            + "\n\nFind a shortest route from S to G. Each move goes one cell up (U), down (D), left (L) "
            "or right (R) and must stay on open cells.\n"
            "Give the route as a string of move letters, for example: RRDDLU"
        )
        return Problem(
            prompt=prompt,
            answer=_route(parent, start, goal),
            data={"grid": rows, "start": list(start), "goal": list(goal), "length": distance[goal]},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        moves = _read_moves(answer)
        if moves is None:
            return Verdict.unparsed("expected a string of moves U, D, L, R")
        grid, (row, col) = problem.data["grid"], problem.data["start"]
        for i, move in enumerate(moves, start=1):
            dr, dc = STEPS[move]
            row, col = row + dr, col + dc
            if grid[row][col] == "#":  # the border is all wall, so indices stay in range
                return Verdict.wrong(f"move {i} ({move}) walks into a wall")
        if [row, col] != problem.data["goal"]:
            return Verdict.wrong("the route does not end on G")
        shortest = problem.data["length"]
        return Verdict.judge(len(moves) == shortest, f"the route takes {len(moves)} moves; a shorter one exists")

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        grid, (row, col) = problem.data["grid"], problem.data["start"]
        gold = problem.answer or ""
        open_moves = [m for m, (dr, dc) in STEPS.items() if grid[row + dr][col + dc] != "#"]
        wall_moves = [m for m in STEPS if m not in open_moves]
        wrong = [gold[:-1]]
        detour = rng.choice(open_moves)
        wrong.append(detour + OPPOSITE[detour] + gold)  # valid but two moves too long
        if wall_moves:
            wrong.append(rng.choice(wall_moves) + gold)
        return wrong


def _carve(rng: random.Random, config: Maze.Config) -> list[list[str]]:
    """A randomized-DFS perfect maze, then some inner walls knocked out to make loops."""
    height, width = 2 * config.cell_rows + 1, 2 * config.cell_cols + 1
    grid = [["#"] * width for _ in range(height)]
    grid[1][1] = "."
    stack = [(1, 1)]
    while stack:
        r, c = stack[-1]
        fresh = [(r + 2 * dr, c + 2 * dc) for dr, dc in STEPS.values()
                 if 0 < r + 2 * dr < height and 0 < c + 2 * dc < width and grid[r + 2 * dr][c + 2 * dc] == "#"]
        if not fresh:
            stack.pop()
            continue
        nr, nc = rng.choice(fresh)
        grid[(r + nr) // 2][(c + nc) // 2] = grid[nr][nc] = "."
        stack.append((nr, nc))
    inner_walls = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)
                   if grid[r][c] == "#" and (r % 2) != (c % 2)]  # walls between two cells
    for r, c in rng.sample(inner_walls, round(config.extra_openings * len(inner_walls))):
        grid[r][c] = "."
    return grid


def _bfs(grid: list[list[str]], start: tuple[int, int]) -> tuple[dict, dict]:
    """Distances and BFS parents (move letter, previous cell) of every reachable cell."""
    distance = {start: 0}
    parent: dict[tuple[int, int], tuple[str, tuple[int, int]]] = {}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for move, (dr, dc) in STEPS.items():
            nxt = (r + dr, c + dc)
            if grid[nxt[0]][nxt[1]] != "#" and nxt not in distance:
                distance[nxt] = distance[(r, c)] + 1
                parent[nxt] = (move, (r, c))
                queue.append(nxt)
    return distance, parent


def _route(parent: dict, start: tuple[int, int], goal: tuple[int, int]) -> str:
    moves, cell = [], goal
    while cell != start:
        move, cell = parent[cell]
        moves.append(move)
    return "".join(reversed(moves))


def _read_moves(answer: str) -> str | None:
    if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
        return None
    moves = _FILLER.sub("", answer).upper()
    return moves if moves and all(m in STEPS for m in moves) else None
