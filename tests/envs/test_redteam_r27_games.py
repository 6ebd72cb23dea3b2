"""Red-team regressions (round 3, session 27) for games/atari_go.

- ``games/atari_go`` v2: the rule "capture, else the atari leaving the fewest liberties after O's extension, never
  one whose stone O can capture, random ties" won 0.43 of level 3's games on the kit's tie-breaks (200 seeds): level 3
  kept positions where the rule's line of ataris won on up to 0.75 of its tie-breaks. v3 redraws level 3 positions
  where it wins on half of them or more: 0.29 (seeds 0-199) and 0.21 (seeds 200-399) of level 3's games.

The rule is session 26's (``test_redteam_r26_hex``), written from the prompt's rules, not imported from the env.
"""

from __future__ import annotations

from test_redteam_r26_hex import _atari_rule_share  # the same rule, written once (pytest puts tests/envs on the path)

import palaestra


def test_atari_go_fewest_liberties_rule_wins_few_tie_breaks_at_level_3() -> None:
    # Version 2's level 3 (seeds 0-11): the rule's line won on half its tie-breaks in 4 of the 12 positions (mean
    # 0.35). Version 3 redraws level 3 positions where it wins on half or more (mean 0.23 here).
    task = palaestra.make("games/atari_go", level=3).unwrapped.task
    shares = []
    for seed in range(12):
        problem = task.sample(3, seed)
        shares.append(_atari_rule_share(task, problem, task.initial_state(problem), problem.data["turns"]))
    assert max(shares) < 0.5
    assert sum(shares) / len(shares) < 0.3
