"""Red-team regressions, round 3 session 30 (math envs no earlier red-team test named).

Each test measures a shortcut that paid without doing the task before its fix.
"""

from __future__ import annotations

import re

import palaestra
from palaestra.core import Problem
from palaestra.core.registry import make_source


def _task(env_id: str):  # type: ignore[no-untyped-def]
    return palaestra.make(env_id, level=0).unwrapped.task


def test_polynomial_expansion_refuses_coefficients_left_as_arithmetic() -> None:
    """``2*12x^2 - 85x + 7*8`` or ``48/2 x^2`` leaves the multiplications undone: not the simplified expansion.
    The shared ``expanded_terms`` multiplied the numbers of a term out and accepted them (session 30)."""
    task = _task("algebra/polynomial_expansion")
    problem = task.sample(0, 1)
    assert problem.answer == "24x^2 - 85x + 56"
    for unsimplified in ("2*12x^2 - 85x + 7*8", "48/2 x^2 - 85x + 56", "24x^2 - 85x + 7(8)", "1*24x^2 - 85x + 56",
                         "24x^2 - 85x + 112/2", "24x^2 - 85x + 56/1"):
        assert not task.verify(problem, unsimplified).correct, unsimplified
    for plain in ("24x^2 - 85x + 56", "x^2*24 - x*85 + 56", "56 - 85x + 24x^2", "24x^{2} - 85x + 56"):
        assert task.verify(problem, plain).correct, plain


def test_polynomial_expansion_still_takes_fraction_coefficients() -> None:
    """Halves at level 4 written as one fraction in lowest terms (``x^2/2``, ``(3/2)x``, ``\\frac{1}{2}``) pass."""
    task = _task("algebra/polynomial_expansion")
    halves = next(p for p in (task.sample(4, seed) for seed in range(60)) if "/" in p.answer)
    assert task.verify(halves, halves.answer).correct
    doubled = re.sub(r"(\d+)/(\d+)", lambda m: f"{2 * int(m.group(1))}/{2 * int(m.group(2))}", halves.answer)
    assert not task.verify(halves, doubled).correct


def test_thermodynamic_cycles_net_work_sign_is_a_fair_coin() -> None:
    """The rectangular cycle ran clockwise with probability 0.6: the area with a constant positive sign, ignoring
    the direction, earned 0.615 at level 1 over 200 seeds (now about 0.5)."""
    source = make_source("physics/thermodynamic_cycles")
    task = _task("physics/thermodynamic_cycles")
    solved = 0
    for seed in range(200):
        problem = source.sample(1, seed)
        states = [(int(p), int(v)) for p, v in re.findall(r"\((\d+) kPa, (\d+) L\)", problem.prompt)]
        pressures, volumes = {p for p, _ in states}, {v for _, v in states}
        area = (max(pressures) - min(pressures)) * (max(volumes) - min(volumes))
        solved += task.verify(problem, f"{area} J").correct
    assert solved / 200 <= 0.57, solved / 200


def test_eulerian_path_declares_the_greedy_walk() -> None:
    """A walk that always takes the smallest unused neighbour (no bridge test) solved 0.57 of level 0 and 0.29 of
    level 4: declared, so the kit tracks it; it stays under half at the top level."""
    task = _task("graphs/eulerian_path")
    rules = task.heuristics()
    assert {"greedy walk, smallest neighbour", "greedy walk, largest neighbour"} <= set(rules)  # v2 declares more
    problems = [task.sample(4, seed) for seed in range(60)]
    for name, rule in rules.items():
        share = sum(task.verify(p, rule(p)).correct for p in problems) / len(problems)
        assert share < 0.5, (name, share)
    # v2's problems are drawn against these walks, so check on a hand-made square that they do walk the graph
    square = Problem(prompt="", answer="0 1 2 3 0", data={"n": 4, "edges": [[0, 1], [0, 3], [1, 2], [2, 3]]})
    assert all(task.verify(square, rule(square)).correct for rule in rules.values())
