"""Generation speed-ups of the card games (issue #29 item 3): each keeps every problem as it was.

The golden files pin a few problems per env; these tests pin the pieces the speed-ups rewrote against the code as
first written (kept here as references), exactly: the same numbers, the same floats, the same tie-breaks.
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

import numpy as np

from palaestra.core import Problem
from palaestra.core.bits import set_bits
from palaestra.core.registry import make_source
from palaestra.envs.games import (
    blackjack,
    codenames,
    cribbage_pegging,
    gin_rummy,
    golf_solitaire,
    klondike,
    kuhn_poker,
    trick_taking,
    video_poker,
)

# --- blackjack ---------------------------------------------------------------------------------------------


def test_blackjack_totals_accept_lists_and_tuples_alike() -> None:
    for cards in (["A", "A"], ["A", "6", "K"], ["10", "Q", "2"], ["A", "A", "9", "A"]):
        assert blackjack._total(cards) == blackjack._total(tuple(cards))
    assert blackjack._total(["A", "A"]) == (12, True)


# --- golf solitaire -----------------------------------------------------------------------------------------


def _golf_reference(game: Any, state: Any) -> tuple[int, tuple[tuple[int, float], ...]]:
    """The best count and random play's spread as first written: two recursions over state tuples."""
    legal = golf_solitaire._searches(game)[0]

    @functools.cache
    def best(state: Any) -> int:
        moves = legal(state) if any(state[0]) else ()
        return max((best(golf_solitaire._apply(game, state, move)) for move in moves), default=state[3])

    @functools.cache
    def spread(state: Any) -> tuple[tuple[int, float], ...]:
        moves = legal(state) if any(state[0]) else ()
        if not moves:
            return ((state[3], 1.0),)
        chances: dict[int, float] = {}
        for move in moves:
            for cleared, chance in spread(golf_solitaire._apply(game, state, move)):
                chances[cleared] = chances.get(cleared, 0.0) + chance / len(moves)
        return tuple(sorted(chances.items()))

    return best(state), spread(state)


def test_golf_searches_match_the_reference_from_the_start_and_midgame() -> None:
    rng = random.Random(3)
    for columns, depth, stock in ((4, 3, 6), (4, 4, 9), (4, 5, 8), (3, 2, 4)):
        for _ in range(12):
            dealt = rng.sample([rank for rank in range(1, 14) for _ in range(4)], columns * depth + stock + 1)
            data = {"columns": [dealt[i * depth:(i + 1) * depth] for i in range(columns)],
                    "waste": dealt[columns * depth], "stock": dealt[columns * depth + 1:]}
            game, state = golf_solitaire._game(data), golf_solitaire._start(data)
            for _ in range(4):
                assert (golf_solitaire._best(game, state), golf_solitaire._spread(game, state)) == \
                    _golf_reference(game, state)
                moves = golf_solitaire._legal(game, state)
                if not moves or not any(state[0]):
                    break
                state = golf_solitaire._apply(game, state, rng.choice(moves))


# --- cribbage pegging ---------------------------------------------------------------------------------------


def _score_card_reference(run: tuple[int, ...], count: int) -> int:
    points = 2 if count in (15, 31) else 0
    same = 1
    while same < len(run) and run[-1 - same] == run[-1]:
        same += 1
    points += {2: 2, 3: 6, 4: 12}.get(same, 0)
    for length in range(len(run), 2, -1):
        tail = sorted(run[-length:])
        if all(b - a == 1 for a, b in zip(tail, tail[1:])):
            points += length
            break
    return points


def _opponent_card_reference(style: str, state: Any) -> int:
    options = cribbage_pegging._fits(state[1], state[2])
    count, run, wary = state[2], state[3], style == "wary"

    def worth(rank: int) -> tuple[int, int]:
        after, played = count + min(rank, 10), run + (rank,)
        points = _score_card_reference(played, after)
        if wary:
            points -= max((_score_card_reference(played + (r,), after + min(r, 10))
                           for r in cribbage_pegging._fits(state[0], after)), default=0)
        return points, min(rank, 10)

    return max(options, key=worth)


def test_cribbage_scores_and_opponent_choices_match_the_reference() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        run = tuple(rng.randint(1, 13) for _ in range(rng.randint(1, 8)))
        assert cribbage_pegging.score_card(run, sum(min(r, 10) for r in run)) == \
            _score_card_reference(run, sum(min(r, 10) for r in run))
    for _ in range(2000):
        mine = tuple(sorted(rng.randint(1, 13) for _ in range(rng.randint(0, 4))))
        theirs = tuple(sorted(rng.randint(1, 13) for _ in range(rng.randint(1, 4))))
        run = tuple(rng.randint(1, 13) for _ in range(rng.randint(0, 3)))
        count = sum(min(r, 10) for r in run)
        state = (mine, theirs, count, run, 0, 1)
        if not cribbage_pegging._fits(theirs, count):
            continue
        for style in ("greedy", "wary"):
            assert cribbage_pegging._opponent_card((style, 0), state) == _opponent_card_reference(style, state)


# --- klondike -----------------------------------------------------------------------------------------------


def _random_count_reference(data: dict[str, Any], rng: random.Random) -> int:
    """A random game as first written: each move applied to a fresh copy of the state."""
    state = klondike._start(data)
    for _ in range(data["budget"]):
        moves = klondike._choices(data, state)
        if not moves or len(state["found"]) == 4 * data["ranks"]:
            break
        state = klondike._apply(data, state, rng.choice(moves))[0]
    return len(state["found"])


def _klondike_deals(count: int) -> list[dict[str, Any]]:
    rng, deals = random.Random(5), []
    for ranks, columns, redeals in ((5, 3, 2), (7, 4, 1), (8, 5, 1)):
        for _ in range(count):
            cards = rng.sample(klondike.deck(ranks), 4 * ranks)
            dealt, used = [], 0
            for i in range(columns):
                dealt.append(cards[used:used + i + 1])
                used += i + 1
            deals.append({"ranks": ranks, "columns": dealt, "stock": cards[used:], "redeals": redeals,
                          "budget": 60})
    return deals


def test_klondike_random_games_in_place_match_the_copying_reference() -> None:
    for data in _klondike_deals(8):
        for seed in range(4):
            assert klondike._random_count(data, random.Random(seed)) == \
                _random_count_reference(data, random.Random(seed))


def test_klondike_moves_and_apply_agree_along_random_games() -> None:
    """The one-pass moves list equals the legal moves checked one by one, and _apply leaves its input alone."""
    for data in _klondike_deals(4):
        rng, state = random.Random(1), klondike._start(data)
        for _ in range(40):
            moves = klondike._choices(data, state)
            if not moves:
                break
            for choice in moves:
                assert klondike._refusal(data, state, choice) == ""
            before = repr(state)
            after = klondike._apply(data, state, rng.choice(moves))[0]
            assert repr(state) == before  # the move was made on a copy
            state = after


# --- trick taking -------------------------------------------------------------------------------------------


def test_trick_taking_noiseless_chance_matches_the_full_mix() -> None:
    """At noise 0 the random-play chance skips the opponent's other cards: the full formula gives the same floats."""
    def full_mix(position: Any, options: Any, noise: float, value: Any, then: Any) -> float:
        total = sum(size for _, size in options)
        fewest = min(value(card) for card, _ in options)
        keeping = [(card, size) for card, size in options if value(card) == fewest]
        kept = sum(size for _, size in keeping)
        return (noise * sum(size * then(card) for card, size in options) / total
                + (1 - noise) * sum(size * then(card) for card, size in keeping) / kept)

    rng = random.Random(9)
    deals = []
    for _ in range(25):
        cards = rng.sample(range(52), 10)
        deals.append((tuple(sorted(cards[:5])), tuple(sorted(cards[5:])), rng.choice((trick_taking.NO_TRUMP, 0, 3)),
                      rng.random() < 0.5))
    fast = []
    for mine, theirs, trump, leads in deals:
        position = trick_taking._position(mine, theirs)[0]
        need = trick_taking._value(position, leads, trump)
        fast.append(trick_taking._random_success.__wrapped__(position, leads, trump, need, 0.0))
    original = trick_taking._opponent_mix
    trick_taking._random_success.cache_clear()
    try:
        trick_taking._opponent_mix = full_mix
        for (mine, theirs, trump, leads), expected in zip(deals, fast):
            position = trick_taking._position(mine, theirs)[0]
            need = trick_taking._value(position, leads, trump)
            assert trick_taking._random_success(position, leads, trump, need, 0.0) == expected
    finally:
        trick_taking._opponent_mix = original
        trick_taking._random_success.cache_clear()


def test_trick_taking_removal_and_runs_as_first_written() -> None:
    assert trick_taking._remove(("MTM", "", "TT", "M"), (0, 2), (2, 0)) == ("MT", "", "T", "M")
    assert trick_taking._remove(("MTMT", "", "", ""), (0, 0), (0, 3)) == ("TM", "", "", "")
    assert trick_taking._runs(("MMTM", "T", "", "MT"), "M", None) == (((0, 1), 2), ((0, 3), 1), ((3, 0), 1))
    assert trick_taking._without((3, 9, 27), 9) == (3, 27)


# --- kuhn poker ---------------------------------------------------------------------------------------------


def _rule_score_reference(task: Any, data: dict[str, Any], rule: Any) -> float:
    """The rules' test as first written: the episode played through :meth:`KuhnPoker.play`."""
    problem = Problem(env_id=task.id, data=data)
    state = task.initial_state(problem)
    for _ in range(task.max_turns(problem)):
        outcome = task.play(problem, state, rule(problem, state, (), None))
        state = outcome.state
        if outcome.done:
            return outcome.verdict.reward
    return 0.0


def test_kuhn_rule_scores_match_playing_the_episode() -> None:
    task = make_source("games/kuhn_poker")
    rng = random.Random(4)
    for config in task.presets:
        for _ in range(6):
            strategy = {kind: [round(rng.random(), 2) for _ in range(config.cards)]
                        for kind in ("open", "after_check", "call")}
            strategy["call"] = sorted(strategy["call"])
            strategy["call"][-1] = 1.0
            data = {"cards": config.cards, "hands": config.hands, "strategy": strategy, "tape": rng.getrandbits(48)}
            for rule in task.heuristics().values():
                assert kuhn_poker._rule_score(task, data, rule) == _rule_score_reference(task, data, rule)


# --- gin rummy ----------------------------------------------------------------------------------------------


def _cover_reference(melds: list[tuple[int, int]]) -> int:
    """The most value a set of disjoint melds covers, as first written (a search per set of melds)."""
    best = 0

    def cover(start: int, used: int, covered: int) -> None:
        nonlocal best
        best = max(best, covered)
        for i in range(start, len(melds)):
            meld, value = melds[i]
            if not meld & used:
                cover(i + 1, used | meld, covered + value)

    cover(0, 0, 0)
    return best


def test_gin_totals_and_deadwoods_match_the_reference() -> None:
    rng = random.Random(2)
    for _ in range(600):
        cards = rng.sample(range(52), rng.choice((10, 11)))
        mask = gin_rummy._mask(cards)
        total = sum(gin_rummy._value(c) for c in cards)
        assert gin_rummy._total(mask) == total
        melds = [(meld, sum(gin_rummy._value(c) for c in set_bits(meld)))
                 for meld in gin_rummy._hand_melds(mask)]
        assert gin_rummy._deadwood(mask) == total - _cover_reference(melds)
        expected = tuple((c, total - gin_rummy._value(c) - _cover_reference([m for m in melds if not m[0] >> c & 1]))
                         for c in sorted(cards))
        assert gin_rummy._discard_deadwoods(mask) == expected
    melded = gin_rummy._mask([0, 1, 2, 13, 26, 39, 5, 6, 7, 8, 20])  # A-2-3 clubs, four aces, 6-9 clubs: overlaps
    assert gin_rummy._deadwood(melded) == 8  # A-2-3 of clubs, the other three aces and 6-9 of clubs leave 8D


# --- video poker --------------------------------------------------------------------------------------------


def test_video_poker_hold_values_match_a_direct_enumeration_under_drawn_pay_tables() -> None:
    # v2 values every hold through a per-deck table of hand kinds per card subset and a 32 x 32 inclusion-exclusion;
    # here each hold's draws are enumerated one by one instead.
    rng = random.Random(7)
    for low in ("T", "9"):
        deck = video_poker._deck(low)
        for _ in range(3):
            pays = {name: rng.randint(lo, hi) for name, lo, hi in video_poker.PAY_RANGES}
            pair_from = rng.choice(video_poker.PAIR_THRESHOLDS)
            cards = rng.sample(deck, 5)
            values = video_poker._hold_values(low, cards, video_poker._pay_vector(pays, pair_from))
            rest = [c for c in deck if c not in cards]
            for mask in rng.sample(range(32), 4):
                held = [cards[i] for i in range(5) if mask >> i & 1]
                finals = [held + list(extra) for extra in itertools.combinations(rest, 5 - len(held))]
                kinds = [video_poker._kind_paid(final, pair_from) for final in finals]
                expected = sum(pays.get(kind, 1) if kind else 0 for kind in kinds) / len(finals)
                assert abs(values[mask] - expected) < 1e-9


def test_video_poker_subset_table_matches_a_direct_count() -> None:
    deck = video_poker._deck("T")
    keys, counts = video_poker._subset_counts("T")
    rng = random.Random(0)
    for size in (0, 1, 2, 3, 5):
        for _ in range(5):
            chosen = rng.sample(range(len(deck)), size)
            expected = [0] * (video_poker.NOTHING + 1)
            for combo in itertools.combinations(range(len(deck)), 5):
                if set(chosen) <= set(combo):
                    expected[video_poker._code([deck[i] for i in combo])] += 1
            row = int(np.searchsorted(keys, sum(1 << i for i in chosen)))
            assert counts[row].tolist() == expected


# --- codenames ----------------------------------------------------------------------------------------------


def _runs_reference(board: Any, mask: int) -> dict[int, tuple[int, int]]:
    roles, having, _, _ = board
    runs: dict[int, tuple[int, int]] = {}
    for attribute, words in enumerate(having):
        run, reveal = 0, 0
        for i in words:
            if mask >> i & 1:
                continue
            if roles[i] == codenames.NEUTRAL:
                runs.setdefault(reveal | 1 << i, (attribute, run + 1))
            if roles[i] != codenames.YOURS:
                break
            run, reveal = run + 1, reveal | 1 << i
        if run:
            runs.setdefault(reveal, (attribute, run))
    return runs


def test_codenames_clues_match_the_reference_in_order() -> None:
    _, vocab = codenames.vocabulary()
    names = sorted(vocab)
    rng = random.Random(8)
    roles_pool = [codenames.YOURS] * 6 + [codenames.NEUTRAL] * 5 + [codenames.THEIRS] * 3 + [codenames.ASSASSIN]
    for _ in range(40):
        words = rng.sample(names, len(roles_pool))
        roles = rng.sample(roles_pool, len(roles_pool))
        board = codenames._board(words, roles)
        for _ in range(30):
            mask = rng.getrandbits(len(words)) & rng.getrandbits(len(words))
            got = codenames._runs(board, mask)
            assert list(got.items()) == list(_runs_reference(board, mask).items())
            got[-1] = (0, 0)  # a caller's dict is its own: the memo keeps tuples
        assert list(codenames._runs(board, 0).items()) == list(_runs_reference(board, 0).items())


def test_klondike_rules_played_together_match_each_played_alone() -> None:
    """The strong rules played on one table while they agree (_rule_counts) reach what each reaches alone."""
    orders = [klondike.RULES[name] for name in (*klondike.STRONG, "found")]
    for data in _klondike_deals(12):
        assert klondike._rule_counts(data, orders) == [klondike._rule_count(data, order) for order in orders]
