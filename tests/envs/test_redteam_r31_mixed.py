"""Red-team regressions, session 31 (helper mixed): cheap rules that earned reward without doing the task."""

from __future__ import annotations

import palaestra
from palaestra.kit.play import policy_scores


def test_word_ladder_closer_letters_rule_mostly_loses_at_levels_2_and_3() -> None:
    # Version 3: the declared closer-letters rule (ties at random) won 0.67 of level 2 and 0.50 of level 3.
    task = palaestra.make("games/word_ladder", level=0).unwrapped.task
    rule = task.heuristics()["closer letters first"]
    level_2, level_3 = policy_scores("games/word_ladder", rule, 60, levels=[2, 3])
    assert level_2 < 0.4 and level_3 < 0.4, (level_2, level_3)
