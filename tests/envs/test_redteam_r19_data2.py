"""Red team, round 3 session 19 (data2): cheap approximations of the exact procedure must not pay.

- languages/dfa_minimization v3: Moore's refinement stopped after two rounds (states told apart only by words
  of up to two letters) answered 0.84 of level 0, 0.66 of level 2 and 0.83 of level 4, three rounds 1.00, 0.95
  and 0.95 (random minimal DFAs are shallow). A planted chain now needs 4 rounds at level 0 and 6 at level 4.
- spatial/line_of_sight v3: judging a target by the cells under N points spaced evenly along the segment
  (instead of the exact segment) answered up to 0.93 of level 0 (N = 10) and 0.95-0.99 of level 4 (N = 20-50).
  Some hidden target's line now clips a wall's corner between every such sample grid, up to a grid size's
  bound (N = 10 at level 0, 50 at level 4).
"""

from __future__ import annotations

from fractions import Fraction

from palaestra.core.registry import make_source
from palaestra.envs.languages._automata import reachable


def _stopped_refinement(dfa: dict, rounds: int) -> str:
    """The classes after ``rounds`` rounds of Moore's refinement, written as the env's answer."""
    states = reachable(dfa)
    accepting = set(dfa["accepting"])
    letters = sorted(dfa["delta"][dfa["start"]])
    block = {s: int(s in accepting) for s in states}
    for _ in range(rounds):
        signature = {s: (block[s], *(block[dfa["delta"][s][a]] for a in letters)) for s in states}
        numbering: dict[tuple, int] = {}
        block = {s: numbering.setdefault(signature[s], len(numbering)) for s in states}
    groups: dict[int, list[str]] = {}
    for state in states:
        groups.setdefault(block[state], []).append(state)
    hidden = sorted(set(dfa["states"]) - set(states), key=lambda q: int(q[1:]))
    return f"unreachable: {', '.join(hidden) or 'none'}; classes: " + ", ".join(
        "{" + ", ".join(group) + "}" for group in groups.values())


def test_dfa_minimization_refinement_stopped_early_earns_nothing():
    task = make_source("languages/dfa_minimization")
    top = task.levels() - 1
    for level, count, most in ((0, 40, 3), (top, 40, 5)):
        problems = [task.sample(level, 90_000 + seed) for seed in range(count)]
        for rounds in range(1, most + 1):
            reward = sum(task.verify(p, _stopped_refinement(p.data["dfa"], rounds)).reward for p in problems)
            assert reward == 0, (level, rounds, reward / count)
        assert all(task.verify(p, p.answer).correct for p in problems)
    assert {"refinement stopped after 2 rounds", "refinement stopped after 3 rounds"} <= set(task.heuristics())


def _sampled_answer(problem, points: int) -> str:
    """The targets whose line has no wall under any of ``points`` points spaced evenly between the centres."""
    data = problem.data
    (r0, c0), walls = data["viewer"], {tuple(w) for w in data["walls"]}
    seen = []
    for name, (r1, c1) in sorted(data["targets"].items()):
        cells = set()
        for i in range(1, points + 1):
            t = Fraction(i, points + 1)
            cells.add((int(r0 + Fraction(1, 2) + t * (r1 - r0)), int(c0 + Fraction(1, 2) + t * (c1 - c0))))
        if not cells & walls:
            seen.append(name)
    return ", ".join(seen) or "none"


def test_line_of_sight_sampled_points_are_not_the_segment():
    task = make_source("spatial/line_of_sight")
    for level, counts in ((0, (3, 5, 10)), (2, (5, 10, 20)), (4, (5, 10, 20, 30, 50))):
        problems = [task.sample(level, 70_000 + seed) for seed in range(25)]
        for points in counts:
            paid = sum(task.verify(p, _sampled_answer(p, points)).reward for p in problems)
            assert paid == 0, (level, points, paid / len(problems))
        assert all(task.verify(p, p.answer).correct for p in problems)
    assert {"5 points sampled along the line", "50 points sampled along the line"} <= set(task.heuristics())
