"""Red-team round 40, group formal: cheap policies on the proof, grammar, string, list and graph envs.

Fixed:
- strings/compose v4: applying the nested functions in the wrong order (the outermost first, reading
  ``f(g(x))`` left to right) gave the result on 0.53 of level-1 problems (two steps that commute),
  0.17 at level 2, 0.07 at level 3 and 0.05 at level 4; now 0 at every level (the last step of a chain
  is redrawn when the chain read the wrong way round reaches the same string).
"""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.strings.compose import PRIMITIVES


def _apply(source: str, calls: list[list]) -> str:
    current = source
    for name, k in calls:
        current = PRIMITIVES[name].apply(current, k or 0) if current else current
    return current


def test_compose_wrong_order_earns_nothing() -> None:
    src = make_source("strings/compose")
    for level in range(1, 5):
        hits = 0
        for seed in range(30):
            problem = src.sample(level, seed)
            calls = problem.data["calls"]
            hits += src.verify(problem, _apply(problem.data["input"], calls[::-1])).reward == 1.0
        assert hits <= 1, (level, hits)


def test_compose_reference_still_solves() -> None:
    src = make_source("strings/compose")
    for level in range(5):
        for seed in range(30):
            problem = src.sample(level, seed)
            assert _apply(problem.data["input"], problem.data["calls"]) == problem.answer
            assert src.verify(problem, problem.answer or "").reward == 1.0
