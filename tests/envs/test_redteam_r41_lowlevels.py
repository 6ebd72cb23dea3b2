"""Red-team round 41, low levels.

deduction/knights_knaves v3: level 0 met 2 or 3 inhabitants and small puzzles were answered by cheap
readings of the statements far above chance (0.19 at level 0): every statement read as false with the
unnamed called knaves earned 0.42, the first speaker trusted 0.36, every statement read as true 0.30; at
level 1 (chance 0.125) the first speaker trusted earned 0.30. Level 0 now meets 3 inhabitants (chance
0.125), level 1 three or four (0.09), and a puzzle one of those readings answers is kept with chance 0.3
only: 0.15 / 0.20 / 0.12 at level 0 and 0.10 at level 1 (200 seeds), every reading within chance + 0.1
at every level.

graphs/degree_sequence v4: with 7 nodes at level 0 nearly every non-graphical sequence overfull at one
size had its block on the largest drop of the sorted degrees, so "impossible: the nodes above the largest
drop" earned 0.45 (0.23 at level 1, 100 seeds). Levels 0-3 now have 10, 11, 12, 14 nodes (were 7, 9, 11,
14): 0.27/0.19/0.21/0.13/0.17 at levels 0-4, about a third of the non-graphical half, the floor of this
design (the block is drawn on one of the three largest drops).

terminal/log_forensics v4: levels 0-1 wrote 40-80 and 50-90 request lines a file, so their counts were
small and bunched: the best constant answer was right on 0.165 / 0.135 of the questions (200 seeds). They
now write 80-140 and 90-150 lines: 0.075 / 0.065.
"""

from __future__ import annotations

import itertools

from palaestra.core.registry import make_source

KK = make_source("deduction/knights_knaves")
DS = make_source("graphs/degree_sequence")
LF = make_source("terminal/log_forensics")


def _kk_answer(names: list[str], kinds: list[int]) -> str:
    return ", ".join(f"{name}: {'knight' if kind else 'knave'}" for name, kind in zip(names, kinds))


def _kk_read(claims: list[list], n: int, truth: bool, unnamed: int) -> list[int]:
    kinds: list[int | None] = [None] * n
    for claim in claims:
        if claim[0] in ("knight", "knave") and kinds[claim[1]] is None:
            kinds[claim[1]] = int((claim[0] == "knight") == truth)
    return [unnamed if kind is None else kind for kind in kinds]


def _kk_first_trusted(claims: list[list], n: int) -> list[int]:
    from palaestra.envs.deduction.knights_knaves import _truth

    for pattern in itertools.product((0, 1), repeat=n - 1):
        kinds = [1, *pattern]
        if _truth(claims[0], kinds, 1, n):
            return kinds
    return [1] + [0] * (n - 1)


def _kk_policies(names: list[str], claims: list[list]) -> dict[str, list[int]]:
    n = len(names)
    return {
        "all knights": [1] * n, "all knaves": [0] * n,
        "false, unnamed knaves": _kk_read(claims, n, False, 0), "true, unnamed knights": _kk_read(claims, n, True, 1),
        "first speaker trusted": _kk_first_trusted(claims, n),
        "first a knave, the rest knights": [0] + [1] * (n - 1),
    }


def test_knights_knaves_cheap_readings_stay_near_chance():
    for level in range(3):
        problems = [KK.sample(level, 50_000 + seed) for seed in range(60)]
        chance = sum(0.5 ** len(p.data["names"]) for p in problems) / len(problems)
        paid: dict[str, float] = {}
        for p in problems:
            for name, kinds in _kk_policies(p.data["names"], p.data["claims"]).items():
                paid[name] = paid.get(name, 0.0) + KK.verify(p, _kk_answer(p.data["names"], kinds)).reward
        for name, total in paid.items():
            assert total / len(problems) <= chance + 0.12, (level, name, total, chance)


def test_knights_knaves_reference_solves_and_level_zero_meets_three():
    for level in range(5):
        for seed in range(20):
            p = KK.sample(level, 51_000 + seed)
            assert KK.verify(p, p.answer).reward == 1.0
            if level == 0:
                assert len(p.data["names"]) == 3


def _ds_above_largest_drop(degrees: list[int]) -> str:
    ranked = sorted(range(len(degrees)), key=lambda v: (-degrees[v], v))
    gaps = [degrees[ranked[i - 1]] - degrees[ranked[i]] for i in range(1, len(ranked))]
    k = 1 + gaps.index(max(gaps))
    return "impossible: " + " ".join(map(str, ranked[:k]))


def test_degree_sequence_largest_drop_rule_is_near_its_floor_at_low_levels():
    for level, bound in ((0, 0.33), (1, 0.3)):
        problems = [DS.sample(level, 52_000 + seed) for seed in range(40)]
        paid = sum(DS.verify(p, _ds_above_largest_drop(p.data["degrees"])).reward for p in problems)
        assert paid / len(problems) <= bound, (level, paid)


def test_degree_sequence_reference_solves_and_starts_at_ten_nodes():
    for level in range(5):
        for seed in range(10):
            p = DS.sample(level, 53_000 + seed)
            assert DS.verify(p, p.answer).reward == 1.0
            assert len(p.data["degrees"]) >= 10


def test_log_forensics_no_constant_count_pays_at_low_levels():
    for level in (0, 1):
        problems = [LF.sample(level, 54_000 + seed) for seed in range(60)]
        for constant in range(3, 15):
            paid = sum(LF.judge(p, str(constant)).reward for p in problems)
            assert paid / len(problems) <= 0.12, (level, constant, paid)


def test_log_forensics_reference_answer_is_judged_right():
    for level in range(5):
        for seed in range(6):
            p = LF.sample(level, 55_000 + seed)
            assert LF.judge(p, p.answer or "").reward == 1.0
