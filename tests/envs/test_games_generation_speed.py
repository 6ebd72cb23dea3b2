"""Generation speed-ups in the games family (issue #29 item 3): each keeps every problem as it was.

The golden files pin a few problems per env; these tests pin the pieces the speed-ups touched.
"""

from __future__ import annotations

import random
from typing import Any

from palaestra.core.registry import make_source
from palaestra.envs.games import (
    battleship,
    black_box,
    contextual_bandit,
    liars_dice,
    set_game,
    twenty_questions,
    yahtzee_lite,
)
from palaestra.envs.games import snake as snake_game
from palaestra.envs.games.common import tape_rng
from palaestra.generators.battleship import placements


def test_battleship_cached_placements_match_the_generator() -> None:
    for size, length in ((6, 1), (7, 3), (8, 5)):
        expected = [[r * size + c for r, c in cells] for cells in placements(size, length)]
        assert [list(cells) for cells in battleship._placements(size, length)] == expected


def test_battleship_fleets_are_fresh_lists_and_leave_the_cache_alone() -> None:
    before = battleship._placements(8, 5)
    problem = make_source("games/battleship").sample(4, 3)
    for side in ("theirs", "ours"):
        for _, cells in problem.data[side]:
            assert type(cells) is list and all(type(c) is int for c in cells)
            cells.append(-1)  # a caller may mutate its problem's data; the shared table must not change
    assert battleship._placements(8, 5) == before


def test_set_game_third_card_table_matches_the_rule() -> None:
    table = set_game._third_cards()
    for one in range(81):
        for two in range(81):
            third = table[one][two]
            assert third == set_game.third_card(one, two, 4)
            assert all((set_game.value(one, a) + set_game.value(two, a) + set_game.value(third, a)) % 3 == 0
                       for a in range(4))


def _greedy_depth_reference(rows: list[dict[str, Any]], attributes: tuple[str, ...]) -> int:
    """The greedy questioner's tree depth as first written: every question re-asked of every creature left."""
    if len(rows) <= 1:
        return 0
    holds = twenty_questions._holds
    question = min(twenty_questions._questions(rows, attributes),
                   key=lambda q: abs(2 * sum(holds(r, q) for r in rows) - len(rows)))
    yes = [r for r in rows if holds(r, question)]
    no = [r for r in rows if not holds(r, question)]
    return 1 + max(_greedy_depth_reference(yes, attributes), _greedy_depth_reference(no, attributes))


def test_twenty_questions_greedy_depth_agrees_with_the_reference() -> None:
    depths = set()
    for level, seed in [(level, seed) for level in range(5) for seed in range(12)]:
        data = make_source("games/twenty_questions").sample(level, seed).data
        table, attributes = data["table"], tuple(data["attributes"])
        depth = twenty_questions._greedy_depth(table, attributes)
        assert depth == _greedy_depth_reference(table, attributes)
        depths.add(depth)
    assert len(depths) > 2  # tables of several depths were compared


def test_yahtzee_cached_expectation_is_the_sum_over_throws() -> None:
    dice, categories = 3, tuple(yahtzee_lite.CATEGORIES[:4])
    tables = yahtzee_lite._tables(dice, categories)
    checked = 0
    for open_ in (frozenset(categories), frozenset(categories[1:4]), frozenset(categories[2:3])):
        for kept in ((), (6,), (2, 2), (1, 3, 5)):
            for rerolls in (0, 1):
                direct = sum(chance * tables.value(open_, tuple(sorted(kept + thrown)), rerolls)
                             for thrown, chance in yahtzee_lite._outcomes(dice - len(kept)))
                assert yahtzee_lite._expected_after_throw(dice, categories, open_, kept, rerolls) == direct
                checked += 1
    assert checked == 24


def _honest_rays_reference(size: int, atoms: int, secret: tuple[int, ...]) -> int:
    """The honest player's ray count as first written: every placement filtered ray by ray."""
    table = black_box._table(size, atoms)
    signature, left = table.answers[secret], table.placements
    for fired in range(4 * size + 1):
        if len(left) == 1:
            return fired
        left = tuple(p for p in left if table.answers[p][fired] == signature[fired])
    raise AssertionError("the secret's answers are unique")


def test_black_box_honest_rays_agree_with_the_reference() -> None:
    table = black_box._table(5, 3)
    counts = set()
    for secret in random.Random(7).sample(table.unique, 40):
        rays = black_box._honest_rays(5, 3, secret)
        assert rays == _honest_rays_reference(5, 3, secret)
        counts.add(rays)
    assert len(counts) > 2  # secrets needing different counts were compared


def test_liars_dice_cached_cups_match_the_tape() -> None:
    data = make_source("games/liars_dice").sample(4, 5).data
    for round_, mine, theirs in ((0, 5, 5), (3, 2, 4), (3, 2, 4), (7, 1, 1)):
        rng = tape_rng(liars_dice.LiarsDice.id, data["tape"], "roll", round_, mine, theirs)
        expected = (sorted(rng.randint(1, 6) for _ in range(mine)), sorted(rng.randint(1, 6) for _ in range(theirs)))
        rolled = liars_dice._roll(data, round_, mine, theirs)
        assert rolled == expected and all(type(cup) is list for cup in rolled)
        rolled[0].append(99)  # a caller's copy: the cached cups do not change
        assert liars_dice._roll(data, round_, mine, theirs) == expected
        state = {"round": round_, "mine": mine, "theirs": theirs}
        assert [liars_dice._true_count(data, state, face) for face in range(1, 7)] == \
            [expected[0].count(face) + expected[1].count(face) for face in range(1, 7)]


def test_contextual_bandit_tables_keep_their_conditions() -> None:
    # The rows are now summed from effects looked up by index; the golden file pins exact problems, this pins
    # what every table must satisfy at every level.
    source = make_source("games/contextual_bandit")
    for level in range(5):
        for seed in range(10):
            rates = source.sample(level, seed).data["rates"]
            for row in rates:
                top, second = sorted(row, reverse=True)[:2]
                assert top - second >= contextual_bandit.MIN_GAP - 1e-9 and all(0.02 <= r <= 0.95 for r in row)
            assert len({row.index(max(row)) for row in rates}) >= 2


def test_snake_tail_distance_stops_early_with_the_full_search_answer() -> None:
    compared = 0
    for seed in range(15):
        data = make_source("games/snake").sample(seed % 5, seed).data
        size, body = data["size"], tuple(data["snake"])
        for cut in range(3, len(body) + 1):  # every shorter snake along the body too
            snake = body[:cut]
            full = snake_game._distances(size, snake[0], set(snake[1:-1])).get(snake[-1])
            assert snake_game._tail_reachable(size, snake) == full
            compared += 1
    assert compared > 30
