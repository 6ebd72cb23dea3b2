"""Red-team regressions (round 3, session 37): one-clause-blind solving of puzzles/hitori.

- puzzles/hitori v1: a solver that ignores the connectivity rule and shades as few cells as the repeat and
  touching rules allow found the solution of 70%, 95%, 80% and 70% of levels 0, 2, 4 and 6 (20 seeds a level):
  the connectivity rule rarely decided anything. v2 keeps a puzzle only when another shading obeying the other
  two rules shades no more cells than the solution: 40%, 60%, 25% and 40%.

The rule-blind solver is written here from scratch (brute force over shadings, fewest shaded cells first).
"""

from __future__ import annotations

from itertools import combinations

import palaestra
from palaestra.kit.base import sample

HITORI = "puzzles/hitori"


def _fewest_shading_ignoring_connectivity(numbers: list[list[int]]) -> str:
    """The first shading, by size then cell order, with no touching shaded cells and no unshaded repeats."""
    n = len(numbers)
    cells = [(r, c) for r in range(n) for c in range(n)]
    clashes = [(a, b) for a, b in combinations(cells, 2)
               if (a[0] == b[0] or a[1] == b[1]) and numbers[a[0]][a[1]] == numbers[b[0]][b[1]]]
    needed = [cell for cell in cells if any(cell in pair for pair in clashes)]  # only these are ever worth shading
    for size in range(len(needed) + 1):
        for pick in combinations(needed, size):
            shaded = set(pick)
            if all(a in shaded or b in shaded for a, b in clashes) and not any(
                    (r + 1, c) in shaded or (r, c + 1) in shaded for r, c in shaded):
                return "\n".join("".join("#" if (r, c) in shaded else "." for c in range(n)) for r in range(n))
    return ""


def test_hitori_connectivity_blind_fewest_shading_mostly_fails():
    # seeds 0-19: v1 18 (level 0) and 15 (level 1); v2 10 and 7
    for level, bound in ((0, 12), (1, 10)):
        problems = [sample(HITORI, level, seed) for seed in range(20)]
        replies = [f"<answer>{_fewest_shading_ignoring_connectivity(p.data['numbers'])}</answer>" for p in problems]
        won = sum(palaestra.score(p, reply).correct for p, reply in zip(problems, replies))
        assert won <= bound, (level, won)


def test_hitori_reference_still_solves():
    for level in (0, 2, 4):
        for seed in range(5):
            p = sample(HITORI, level, seed)
            assert palaestra.score(p, f"<answer>{p.answer}</answer>").correct
