"""Regression: sequences envs whose level held too few distinct problems for the kit's full-size check.

``palaestra check --full`` asks for at least 95% distinct problems in 1,000 seeds at every level; these levels
drew from a few thousand problems (or drew a small kind as often as a large one) and fell short: 856 to 943.
"""

from __future__ import annotations

import pytest

from palaestra.kit import _content
from palaestra.kit.base import sample, statistics_seeds

FULL_SEEDS = 1_000


@pytest.mark.parametrize(("env_id", "level"), [
    ("sequences/digit_counting", 0),  # was 856: one page puzzle per N, N in 100..999
    ("sequences/number_pyramid", 0),  # was 940: bases 1..9 on three bricks
    ("sequences/numeral_systems", 1),  # was 943: numbers up to 1,000
    ("sequences/rational_trees", 1),  # was 863: positions up to 1,000, three kinds
])
def test_level_holds_95_percent_distinct_problems_at_full_size(env_id: str, level: int) -> None:
    problems = {_content(sample(env_id, level, seed)) for seed in statistics_seeds(FULL_SEEDS)}
    assert len(problems) >= 0.95 * FULL_SEEDS, f"{env_id} level {level}: {len(problems)} distinct"


def test_digit_counting_level0_page_puzzles_span_thousands_of_books() -> None:
    from palaestra.core.registry import make_source

    config = make_source("sequences/digit_counting").config(0)
    # a page puzzle is fixed by its page count alone, so its range must be wide for pages to stay distinct
    assert "pages" in config.kinds and config.largest - config.smallest + 1 >= 3_000
    assert config.smallest >= 10  # below 10 pages the digit count printed in the prompt is the answer
