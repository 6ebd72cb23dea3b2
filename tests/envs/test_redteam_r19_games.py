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
