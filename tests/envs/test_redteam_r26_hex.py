"""Red-team regressions (round 3, session 26, leftovers) for games/hex and games/atari_go.

- ``games/hex`` v3: the one-ply rule "play the empty cell that most raises the opponent's shortest-path distance
  to connect minus mine, random ties" won 1.00 / 0.80 / 0.72 / 0.67 of levels 0 / 2 / 3 / 4 against an opponent
  that scored cells by that same shortest-path resistance. v4's opponent scores cells by two-distance potential
  and mobility: the rule wins 0.95 / 0.58 / 0.23 / 0.07 (60 games per level; declared in ``heuristics()``).

The policies below are written from the prompt's rules, not imported from the envs, so they fail on the old code.
"""

from __future__ import annotations

import random
from collections import deque

import palaestra
from palaestra.kit.play import play_episode

HEX_STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1))


def _hex_distance(board: str, rows: int, side: str) -> int:
    """Fewest empty cells ``side`` still needs (X: row 1 to the last row; O: the left column to the right)."""
    cols = rows + 1
    first = [c for c in range(cols)] if side == "X" else [r * cols for r in range(rows)]
    best = {}
    queue: deque[tuple[int, int]] = deque()
    for cell in first:
        if board[cell] != "O" if side == "X" else board[cell] != "X":
            cost = 0 if board[cell] == side else 1
            queue.append((cost, cell))
    while queue:
        cost, cell = queue.popleft()
        if cell in best and best[cell] <= cost:
            continue
        best[cell] = cost
        r, c = divmod(cell, cols)
        if (r == rows - 1) if side == "X" else (c == cols - 1):
            continue
        for dr, dc in HEX_STEPS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] in (side, "."):
                step = 0 if board[rr * cols + cc] == side else 1
                if step:
                    queue.append((cost + 1, rr * cols + cc))
                else:
                    queue.appendleft((cost, rr * cols + cc))
    goal = [cell for cell in best if (cell // cols == rows - 1 if side == "X" else cell % cols == cols - 1)]
    return min((best[cell] for cell in goal), default=10**6)


def _shortest_path_rule(rows: int, rng: random.Random):
    def choose(state, history) -> str:
        board, scores = state["board"], {}
        for cell in (i for i, c in enumerate(board) if c == "."):
            after = board[:cell] + "X" + board[cell + 1:]
            scores[cell] = _hex_distance(after, rows, "O") - _hex_distance(after, rows, "X")
        best = max(scores.values())
        cell = rng.choice([cell for cell, score in scores.items() if score == best])
        return "abcdefghijklmnopqrstuvwxyz"[cell % (rows + 1)] + str(cell // (rows + 1) + 1)
    return choose


def test_hex_shortest_path_rule_loses_at_the_top_level() -> None:
    # Seeds where the rule (these tie-breaks) won against v3's opponent: 5, 9, 12, 13, 15 of level 4.
    task = palaestra.make("games/hex", level=4).unwrapped.task
    wins = 0
    for seed in (5, 9, 12, 13, 15):
        problem = task.sample(4, seed)
        wins += play_episode(task, problem, _shortest_path_rule(problem.data["rows"], random.Random(1000 + seed)))[1]
    assert wins <= 1


def test_hex_declares_the_shortest_path_rule() -> None:
    task = palaestra.make("games/hex", level=4).unwrapped.task
    assert any("shortest-path" in name for name in task.heuristics())
