"""Leduc hold'em heads-up against a fixed, exploitable opponent; each decision scored by its expected value.

Leduc hold'em with a deck of two suits of the ranks 1..n (n = 3 is the classic six-card deck).
Each hand both players ante one chip and get one private card. A first betting round (bets and
raises of 2 chips) is followed by one public card and a second round (bets and raises of 4
chips); each round allows a bet and one raise. Without a bet to face a player checks or bets;
facing one it folds, calls or (if the raise is still open) raises; a round ends when both check
or a bet is called. At the showdown a private card pairing the public card wins, else the higher
rank; equal ranks split the pot. The model acts first in both rounds of odd-numbered hands and
second in even ones. Cards and the opponent's choices come from a tape stored with the problem
(:func:`palaestra.envs.games.common.tape_rng`), so a replay replays the same hands.

The opponent follows a fixed mixed strategy drawn at generation and hidden: per round and per
strength of its hand (its rank; in the second round a pair is strongest) how often it bets,
raises a bet, and calls one; stronger hands call more often, but any hand may bet or raise
(bluff). The reward does not depend on luck and is normalised to regret
(:func:`palaestra.core.multiturn.regret_reward`): each decision has an exact expected value against
that strategy, given what the model has seen (averaged over the opponent's possible cards and the
public card to come, weighted by how likely the opponent's actions made each card; the model's
later decisions at their best). The episode pays, when the last hand ends,
``clip((achieved - zero) / (best - zero))``: ``best`` sums each hand's value under the best
response from the model's first decision, ``achieved`` is ``best`` less what each decision gave up
against the best decision then, and ``zero`` is the most that any simple rule of :data:`RULES`
achieves on this game's tape (the same sum, for the rule's decisions in the hands as the tape deals
them and the opponent answers them; :func:`_rule_zero`), or random decisions' exact value if that is
more (it never was in the measurements). The rules read only the model's card, the public card and the
options, never the opponent: always raise or bet, else call (never fold); always check or call; always
check, else fold; bet or raise with a pair or the top rank, else check or call; bet or raise with the top
half of the ranks (or also a pair), else check or fold, or else check or call, or else call before the
public card and fold after; check, and call with a pair or the top half, else fold. Each of them (and
random play) so scores exactly 0, the best response (the oracle) exactly 1. A disallowed action counts
as the worst decision, and an unreadable move (several actions, say) costs a turn (the budget is four
turns a hand; the score is paid only if the last hand ends within it).

Version 2 moved the zero from random decisions' value (version 1), which the simple rules beat by far: "always
raise, else call" scored 0.47-0.51 on average per level and "bet or raise with a pair or the top half, else check
or fold" 0.59-0.65, while the honest player scored 0.73-0.79 (40 games per level at levels 0, 2 and 4). The zero
sits at the best rule itself (no share short of it, unlike :mod:`palaestra.envs.games.ultimatum`): an opponent
of this kind leaves room to beat every rule by learning it, and the honest player, made smarter in version 2,
keeps about 0.6 on average per level (0.61-0.69 over 40 games per level). The room between the best rule and
the best response is at least 5 chips in those games (at least 4% of the way from random play to the best).

Showdowns reveal the opponent's card; the honest player (:meth:`LeducHoldem.honest_move`) learns the
opponent's tendencies (:func:`_estimate`) from them and, since version 2, from the hands that end in a fold
too (each card the opponent may have held counted by how likely it was; a fold never reaches a showdown, so
without them the opponent looked as if it never folded), starting from the belief that it bets and raises
half the time and calls more with stronger hands; it plays the best response to that estimate.

Levels grow the deck and the number of hands. The difficulty measure is the number of hands
times the number of ranks.

Generation speed: about 0.1 ms per problem at every level (the opponent is drawn, nothing is played). The zero is
computed when a game's last hand ends, once per problem (kept), in about 20-60 ms: each rule is walked through the
hands on the tape over expected values that playing the game has already computed.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register
from palaestra.core.task import Growth
from palaestra.envs.games._poker import (
    EPSILON,
    SCORE_RULES_AGAINST_RULES,
    add_hand,
    add_loss,
    game_over,
    hand_report,
)
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_rng
from palaestra.verifiers.moves import read_move_answer

# "pass" is the check where checking is allowed, else the fold (Kuhn's own word for both: after a bet it
# gives the pot up); resolved by :func:`_resolve` against the options.
PASS = "pass"
ACTIONS = {"check": "check", "bet": "bet", "call": "call", "fold": "fold", "raise": "raise", "pass": PASS}
BET_SIZES = (2, 4)  # per round
MAX_RAISES = 2  # a bet and one raise per round
KINDS = ("open", "raise", "call")  # the opponent's tendencies: bet when free, raise a bet, call a bet


@register
class LeducHoldem(MultiTurnTask):
    id = "games/leduc_holdem"
    version = 2  # version 1: the zero was uniformly random decisions', which the simple rules beat by far
    family = "games"
    description = "Play Leduc hold'em hands against a fixed exploitable strategy; EV-scored decisions."
    tags = ("games", "multi-turn", "two-player", "imperfect-information", "probability", "cards")
    hidden_information = True
    score_based = True
    one_move_per_turn = True
    public_keys = ("ranks", "hands")
    distinct_from = {  # the near_duplicates kit check: why this is another skill than a similar env
        "games/kuhn_poker": "two betting rounds with raises and a public card: hand strength changes mid-hand "
                            "(pairs), so the model reasons over future cards and the opponent's raising, not one bet",
    }

    @dataclass(frozen=True)
    class Config:
        ranks: int  # the deck holds two cards of each rank 1..ranks
        hands: int

    presets = (Config(3, 30), Config(3, 36), Config(4, 36), Config(5, 40), Config(6, 40))
    growth = Growth(limits={"ranks": 6})  # past the presets, more hands

    def generate(self, rng: random.Random, config: Config) -> Problem:
        buckets = config.ranks + 1  # ranks 1..n, then a pair with the public card

        def tendency(ordered: bool, pair_sure: bool) -> list[float]:
            rates = [round(rng.random(), 2) for _ in range(buckets)]
            if ordered:
                rates = sorted(rates)
            if pair_sure:
                rates[-1] = 1.0
            return rates

        strategy = {kind: [tendency(kind == "call", kind == "call" and r == 1) for r in range(2)] for kind in KINDS}
        for kind in KINDS:
            strategy[kind][0][-1] = 0.0  # no pair exists before the public card: the entry is never used
        data = {"ranks": config.ranks, "hands": config.hands, "strategy": strategy, "tape": rng.getrandbits(48)}
        prompt = (
            f"Let's play {config.hands} hands of Leduc hold'em. The deck has two cards of each rank 1 to "
            f"{config.ranks} (higher is better). Each hand we both put in one chip and get one private card. A first "
            "betting round is followed by one public card and a second betting round. In a round, a player with no "
            "bet to face checks or bets; facing a bet, a player folds (gives up the pot), calls (matches it) or "
            "raises (matches it and bets again). Each round allows one bet and one raise; bets and raises are 2 chips "
            "in the first round and 4 in the second. A round ends when both check or a bet is called. At the "
            "showdown a private card of the same rank as the public card wins; otherwise the higher rank wins, and "
            "equal ranks split the pot. You act first in both rounds of odd-numbered hands and second in even-numbered "
            "ones. The opponent plays a fixed strategy that you do not know; a showdown shows you its card.\n\n"
            f"{SCORE_RULES_AGAINST_RULES} The score is paid when the last hand ends (you have four turns a hand); a disallowed "
            "action counts as the worst decision.\n\n"
            f"{_situation(data, 0)}\n\n"
            "Each turn, write one action (check, bet, call, raise or fold, as allowed), for example: check"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return 4 * problem.data["hands"]

    constant_difficulty = "the same game (deck and hands fixed by the level) against a drawn opponent of the same kind"

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["hands"] * problem.data["ranks"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        data = problem.data
        return {"hand": 0, "history": _opponent_moves(data, 0, [[]]), "chips": 0, "made": 0, "right": 0,
                "values": _new_hand([0.0, 0.0, 0.0], data, 0)}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data, hand, history = problem.data, state["hand"], state["history"]
        allowed = _allowed(history)
        values = _decision_values(data, hand, history)
        best = max(values.values())
        action = _resolve(read_action(move), allowed)
        made = state["made"] + 1
        if action is None:  # costs a turn only (the budget is four turns a hand); a whole plan lands here too
            return Outcome.invalid(state, f"write one action: {', '.join(allowed)}")
        if action not in allowed:
            why = f"{action} is not allowed now"
            totals = add_loss(state["values"], best, min(values.values()))
            return Outcome({**state, "made": made, "values": totals}, Verdict.unparsed(why),
                           f"Invalid move: {why}; write one of {', '.join(allowed)}.")
        right = state["right"] + (values[action] >= best - EPSILON)
        totals = add_loss(state["values"], best, values[action])
        moved = _with(history, action)
        history = _opponent_moves(data, hand, moved)
        said = [f"You {action}.", *_narrate(data, hand, history, moved)]
        if not _over(history):
            state = {**state, "history": history, "made": made, "right": right, "values": totals}
            return Outcome.goes_on(state, " ".join(said), "hand goes on")
        chips, result = _settle(data, hand, history)
        report = hand_report(said, result)
        total = state["chips"] + chips
        if hand + 1 == data["hands"]:
            achieved, random_value, best = totals
            zero = max(random_value, _rule_zero(data))  # the best simple rule's chips (random play's if above)
            return game_over({**state, "history": history, "made": made, "right": right, "chips": total,
                              "values": [achieved, zero, best]}, report)
        following = _opponent_moves(data, hand + 1, [[]])
        state = {"hand": hand + 1, "history": following, "chips": total, "made": 0, "right": 0,
                 "values": _new_hand(totals, data, hand + 1)}
        return Outcome(state, Verdict(0.0, right == made, True, report), f"{report}\n\n{_situation(data, hand + 1)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        history = state["history"]
        values = _decision_values(problem.data, state["hand"], history)
        return max(values, key=values.__getitem__)

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return _allowed(state["history"])

    def heuristics(self) -> dict[str, Policy]:
        """The simple rules of the reward's zero (:data:`RULES`), each of which scores 0."""
        def as_policy(rule: Rule) -> Policy:
            def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                return _rule_action(rule, problem.data, state["hand"], state["history"])
            return policy

        return {name: as_policy(rule) for name, rule in RULES.items()}

    def honest_move(self, view: View) -> str:
        """The best response to the strategy estimated from the hands so far (see :func:`_estimate`)."""
        n = view.public["ranks"]
        hands = _read_hands([view.prompt, *view.observations])
        current = hands[-1]
        strategy = _estimate_seen(n, tuple((h["hand"], h["mine"], h["public"], h["theirs"],
                                            tuple(tuple(actions) for actions in h["history"])) for h in hands[:-1]))
        data = {"ranks": n, "strategy": strategy}
        history = current["history"]
        values = _decision_values(data, current["hand"], history, mine=current["mine"], public=current["public"])
        return max(values, key=values.__getitem__)


# --- the simple rules of the zero -------------------------------------------------

Rule = Callable[[int, int, int | None, list[str]], str]  # (ranks, own card, public card or None, options) -> action


def _aggressive(allowed: list[str]) -> str:
    return next(a for a in ("raise", "bet", "call") if a in allowed)


def _passive(allowed: list[str]) -> str:
    return "check" if "check" in allowed else "call"


def _tight(allowed: list[str]) -> str:
    return "check" if "check" in allowed else "fold"


def _strong(ranks: int, mine: int, public: int | None) -> bool:
    """A pair with the public card, or a rank in the top half."""
    return mine == public or mine > ranks / 2


RULES: dict[str, Rule] = {
    "always raise or bet, else call (never fold)": lambda n, mine, public, allowed: _aggressive(allowed),
    "always check or call": lambda n, mine, public, allowed: _passive(allowed),
    "always check, else fold": lambda n, mine, public, allowed: _tight(allowed),
    "bet or raise with a pair or the top rank, else check or call": lambda n, mine, public, allowed:
        _aggressive(allowed) if mine in (public, n) else _passive(allowed),
    "bet or raise with the top half of the ranks, else check or fold": lambda n, mine, public, allowed:
        _aggressive(allowed) if mine > n / 2 else _tight(allowed),
    "bet or raise with the top half of the ranks, else check or call": lambda n, mine, public, allowed:
        _aggressive(allowed) if mine > n / 2 else _passive(allowed),
    "bet or raise with a pair or the top half, else check or fold": lambda n, mine, public, allowed:
        _aggressive(allowed) if _strong(n, mine, public) else _tight(allowed),
    "bet or raise with a pair or the top half, else check or call before the public card and check or fold after":
        lambda n, mine, public, allowed: _aggressive(allowed) if _strong(n, mine, public)
        else _passive(allowed) if public is None else _tight(allowed),
    "check, call with a pair or the top half, else fold": lambda n, mine, public, allowed:
        _passive(allowed) if _strong(n, mine, public) else _tight(allowed),
}
"""The simple rules whose best sets the reward's zero: each reads only the model's card, the public card once turned
and the options, never the opponent's actions or tendencies."""


def _rule_action(rule: Rule, data: dict[str, Any], hand: int, history: list[list[str]]) -> str:
    mine, _, public = _deal(data, hand)
    return rule(data["ranks"], mine, public if len(history) == 2 else None, _allowed(history))


def _rule_zero(data: dict[str, Any]) -> float:
    """The most chips any rule of :data:`RULES` achieves over the game (the reward's zero), kept per problem: it
    depends on the problem alone, and every episode of it ends on it."""
    return _rule_zero_of(data["ranks"], data["hands"], data["tape"], _strategy_key(data["strategy"]))


@functools.lru_cache(maxsize=1_024)
def _rule_zero_of(ranks: int, hands: int, tape: int, key: Any) -> float:
    data = {"ranks": ranks, "hands": hands, "tape": tape, "strategy": dict(zip(KINDS, key))}
    sums = [0.0] * len(RULES)
    for hand in range(hands):
        sums = _rule_values(sums, data, hand)
    return max(sums)


def _rule_values(sums: list[float], data: dict[str, Any], hand: int) -> list[float]:
    """``sums`` (per rule of :data:`RULES`) plus what each rule achieves in hand ``hand``, played on the tape: the
    hand's best-response value less what each of the rule's decisions gave up against the best one then (the sum
    :meth:`LeducHoldem.play` keeps for the model, so a rule played scores exactly 0)."""
    values = _values(_strategy_key(data["strategy"]), data["ranks"])
    model_first = _model_first(hand)
    mine, _, dealt = _deal(data, hand)
    seen: dict[Any, tuple[dict[str, float], float]] = {}  # per position reached: its actions' values, the best

    def options(history: list[list[str]]) -> tuple[dict[str, float], float]:
        frozen = tuple(tuple(moves) for moves in history)
        found = seen.get(frozen)
        if found is None:
            public = dealt if len(history) == 2 else None
            reach = values.reach(model_first, mine, public, frozen)
            chips = {a: values.node(model_first, mine, public, _frozen_with(frozen, a), "best") / reach
                     for a in _allowed(history)}
            found = seen[frozen] = chips, max(chips.values())
        return found

    after: dict[Any, list[list[str]]] = {}  # the opponent's replies on the tape, per position (the rules share them)

    def answered(history: list[list[str]]) -> list[list[str]]:
        frozen = tuple(tuple(moves) for moves in history)
        if frozen not in after:
            after[frozen] = _opponent_moves(data, hand, history)
        return after[frozen]

    start = answered([[]])
    best = options(start)[1]
    totals = []
    for total, rule in zip(sums, RULES.values()):
        history, achieved = start, best
        while _allowed(history):
            chips, top = options(history)
            action = _rule_action(rule, data, hand, history)
            achieved -= top - chips[action]
            history = answered(_with(history, action))
        totals.append(total + achieved)
    return totals


# --- the rules -----------------------------------------------------------------

def _with(history: list[list[str]], action: str) -> list[list[str]]:
    return [*history[:-1], [*history[-1], action]]


def _round_over(actions: list[str]) -> bool:
    return actions[-2:] == ["check", "check"] or (bool(actions) and actions[-1] in ("call", "fold"))


def _over(history: list[list[str]]) -> bool:
    return (bool(history[-1]) and history[-1][-1] == "fold") or (len(history) == 2 and _round_over(history[1]))


def _options(actions: list[str]) -> list[str]:
    """What the player to act may do after ``actions`` of this round."""
    if actions and actions[-1] in ("bet", "raise"):
        raised = sum(a in ("bet", "raise") for a in actions)
        return ["call", "fold"] + (["raise"] if raised < MAX_RAISES else [])
    return ["check", "bet"]


def _model_first(hand: int) -> bool:
    return hand % 2 == 0


def _model_to_act(hand: int, actions: list[str]) -> bool:
    return (len(actions) % 2 == 0) == _model_first(hand)


def _allowed(history: list[list[str]]) -> list[str]:
    """The model's options now ([] once the hand is over)."""
    return [] if _over(history) else _options(history[-1])


def _deal(data: dict[str, Any], hand: int) -> tuple[int, int, int]:
    """(the model's card, the opponent's card, the public card), as ranks."""
    return _dealt(data["tape"], data["ranks"], hand)


@functools.lru_cache(maxsize=65_536)
def _dealt(tape: int, ranks: int, hand: int) -> tuple[int, int, int]:
    deck = [rank for rank in range(1, ranks + 1) for _ in range(2)]
    mine, theirs, public = tape_rng(LeducHoldem.id, tape, "deal", hand).sample(deck, 3)
    return mine, theirs, public


def _bucket(card: int, public: int | None, ranks: int) -> int:
    """The opponent's hand strength: its rank (0-based), or ``ranks`` for a pair with the public card."""
    return ranks if public is not None and card == public else card - 1


def _action_odds(strategy: dict[str, Any], round_: int, bucket: int, actions: list[str]) -> dict[str, float]:
    """The opponent's probability of each action after ``actions`` of this round, for a hand in ``bucket``."""
    if not actions or actions[-1] == "check":
        bet = strategy["open"][round_][bucket]
        return {"bet": bet, "check": 1 - bet}
    raise_rate = strategy["raise"][round_][bucket] if "raise" in _options(actions) else 0.0
    call = strategy["call"][round_][bucket]
    return {"raise": raise_rate, "call": (1 - raise_rate) * call, "fold": (1 - raise_rate) * (1 - call)}


def _opponent_moves(data: dict[str, Any], hand: int, history: list[list[str]]) -> list[list[str]]:
    """``history`` with the opponent's moves (and the public card's new round) played until the model acts or
    the hand ends; the opponent's choices come from the tape."""
    _, theirs, public = _deal(data, hand)
    history = [list(actions) for actions in history]
    while not _over(history):
        if len(history) == 1 and _round_over(history[0]):
            history.append([])
            continue
        actions = history[-1]
        if _model_to_act(hand, actions):
            break
        round_ = len(history) - 1
        odds = _action_odds(data["strategy"], round_, _bucket(theirs, public if round_ else None, data["ranks"]),
                            actions)
        draw = tape_rng(LeducHoldem.id, data["tape"], "act", hand, round_, len(actions)).random()
        for action, chance in odds.items():
            if draw < chance or action == list(odds)[-1]:
                actions.append(action)
                break
            draw -= chance
    return history


def _contributions(history: list[list[str]]) -> tuple[int, int]:
    """Chips put in by (the first player, the second player), antes included."""
    paid = [1, 1]
    for round_, actions in enumerate(history):
        size = BET_SIZES[round_]
        for index, action in enumerate(actions):
            me, other = index % 2, 1 - index % 2
            if action == "bet":
                paid[me] += size
            elif action == "call":
                paid[me] = paid[other]
            elif action == "raise":
                paid[me] = paid[other] + size
    return paid[0], paid[1]


def _payoff(history: list[list[str]], model_first: bool, mine: int, theirs: int, public: int) -> int:
    """The model's chips won (negative: lost) at the end of a hand."""
    return _payoffs(history, model_first, mine, public, (theirs,))[0]


def _payoffs(history: list[list[str]], model_first: bool, mine: int, public: int,
             cards: tuple[int, ...]) -> list[int]:
    """The model's chips at the end of a hand for each possible opponent card in ``cards`` (the pot counted once)."""
    first, second = _contributions(history)
    model_paid, their_paid = (first, second) if model_first else (second, first)
    last = history[-1]
    if last and last[-1] == "fold":
        folder_first = (len(last) - 1) % 2 == 0
        return [-model_paid if folder_first == model_first else their_paid] * len(cards)
    results = []
    for theirs in cards:
        if mine == theirs:
            results.append(0)
        else:
            model_wins = mine == public or (theirs != public and mine > theirs)
            results.append(their_paid if model_wins else -model_paid)
    return results


def _settle(data: dict[str, Any], hand: int, history: list[list[str]]) -> tuple[int, str]:
    mine, theirs, public = _deal(data, hand)
    chips = _payoff(history, _model_first(hand), mine, theirs, public)
    if history[-1][-1] == "fold":
        return chips, f"You {'win' if chips > 0 else 'lose'} {abs(chips)} chip{'s' * (abs(chips) != 1)}."
    outcome = "split the pot" if chips == 0 else f"{'win' if chips > 0 else 'lose'} {abs(chips)} chips"
    return chips, f"Showdown: the opponent has {theirs}; you {outcome}."


def _situation(data: dict[str, Any], hand: int) -> str:
    mine, _, _ = _deal(data, hand)
    history = _opponent_moves(data, hand, [[]])
    seat = "You act first." if _model_first(hand) else "You act second."
    seen = f" The opponent {history[0][0]}s." if history[0] else ""
    return f"Hand {hand + 1} of {data['hands']}. {seat} Your card: {mine}.{seen}"


def _narrate(data: dict[str, Any], hand: int, history: list[list[str]], before: list[list[str]]) -> list[str]:
    """What happened after the model's move: the public card if it was turned, and the opponent's moves
    (``before``: the history just after the model's move; ``history``: after the opponent's)."""
    said = []
    for round_ in range(len(before) - 1, len(history)):
        if round_ == 1 and len(before) == 1:
            said.append(f"Public card: {_deal(data, hand)[2]}.")
        seen = len(before[round_]) if round_ < len(before) else 0
        said.extend(f"The opponent {action}s." for action in history[round_][seen:])
    return said


# --- expected values -------------------------------------------------------------

def _strategy_key(strategy: dict[str, Any]) -> tuple[tuple[tuple[float, ...], ...], ...]:
    return tuple(tuple(tuple(rates) for rates in strategy[kind]) for kind in KINDS)


def _decision_value(data: dict[str, Any], hand: int, history: list[list[str]], action: str, later: str = "best",
                    mine: int | None = None, public: int | None = None) -> float:
    """Expected chips of ``action`` now against ``data["strategy"]``, given the model's card, the public card
    (if shown) and the actions so far; the model's later decisions at their best (``later="random"``: at random).
    ``mine``/``public``: the cards as the model sees them (default: those dealt)."""
    return _decision_values(data, hand, history, later, mine, public, (action,))[action]


def _decision_values(data: dict[str, Any], hand: int, history: list[list[str]], later: str = "best",
                     mine: int | None = None, public: int | None = None,
                     actions: tuple[str, ...] | None = None) -> dict[str, float]:
    """:func:`_decision_value` of each of ``actions`` (default: the model's options now), the strategy's memo looked
    up once."""
    if mine is None:
        mine, _, dealt_public = _deal(data, hand)
        public = dealt_public if len(history) == 2 else None
    values = _values(_strategy_key(data["strategy"]), data["ranks"])
    frozen = tuple(tuple(moves) for moves in history)
    total = values.reach(_model_first(hand), mine, public, frozen)
    chosen = _allowed(history) if actions is None else actions
    if total <= 0:
        return dict.fromkeys(chosen, 0.0)
    return {a: values.node(_model_first(hand), mine, public, _frozen_with(frozen, a), later) / total for a in chosen}


def _frozen_with(history: tuple[tuple[str, ...], ...], action: str) -> tuple[tuple[str, ...], ...]:
    return (*history[:-1], (*history[-1], action))


@functools.lru_cache(maxsize=128)
def _values(key: Any, ranks: int) -> _Values:
    """The memo of one opponent strategy (the env's: one per problem; the honest player's: one per estimate). Up to
    ~0.6 MB each at level 4; 128 of them keep as many games played side by side (a vector env) from recomputing."""
    return _Values(key, ranks)


class _Values:
    """Expected values against one opponent strategy, each position computed once. The memo is keyed by the
    position only (the strategy is the instance's), so a lookup does not hash the strategy's rates."""

    def __init__(self, key: Any, ranks: int) -> None:
        self.strategy, self.ranks = dict(zip(KINDS, key)), ranks
        self._weights: dict[tuple[Any, ...], tuple[float, ...]] = {}
        self._nodes: dict[tuple[Any, ...], float] = {}
        self._odds_memo: dict[tuple[Any, ...], float] = {}
        self._odds_cards: dict[tuple[Any, ...], tuple[float, ...]] = {}

    def weights(self, model_first: bool, mine: int, public: int | None,
                history: tuple[tuple[str, ...], ...]) -> tuple[float, ...]:
        """Per opponent card (ranks 1..n): the probability of it, of the public card (if shown) and of the
        opponent's actions so far. Built from the parent position's weights (one action or the public card fewer)."""
        memo = (model_first, mine, public, history)
        found = self._weights.get(memo)
        if found is None:
            found = self._weights[memo] = self._new_weights(model_first, mine, public, history)
        return found

    def _new_weights(self, model_first: bool, mine: int, public: int | None,
                     history: tuple[tuple[str, ...], ...]) -> tuple[float, ...]:
        ranks = self.ranks
        if history == ((),):
            return tuple((2 - (theirs == mine)) / (2 * ranks - 1) for theirs in range(1, ranks + 1))
        if not history[-1]:  # the public card was just turned
            parent = self.weights(model_first, mine, None, history[:-1])
            return tuple(w * (2 - (public == mine) - (public == theirs)) / (2 * ranks - 2)
                         for theirs, w in enumerate(parent, start=1))
        actions = history[-1]
        parent = self.weights(model_first, mine, public, (*history[:-1], actions[:-1]))
        if ((len(actions) - 1) % 2 == 0) == model_first:  # the model's action tells nothing about the opponent's card
            return parent
        return tuple(w * o for w, o in zip(parent, self._odds_by_card(len(history) - 1, public, actions)))

    def _odds_by_card(self, round_: int, public: int | None, actions: tuple[str, ...]) -> tuple[float, ...]:
        """Per opponent card (ranks 1..n): the probability of its last action in ``actions``."""
        memo = (round_, public, actions)
        found = self._odds_cards.get(memo)
        if found is None:
            found = self._odds_cards[memo] = tuple(
                self._odds(round_, _bucket(theirs, public if round_ else None, self.ranks), actions)
                for theirs in range(1, self.ranks + 1))
        return found

    def _odds(self, round_: int, bucket: int, actions: tuple[str, ...]) -> float:
        """The opponent's probability of its last action in ``actions``, for a hand in ``bucket``."""
        memo = (round_, bucket, actions)
        found = self._odds_memo.get(memo)
        if found is None:
            odds = _action_odds(self.strategy, round_, bucket, list(actions[:-1]))
            found = self._odds_memo[memo] = odds.get(actions[-1], 0.0)
        return found

    def reach(self, model_first: bool, mine: int, public: int | None, history: tuple[tuple[str, ...], ...]) -> float:
        return sum(self.weights(model_first, mine, public, history))

    def node(self, model_first: bool, mine: int, public: int | None, history: tuple[tuple[str, ...], ...],
             later: str, weights: tuple[float, ...] | None = None) -> float:
        """The model's expected chips from this point, unnormalised (summed over the opponent's cards, each weighted
        by the probability of the cards and actions leading here); the model's moves at their best or at random.
        ``weights``: this position's :meth:`weights` when the caller has them (a walk down the tree passes them on)."""
        memo = (model_first, mine, public, history, later)
        found = self._nodes.get(memo)
        if found is None:
            if weights is None:
                weights = self.weights(model_first, mine, public, history)
            found = self._nodes[memo] = self._new_node(model_first, mine, public, history, later, weights)
        return found

    def _new_node(self, model_first: bool, mine: int, public: int | None, history: tuple[tuple[str, ...], ...],
                  later: str, weights: tuple[float, ...]) -> float:
        over, turns_public, options = _position(history)
        if over:
            chips = _chips(history, model_first, mine, public if public is not None else 0, self.ranks)
            return sum(w * c for w, c in zip(weights, chips))
        if turns_public:
            ranks = self.ranks
            return sum(self.node(model_first, mine, card, (*history, ()), later,
                                 tuple(w * (2 - (card == mine) - (card == theirs)) / (2 * ranks - 2)
                                       for theirs, w in enumerate(weights, start=1)))
                       for card in range(1, ranks + 1))
        if (len(history[-1]) % 2 == 0) == model_first:  # the model acts: its action tells nothing of the cards
            values = [self.node(model_first, mine, public, _frozen_with(history, a), later, weights) for a in options]
            return max(values) if later == "best" else sum(values) / len(values)
        # The opponent acts: each branch weighted by the probability of the action.
        round_ = len(history) - 1
        total = 0.0
        for a in options:
            child = _frozen_with(history, a)
            odds = self._odds_by_card(round_, public, child[-1])
            total += self.node(model_first, mine, public, child, later, tuple(w * o for w, o in zip(weights, odds)))
        return total


# What depends on the actions alone (not on the opponent's strategy or the cards) is kept across strategies: the honest
# player's estimate changes after every showdown, and each new estimate walks the same positions again.
@functools.lru_cache(maxsize=4_096)
def _position(history: tuple[tuple[str, ...], ...]) -> tuple[bool, bool, tuple[str, ...]]:
    """(whether the hand is over, whether the public card is turned next, the options of the player to act)."""
    listed = [list(actions) for actions in history]
    if _over(listed):
        return True, False, ()
    if len(history) == 1 and _round_over(listed[0]):
        return False, True, ()
    return False, False, tuple(_options(listed[-1]))


@functools.lru_cache(maxsize=65_536)
def _chips(history: tuple[tuple[str, ...], ...], model_first: bool, mine: int, public: int,
           ranks: int) -> tuple[int, ...]:
    """:func:`_payoffs` of a finished hand for each opponent card 1..ranks."""
    listed = [list(actions) for actions in history]
    return tuple(_payoffs(listed, model_first, mine, public, tuple(range(1, ranks + 1))))


def _new_hand(totals: list[float], data: dict[str, Any], hand: int) -> list[float]:
    """The running (achieved, random, best) sums after hand ``hand`` is dealt: its best-response value (from the
    model's first decision) joins the best and achieved sums, its value under random decisions the random sum."""
    history = _opponent_moves(data, hand, [[]])
    allowed = _allowed(history)
    best = max(_decision_values(data, hand, history).values())
    random_value = sum(_decision_values(data, hand, history, later="random").values()) / len(allowed)
    return add_hand(totals, best, random_value)


def _resolve(action: str | None, allowed: list[str]) -> str | None:
    """The action ``pass`` stands for among ``allowed`` (check, else fold); any other action as read."""
    return ("check" if "check" in allowed else "fold") if action == PASS else action


def read_action(move: str) -> str | None:
    """``check``, ``bet``, ``call``, ``raise`` or ``fold`` (also ``pass``; a trailing remark is fine), or None."""
    if len(move) > MAX_MOVE_CHARS:
        return None
    return read_move_answer(move, lambda text: ACTIONS.get(text.strip().lower().rstrip(".!")))


# --- the honest player -------------------------------------------------------------

_EVENT = re.compile(r"Hand (\d+) of \d+\. You act (first|second)\. Your card: (\d+)\.(?: The opponent (bet|check)s\.)?"
                    r"|You (check|bet|call|raise|fold)\.|The opponent (check|bet|call|raise|fold)s\."
                    r"|Public card: (\d+)\.|Showdown: the opponent has (\d+)")


def _read_hands(texts: list[str]) -> list[dict[str, Any]]:
    """The hands so far, read from the prompt and observations: hand index, own card, actions, public and
    opponent's cards."""
    hands: list[dict[str, Any]] = []
    for text in texts:
        for groups in _events(text):
            if groups[0]:  # the hand line: its card group matched too
                hands.append({"hand": int(groups[0]) - 1, "mine": int(groups[2] or 0), "public": None, "theirs": None,
                              "history": [[groups[3]] if groups[3] else []]})
            elif not hands:
                continue
            elif groups[4] or groups[5]:
                hands[-1]["history"][-1].append(groups[4] or groups[5])
            elif groups[6]:
                hands[-1]["public"] = int(groups[6])
                hands[-1]["history"].append([])
            elif groups[7]:
                hands[-1]["theirs"] = int(groups[7])
    return hands


@functools.lru_cache(maxsize=4_096)
def _events(text: str) -> tuple[tuple[str | None, ...], ...]:
    """The :data:`_EVENT` matches of one prompt or observation (each read once: a game's texts are read every turn)."""
    return tuple(m.groups() for m in _EVENT.finditer(text))


@functools.lru_cache(maxsize=256)
def _estimate_seen(ranks: int, seen: tuple[tuple[Any, ...], ...]) -> dict[str, list[list[float]]]:
    """:func:`_estimate` of the hands ``seen`` (hand, own card, public card, opponent's card, actions), kept: each
    decision of a hand estimates from the same hands before it."""
    hands = [{"hand": hand, "mine": mine, "public": public, "theirs": theirs, "history": [list(a) for a in history]}
             for hand, mine, public, theirs, history in seen]
    return _estimate(ranks, hands)


def _their_actions(record: dict[str, Any]) -> list[tuple[int, list[str], str]]:
    """The opponent's actions in a past hand: (round, the round's actions before it, the action)."""
    model_first = _model_first(record["hand"])
    return [(round_, actions[:index], action) for round_, actions in enumerate(record["history"])
            for index, action in enumerate(actions) if (index % 2 == 0) != model_first]


def _observed(ranks: int, record: dict[str, Any], theirs: int) -> list[tuple[str, int, int, bool]]:
    """The opponent's decisions in a past hand, were its card ``theirs``: (kind, round, bucket, did it)."""
    found = []
    for round_, before, action in _their_actions(record):
        bucket = _bucket(theirs, record["public"] if round_ else None, ranks)
        if not before or before[-1] == "check":
            found.append(("open", round_, bucket, action == "bet"))
            continue
        if "raise" in _options(before):
            found.append(("raise", round_, bucket, action == "raise"))
        if action != "raise":
            found.append(("call", round_, bucket, action == "call"))
    return found


def _estimate(ranks: int, hands: list[dict[str, Any]]) -> dict[str, list[list[float]]]:
    """The opponent's tendencies estimated from the hands so far, starting from a weak prior (two
    pseudo-observations each): betting and raising half the time, calling more with stronger hands.

    A showdown shows the opponent's card; a hand without one (a fold) counts for each card the opponent may have
    held in proportion to how likely that card was, given the cards seen and its actions under the estimate from
    the showdowns (without this, the folds, which never reach a showdown, would go unseen)."""
    buckets = ranks + 1
    counts = {kind: [[[2 * (b + 1) / buckets if kind == "call" else 1.0, 2.0] for b in range(buckets)]
                     for _ in range(2)] for kind in KINDS}

    def add(record: dict[str, Any], theirs: int, weight: float) -> None:
        for kind, round_, bucket, did in _observed(ranks, record, theirs):
            cell = counts[kind][round_][bucket]
            cell[0] += weight * did
            cell[1] += weight

    def rates() -> dict[str, list[list[float]]]:
        return {kind: [[yes / total for yes, total in per_round] for per_round in counts[kind]] for kind in KINDS}

    hidden = []
    for record in hands:
        if record["theirs"] is not None:
            add(record, record["theirs"], 1.0)
        elif any(record["history"]):
            hidden.append(record)
    if not hidden:
        return rates()
    shown = rates()
    for record in hidden:
        mine, public = record["mine"], record["public"]
        likely = {}
        for theirs in range(1, ranks + 1):
            weight = float(2 - (theirs == mine))
            if public is not None:
                weight *= 2 - (public == mine) - (public == theirs)
            for round_, before, action in _their_actions(record):
                bucket = _bucket(theirs, public if round_ else None, ranks)
                weight *= _action_odds(shown, round_, bucket, before)[action]
            likely[theirs] = weight
        total = sum(likely.values())
        if total > 0:
            for theirs, weight in likely.items():
                if weight > 0:
                    add(record, theirs, weight / total)
    return rates()
