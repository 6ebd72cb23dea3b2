"""Eight puzzle: slide the tiles of a 3x3 board into order, one move per turn, within a tight budget.

The board holds tiles 1-8 and a gap (``_``); the goal is ``1 2 3 / 4 5 6 / 7 8 _``. A move is
the direction the gap moves: ``U`` swaps it with the tile above, ``D`` below, ``L`` left, ``R``
right (also up, down, left, right). Each turn the model writes one move and sees the board. A
move off the board, or an unreadable one, costs a turn. Reward 1 when the goal is reached.

Each level draws a start uniformly among the boards whose shortest solution has exactly the
level's number of moves (from a breadth-first table of all 181,440 solvable boards, built once
per process), and allows that many turns plus a few spare. The oracle follows the table
downhill. The difficulty measure is the shortest solution's length.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.verifiers.moves import read_move_answer, read_tokens

GOAL = "12345678_"
SPELLINGS = {"U": "U", "D": "D", "L": "L", "R": "R", "up": "U", "down": "D", "left": "L", "right": "R"}
OFFSETS = {"U": -3, "D": 3, "L": -1, "R": 1}


@register
class EightPuzzle(MultiTurnTask):
    id = "games/eight_puzzle"
    family = "games"
    description = "Solve the 3x3 sliding-tile puzzle one move per turn within a budget near the optimum."
    tags = ("games", "multi-turn", "planning", "puzzle")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)

    @dataclass(frozen=True)
    class Config:
        distance: int  # moves in the shortest solution
        spare: int  # turns beyond it

    def __init__(self, answer_format: str | None = None) -> None:
        super().__init__(answer_format)
        _by_distance()  # the tables (under a second, once per process) are built with the env, not in generate

    presets = (Config(10, 8), Config(14, 8), Config(18, 6), Config(22, 6), Config(26, 4))
    bounded = "the 3x3 board: no position is more than 31 moves from the goal"

    def space_size(self, level: int) -> int | None:
        """Every board at the level's distance is one problem."""
        return len(_by_distance()[self.level_config(level).distance])

    def generate(self, rng: random.Random, config: Config) -> Problem:
        board = rng.choice(_by_distance()[config.distance])
        turns = config.distance + config.spare
        prompt = (
            "Solve the eight puzzle. The board (3x3, '_' is the gap):\n\n"
            f"{_picture(board)}\n\nReach\n\n{_picture(GOAL)}\n\n"
            "A move slides the gap one cell: U swaps it with the tile above, D with the tile below, L with the tile "
            f"to the left, R with the tile to the right. You have {turns} turns; write one move per turn, for "
            "example: L"
        )
        return Problem(prompt=prompt, answer=None, data={"board": board, "distance": config.distance, "turns": turns})

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Moves in a shortest solution, plus half the gap between it and the tiles' Manhattan distance (how
        much the obvious estimate misleads)."""
        board = problem.data["board"]
        goal = "12345678_"
        manhattan = sum(abs(i // 3 - goal.index(t) // 3) + abs(i % 3 - goal.index(t) % 3)
                        for i, t in enumerate(board) if t != "_")
        return float(problem.data["distance"]) + (problem.data["distance"] - manhattan) / 2

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"board": problem.data["board"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        steps: list[str] | None = read_move_answer(move, lambda text: read_tokens(text, SPELLINGS, max_count=1))
        if not steps:
            return Outcome.invalid(state, "write one move: U, D, L or R")
        board = _slide(state["board"], steps[0])
        if board is None:
            return Outcome(state, Verdict.wrong("off the board"), "The gap cannot move that way.")
        if board == GOAL:
            return Outcome({"board": board}, Verdict.right(), f"Solved!\n{_picture(board)}", True)
        return Outcome({"board": board}, Verdict.wrong("unsolved"), _picture(board))

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        distances = _distances()
        here = distances[state["board"]]
        return next(step for step in "UDLR" if (nxt := _slide(state["board"], step)) and distances[nxt] == here - 1)


def _picture(board: str) -> str:
    return "\n".join(" ".join(board[r * 3:r * 3 + 3]) for r in range(3))


def _slide(board: str, step: str) -> str | None:
    gap = board.index("_")
    target = gap + OFFSETS[step]
    if not 0 <= target < 9 or (step in "LR" and target // 3 != gap // 3):
        return None
    cells = list(board)
    cells[gap], cells[target] = cells[target], cells[gap]
    return "".join(cells)


@functools.cache
def _distances() -> dict[str, int]:
    """Shortest solution length of every solvable board: breadth-first from the goal (once per process)."""
    neighbours = {gap: [_slide("".join("_" if i == gap else "x" for i in range(9)), step) for step in "UDLR"]
                  for gap in range(9)}
    swaps = {gap: [sorted((gap, board.index("_"))) for board in boards if board] for gap, boards in neighbours.items()}
    distance = {GOAL: 0}
    frontier = [GOAL]
    for depth in range(1, 40):  # the farthest board is 31 moves away
        following = []
        for board in frontier:
            for a, b in swaps[board.index("_")]:
                nxt = board[:a] + board[b] + board[a + 1:b] + board[a] + board[b + 1:]
                if nxt not in distance:
                    distance[nxt] = depth
                    following.append(nxt)
        if not following:
            break
        frontier = following
    return distance


@functools.cache
def _by_distance() -> dict[int, list[str]]:
    groups: dict[int, list[str]] = {}
    for board, d in sorted(_distances().items()):
        groups.setdefault(d, []).append(board)
    return groups
