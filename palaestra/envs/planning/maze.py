"""Find a shortest route through a grid maze from S to G.

Mazes come from :func:`palaestra.generators.grids.random_maze` (randomized depth-first search);
from level 1 on some extra walls are knocked out, so loops appear and several shortest routes
may exist. The goal is placed far from the start. The answer is a string of moves ``U D L R``
(spaces or commas between them are fine); the verifier replays it with the maze's rules
(:class:`palaestra.solvers.simulate.Rules`) and accepts **any** route that stays on open cells,
ends on G and has the optimal length (found by breadth-first search at generation).

Version 2: generation moved onto the shared maze generator (a different random stream, so
different mazes for the same seed) and a difficulty measure was declared.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.planning.common import read_moves
from palaestra.generators.grids import MOVES, cell_distances, random_maze
from palaestra.solvers.simulate import Rules

OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
_INTRO = "Here is a maze. '#' is a wall, '.' is open floor, S is the start and G is the goal:\n\n"
_QUESTION = (
    "\n\nFind a shortest route from S to G. Each move goes one cell up (U), down (D), left (L) "
    "or right (R) and must stay on open cells.\n"
    "Give the route as a string of move letters, for example: RRDDLU"
)


STEPS = {"U": "U", "D": "D", "L": "L", "R": "R", "up": "U", "down": "D", "left": "L", "right": "R"}


@register
class Maze(Task):
    id = "planning/maze"
    version = 2
    family = "planning"
    seed_id = "search/maze"  # moved from search/ in round 3; same problems
    aliases = {"search/maze": {"version": 2}}
    description = "Give a shortest route of U/D/L/R moves through a grid maze from S to G."
    tags = ("search", "planning", "grid")

    @dataclass(frozen=True)
    class Config:
        cell_rows: int  # the grid has 2 * cell_rows + 1 rows of characters
        cell_cols: int
        extra_openings: float  # fraction of the remaining inner walls knocked out, making loops

    presets = (
        Config(cell_rows=4, cell_cols=4, extra_openings=0.0),
        Config(cell_rows=5, cell_cols=6, extra_openings=0.05),
        Config(cell_rows=7, cell_cols=7, extra_openings=0.1),
        Config(cell_rows=9, cell_cols=10, extra_openings=0.15),
        Config(cell_rows=12, cell_cols=12, extra_openings=0.2),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        cols = config.cell_cols
        maze = random_maze(rng, config.cell_rows, cols, config.extra_openings)
        cells = config.cell_rows * cols
        start = maze.root
        if config.extra_openings:
            distance, parent = cell_distances(maze.links(), start)
        else:  # a perfect maze: the carving tree from the start is the only route anywhere
            distance, parent = maze.depth, maze.parent
        far = 0.75 * max(distance)
        candidates = [cell for cell in range(cells) if distance[cell] >= far]
        goal = candidates[int(rng.random() * len(candidates))]
        moves = {1: "RR", -1: "LL", cols: "DD", -cols: "UU"}  # a step between cells crosses two squares
        route = []
        cell = goal
        for _ in range(distance[goal]):  # walk the BFS parents back to the start
            previous = parent[cell]
            route.append(moves[cell - previous])
            cell = previous
        drawing = maze.text({start: "S", goal: "G"})
        return Problem(
            prompt=_INTRO + drawing + _QUESTION,
            answer="".join(reversed(route)),
            data={"grid": drawing.split("\n"), "start": list(maze.square(start)), "goal": list(maze.square(goal)),
                  "length": 2 * distance[goal]},
        )

    distinct_from = {  # the near_duplicates kit check: why this is another skill than a similar env
        "planning/keys_doors": ("a route in a plain maze (state: the cell); keys and doors adds an inventory to "
                    "the state, so the plan must order detours to fetch keys before their doors"),
    }

    def difficulty(self, problem: Problem) -> float:
        """Moves in a shortest route times the open squares to search among."""
        open_squares = sum(len(row) - row.count("#") for row in problem.data["grid"])
        return float(problem.data["length"] * open_squares)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        read: list[str] | None = read_moves(answer, STEPS, max_count=self.max_answer_chars)
        if read is None:
            return Verdict.unparsed("expected a string of moves U, D, L, R")
        moves = "".join(read)
        run = MazeRules(problem.data["grid"], problem.data["start"], problem.data["goal"]).run(moves)
        if run.illegal is not None:
            return Verdict.wrong(f"move {run.illegal.index + 1} ({run.illegal.move}) {run.illegal.reason}")
        if not run.solved:
            return Verdict.wrong("the route does not end on G")
        shortest = problem.data["length"]
        return Verdict.judge(len(moves) == shortest, f"the route takes {len(moves)} moves; a shorter one exists")

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), " ".join(gold), ", ".join(gold), gold.lower(), f"{gold}.",
                f"\\boxed{{{gold}}}", f"Answer: {gold}", f"The answer is {gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        grid, (row, col) = problem.data["grid"], problem.data["start"]
        gold = problem.answer or ""
        open_moves = [m for m, (dr, dc) in MOVES.items() if grid[row + dr][col + dc] != "#"]
        wall_moves = [m for m in MOVES if m not in open_moves]
        wrong = [gold[:-1]]
        detour = rng.choice(open_moves)
        wrong.append(detour + OPPOSITE[detour] + gold)  # valid but two moves too long
        if wall_moves:
            wrong.append(rng.choice(wall_moves) + gold)
        return wrong


class MazeRules(Rules[tuple[int, int], str]):
    """Moving through a maze drawn as rows of characters: a move may not enter a wall (``#``).

    >>> rules = MazeRules(["####", "#S.#", "##G#", "####"], [1, 1], [2, 2])
    >>> rules.run("RD").solved, rules.run("D").illegal.reason
    (True, 'walks into a wall')
    """

    def __init__(self, grid: list[str], start: list[int], goal: list[int]) -> None:
        self.grid = grid
        self.start = (start[0], start[1])
        self.target = (goal[0], goal[1])

    def initial(self) -> tuple[int, int]:
        return self.start

    def moves(self, state: tuple[int, int]) -> str:
        return "UDLR"

    def check(self, state: tuple[int, int], move: str) -> str | None:
        dr, dc = MOVES[move]
        row, col = state[0] + dr, state[1] + dc
        if not (0 <= row < len(self.grid) and 0 <= col < len(self.grid[row])):
            return "leaves the maze"
        return "walks into a wall" if self.grid[row][col] == "#" else None

    def apply(self, state: tuple[int, int], move: str) -> tuple[int, int]:
        dr, dc = MOVES[move]
        return state[0] + dr, state[1] + dc

    def goal(self, state: tuple[int, int]) -> bool:
        return state == self.target
