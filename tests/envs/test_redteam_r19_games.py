"""Red-team regressions for the games family (round 3, session 19)."""

from __future__ import annotations

import re

from palaestra.core.registry import make_source
from palaestra.kit.base import sample


def test_twenty_questions_prompt_example_does_not_name_the_secret():
    # v2's example guess was the table's row after the secret: "guess <the row before the example>" won every game
    # on the first turn (1.0 at levels 0, 2 and 4; chance 1/8 to 1/50).
    source = make_source("games/twenty_questions")
    wins = total = 0
    for level in (0, 2, 4):
        for seed in range(30):
            problem = sample("games/twenty_questions", level, seed)
            example = re.search(r"for example: guess (\w+)", problem.prompt).group(1)
            names = [row["name"] for row in problem.data["table"]]
            guess = names[(names.index(example) - 1) % len(names)]
            outcome = source.play(problem, source.initial_state(problem), f"guess {guess}")
            wins += outcome.verdict.reward
            total += 1
    assert wins / total <= 0.15


def test_farm_sim_doing_nothing_scores_zero():
    # v1's reward zero (the baseline) went below 0 where random play loses money, so "wait" every day (profit 0)
    # scored 0.28 at level 0, 0.15 at level 2 and 0.11 at level 4; random legal play scores about 0.03.
    source = make_source("games/farm_sim")
    total = 0.0
    for level in (0, 2, 4):
        for seed in range(8):
            problem = sample("games/farm_sim", level, seed)
            state = source.initial_state(problem)
            for _ in range(source.max_turns(problem)):
                outcome = source.play(problem, state, "wait")
                total += outcome.verdict.reward
                state = outcome.state
                if outcome.done:
                    break
    assert total / 24 <= 0.02
