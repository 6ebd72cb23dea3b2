"""Blackjack against a dealer, scored by the expected value of each decision (basic strategy wins).

The game is played from an infinite deck (each of the 13 ranks equally likely on every draw).
Each hand the player gets two cards and sees the dealer's up card; the dealer has checked
for blackjack (hands where either side has a natural are not dealt). Each turn the model
writes one decision: ``hit``, ``stand`` or, where the level allows it, ``double`` (on the
first two cards only: one more card and the bet doubled). The dealer then plays by a fixed
rule (stand on 17; at the hardest level hit a soft 17) and the hand is settled and shown.
The cards come from a tape per hand drawn with the problem (:func:`palaestra.envs.games.common.tape_uniform`,
card ``i`` of hand ``h``), so a replay deals the same cards.

The reward does not depend on luck and is normalised to regret
(:func:`palaestra.core.multiturn.regret_reward`). Each decision has an exact expected value
(infinite deck, the dealer's rule, the cards seen, best play afterwards); the episode pays, when
the last hand is settled, ``clip((sum of the chosen decisions' values - sum of the mean value of
the allowed decisions) / (sum of the best decisions' values - that mean))``: deciding at random
scores about 0, basic strategy (computed exactly; the oracle plays it) exactly 1. An unreadable
move counts as the worst allowed decision and costs a turn. The hands are drawn against the simple
rules "hit below 17", "stand on 12 or more" and, where doubling is allowed, "double when allowed":
hand by hand in turn, one of them (or, on every third or fourth hand, none) may play it well and
every other rule earns at most a stated share of the hand's span (level 0: 70%, level 1: 60%,
level 2: 50%, level 3: 45%, level 4: 40%). So each rule makes a costly mistake in most hands, and
no reply wins by repeating itself: hands chosen against hitting and standing alone (version 2)
were mostly hands for doubling, and replying "double" every turn scored 0.8 at the top level. The
rules score 0.22-0.34 per level; the chips won or lost are reported for flavour only.

Levels add hands, then doubling, then the hit-soft-17 rule, and choose hands where the simple
rules fail more. The difficulty measure is the number of hands times the number of decisions
allowed, plus one for the hit-soft-17 rule, plus ten times (1 - the share the rules may earn).

Generation speed: about 75 problems/s at level 4 on this 2-core machine. Each of the 24 hands is drawn until every
rule it does not favour loses at least the level's share of the best decisions' value there (the exact values are
cached per hand state, so a test costs little); the hands no rule may play well take 100-200 draws, and most of the
time goes to hashing each draw's cards off its tape (about 900 draws of 4-5 cards per problem). The test is kept
because it is what stops a textbook rule, or one reply repeated, from earning reward.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, register, regret_reward, retry
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_uniform
from palaestra.verifiers.normalize import read_answer, squeeze_spaces, unify

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
POINTS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10, "K": 10, "A": 11}
# A draw's value: 2..9 and ace one rank each, the four ten-valued ranks together.
VALUE_ODDS = {**{v: 1 / 13 for v in range(2, 10)}, 10: 4 / 13, 11: 1 / 13}
ACTIONS = {"hit": "hit", "h": "hit", "hit me": "hit", "stand": "stand", "s": "stand", "stay": "stand",
           "stick": "stand", "double": "double", "d": "double", "double down": "double"}
EPSILON = 1e-9
DOUBLING_RULE = "double when allowed"


@register
class Blackjack(MultiTurnTask):
    id = "games/blackjack"
    family = "games"
    description = "Play blackjack hands against a dealer; each decision is scored by its exact expected value."
    tags = ("games", "multi-turn", "decision-making", "probability")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 3
    score_based = True

    @dataclass(frozen=True)
    class Config:
        hands: int
        double: bool  # doubling down allowed on the first two cards
        hit_soft_17: bool  # the dealer hits a soft 17 (else stands on every 17)
        rule_share: float  # a hand is kept only if each simple rule earns at most this share of its span

    presets = (
        Config(30, False, False, 0.7),
        Config(32, False, False, 0.6),
        Config(24, True, False, 0.5),
        Config(24, True, False, 0.45),
        Config(24, True, True, 0.4),
    )
    bounded = "levels are rule variants (dealer rules, doubling, splitting) with a falling share for simple rules: no size to grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rules = {name: rule for name, rule in self.heuristics().items() if config.double or name != DOUBLING_RULE}
        # Hand by hand in turn, one rule may play it well (or none may): each rule fails on most hands, and no
        # reply wins by itself (all hands chosen against hit and stand alone were hands for doubling).
        favoured: list[str | None] = [*rules, None]

        def draw(hand: int) -> int | None:
            tape = rng.getrandbits(48)
            player, dealer = [_card(self.id, tape, hand, i) for i in (0, 2)], _card(self.id, tape, hand, 1)
            hole = _card(self.id, tape, hand, 3)
            if _total(player)[0] == 21 or POINTS[dealer] + POINTS[hole] == 21:
                return None  # a natural on either side: a hand with no decision
            if config.rule_share < 1.0:
                for name, rule in rules.items():
                    if (name != favoured[hand % len(favoured)]
                            and _hand_share(self.id, tape, hand, config, name, rule) > config.rule_share):
                        return None
            return tape

        # the hands no rule may play well are rare (1 in 100-200 draws at levels 2-4): 5,000 attempts never run out
        tapes = [retry(functools.partial(draw, hand), attempts=5_000,
                       what="a hand without a natural where simple rules go wrong")
                 for hand in range(config.hands)]
        choices = "hit, stand or double" if config.double else "hit or stand"
        rule = "hits a soft 17 and stands on hard 17 or more" if config.hit_soft_17 else "stands on any 17 or more"
        double = (" Double (only on your first two cards) doubles your bet and gives you exactly one more card."
                  if config.double else "")
        prompt = (
            f"Let's play {config.hands} hand{'s' if config.hands > 1 else ''} of blackjack against the dealer. Cards "
            "come from an infinite deck: every draw is any of the 13 ranks with equal chance. Number cards count "
            "their number, J, Q and K count 10, an ace counts 11 or 1. Going over 21 loses. The dealer has already "
            f"checked for blackjack, and draws after you: the dealer {rule}.{double}\n\n"
            "Your score rewards good decisions, not luck: each decision is valued by its exact expected winnings, "
            "and the score compares your decisions with deciding at random: random decisions score 0 (or less, "
            "counted as 0), decisions that always have the highest expected value score 1. The score is paid when "
            "the last hand is settled; an unreadable move counts as the worst decision.\n\n"
            f"{_situation(config.hands, 0, _deal(self.id, tapes[0], 0))}\n\n"
            f"Each turn, write one decision ({choices}), for example: stand"
        )
        data = {"tapes": tapes, "rule_share": config.rule_share, "hands": config.hands, "double": config.double, "hit_soft_17": config.hit_soft_17}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return 6 * problem.data["hands"]

    constant_difficulty = "every deal is a shuffled shoe played with the same rules and the same number of hands"

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        # Stricter hand choice (a smaller share the simple rules may earn) makes every decision count more.
        return (data["hands"] * (3 if data["double"] else 2) + (1.0 if data["hit_soft_17"] else 0.0)
                + 10 * (1 - data["rule_share"]))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        deal = _deal(self.id, problem.data["tapes"][0], 0)
        return {"hand": 0, "cards": deal["player"], "made": 0, "right": 0,
                "values": _new_hand([0.0, 0.0, 0.0], problem.data, deal)}

    def reads_as_move(self, problem: Problem, state: dict[str, Any], piece: str) -> bool:
        # "bet, call": the second action is illegal until the opponent answers, yet it is a plan
        return read_action(piece) is not None

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        hand, cards = state["hand"], state["cards"]
        up = _card(self.id, data["tapes"][hand], hand, 1)
        allowed = _allowed(data, cards)
        values = _decision_values(data, cards, up)
        action = read_action(move)
        made = state["made"] + 1
        if action is None or action not in allowed:
            why = "unreadable" if action is None else f"{action} is not allowed now"
            state = {**state, "made": made, "values": _add_loss(state["values"], values, min(values.values()))}
            return Outcome(state, Verdict.unparsed(why), f"Invalid move: {why}; write one of {', '.join(allowed)}.")
        right = state["right"] + (values[action] >= max(values.values()) - EPSILON)
        totals = _add_loss(state["values"], values, values[action])
        if action == "hit":
            cards = [*cards, _card(self.id, data["tapes"][hand], hand, 2 + len(cards))]
            total, _ = _total(cards)
            if total < 21:
                state = {**state, "cards": cards, "made": made, "right": right, "values": totals}
                return Outcome(state, Verdict.wrong("hand goes on"),
                               f"You draw {cards[-1]}. {_hand_text(cards)} Dealer shows {up}.")
        elif action == "double":
            cards = [*cards, _card(self.id, data["tapes"][hand], hand, 2 + len(cards))]
        return self._settle(problem, hand, cards, action == "double", made, right, totals)

    def _settle(self, problem: Problem, hand: int, cards: list[str], doubled: bool, made: int, right: int,
                totals: list[float]) -> Outcome:
        """Finish the hand: the dealer draws, the result is shown, the hand's share is paid, the next is dealt."""
        data = problem.data
        deal = _deal(self.id, data["tapes"][hand], hand)
        dealer = [deal["up"], deal["hole"]]
        total, _ = _total(cards)
        drawn = 2 + len(cards)
        if total <= 21:
            for _ in range(20):  # a dealer never needs more than about ten cards
                dealer_total, soft = _total(dealer)
                if dealer_total > 17 or (dealer_total == 17 and not (soft and data["hit_soft_17"])):
                    break
                dealer.append(_card(self.id, data["tapes"][hand], hand, drawn))
                drawn += 1
        dealer_total, _ = _total(dealer)
        stake = 2 if doubled else 1
        if total > 21:
            result, chips = f"You bust with {total}.", -stake
        elif dealer_total > 21:
            result, chips = f"The dealer has {', '.join(dealer)} and busts.", stake
        else:
            chips = stake * ((total > dealer_total) - (total < dealer_total))
            outcome = {1: "you win", 0: "a push", -1: "you lose"}[chips // stake]
            result = f"You have {total}; the dealer has {', '.join(dealer)} = {dealer_total}: {outcome}."
        if doubled:
            result = f"You double and draw {cards[-1]}. {result}"
        elif len(cards) > 2 and total >= 21:  # the hit that ended the hand
            result = f"You draw {cards[-1]}. {result}"
        report = (f"{result} Chips this hand: {chips:+d}. Your decisions this hand: {right} of {made} "
                  f"right.")
        if hand + 1 == data["hands"]:
            reward = regret_reward(*totals)
            verdict = Verdict(reward, reward >= 1.0 - EPSILON, True, report)
            return Outcome({"hand": hand, "cards": cards, "made": made, "right": right, "values": totals}, verdict,
                           f"{report} That was the last hand; your score is {reward:.2f}.", True)
        verdict = Verdict(0.0, right == made, True, report)
        following = _deal(self.id, data["tapes"][hand + 1], hand + 1)
        state = {"hand": hand + 1, "cards": following["player"], "made": 0, "right": 0,
                 "values": _new_hand(totals, data, following)}
        return Outcome(state, verdict, f"{report}\n\n{_situation(data['hands'], hand + 1, following)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        up = POINTS[_card(self.id, data["tapes"][state["hand"]], state["hand"], 1)]
        allowed = _allowed(data, state["cards"])
        return max(allowed, key=lambda a: _action_value(a, *_total(state["cards"]), up, data["hit_soft_17"]))

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return _allowed(problem.data, state["cards"])

    def heuristics(self) -> dict[str, Policy]:
        def hit_below(limit: int) -> Policy:
            return lambda problem, state, history, rng: "hit" if _total(state["cards"])[0] < limit else "stand"

        def double_first(problem: Problem, state: dict[str, Any], history: Any, rng: Any) -> str:
            """Double whenever the rules allow it: a constant reply where hands that reward doubling abound."""
            return "double" if problem.data["double"] and len(state["cards"]) == 2 else hit_below(17)(
                problem, state, history, rng)

        return {"hit below 17": hit_below(17), "stand on 12 or more": hit_below(12), DOUBLING_RULE: double_first}


def _decision_values(data: dict[str, Any], cards: list[str], up: str) -> dict[str, float]:
    """The exact expected chips of each allowed decision now (best play afterwards)."""
    return {a: _action_value(a, *_total(cards), POINTS[up], data["hit_soft_17"]) for a in _allowed(data, cards)}


def _new_hand(totals: list[float], data: dict[str, Any], deal: dict[str, Any]) -> list[float]:
    """The running (achieved, random, best) expected chips after a new hand is dealt.

    The hand adds its value under best play to the best and (until a decision loses some) to the
    achieved sum, and its exact value under uniformly random decisions to the random sum.
    """
    total, soft = _total(deal["player"])
    up = POINTS[deal["up"]]
    best = max(_decision_values(data, deal["player"], deal["up"]).values())
    random_value = _random_value(total, soft, up, data["hit_soft_17"], data["double"])
    return [totals[0] + best, totals[1] + random_value, totals[2] + best]


def _add_loss(totals: list[float], values: dict[str, float], chosen: float) -> list[float]:
    """The running sums after one decision: the achieved sum loses what the decision gave up against the best."""
    return [totals[0] - (max(values.values()) - chosen), totals[1], totals[2]]


@functools.cache
def _random_value(total: int, soft: bool, up: int, hit_soft_17: bool, can_double: bool) -> float:
    """Exact expected chips of choosing uniformly at random among the allowed decisions, now and after."""
    if total >= 21:  # 21 after a hit ends the hand (the game stands for the player)
        return _stand_value(total, up, hit_soft_17)
    hit = sum(p * _random_value(*_add(total, soft, v), up, hit_soft_17, False) for v, p in VALUE_ODDS.items())
    options = [_stand_value(total, up, hit_soft_17), hit]
    if can_double:
        options.append(_action_value("double", total, soft, up, hit_soft_17))
    return sum(options) / len(options)


def _hand_share(env_id: str, tape: int, hand: int, config: Blackjack.Config, name: str, rule: Policy) -> float:
    """The share of hand ``hand``'s span (best minus random mean) that the simple rule ``name`` earns, playing it on
    the tape."""
    cards: tuple[str, ...] = (_card(env_id, tape, hand, 0), _card(env_id, tape, hand, 2))
    up = _card(env_id, tape, hand, 1)
    best, random_value = _hand_start(*_total(cards), POINTS[up], config.double, config.hit_soft_17)
    achieved, random_value, best = 0.0 + best, 0.0 + random_value, 0.0 + best  # as the running sums from zero
    for _ in range(12):
        action, loss = _rule_step(name, rule, cards, up, config)
        achieved -= loss
        if action != "hit":
            break
        cards = (*cards, _card(env_id, tape, hand, 2 + len(cards)))
        if _total(cards)[0] >= 21:
            break
    return regret_reward(achieved, random_value, best)


# Cached per (total, soft, points up, rules): the best decision's and random decisions' values of a fresh hand.
@functools.cache
def _hand_start(total: int, soft: bool, up: int, double: bool, hit_soft_17: bool) -> tuple[float, float]:
    values = [_action_value(action, total, soft, up, hit_soft_17)
              for action in (["hit", "stand", "double"] if double else ["hit", "stand"])]
    return max(values), _random_value(total, soft, up, hit_soft_17, double)


# A simple rule's decision and its loss against the best decision, per rule and hand state. The rules
# (:meth:`Blackjack.heuristics`) read only the total, whether the hand has two cards and whether doubling is allowed,
# and the values read only the total, softness, up card and allowed decisions: so the state is the key, not the cards
# (a few thousand keys at most).
_RULE_STEPS: dict[tuple[Any, ...], tuple[str, float]] = {}


def _rule_step(name: str, rule: Policy, cards: tuple[str, ...], up: str, config: Blackjack.Config) -> tuple[str, float]:
    total, soft = _total(cards)
    key = (name, total, soft, len(cards) == 2, up, config.double, config.hit_soft_17)
    step = _RULE_STEPS.get(key)
    if step is None:
        data = {"double": config.double, "hit_soft_17": config.hit_soft_17}
        values = _decision_values(data, list(cards), up)
        action = rule(Problem(data=data), {"cards": list(cards)}, (), None)  # type: ignore[arg-type]
        step = _RULE_STEPS[key] = action, max(values.values()) - values[action]
    return step


def read_action(move: str) -> str | None:
    """``hit``, ``stand`` or ``double`` from the move (``H``, ``stay``, ``double down``, a trailing remark), or None."""
    if len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> str | None:
        return ACTIONS.get(squeeze_spaces(unify(text)).strip().lower().rstrip(".!").strip())

    return read_answer(move, read)


@functools.lru_cache(maxsize=65_536)
def _card(env_id: str, tape: int, hand: int, index: int) -> str:
    """Card ``index`` of hand ``hand``: 0 and 2 the player's first two, 1 the dealer's up card, 3 the hole card,
    then every further card in the order drawn. (Cached: the generator replays the simple rules on each hand.)"""
    return RANKS[int(tape_uniform(env_id, tape, hand, index) * len(RANKS))]


def _deal(env_id: str, tape: int, hand: int) -> dict[str, Any]:
    return {"player": [_card(env_id, tape, hand, 0), _card(env_id, tape, hand, 2)],
            "up": _card(env_id, tape, hand, 1), "hole": _card(env_id, tape, hand, 3)}


def _situation(hands: int, hand: int, deal: dict[str, Any]) -> str:
    return f"Hand {hand + 1} of {hands}. Dealer shows {deal['up']}. {_hand_text(deal['player'])}"


def _hand_text(cards: list[str]) -> str:
    total, soft = _total(cards)
    return f"Your cards: {', '.join(cards)} ({'soft' if soft else 'hard'} {total})."


def _allowed(data: dict[str, Any], cards: list[str]) -> list[str]:
    return ["hit", "stand", "double"] if data["double"] and len(cards) == 2 else ["hit", "stand"]


def _total(cards: Sequence[str]) -> tuple[int, bool]:
    """(best total, soft): soft when an ace still counts 11."""
    return _total_of(tuple(cards))


# Cached: the generator totals every hand it replays, and the hands that occur are few.
@functools.lru_cache(maxsize=65_536)
def _total_of(cards: tuple[str, ...]) -> tuple[int, bool]:
    total = sum(POINTS[c] for c in cards)
    aces = sum(c == "A" for c in cards)
    while total > 21 and aces:
        total -= 10
        aces -= 1
    return total, aces > 0


def _add(total: int, soft: bool, value: int) -> tuple[int, bool]:
    """A hand's (total, soft) after drawing a card of ``value`` (an ace drawn as 11)."""
    total += value
    soft = soft or value == 11
    if total > 21 and soft:
        total, soft = total - 10, False
    return total, soft


@functools.cache
def _dealer_outcomes(up: int, hit_soft_17: bool) -> dict[int, float]:
    """Probabilities of the dealer's final total (22 = bust) given the up card, knowing it has no blackjack."""
    hole_odds = {v: p for v, p in VALUE_ODDS.items() if up + v != 21}
    norm = sum(hole_odds.values())
    result: dict[int, float] = {}
    for hole, p in hole_odds.items():
        total, soft = _add(*_add(0, False, up), hole)
        for final, q in _dealer_from(total, soft, hit_soft_17).items():
            result[final] = result.get(final, 0.0) + p / norm * q
    return result


@functools.cache
def _dealer_from(total: int, soft: bool, hit_soft_17: bool) -> dict[int, float]:
    if total > 21:
        return {22: 1.0}
    if total > 17 or (total == 17 and not (soft and hit_soft_17)):
        return {total: 1.0}
    result: dict[int, float] = {}
    for value, p in VALUE_ODDS.items():
        for final, q in _dealer_from(*_add(total, soft, value), hit_soft_17).items():
            result[final] = result.get(final, 0.0) + p * q
    return result


@functools.cache
def _stand_value(total: int, up: int, hit_soft_17: bool) -> float:
    if total > 21:
        return -1.0
    return sum(p * (1.0 if final == 22 or total > final else 0.0 if total == final else -1.0)
               for final, p in _dealer_outcomes(up, hit_soft_17).items())


@functools.cache
def _best_value(total: int, soft: bool, up: int, hit_soft_17: bool) -> float:
    """Expected chips of playing on with hit or stand only (after a hit), optimally."""
    if total > 21:
        return -1.0
    return max(_stand_value(total, up, hit_soft_17), _action_value("hit", total, soft, up, hit_soft_17))


@functools.cache
def _action_value(action: str, total: int, soft: bool, up: int, hit_soft_17: bool) -> float:
    """Exact expected chips of ``action`` now, playing optimally afterwards."""
    if action == "stand":
        return _stand_value(total, up, hit_soft_17)
    if action == "hit":
        return sum(p * _best_value(*_add(total, soft, v), up, hit_soft_17) for v, p in VALUE_ODDS.items())
    return 2 * sum(p * _stand_value(_add(total, soft, v)[0], up, hit_soft_17) for v, p in VALUE_ODDS.items())
