"""Level 0 of five envs draws enough distinct problems for the kit's full-size ``distinct`` check.

At 1,000 seeds per level the kit asks for 95% distinct problems. Level 0 of these envs fell short (a 3 x 4
rectangle cut into pieces of at most four cells, four turtle commands, ten-letter repetitive strings over three
letters); version 2 widened each level 0. The seeds here are not the kit's statistics seeds, so a pass is not
an accident of one seed range.
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source

SEEDS = range(1_000)
NEEDED = 950  # the kit's 95% of 1,000

WIDENED = ("spatial/polyomino_tiling", "spatial/turtle_pose", "strings/bwt", "strings/inverse_bwt",
           "strings/minimal_rotation")


@pytest.mark.parametrize("env_id", WIDENED)
def test_level_zero_prompts_are_distinct_over_a_thousand_seeds(env_id: str) -> None:
    source = make_source(env_id)
    assert source.space_size(0) is None  # widened, not declared small
    prompts = {source.sample(0, seed).prompt for seed in SEEDS}
    assert len(prompts) >= NEEDED, f"{env_id}: only {len(prompts)} distinct level-0 prompts in {len(SEEDS)} seeds"


@pytest.mark.parametrize("env_id", WIDENED)
def test_level_zero_stays_easier_than_level_one(env_id: str) -> None:
    source = make_source(env_id)
    means = [sum(source.difficulty(source.sample(level, seed)) for seed in range(200)) / 200 for level in (0, 1)]
    assert means[0] < means[1], f"{env_id}: level 0 mean difficulty {means[0]} is not below level 1's {means[1]}"
