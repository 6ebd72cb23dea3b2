"""Red-team regressions (round 3, session 27) for games/atari_go.

- ``games/atari_go`` v2: the rule "capture, else the atari leaving the fewest liberties after O's extension, never
  one whose stone O can capture, random ties" won 0.43 of level 3's games on the kit's tie-breaks (200 seeds): level 3
  kept positions where the rule's line of ataris won on up to 0.75 of its tie-breaks. v3 redraws level 3 positions
  where it wins on half of them or more: 0.29 (seeds 0-199) and 0.21 (seeds 200-399) of level 3's games.

The rule below is written from the prompt's rules, not imported from the env, so the test fails on the old code.
"""

from __future__ import annotations

import palaestra


def _go_groups(board: str, n: int) -> list[tuple[str, set[int], set[int]]]:
    """Every group as (colour, points, liberties)."""
    seen: set[int] = set()
    found = []
    for start in range(n * n):
        if board[start] == "." or start in seen:
            continue
        points, liberties, stack = {start}, set(), [start]
        while stack:
            p = stack.pop()
            r, c = divmod(p, n)
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= rr < n and 0 <= cc < n:
                    q = rr * n + cc
                    if board[q] == ".":
                        liberties.add(q)
                    elif board[q] == board[start] and q not in points:
                        points.add(q)
                        stack.append(q)
        seen |= points
        found.append((board[start], points, liberties))
    return found


def _rule_choices(board: str, n: int) -> list[int]:
    """Capture, else the ataris (not into a capture) leaving the fewest liberties after O extends; [] if none."""
    captures = sorted(min(libs) for colour, _, libs in _go_groups(board, n) if colour == "O" and len(libs) == 1)
    if captures:
        return captures
    scored = {}
    for point in (p for p in range(n * n) if board[p] == "."):
        after = board[:point] + "X" + board[point + 1:]
        groups = _go_groups(after, n)
        if any(not libs for colour, _, libs in groups if colour == "X"):
            continue  # suicide
        escapes = [min(libs) for colour, _, libs in groups if colour == "O" and len(libs) == 1]
        if not escapes or any(len(libs) == 1 for colour, _, libs in groups if colour == "X"):
            continue  # no atari, or O captures first
        most = 0
        for escape in escapes:
            extended = after[:escape] + "O" + after[escape + 1:]
            most = max(most, max(len(libs) for colour, points, libs in _go_groups(extended, n) if escape in points))
        scored[point] = most
    fewest = min(scored.values(), default=None)
    return [point for point, most in scored.items() if most == fewest]


def _rule_share(task, problem, state, turns: int) -> float:
    """The share of the rule's tie-breaks that wins against the env's own opponent (a move giving no atari: a loss)."""
    n = problem.data["size"]
    choices = _rule_choices(state["board"], n) if turns > 0 else []
    won = 0.0
    for point in choices:
        outcome = task.play(problem, state, "abcdefghij"[point % n] + str(point // n + 1))
        won += outcome.verdict.reward if outcome.done else _rule_share(task, problem, outcome.state, turns - 1)
    return won / len(choices) if choices else 0.0


def test_atari_go_fewest_liberties_rule_wins_few_tie_breaks_at_level_3() -> None:
    # Version 2's level 3 (seeds 0-11): the rule's line won on half its tie-breaks in 4 of the 12 positions (mean
    # 0.35). Version 3 redraws level 3 positions where it wins on half or more (mean 0.23 here).
    task = palaestra.make("games/atari_go", level=3).unwrapped.task
    shares = []
    for seed in range(12):
        problem = task.sample(3, seed)
        shares.append(_rule_share(task, problem, task.initial_state(problem), problem.data["turns"]))
    assert max(shares) < 0.5
    assert sum(shares) / len(shares) < 0.3
