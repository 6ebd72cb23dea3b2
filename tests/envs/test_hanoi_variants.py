"""planning/hanoi_variants: the two-ended search is optimal, and every variant gets harder at every level."""

from __future__ import annotations

import random
from collections import defaultdict

from palaestra.core.registry import make_source
from palaestra.envs.planning.hanoi_variants import VARIANTS, _shortest_plan, variant_rules
from palaestra.solvers.simulate import shortest_plan


def test_two_ended_search_gives_legal_shortest_plans():
    rng = random.Random(1)
    for variant, (pegs, allowed) in VARIANTS.items():
        for _ in range(25):
            disks = rng.randint(2, 5)
            start = "".join(rng.choice(pegs) for _ in range(disks))
            goal = "".join(rng.choice(pegs) for _ in range(disks))
            rules = variant_rules(variant, start, goal)
            plan = _shortest_plan(allowed, start, goal)
            assert len(plan) == len(shortest_plan(rules, max_nodes=100_000))
            position = start
            for move in plan:
                assert rules.check(position, move) is None
                position = rules.apply(position, move)
            assert position == goal


def test_every_variant_needs_more_moves_at_every_level():
    """Regression: the level mean of the optimum went down from level 3 to 4 (89 -> 67): four pegs stayed at
    the same size, and which variant a seed drew swamped the levels. Now each variant grows at every level."""
    task = make_source("planning/hanoi_variants")
    means: dict[str, list[float]] = defaultdict(list)
    for level in range(5):
        optima = defaultdict(list)
        for seed in range(160):
            problem = task.sample(level, seed)
            optima[problem.data["variant"]].append(problem.data["optimal"])
        for variant, values in optima.items():
            means[variant].append(sum(values) / len(values))
    for variant, per_level in means.items():
        assert len(per_level) == 5 and all(a < b for a, b in zip(per_level, per_level[1:])), (variant, per_level)
