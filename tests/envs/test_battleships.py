"""puzzles/battleships: uniqueness checked by brute force, and the verifier judging rules, not strings."""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.puzzles.battleships import _placements

SOURCE = make_source("puzzles/battleships")


def _fleets(n: int, fleet: list[int], shown: list[str], rows: list[int], cols: list[int]) -> list[frozenset]:
    """Every fleet placement (ships never touching) matching the counts and the revealed cells."""
    found: list[frozenset] = []

    def place(index: int, ships: set, blocked: set, row_left: list[int], col_left: list[int]) -> None:
        if index == len(fleet):
            if not any(row_left) and not any(col_left) and all(
                    (shown[r][c] == "#") == ((r, c) in ships) for r in range(n) for c in range(n) if shown[r][c] != "?"):
                found.append(frozenset(ships))
            return
        for cells in _placements(n, fleet[index]):
            if blocked.intersection(cells) or any(shown[r][c] == "." for r, c in cells):
                continue
            if index and fleet[index] == fleet[index - 1] and min(cells) < place.last[index - 1]:
                continue  # equal ships in increasing order only: each fleet counted once
            rl, cl = row_left[:], col_left[:]
            for r, c in cells:
                rl[r] -= 1
                cl[c] -= 1
            if min(rl) < 0 or min(cl) < 0:
                continue
            place.last[index] = min(cells)
            near = {(r + dr, c + dc) for r, c in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
            place(index + 1, ships | set(cells), blocked | near, rl, cl)

    place.last = [None] * len(fleet)
    place(0, set(), set(), list(rows), list(cols))
    return found


def test_every_level_zero_and_one_puzzle_has_exactly_one_fleet():
    for level in (0, 1):
        for seed in range(4):
            problem = SOURCE.sample(level, seed)
            data = problem.data
            n = len(data["rows"])
            fleets = _fleets(n, data["fleet"], data["shown"], data["rows"], data["cols"])
            truth = frozenset((r, c) for r, line in enumerate(problem.answer.splitlines())
                              for c, mark in enumerate(line) if mark == "#")
            assert fleets == [truth], (level, seed, len(fleets))


def test_rules_not_strings_decide():
    problem = SOURCE.sample(0, 3)
    rows = [list(line) for line in problem.answer.splitlines()]
    assert SOURCE.verify(problem, problem.answer).correct
    assert SOURCE.verify(problem, "Solution:\n" + problem.answer).correct
    assert SOURCE.verify(problem, "\n".join(" ".join(r) for r in rows)).correct
    assert not SOURCE.verify(problem, problem.answer.replace("#", "x")).correct  # the stated marks only
    # the same counts reached by a grid that breaks the fleet: a 2x2 block of ship cells in an empty 6x6 board
    n = len(rows)
    assert not SOURCE.verify(problem, "\n".join("." * n for _ in range(n))).correct
    assert not SOURCE.verify(problem, problem.answer + "\n" + problem.answer).correct  # two grids: a hedge


def test_diagonal_touch_and_bent_ships_are_rejected_with_reasons():
    problem = SOURCE.sample(0, 0)
    n = len(problem.data["rows"])
    bent = [["."] * n for _ in range(n)]
    for r, c in ((0, 0), (0, 1), (1, 1)):
        bent[r][c] = "#"
    verdict = SOURCE.verify(problem, "\n".join(map("".join, bent)))
    assert not verdict.correct
