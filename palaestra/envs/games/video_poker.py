"""Video poker (jacks or better): choose which cards to hold, hand after hand, on a small deck.

Each hand deals five cards from a deck of the ranks from the level's lowest rank (ten at level 0, nine from
level 2) up to the ace, in four suits. The model holds any of the five (``hold 1 3 4``, ``hold Jh Js``,
``hold none``, ``hold all``); the others are replaced by cards from the rest of the deck, shuffled by a seeded
generator keyed by the hand's number, so a replay draws the same cards. The final hand pays by the stated
table (jacks or better: a pair of jacks, queens, kings or aces pays 1, two pair 2, three of a kind 3, a
straight 4, a flush 6, a full house 9, four of a kind 25, a straight flush 50, a royal flush 250). Straights
run ace high only.

The game is judged on expected values, not on the lucky draw: every hold's expected payout is computed
exactly at generation by enumerating the draws (an inclusion-exclusion over per-process sums of the payouts
of every five-card hand holding a set of cards, so a hand's 32 holds cost a few hundred look-ups). The
episode's reward, given at the last hand, is ``clip((chosen - random) / (best - random), 0, 1)`` over the
sums of the hands' expected values: the chosen holds', a uniformly random hold's (the mean of the 32) and
the best holds'. Levels add hands and enlarge the deck, and raise the share of "tricky" hands -- hands where
each of the declared rules' holds (hold everything, hold nothing, hold the paired cards) earns at most half
the best hold's edge over a random hold: none at level 0, a third at level 1, then two thirds, and every hand from level 3 on. The
difficulty measure is the number of hands plus the mean share of the best hold's edge over random that
the "hold pairs" rule gives up.

Generation speed: about 650 problems/s at level 4 on this 2-core machine (after a payout table built once per
process, about 0.3 s). Each hand's 32 holds get their exact expected payout (an inclusion-exclusion over the draws,
from that table), and about 9 deals are drawn per kept hand because several holds tie or a simple rule's hold earns
too much. The exact values are kept because each decision is scored by them and the best hold must be unique.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable
from dataclasses import dataclass
from math import comb
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.multiturn import regret_reward
from palaestra.core.seeding import event_rng
from palaestra.verifiers.moves import read_command

RANKS = "23456789TJQKA"
SUITS = "cdhs"
PAYS = (("royal flush", 250), ("straight flush", 50), ("four of a kind", 25), ("full house", 9), ("flush", 6),
        ("straight", 4), ("three of a kind", 3), ("two pair", 2), ("jacks or better", 1))
PAY = dict(PAYS)
HOLDS = tuple(tuple(i for i in range(5) if mask >> i & 1) for mask in range(32))
NONE_WORDS = frozenset(["none", "nothing", "no"])
ALL_WORDS = frozenset(["all", "everything"])
FILLER = frozenset(["hold", "keep", "cards", "card", "and", "the", "draw", "positions", "position"])


@register
class VideoPoker(MultiTurnTask):
    id = "games/video_poker"
    family = "games"
    description = "Jacks-or-better draw poker on a small deck, scored on the expected value of each hold."
    tags = ("games", "multi-turn", "cards", "probability", "chance")
    one_move_per_turn = True  # one hold per turn: a reply naming holds for several hands is refused
    score_based = True

    @dataclass(frozen=True)
    class Config:
        low: str  # the deck's lowest rank
        hands: int
        tricky: float  # share of hands where no declared rule's hold is best

    presets = (Config("T", 3, 0.0), Config("T", 4, 1 / 3), Config("9", 4, 2 / 3), Config("9", 5, 1.0),
               Config("9", 6, 1.0))
    bounded = "an exact enumeration of the draws past a 24-card deck is too slow for the per-process tables"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        deck = _deck(config.low)
        hands = []
        for _ in range(config.hands):
            hands.append(retry(functools.partial(_deal, rng, deck, rng.random() < config.tricky),
                               what="a hand with a clear best hold", attempts=500))
        prompt = (
            f"Let's play video poker (jacks or better) with a {len(deck)}-card deck: the ranks "
            f"{', '.join(RANKS[RANKS.index(config.low):])} in four suits (c, d, h, s). You play {config.hands} "
            "hands. Each hand deals five cards; you hold any of them and the others are replaced from the rest of "
            "the deck. The final hand pays: "
            + ", ".join(f"{name} {pay}" for name, pay in PAYS)
            + " (a pair of jacks or better; straights run ace high only); anything else pays 0. You are scored on "
            "the expected payout of your holds, not on the cards that happen to come.\n\n"
            f"Hand 1: {_show(hands[0]['cards'])}\n\n"
            "Each turn, write the cards to hold by position (1-5) or by name, for example: hold 2 5 "
            "(or: hold none, hold all)"
        )
        values = [h["values"] for h in hands]
        data = {"low": config.low, "hands": hands, "best": sum(max(v) for v in values),
                "random": sum(sum(v) / 32 for v in values)}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return len(problem.data["hands"])

    def difficulty(self, problem: Problem) -> float:
        """The hands, plus the mean share of the best hold's edge over random that holding the pairs gives up."""
        lost = []
        for hand in problem.data["hands"]:
            values = hand["values"]
            chance = sum(values) / 32
            pairs = values[_mask(_pairs_hold(hand["cards"]))]
            lost.append((max(values) - pairs) / (max(values) - chance))
        return len(lost) + sum(lost) / len(lost)

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
        name = _category(final) or "nothing"
        said = (f"You hold {_show([cards[i] for i in hold]) if hold else 'nothing'}; the final hand is "
                f"{_show(final)}: {name}, paying {PAY.get(name, 0)}. The hold's expected payout was {value:.3f}.")
        achieved = state["achieved"] + value
        new_state = {"hand": index + 1, "achieved": achieved}
        if index + 1 == len(hands):
            reward = regret_reward(achieved, problem.data["random"], problem.data["best"])
            return Outcome(new_state, Verdict(reward, reward >= 1 - 1e-9, True, f"score {reward:.3f}"),
                           f"{said} Game over.", True)
        return Outcome.goes_on(new_state, f"{said}\n\nHand {index + 2}: {_show(hands[index + 1]['cards'])}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        hand = problem.data["hands"][state["hand"]]
        values = hand["values"]
        return _say(HOLDS[values.index(max(values))])

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return [_say(hold) for hold in HOLDS]

    def heuristics(self) -> dict[str, Any]:
        def cards(problem: Problem, state: dict[str, Any]) -> list[str]:
            return problem.data["hands"][state["hand"]]["cards"]

        return {"hold everything": lambda problem, state, history, rng: "hold all",
                "hold nothing": lambda problem, state, history, rng: "hold none",
                "hold pairs": lambda problem, state, history, rng: _say(_pairs_hold(cards(problem, state)))}


def _say(hold: tuple[int, ...]) -> str:
    return "hold " + (" ".join(str(i + 1) for i in hold) if hold else "none")


def _mask(hold: Iterable[int]) -> int:
    return sum(1 << i for i in hold)


def _show(cards: list[str]) -> str:
    return " ".join(cards)


def _parse(words: list[str], cards: list[str]) -> tuple[int, ...] | None:
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
        elif word in names:
            chosen.append(names.index(word))
        else:
            return None
    if not chosen or len(set(chosen)) != len(chosen):
        return None
    return tuple(sorted(chosen))


def _pairs_hold(cards: list[str]) -> tuple[int, ...]:
    """The cards whose rank appears more than once (nothing when none does)."""
    ranks = [c[0] for c in cards]
    return tuple(i for i, r in enumerate(ranks) if ranks.count(r) > 1)


@functools.cache
def _deck(low: str) -> tuple[str, ...]:
    return tuple(r + s for r in RANKS[RANKS.index(low):] for s in SUITS)


def _category(cards: list[str] | tuple[str, ...]) -> str | None:
    """The paying category of a five-card hand, or None."""
    values = sorted(RANKS.index(c[0]) for c in cards)
    flush = len({c[1] for c in cards}) == 1
    straight = len(set(values)) == 5 and values[4] - values[0] == 4
    if straight and flush:
        return "royal flush" if values[0] == RANKS.index("T") else "straight flush"
    counts = sorted((values.count(v) for v in set(values)), reverse=True)
    if counts[0] == 4:
        return "four of a kind"
    if counts[:2] == [3, 2]:
        return "full house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three of a kind"
    if counts[:2] == [2, 2]:
        return "two pair"
    if counts[0] == 2 and any(values.count(v) == 2 and v >= RANKS.index("J") for v in values):
        return "jacks or better"
    return None


@functools.cache
def _containing_sums(low: str) -> dict[int, int]:
    """Per set of cards (a bit mask over the deck) of at most five: the summed payout of every five-card hand
    holding it (built once per deck and process)."""
    deck = _deck(low)
    sums: dict[int, int] = {}
    for combo in itertools.combinations(range(len(deck)), 5):
        name = _category([deck[i] for i in combo])
        if name is None:
            continue
        pay = PAY[name]
        keys = [0]  # the hand's 32 subsets, each as its bit mask
        for i in combo:
            keys += [key | 1 << i for key in keys]
        for key in keys:
            sums[key] = sums.get(key, 0) + pay
    return sums


# (m, m with position p added) for each position p in turn and each m without p: the steps of the inclusion-exclusion
_SUPERSET_STEPS = tuple((mask, mask | 1 << position) for position in range(5) for mask in range(32)
                        if not mask >> position & 1)


@functools.cache
def _draw_counts(rest: int) -> tuple[int, ...]:
    """Per hold (a mask of held positions), the number of ways to draw its replacements from ``rest`` cards."""
    return tuple(comb(rest, 5 - mask.bit_count()) for mask in range(32))


def _hold_values(low: str, cards: list[str]) -> list[float]:
    """The expected payout of each of the 32 holds (indexed by the bit mask of the held positions)."""
    deck = _deck(low)
    sums = _containing_sums(low)
    bits = [1 << deck.index(c) for c in cards]
    keys = [0] * 32  # per mask of positions, the mask of those cards in the deck
    for mask in range(1, 32):
        low_bit = mask & -mask
        keys[mask] = keys[mask ^ low_bit] | bits[low_bit.bit_length() - 1]
    # summed[m] starts as the summed payout of the hands holding the cards of m (and maybe others); inclusion-exclusion
    # over the other positions, one at a time, leaves those holding the cards of m and none of the other four (whole
    # numbers, so the order of the sums does not matter).
    summed = [sums.get(key, 0) for key in keys]
    for mask, wider in _SUPERSET_STEPS:
        summed[mask] -= summed[wider]
    return [total / count for total, count in zip(summed, _draw_counts(len(deck) - 5))]


def _deal(rng: random.Random, deck: tuple[str, ...], tricky: bool) -> dict[str, Any] | None:
    cards = rng.sample(deck, 5)
    values = [round(v, 9) for v in _hold_values(deck[0][0], cards)]
    best = max(values)
    if best - sum(values) / 32 < 1e-6 or values.count(best) > 1:
        return None  # every hold alike, or several best holds: no clear best
    if tricky:
        rules = (_mask(range(5)), 0, _mask(_pairs_hold(cards)))
        chance = sum(values) / 32
        if any(values[rule] - chance > (best - chance) / 2 for rule in rules):
            return None  # some rule's hold is best or earns more than half the best hold's edge over random
    return {"cards": cards, "values": values}


def _draw(problem: Problem, index: int, cards: list[str], hold: tuple[int, ...]) -> list[str]:
    """The final hand: the held cards, the rest replaced in order from the seeded shuffle of the undealt deck."""
    rest = [c for c in _deck(problem.data["low"]) if c not in cards]
    event_rng((problem.env_id, problem.level, problem.seed), "draw", index).shuffle(rest)
    fresh = iter(rest)
    return [cards[i] if i in hold else next(fresh) for i in range(5)]
