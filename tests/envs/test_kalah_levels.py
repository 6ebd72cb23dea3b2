"""Kalah's first levels hold enough distinct endgames (the full kit's 95% of 1,000 seeds failed at levels 0 and 1)."""

from __future__ import annotations

import dataclasses

from palaestra.kit import check_distinct
from palaestra.kit.base import Settings


def test_first_levels_are_mostly_distinct():
    # With four pits the endgames that the cheap rules' first moves all lose were too few: 746 and 925 distinct
    # problems in 1,000 seeds. 600 seeds at levels 0-1 (the kit's 95% share) tell the two apart.
    settings = dataclasses.replace(Settings.ci(), distinct_seeds=600, distinct_upper_seeds=20)
    assert check_distinct("games/kalah", settings).startswith("distinct problems per seeds drawn")
