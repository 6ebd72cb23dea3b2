"""What the graphs and games helpers shared by several envs do (size_and_reach, random_groups, busiest_answer,
the lights-out press system, the poker ledger)."""

from __future__ import annotations

import itertools
import random

from palaestra.core import Problem
from palaestra.envs.games._lights import eliminate, lightest_presses
from palaestra.envs.games._poker import (
    EPSILON,
    KUHN_SCORE_RULES,
    SCORE_RULES_AGAINST_RULES,
    add_hand,
    add_loss,
    game_over,
    hand_report,
)
from palaestra.envs.graphs._measures import diameter, size_and_reach
from palaestra.envs.graphs.common import busiest_answer, random_groups


def test_size_and_reach_is_nodes_plus_edges_plus_diameter() -> None:
    path = [[0, 1], [1, 2], [2, 3]]
    assert size_and_reach(4, path) == 4 + 3 + 3
    star = [[0, 1, 5], [0, 2, 5], [0, 3, 5]]  # weights ignored
    assert size_and_reach(5, star) == 5 + 3 + diameter(5, star) == 10


def test_random_groups_cut_a_shuffle_into_k_nonempty_groups() -> None:
    for seed in range(50):
        rng = random.Random(seed)
        n = rng.randint(2, 12)
        k = rng.randint(1, n)
        groups = random_groups(random.Random(seed), n, k)
        assert len(groups) == k and all(groups)
        assert sorted(v for g in groups for v in g) == list(range(n))
    # the draw order the envs' problems depend on: shuffle first, then the cut points
    rng = random.Random(7)
    order = list(range(6))
    rng.shuffle(order)
    cuts = sorted(rng.sample(range(1, 6), 2))
    assert random_groups(random.Random(7), 6, 3) == [order[:cuts[0]], order[cuts[0]:cuts[1]], order[cuts[1]:]]


def test_busiest_answer_names_every_highest_degree_node() -> None:
    problem = Problem(prompt="", answer=None, data={"n": 5, "edges": [[0, 1], [0, 2], [3, 4], [3, 1]]})
    assert busiest_answer(problem) == "0 1 3"


def _grid_masks(n: int) -> list[int]:
    masks = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        mask = 1 << cell
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < n and 0 <= c + dc < n:
                mask |= 1 << ((r + dr) * n + c + dc)
        masks.append(mask)
    return masks


def test_lightest_presses_switch_the_board_off_with_the_fewest_presses() -> None:
    masks = _grid_masks(3)
    system = eliminate(masks)
    assert system[1] == []  # the 3x3 board's presses are independent
    rng = random.Random(1)
    for _ in range(20):
        pressed = [cell for cell in range(9) if rng.random() < 0.5]
        lit = 0
        for cell in pressed:
            lit ^= masks[cell]
        presses = lightest_presses(system, lit)
        assert presses == sorted(set(pressed))  # unique solution: exactly the presses made
    four = _grid_masks(4)
    system = eliminate(four)
    assert len(system[1]) == 4  # the 4x4 board has a 4-dimensional null space
    lit = four[0] ^ four[5]
    presses = lightest_presses(system, lit)
    off = lit
    for cell in presses:
        off ^= four[cell]
    assert off == 0
    fewest = min(len(c) for r in range(3) for c in itertools.combinations(range(16), r)
                 if _switches_off(four, lit, c))
    assert len(presses) == fewest == 2


def _switches_off(masks: list[int], lit: int, cells: tuple[int, ...]) -> bool:
    for cell in cells:
        lit ^= masks[cell]
    return lit == 0


def test_poker_ledger_and_game_over() -> None:
    totals = add_hand([0.0, 0.0, 0.0], 2.0, -1.0)
    assert totals == [2.0, -1.0, 2.0]
    totals = add_loss(totals, best=2.0, chosen=0.5)
    assert totals == [0.5, -1.0, 2.0]
    report = hand_report(["You call."], "Showdown: the opponent has 2. You win 2 chips.")
    assert report == "You call. Showdown: the opponent has 2. You win 2 chips."
    state = {"hand": 0, "chips": 3, "values": totals}
    outcome = game_over(state, report)
    assert outcome.done and outcome.state is state
    assert 0.0 < outcome.verdict.reward < 1.0 and not outcome.verdict.correct and outcome.verdict.parsed
    assert outcome.observation.endswith(
        f"That was the last hand; your chips: +3; your score is {outcome.verdict.reward:.2f}.")
    best = game_over({"chips": -1, "values": [2.0, -1.0, 2.0]}, report)
    assert best.verdict.correct and best.verdict.reward >= 1.0 - EPSILON and "your chips: -1;" in best.observation
    for rules in (SCORE_RULES_AGAINST_RULES, KUHN_SCORE_RULES):
        assert rules.startswith("Your score rewards good decisions, not luck") and "0 (or less, counted as 0)" in rules
