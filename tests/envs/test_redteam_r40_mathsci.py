"""Red-team pass r40 (mathsci): two small fixes; the other eleven envs of the group measured sound.

- physics/beam_statics v3: the prompt's example was swapped to another one when a reaction was 12.5 or
  22/3, so the swapped example told a policy one reaction, and the other follows from the total load:
  guessing from the swap earned 0.5% at level 0 (0.25% at level 1) -> 0% (the example is fixed).
- arithmetic/percentages v3: a count of marbles written with its noun (``33 marbles``) was unparsed:
  0% -> 100% of such right answers accepted; another unit (``33 dollars``) stays wrong.
"""

from __future__ import annotations

import re
from fractions import Fraction

from palaestra.core.registry import make_source

SEEDS = range(30)


def _reward(env: str, problem, text: str) -> float:  # type: ignore[no-untyped-def]
    task = make_source(env)
    return getattr(task, "task", task).check(problem, f"<answer>{text}</answer>").reward


def test_beam_statics_example_never_depends_on_the_answer() -> None:
    src = make_source("physics/beam_statics")
    for level in range(5):
        for seed in SEEDS:
            examples = re.findall(r"written like (R_A = [^\n]*)$", src.sample(level, seed).prompt, re.M)
            assert examples == ["R_A = 12.5, R_B = 22/3"], (level, seed)
    # seeds where the old generator swapped the example (a reaction of 12.5 or 22/3): the same example now
    for seed in (84, 266):
        problem = src.sample(0, seed)
        assert "written like R_A = 12.5, R_B = 22/3" in problem.prompt, seed


def test_beam_statics_swapped_seeds_keep_the_fixed_example() -> None:
    src = make_source("physics/beam_statics")
    hits = 0
    for seed in range(400):
        problem = src.sample(0, seed)
        values = {Fraction(v) for v in problem.data["reactions"].values()}
        if values & {Fraction(25, 2), Fraction(22, 3)}:
            hits += 1
            assert "written like R_A = 12.5, R_B = 22/3" in problem.prompt
    assert hits  # the case the old example leaked is still drawn, and no longer marked


def test_beam_statics_reference_solves() -> None:
    src = make_source("physics/beam_statics")
    for level in range(5):
        for seed in range(10):
            problem = src.sample(level, seed)
            assert _reward("physics/beam_statics", problem, problem.answer) == 1.0


def test_percentages_marbles_with_their_noun() -> None:
    src = make_source("arithmetic/percentages")
    checked = 0
    for seed in range(60):
        problem = src.sample(4, seed)
        if problem.data["template"] != "ratio_transfer":
            continue
        checked += 1
        answer = problem.answer
        assert not re.search(r"\b1 marbles", problem.prompt)
        assert " in marbles" not in problem.prompt
        assert _reward("arithmetic/percentages", problem, answer) == 1.0
        assert _reward("arithmetic/percentages", problem, f"{answer} marbles") == 1.0
        assert _reward("arithmetic/percentages", problem, f"{answer} dollars") == 0.0
        assert _reward("arithmetic/percentages", problem, f"{int(answer) + 1} marbles") == 0.0
    assert checked >= 5


def test_percentages_reference_solves() -> None:
    src = make_source("arithmetic/percentages")
    for level in range(5):
        for seed in range(10):
            problem = src.sample(level, seed)
            assert _reward("arithmetic/percentages", problem, problem.answer) == 1.0
