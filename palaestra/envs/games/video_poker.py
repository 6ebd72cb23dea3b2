"""Video poker on a small deck with a pay table drawn per game: choose which cards to hold, hand after hand.

Each hand deals five cards from a deck of the ranks from the level's lowest rank (ten at levels 0-1, nine from
level 2) up to the ace, in four suits. The model holds any of the five (``hold 1 3 4``, ``hold Jh Js``,
``hold none``, ``hold all``); the others are replaced by cards from the rest of the deck, shuffled by a seeded
generator keyed by the hand's number, so a replay draws the same cards. The final hand pays by the game's pay
table, drawn at generation and printed in the prompt: a royal flush, a straight flush, four of a kind, a full
house, a flush, a straight, three of a kind and two pair each pay a whole number from their own range
(:data:`PAY_RANGES`), and a pair pays 1 when its rank is at least the game's threshold (jacks, queens or kings).
Straights run ace high only.

The game is judged on expected values, not on the lucky draw: every hold's expected payout is computed exactly at
generation by enumerating the draws (per deck and process, a table of how many five-card hands of each paying kind
hold each set of at most five cards; a hand's 32 holds then take an inclusion-exclusion over 32 rows of it and
the game's pay table). The episode's reward, given at the last hand, is
``clip((chosen - rules) / (best - rules), 0, 1)`` over the sums of the hands' expected values: the chosen holds',
the best holds', and ``rules``, the most that any one of ten fixed rules of thumb (:data:`RULES`: hold everything,
hold nothing, hold the pairs, the textbook orders of flush draws, straight draws, suited and high cards ...)
earns on these hands when played on every hand. So every such rule scores 0, and only weighing each hand's holds
against this pay table scores.

Version 2 (this one) draws the pay table per game and sets the zero at the best rule of thumb. Version 1 paid the
fixed jacks-or-better table and set the zero at a uniformly random hold: on these small decks a few fixed rules
find the best hold in 70-90% of hands, and "hold three or more of a suit, else the pairs, else the highest card"
scored 0.75 at the top level.

Levels add hands and enlarge the deck, and raise the number of "tricky" hands, whose best hold is none of the
rules' holds: two of three at level 0, then three of four, four of four, five of five and six of six. A game is
redrawn when the best holds beat the best rule by less than a tenth of their edge over random holds (measured:
the median game's best holds beat it by 22-27% of that edge). Played through the env, each rule scores 0, rules
outside the ten up to 0.11 (three or more suited cards ten or higher first: 0.11 at levels 2-4), picking per hand
the best of the ten rules' holds 0.02-0.16, and the second-best hold on every hand 0.08-0.28 (60 games a level). The
difficulty measure is the number of hands plus the share of the best holds' edge over random holds that the best
rule of thumb gives up.

Generation speed: 12-35 ms a problem per level on this 2-core machine (measured with other work running), after
the per-deck tables (0.25 s for the 20-card deck, 0.6 s for the 24-card one, built once per process with numpy).
Under a drawn pay table between 1% and 25% of deals are tricky (none under some tables, which are then drawn again
after :data:`DEALS` deals); each deal costs one inclusion-exclusion (a 32 x 32 matrix product) and the ten rules'
holds. The exact values are kept because each decision is scored by them and the best hold must be unique.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.multiturn import regret_reward
from palaestra.core.seeding import event_rng
from palaestra.envs.games._cards import rank_of, read_card_name, suit_of
from palaestra.verifiers.moves import read_command

RANKS = "23456789TJQKA"
SUITS = "cdhs"
# The paying kinds besides a pair, best first, each with the range its pay is drawn from.
PAY_RANGES = (("royal flush", 100, 400), ("straight flush", 30, 80), ("four of a kind", 15, 40),
              ("full house", 5, 12), ("flush", 2, 8), ("straight", 2, 8), ("three of a kind", 2, 5),
              ("two pair", 1, 3))
KINDS = tuple(name for name, _, _ in PAY_RANGES)
PAIR_CODE = len(KINDS)  # a one-pair hand's code is PAIR_CODE plus the pair's rank index
NOTHING = PAIR_CODE + len(RANKS)
PAIR_THRESHOLDS = "JQK"
RANK_NAMES = dict(zip(RANKS, ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
                              "jacks", "queens", "kings", "aces")))
HOLDS = tuple(tuple(i for i in range(5) if mask >> i & 1) for mask in range(32))
NONE_WORDS = frozenset(["none", "nothing", "no"])
ALL_WORDS = frozenset(["all", "everything"])
HOLD_VERBS = frozenset(["hold", "keep"])
FILLER = frozenset(["hold", "keep", "cards", "card", "and", "the", "draw", "positions", "position"])
DEALS = 80  # deals tried per hand before the pay table is drawn again
MIN_SPAN = 0.1  # the best holds beat the best rule by at least this share of their edge over random holds


@register
class VideoPoker(MultiTurnTask):
    id = "games/video_poker"
    family = "games"
    description = "Draw poker on a small deck with a drawn pay table, scored on each hold's exact expected payout."
    tags = ("games", "multi-turn", "cards", "probability", "chance")
    version = 2
    one_move_per_turn = True  # one hold per turn: a reply naming holds for several hands is refused
    score_based = True

    @dataclass(frozen=True)
    class Config:
        low: str  # the deck's lowest rank
        hands: int
        tricky: int  # hands whose best hold is none of the rules of thumb's

    presets = (Config("T", 3, 2), Config("T", 4, 3), Config("9", 4, 4), Config("9", 5, 5), Config("9", 6, 6))
    bounded = "an exact enumeration of the draws past a 24-card deck is too slow for the per-process tables"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(functools.partial(_game, rng, config), what="a game the rules of thumb do not solve",
                     attempts=50)

    def max_turns(self, problem: Problem) -> int:
        return len(problem.data["hands"])

    def difficulty(self, problem: Problem) -> float:
        """The hands, plus the share of the best holds' edge over random holds that the best rule gives up."""
        data = problem.data
        return len(data["hands"]) + (data["best"] - data["rules"]) / (data["best"] - data["random"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"hand": 0, "achieved": 0.0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        hands = problem.data["hands"]
        index = state["hand"]
        cards = hands[index]["cards"]
        hold = read_command(move, lambda words: _parse(words, cards))
        if hold is None:
            return Outcome.invalid(state, "write the cards to hold by position or name, such as hold 2 5, or hold "
                                          "none, or hold all")
        value = hands[index]["values"][_mask(hold)]
        final = _draw(problem, index, cards, hold)
        name = _kind_paid(final, problem.data["pair_from"])
        pay = _pays(problem.data)[name] if name else 0
        said = (f"You hold {_show([cards[i] for i in hold]) if hold else 'nothing'}; the final hand is "
                f"{_show(final)}: {name or 'nothing'}, paying {pay}. The hold's expected payout was {value:.3f}.")
        achieved = state["achieved"] + value
        new_state = {"hand": index + 1, "achieved": achieved}
        if index + 1 == len(hands):
            reward = regret_reward(achieved, problem.data["rules"], problem.data["best"])
            return Outcome(new_state, Verdict(reward, reward >= 1 - 1e-9, True, f"score {reward:.3f}"),
                           f"{said} Game over.", True)
        return Outcome.goes_on(new_state, f"{said}\n\nHand {index + 2}: {_show(hands[index + 1]['cards'])}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        values = problem.data["hands"][state["hand"]]["values"]
        return _say(HOLDS[values.index(max(values))])

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return [_say(hold) for hold in HOLDS]

    def heuristics(self) -> dict[str, Any]:
        def policy(rule: Callable[[list[str], str], tuple[int, ...]]) -> Any:
            def move(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                return _say(rule(problem.data["hands"][state["hand"]]["cards"], problem.data["pair_from"]))

            return move

        return {name: policy(rule) for name, rule in RULES.items()}


def _game(rng: random.Random, config: VideoPoker.Config) -> Problem | None:
    """A game: a drawn pay table and its hands (``config.tricky`` of them tricky, at random places), or None when
    a hand is not found in :data:`DEALS` deals or the best rule of thumb comes within :data:`MIN_SPAN` of the best
    holds."""
    pays = {name: rng.randint(low, high) for name, low, high in PAY_RANGES}
    pair_from = rng.choice(PAIR_THRESHOLDS)
    pay_vector = _pay_vector(pays, pair_from)
    deck = _deck(config.low)
    tricky = set(rng.sample(range(config.hands), config.tricky))
    hands = []
    for index in range(config.hands):
        deals = (_deal(rng, deck, pay_vector, pair_from, index in tricky) for _ in range(DEALS))
        hand = next((hand for hand in deals if hand is not None), None)
        if hand is None:
            return None  # under some pay tables a rule of thumb finds nearly every best hold: draw another table
        hands.append(hand)
    best = sum(max(hand["values"]) for hand in hands)
    chance = sum(sum(hand["values"]) / 32 for hand in hands)
    rules = max(sum(hand["values"][_mask(rule(hand["cards"], pair_from))] for hand in hands)
                for rule in RULES.values())
    if best - rules < MIN_SPAN * (best - chance):
        return None
    table = ", ".join(f"{name} {pays[name]}" for name in KINDS)
    prompt = (
        f"Let's play video poker with a {len(deck)}-card deck: the ranks "
        f"{', '.join(RANKS[RANKS.index(config.low):])} in four suits (c, d, h, s). You play {config.hands} hands. "
        "Each hand deals five cards; you hold any of them and the others are replaced from the rest of the deck. "
        f"This game's pay table for the final hand: {table}, a pair of {RANK_NAMES[pair_from]} or better 1 "
        "(straights run ace high only); anything else pays 0. You are scored on the expected payout of your "
        "holds, not on the cards that happen to come: the best hold on every hand scores 1, and doing no better "
        "than the best of ten fixed rules of thumb (such as holding the pairs, or three or more of a suit) would "
        "on these hands scores 0.\n\n"
        f"Hand 1: {_show(hands[0]['cards'])}\n\n"
        "Each turn, write the cards to hold by position (1-5) or by name, for example: hold 2 5 "
        "(or: hold none, hold all)"
    )
    data = {"low": config.low, "pays": pays, "pair_from": pair_from, "hands": hands, "best": best,
            "random": chance, "rules": rules}
    return Problem(prompt=prompt, answer=None, data=data)


def _say(hold: tuple[int, ...]) -> str:
    return "hold " + (" ".join(str(i + 1) for i in hold) if hold else "none")


def _mask(hold: Iterable[int]) -> int:
    return sum(1 << i for i in hold)


def _show(cards: list[str]) -> str:
    return " ".join(cards)


def _parse(words: list[str], cards: list[str]) -> tuple[int, ...] | None:
    if sum(word in HOLD_VERBS for word in words) > 1:
        return None  # several holds in one reply (one per hand and turn)
    words = [w for w in words if w not in FILLER]
    if len(words) == 1 and words[0] in NONE_WORDS:
        return ()
    if len(words) == 1 and words[0] in ALL_WORDS:
        return tuple(range(5))
    names = [c.lower() for c in cards]
    chosen = []
    for word in words:
        if len(word) == 1 and word in "12345":
            chosen.append(int(word) - 1)
        elif _card_word(word) in names:
            chosen.append(names.index(_card_word(word)))
        else:
            return None
    if not chosen or len(set(chosen)) != len(chosen):
        return None
    return tuple(sorted(chosen))


def _card_word(word: str) -> str:
    """A card written as a grader reads it (the shared card reader: ``10h``, ``t♥``, ``10♥``), in the game's
    lower-case spelling (``th``); any other word unchanged."""
    named = read_card_name(word)
    if named is None:
        return word
    return (RANKS[rank_of(named) - 2] if rank_of(named) > 1 else "A").lower() + SUITS[suit_of(named)]


def _pairs_hold(cards: list[str]) -> tuple[int, ...]:
    """The cards whose rank appears more than once (nothing when none does)."""
    ranks = [c[0] for c in cards]
    return tuple(i for i, r in enumerate(ranks) if ranks.count(r) > 1)


def _high_cards(cards: list[str], pair_from: str) -> tuple[int, ...]:
    """The cards ranked at least the paying pair's threshold."""
    return tuple(i for i, card in enumerate(cards) if RANKS.index(card[0]) >= RANKS.index(pair_from))


def _suited(cards: list[str], least_rank: str = "2") -> tuple[int, ...]:
    """The largest group of one suit among the cards ranked at least ``least_rank`` (the first suit in
    :data:`SUITS` order on a tie)."""
    groups = [tuple(i for i, card in enumerate(cards) if card[1] == suit
                    and RANKS.index(card[0]) >= RANKS.index(least_rank)) for suit in SUITS]
    return max(groups, key=len)


def _straight_draw(cards: list[str]) -> tuple[int, ...]:
    """The most cards of distinct ranks inside one window of five ranks (the first such card of each rank)."""
    ranks = [RANKS.index(card[0]) for card in cards]
    best: tuple[int, ...] = ()
    for low in range(len(RANKS) - 4):
        firsts = {rank: i for i, rank in reversed(list(enumerate(ranks))) if low <= rank < low + 5}
        if len(firsts) > len(best):
            best = tuple(sorted(firsts.values()))
    return best


def _highest(cards: list[str]) -> tuple[int, ...]:
    return (max(range(5), key=lambda i: RANKS.index(cards[i][0])),)


def _textbook(cards: list[str], pair_from: str) -> tuple[int, ...]:
    """A strategy-card order for jacks or better, played as printed whatever the pay table."""
    paid = _kind_paid(cards, pair_from)
    royal_draw = _suited(cards, "T")
    if paid in KINDS[:6]:  # a straight or better
        return tuple(range(5))
    if len(royal_draw) == 4:
        return royal_draw
    if paid in ("three of a kind", "two pair"):
        return _pairs_hold(cards)
    if len(_suited(cards)) == 4:
        return _suited(cards)
    if _pairs_hold(cards):
        return _pairs_hold(cards)
    if len(royal_draw) == 3:
        return royal_draw
    if len(_straight_draw(cards)) == 4:
        return _straight_draw(cards)
    if len(royal_draw) == 2:
        return royal_draw
    return _high_cards(cards, pair_from)


def _flush_first(cards: list[str], pair_from: str) -> tuple[int, ...]:
    flush_draw = _suited(cards)
    if len(flush_draw) >= 4:
        return flush_draw
    return _pairs_hold(cards) or (flush_draw if len(flush_draw) == 3 else _high_cards(cards, pair_from))


def _straight_first(cards: list[str], pair_from: str) -> tuple[int, ...]:
    straight_draw = _straight_draw(cards)
    return straight_draw if len(straight_draw) >= 4 else _pairs_hold(cards) or _high_cards(cards, pair_from)


def _suited_high(cards: list[str], pair_from: str) -> tuple[int, ...]:
    royal_draw = _suited(cards, "T")
    return _pairs_hold(cards) or (royal_draw if len(royal_draw) >= 2 else _high_cards(cards, pair_from))


RULES: dict[str, Callable[[list[str], str], tuple[int, ...]]] = {
    "hold everything": lambda cards, pair_from: tuple(range(5)),
    "hold nothing": lambda cards, pair_from: (),
    "hold the pairs": lambda cards, pair_from: _pairs_hold(cards),
    "hold three or more of a suit, else the pairs, else the highest card":
        lambda cards, pair_from: (_suited(cards) if len(_suited(cards)) >= 3
                                  else _pairs_hold(cards) or _highest(cards)),
    "hold the pairs, else the high cards": lambda cards, pair_from: _pairs_hold(cards) or _high_cards(cards, pair_from),
    "hold the pairs, else two or more suited cards ten or higher, else the high cards": _suited_high,
    "hold four of a suit, else the pairs, else three of a suit, else the high cards": _flush_first,
    "hold four or five to a straight, else the pairs, else the high cards": _straight_first,
    "hold a paying hand whole, else the pairs, else the high cards":
        lambda cards, pair_from: (tuple(range(5)) if _kind_paid(cards, pair_from)
                                  else _pairs_hold(cards) or _high_cards(cards, pair_from)),
    "a jacks-or-better strategy card": _textbook,
}
"""The rules of thumb whose best total on a game is the reward's zero (each played on every hand)."""


@functools.cache
def _deck(low: str) -> tuple[str, ...]:
    return tuple(r + s for r in RANKS[RANKS.index(low):] for s in SUITS)


def _code(cards: list[str] | tuple[str, ...]) -> int:
    """A five-card hand's kind: the index in :data:`KINDS`, a pair's ``PAIR_CODE + rank``, or :data:`NOTHING`."""
    values = sorted(RANKS.index(c[0]) for c in cards)
    flush = len({c[1] for c in cards}) == 1
    straight = len(set(values)) == 5 and values[4] - values[0] == 4
    if straight and flush:
        return KINDS.index("royal flush" if values[0] == RANKS.index("T") else "straight flush")
    counts = sorted((values.count(v) for v in set(values)), reverse=True)
    if counts[0] == 4:
        return KINDS.index("four of a kind")
    if counts[:2] == [3, 2]:
        return KINDS.index("full house")
    if flush:
        return KINDS.index("flush")
    if straight:
        return KINDS.index("straight")
    if counts[0] == 3:
        return KINDS.index("three of a kind")
    if counts[:2] == [2, 2]:
        return KINDS.index("two pair")
    if counts[0] == 2:
        return PAIR_CODE + next(v for v in values if values.count(v) == 2)
    return NOTHING


def _kind_paid(cards: list[str] | tuple[str, ...], pair_from: str) -> str | None:
    """The paying kind of a five-card hand under a pair threshold, or None."""
    code = _code(cards)
    if code < PAIR_CODE:
        return KINDS[code]
    if code < NOTHING and code - PAIR_CODE >= RANKS.index(pair_from):
        return f"a pair of {RANK_NAMES[pair_from]} or better"
    return None


def _pays(data: dict[str, Any]) -> dict[str, int]:
    """A game's pay per paying kind, the pair named as :func:`_kind_paid` names it."""
    return {**data["pays"], f"a pair of {RANK_NAMES[data['pair_from']]} or better": 1}


def _pay_vector(pays: dict[str, int], pair_from: str) -> np.ndarray:
    """The pay of each hand code (:func:`_code`) under a pay table."""
    vector = np.zeros(NOTHING + 1, dtype=np.int64)
    vector[:PAIR_CODE] = [pays[name] for name in KINDS]
    vector[PAIR_CODE + RANKS.index(pair_from):NOTHING] = 1
    return vector


_HELD = np.array([[mask >> i & 1 for i in range(5)] for mask in range(32)], dtype=np.int64)  # hold mask -> positions
# Inclusion-exclusion as a matrix: the hands holding exactly the cards of m among the five dealt are those holding
# them, less those holding one more of the dealt cards, plus those holding two more, ...
_EXACTLY = np.array([[(-1) ** (wider.bit_count() - mask.bit_count()) if wider & mask == mask else 0
                      for wider in range(32)] for mask in range(32)], dtype=np.int64)


@functools.cache
def _subset_counts(low: str) -> tuple[np.ndarray, np.ndarray]:
    """Per set of at most five cards of the deck (a bit mask, sorted): how many five-card hands of each code hold
    it (built once per deck and process)."""
    deck = _deck(low)
    combos = np.array(list(itertools.combinations(range(len(deck)), 5)), dtype=np.int64)
    codes = np.array([_code([deck[i] for i in combo]) for combo in combos.tolist()], dtype=np.int64)
    subsets = (np.left_shift(1, combos) @ _HELD.T).ravel()  # each hand's 32 subsets, as deck bit masks
    keys, rows = np.unique(subsets, return_inverse=True)
    counts = np.bincount(rows * (NOTHING + 1) + np.repeat(codes, 32), minlength=len(keys) * (NOTHING + 1))
    return keys, counts.reshape(len(keys), NOTHING + 1)


@functools.cache
def _draw_counts(rest: int) -> np.ndarray:
    """Per hold (a mask of held positions), the number of ways to draw its replacements from ``rest`` cards."""
    return np.array([comb(rest, 5 - mask.bit_count()) for mask in range(32)], dtype=np.float64)


def _hold_values(low: str, cards: list[str], pay_vector: np.ndarray) -> list[float]:
    """The expected payout of each of the 32 holds (indexed by the bit mask of the held positions)."""
    deck = _deck(low)
    keys, counts = _subset_counts(low)
    subsets = _HELD @ np.array([1 << deck.index(card) for card in cards], dtype=np.int64)
    exactly = _EXACTLY @ counts[np.searchsorted(keys, subsets)]  # whole numbers: exact
    return (exactly @ pay_vector / _draw_counts(len(deck) - 5)).tolist()


def _deal(rng: random.Random, deck: tuple[str, ...], pay_vector: np.ndarray, pair_from: str,
          tricky: bool) -> dict[str, Any] | None:
    cards = rng.sample(deck, 5)
    values = [round(v, 9) for v in _hold_values(deck[0][0], cards, pay_vector)]
    best = max(values)
    if best - sum(values) / 32 < 1e-6 or values.count(best) > 1:
        return None  # every hold alike, or several best holds: no clear best
    if tricky and any(values[_mask(rule(cards, pair_from))] == best for rule in RULES.values()):
        return None
    return {"cards": cards, "values": values}


def _draw(problem: Problem, index: int, cards: list[str], hold: tuple[int, ...]) -> list[str]:
    """The final hand: the held cards, the rest replaced in order from the seeded shuffle of the undealt deck."""
    rest = [c for c in _deck(problem.data["low"]) if c not in cards]
    event_rng((problem.env_id, problem.level, problem.seed), "draw", index).shuffle(rest)
    fresh = iter(rest)
    return [cards[i] if i in hold else next(fresh) for i in range(5)]
