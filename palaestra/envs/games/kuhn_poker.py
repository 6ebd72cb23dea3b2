"""Kuhn poker against a fixed, exploitable opponent; each decision scored by its expected value.

Generalised Kuhn poker with a deck of cards 1..n (n = 3 is classic Kuhn poker). Each hand both
players ante one chip and get one card; the first player checks or bets one chip; facing a bet
a player calls or folds; after check, the second player checks (showdown for the antes) or
bets, and the first player then calls or folds. At a showdown the higher card takes the pot.
The model moves first in odd hands and second in even ones. Cards and the opponent's choices
are drawn from a tape stored with the problem (:func:`palaestra.envs.games.common.tape_rng`).

The opponent follows a fixed mixed strategy (per card: how often it bets first, bets after a
check, calls a bet), drawn at generation and hidden; stronger cards call more often, but any card
may bet (bluff). The reward does not depend on luck and is normalised to regret
(:func:`palaestra.core.multiturn.regret_reward`): each decision has an exact expected value
against that strategy, given the model's card and what it has seen this hand (over the
opponent's possible cards; later decisions at their best). The episode pays, when the last hand
ends, ``clip((achieved - zero) / (best - zero))`` where ``best`` sums each hand's value under
the best response, ``achieved`` is ``best`` less what each decision gave up against the best
decision then, and ``zero`` is set from the threshold rules (:func:`_rules`): every rule "bet with a card
of at least b (perhaps bluffing with the lowest card), call with at least c", in both seats or only when
acting second (always checking first), each valued exactly over the dealt hands. With ``rules`` the most any
of them earns, ``zero = rules - MARGIN * (best - rules)`` (:data:`MARGIN` = 0.2), never below the value of
uniformly random decisions: the best threshold rule for the opponent (which a player who knew the strategy
would pick) scores about 1/6 at most (in expectation), every fixed rule (always bet or call, always check or call, never fold,
the top half, the top card only, ...) about 0 to 0.15 on average, random play 0, the best response
(the oracle) exactly 1. An unreadable move counts as the worst decision and costs a turn. The chips won
are reported for flavour. Showdowns reveal the opponent's card, which is how its tendencies can be learnt;
the honest player (:meth:`KuhnPoker.honest_move`) does so, starting from the belief that stronger cards bet
and call more, and best-responds to its estimate (:func:`_estimate`).

Version 3 (the zero). Version 2 paid from random play's value up, and since random decisions fold the best
card, every sensible rule scored well: "always bet or call" about 0.66 at level 4, "bet the top card, call
with the top half" 0.83 at level 0; its generator redrew opponents until two rules scored under a cap per
level, which left the others free. A zero at the threshold rules themselves leaves a learner little: the
best threshold rule is often (nearly) the best response, and an honest player that learns the strategy
from 30 to 40 hands loses about a tenth of the way from random play to the best response, so at a zero with
no margin it scored about 0.2 to 0.3 on average. So the zero sits :data:`MARGIN` of the room below the
best threshold rule, and a drawn opponent is redrawn when a threshold rule is the best response (within
:data:`ROOM`) or when the honest player, played through the episode (:func:`_honest_score`, the same moves
as :meth:`KuhnPoker.honest_move`), scores under :data:`HONEST_BAR` (0.2) or under the best threshold rule
played on the same deals and draws plus :data:`HONEST_LEAD` (0.1; without that comparison the redraws kept
deals lucky for the rules too, and "bet the top card, call with the top half" averaged 0.3 at level 0):
there what the hands show does not let a learner beat the threshold rules, and the score would pay nobody.
Only about 1 draw in 10 to 20 is kept at levels 0-3 (1 in 3 at level 4): the kept opponents are those a
learner can exploit beyond the threshold rules, and the honest player's score is at least 0.2 by
construction (about 0.6 on average per level, measured on 40 games at levels 0, 2 and 4). The redraws keep the tape (the deals) for :data:`TAPE_DRAWS` draws, so that dealing,
cached, is done once per tape.

Levels grow the deck and the number of hands, from four cards at level 0 (version 3: with the classic three
cards the threshold rules hold the best response against nearly every opponent, and finding one they leave room
against took 60-70 ms of CPU a problem, p90 150 ms). The difficulty measure is the number of hands times the
deck size.

Generation speed: means of 17-47 ms per problem (CPU) at levels 0-6 on this 2-core machine (p90 35-125 ms, slowest
at level 0, where most draws are redrawn; the kit's timed seeds: at most 43 ms a level): each draw values the
threshold rules exactly (:func:`_rules`, about 2 ms) and, if a threshold rule is not the best response, plays the
honest player through the episode (about 2 to 6 ms). Expected values are memoised per strategy, seat, card and
actions (:func:`_strategy_value`), as the draws value the same decisions over and over.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.core.task import Growth
from palaestra.envs.games._poker import EPSILON, KUHN_SCORE_RULES, add_hand, add_loss, game_over, hand_report
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_rng
from palaestra.verifiers.moves import read_move_answer

MARGIN = 0.2  # the zero sits this share of the best threshold rule's room (to the best response) below that rule
ROOM = 0.01  # an opponent is redrawn when the best threshold rule comes within this share of the best response ...
HONEST_BAR = 0.2  # ... or when the honest player scores under this ...
HONEST_LEAD = 0.1  # ... or under the best threshold rule's score (on the same deals and draws) plus this
ATTEMPTS = 1000  # about 1 draw in 10 to 20 is kept at levels 0-3, 1 in 3 at level 4
TAPE_DRAWS = 5  # draws of the opponent's strategy that share a tape (its deals, cached, are then dealt once)

# "pass" is the check where checking is allowed, else the fold (Kuhn's own word for both: after a bet it
# gives the pot up); resolved by :func:`_resolve` against the options.
PASS = "pass"
ACTIONS = {"check": "check", "bet": "bet", "call": "call", "fold": "fold", "raise": "bet", "pass": PASS}


@register
class KuhnPoker(MultiTurnTask):
    id = "games/kuhn_poker"
    family = "games"
    description = "Play (generalised) Kuhn poker hands against a fixed exploitable strategy; EV-scored decisions."
    tags = ("games", "multi-turn", "two-player", "imperfect-information", "probability")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 3
    hidden_information = True
    score_based = True
    public_keys = ("cards", "hands")

    @dataclass(frozen=True)
    class Config:
        cards: int
        hands: int

    presets = (
        Config(4, 30),
        Config(4, 36),
        Config(5, 36),
        Config(5, 40),
        Config(6, 40),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def tendency(ordered: bool) -> list[float]:  # per card, low to high
            rates = [round(rng.random(), 2) for _ in range(config.cards)]
            return sorted(rates) if ordered else rates

        tapes: list[int] = []  # the deals and the draws behind the opponent's actions, kept for TAPE_DRAWS draws

        def draw() -> dict[str, Any] | None:
            if len(tapes) % TAPE_DRAWS == 0:
                tapes.append(rng.getrandbits(48))
            else:
                tapes.append(tapes[-1])
            tape = tapes[-1]
            # Calling follows card strength; betting need not (an opponent may bluff with weak cards).
            strategy = {"open": tendency(False), "after_check": tendency(False), "call": tendency(True)}
            strategy["call"][-1] = 1.0  # nobody folds the best card
            data = {"cards": config.cards, "hands": config.hands, "strategy": strategy, "tape": tape}
            rules, random_total, best, rule = _rules(data)
            if best - rules < ROOM * (best - random_total):
                return None  # a threshold rule is (nearly) the best response: nothing to learn
            zero = _zero_of(rules, random_total, best)
            honest = _honest_score(data, zero)
            if honest < HONEST_BAR or honest < _threshold_score(data, zero, rule) + HONEST_LEAD:
                return None  # what these hands show does not let a learner beat the threshold rules
            return data

        data = retry(draw, attempts=ATTEMPTS, what="an opponent whom the threshold rules leave room to exploit")
        prompt = (
            f"Let's play {config.hands} hands of poker with a deck of cards 1 to {config.cards} (higher is better). "
            "Each hand we both put in one chip and get one card. The first player checks or bets one chip. Facing a "
            "bet, a player calls (puts in one chip) or folds (gives up the pot). After a check, the second player "
            "checks (the higher card wins the pot) or bets, and the first player then calls or folds. You act first "
            "in odd-numbered hands and second in even-numbered ones. The opponent plays a fixed strategy that you "
            "do not know; a showdown shows you its card.\n\n"
            f"{KUHN_SCORE_RULES} The score is paid when the last hand ends; an unreadable move counts as the worst "
            "decision.\n\n"
            f"{self._situation(data, 0, [])}\n\n"
            "Each turn, write one action (check, bet, call or fold, as allowed), for example: check"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return 4 * problem.data["hands"]

    constant_difficulty = "the same game (deck and hands fixed by the level) against a drawn opponent of the same kind"

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["hands"] * problem.data["cards"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        zero = _zero(problem.data)
        return {"hand": 0, "history": _opening(problem.data, 0), "made": 0, "right": 0, "chips": 0,
                "values": _new_hand([0.0, zero, 0.0], problem.data, 0)}

    def _situation(self, data: dict[str, Any], hand: int, history: list[str]) -> str:
        mine, _ = _deal(data, hand)
        first = hand % 2 == 0
        history = history or _opening(data, hand)
        seat = "You act first." if first else "You act second."
        seen = "" if first else f" The opponent {history[0]}s."
        return f"Hand {hand + 1} of {data['hands']}. {seat} Your card: {mine}.{seen}"

    def reads_as_move(self, problem: Problem, state: dict[str, Any], piece: str) -> bool:
        # "bet, call": the second action is illegal until the opponent answers, yet it is a plan
        return read_action(piece) is not None

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        hand, history = state["hand"], state["history"]
        allowed = _allowed(history)
        action = _resolve(read_action(move), allowed)
        made = state["made"] + 1
        values = {a: _value(data, hand, history, a) for a in allowed}
        best = max(values.values())
        if action is None or action not in allowed:
            why = "unreadable" if action is None else f"{action} is not allowed now"
            totals = add_loss(state["values"], best, min(values.values()))
            return Outcome({**state, "made": made, "values": totals}, Verdict.unparsed(why),
                           f"Invalid move: {why}; write one of {', '.join(allowed)}.")
        right = state["right"] + (values[action] >= best - EPSILON)
        totals = add_loss(state["values"], best, values[action])
        history = [*history, action]
        said = [f"You {action}."]
        reply = _opponent_reply(data, hand, history)
        if reply:
            history.append(reply)
            said.append(f"The opponent {reply}s.")
        if _allowed(history):  # the model acts again this hand (after check, bet: call or fold)
            state = {**state, "history": history, "made": made, "right": right, "values": totals}
            return Outcome(state, Verdict.wrong("hand goes on"), " ".join(said))
        chips, result = _settle(data, hand, history)
        report = hand_report(said, result)
        total = state["chips"] + chips
        if hand + 1 == data["hands"]:
            return game_over({**state, "history": history, "made": made, "right": right, "chips": total,
                              "values": totals}, report)
        verdict = Verdict(0.0, right == made, True, report)
        state = {"hand": hand + 1, "history": _opening(data, hand + 1), "made": 0, "right": 0, "chips": total,
                 "values": _new_hand(totals, data, hand + 1)}
        return Outcome(state, verdict, f"{report}\n\n{self._situation(data, hand + 1, state['history'])}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        allowed = _allowed(state["history"])
        return max(allowed, key=lambda a: _value(problem.data, state["hand"], state["history"], a))


    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return _allowed(state["history"])

    def honest_move(self, view: View) -> str:
        """The best response to the strategy estimated from the hands so far (see :func:`_estimate`)."""
        hands = _read_hands([view.prompt, *view.observations])
        return _honest_action({"cards": view.public["cards"], "strategy": _estimate(view.public["cards"], hands[:-1])},
                              hands[-1])

    def heuristics(self) -> dict[str, Policy]:
        def top(n: int, share: str) -> int:  # the lowest card of the top half, the top card, ...
            return {"all": 1, "half": n // 2 + 1, "top": n, "none": n + 1}[share]

        def rule(bet: str, call: str, first_checks: bool = False) -> Policy:
            def play(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                n, hand = problem.data["cards"], state["hand"]
                mine, _ = _deal(problem.data, hand)
                if "bet" in _allowed(state["history"]):
                    checks = first_checks and hand % 2 == 0
                    return "bet" if mine >= top(n, bet) and not checks else "check"
                return "call" if mine >= top(n, call) else "fold"

            return play

        return {"bet and call with the top half of the deck": rule("half", "half"),
                "always check or call": rule("none", "all"),
                "always bet or call": rule("all", "all"),
                "always check or fold": rule("none", "none"),
                "never fold (bet with the top half, call every bet)": rule("half", "all"),
                "bet the top card only, call with the top half": rule("top", "half"),
                "always bet, call with the top half": rule("all", "half"),
                "check when first; bet and call with the top half when second": rule("half", "half", True)}


_EVENT = re.compile(r"Hand (\d+) of \d+\. You act (first|second)\. Your card: (\d+)\.(?: The opponent (bet|check)s\.)?"
                    r"|You (check|bet|call|fold)\.|The opponent (check|bet|call|fold)s\.|Showdown: the opponent has (\d+)")


def _read_hands(texts: list[str]) -> list[dict[str, Any]]:
    """The hands so far, read from the prompt and observations: hand index, own card, actions, opponent's card."""
    hands: list[dict[str, Any]] = []
    for text in texts:
        for m in _EVENT.finditer(text):
            if m.group(1):
                hands.append({"hand": int(m.group(1)) - 1, "mine": int(m.group(3)),
                              "history": [m.group(4)] if m.group(4) else [], "theirs": None})
            elif hands and (m.group(5) or m.group(6)):
                hands[-1]["history"].append(m.group(5) or m.group(6))
            elif hands and m.group(7):
                hands[-1]["theirs"] = int(m.group(7))
    return hands


def _estimate(n: int, hands: list[dict[str, Any]]) -> dict[str, list[float]]:
    """The opponent's tendencies estimated from finished hands, per card, starting from a weak prior.

    Prior: betting half the time, calling more with stronger cards (two pseudo-observations each).
    A decision whose card stayed hidden (a fold, no showdown) counts for each possible card in
    proportion to how likely that card was to make it under the current estimate. The hands are
    taken in order (:func:`_prior`, :func:`_learn`), so the estimate grows hand by hand.
    """
    counts = _prior(n)
    for record in hands:
        _learn(counts, n, record)
    return _rates(counts, n)


def _prior(n: int) -> dict[str, list[list[float]]]:
    """The estimate's counts before any hand: per kind of decision and card, [times done, times seen]."""
    return {kind: [[2 * (c / n if kind == "call" else 0.5), 2.0] for c in range(1, n + 1)]
            for kind in ("open", "after_check", "call")}


def _rates(counts: dict[str, list[list[float]]], n: int) -> dict[str, list[float]]:
    return {kind: [yes / total for yes, total in counts[kind]] for kind in counts}


def _learn(counts: dict[str, list[list[float]]], n: int, record: dict[str, Any]) -> None:
    """Adds the opponent's decisions in the finished hand ``record`` to ``counts``."""
    def rate(kind: str, card: int) -> float:
        yes, total = counts[kind][card - 1]
        return yes / total

    history, first = record["history"], record["hand"] % 2 == 0
    decisions = []  # (kind, did it: bet or call)
    if not first and history:
        decisions.append(("open", history[0] == "bet"))
        if history[:2] == ["check", "bet"] and len(history) > 2:
            decisions.append(("call", history[2] == "call"))
    elif first and len(history) > 1:
        decisions.append(("after_check" if history[0] == "check" else "call", history[1] in ("bet", "call")))
    possible = [c for c in range(1, n + 1) if c != record["mine"]]
    for kind, did in decisions:
        if record["theirs"] is not None:
            weights = {record["theirs"]: 1.0}
        else:
            likely = {c: rate(kind, c) if did else 1 - rate(kind, c) for c in possible}
            total = sum(likely.values()) or 1.0
            weights = {c: w / total for c, w in likely.items()}
        for card, w in weights.items():
            counts[kind][card - 1][0] += w * did
            counts[kind][card - 1][1] += w


def _rule_score(task: KuhnPoker, data: dict[str, Any], rule: Policy) -> float:
    """The score of the deterministic ``rule`` on the problem ``data`` describes (:func:`_episode_score`). For tests
    and measurements."""
    problem = Problem(env_id=task.id, data=data)
    return _episode_score(data, _zero(data), lambda hand, mine, history: rule(
        problem, {"hand": hand, "history": history}, (), None))  # type: ignore[arg-type]


def _episode_score(data: dict[str, Any], zero: float, choose: Callable[[int, int, list[str]], str]) -> float:
    """The score of the player ``choose(hand, own card, actions so far)`` on the problem ``data`` describes: its
    episode played out with the sums :meth:`KuhnPoker.play` keeps, without the words, at the reward's ``zero``."""
    totals = [0.0, zero, 0.0]
    for hand in range(data["hands"]):
        mine, history = _deal(data, hand)[0], _opening(data, hand)
        totals = _new_hand(totals, data, hand)
        while _allowed(history):
            values = {a: _value(data, hand, history, a) for a in _allowed(history)}
            action = choose(hand, mine, history)
            totals = add_loss(totals, max(values.values()), values[action])
            history = [*history, action]
            reply = _opponent_reply(data, hand, history)
            if reply:
                history.append(reply)
    return regret_reward(*totals)


def _rules(data: dict[str, Any]) -> tuple[float, float, float, tuple[int, int, bool, bool]]:
    """(the most a threshold rule earns, the value of uniformly random decisions, the value of the best response, that
    rule: (bet from, call from, bluffs with the lowest card, checks when first))
    on the problem ``data`` describes, in expected chips summed over the dealt hands (each hand's value given the
    model's card and, moving second, the opponent's opening, as :meth:`KuhnPoker.play` sums them).

    A threshold rule bets (when it may) with a card of at least ``b`` (and, if it bluffs, with the lowest card
    too) and calls a bet with a card of at least ``c``, in both seats; or it does so in the second seat but always
    checks when it acts first (calling from ``c`` up). All ``b`` and ``c`` from 1 (every card) to n + 1 (none):
    ``4 (n + 1) ** 2`` rules, the thresholds that suit this opponent best included. Among them: always bet or
    call, always check or call, always check or fold, never fold, bet and call with the top half, bet the top
    card only and call with the top half."""
    n = data["cards"]
    rates = _rates_key(data["strategy"])  # once, not per valued decision
    counts: dict[tuple[Any, ...], int] = {}
    best_total = random_total = 0.0
    hand_values: dict[tuple[Any, ...], tuple[float, float]] = {}
    for hand in range(data["hands"]):
        key = (hand % 2, _deal(data, hand)[0], *_opening(data, hand))
        counts[key] = counts.get(key, 0) + 1
        if key not in hand_values:
            hand_values[key] = _hand_values(data, hand)
        best_total += hand_values[key][0]
        random_total += hand_values[key][1]
    first: list[tuple[int, int, float, float, float]] = []  # (count, card, bet, check then call, check then fold)
    second: dict[str, list[tuple[int, int, float, float]]] = {"check": [], "bet": []}  # (count, card, bold, meek)
    for (seat, mine, *opening), count in counts.items():
        if seat == 0:
            first.append((count, mine, _value(data, 0, [], "bet", mine=mine, rates=rates),
                          _value(data, 0, [], "check", later="call", mine=mine, rates=rates),
                          _value(data, 0, [], "check", later="fold", mine=mine, rates=rates)))
        else:
            bold, meek = ("bet", "check") if opening == ["check"] else ("call", "fold")
            second[opening[0]].append((count, mine, _value(data, 1, opening, bold, mine=mine, rates=rates),
                                       _value(data, 1, opening, meek, mine=mine, rates=rates)))
    def bets(mine: int, b: int, bluff: bool) -> bool:  # from b up, and the lowest card too when bluffing
        return mine >= b or (bluff and mine == 1)

    cuts, bluffs = range(1, n + 2), (False, True)
    led = {(b, c, bluff): sum(count * (bet if bets(mine, b, bluff) else call if mine >= c else fold)
                              for count, mine, bet, call, fold in first) for b in cuts for c in cuts for bluff in bluffs}
    behind = {(b, bluff): sum(count * (bold if bets(mine, b, bluff) else meek) for count, mine, bold, meek in second["check"])
              for b in cuts for bluff in bluffs}
    called = {c: sum(count * (bold if mine >= c else meek) for count, mine, bold, meek in second["bet"]) for c in cuts}
    # first seat: the rule's thresholds, or always check (and call from c up); second seat: the rule's thresholds
    earns = {(b, c, bluff, checks): (led[n + 1, c, False] if checks else led[b, c, bluff]) + behind[b, bluff] + called[c]
             for b in cuts for c in cuts for bluff in bluffs for checks in (False, True)}
    best_rule = max(earns, key=lambda rule: earns[rule])
    return earns[best_rule], random_total, best_total, best_rule


def _threshold_action(rule: tuple[int, int, bool, bool], hand: int, mine: int, history: list[str]) -> str:
    b, c, bluff, first_checks = rule
    if "bet" in _allowed(history):
        bets = (mine >= b or (bluff and mine == 1)) and not (first_checks and hand % 2 == 0)
        return "bet" if bets else "check"
    return "call" if mine >= c else "fold"


def _threshold_score(data: dict[str, Any], zero: float, rule: tuple[int, int, bool, bool]) -> float:
    """The score of the threshold ``rule`` (:func:`_rules`) played through the episode, at the reward's ``zero``."""
    return _episode_score(data, zero, lambda hand, mine, history: _threshold_action(rule, hand, mine, history))


def _zero(data: dict[str, Any]) -> float:
    """The reward's zero: :data:`MARGIN` of the room the best threshold rule leaves (to the best response) below
    that rule's value, and never under random play's (:func:`_rules`)."""
    return _zero_of(*_rules(data)[:3])


def _zero_of(rules: float, random_total: float, best_total: float) -> float:
    return max(random_total, rules - MARGIN * (best_total - rules))


def _honest_action(guess: dict[str, Any], current: dict[str, Any],
                   rates: tuple[tuple[float, ...], ...] | None = None) -> str:
    """The honest player's action in the hand ``current`` (a record of :func:`_read_hands`): the best response to
    the strategy in ``guess`` (the cards and the strategy estimated from the finished hands; ``rates``: its
    :func:`_rates_key`, if known)."""
    history = current["history"]
    return max(_allowed(history), key=lambda a: _value(guess, current["hand"], history, a, mine=current["mine"],
                                                       rates=rates))


def _honest_score(data: dict[str, Any], zero: float | None = None) -> float:
    """The honest player's score on the problem ``data`` describes: :meth:`KuhnPoker.honest_move` played through
    the episode on the records it would read from the words (the estimate grows when a hand ends). ``zero``: the
    reward's zero (:func:`_zero`), if known."""
    n = data["cards"]
    rates = _rates_key(data["strategy"])
    totals = [0.0, _zero(data) if zero is None else zero, 0.0]
    counts = _prior(n)
    values_at: dict[tuple[Any, ...], dict[str, float]] = {}
    best_at: dict[tuple[Any, ...], float] = {}
    for hand in range(data["hands"]):
        (mine, theirs), history = _deal(data, hand), _opening(data, hand)
        opened = (hand % 2, mine, *history)
        if opened not in best_at:  # the hand's best-response value, as :func:`_new_hand` adds it
            best_at[opened] = _hand_values(data, hand)[0]
        totals = add_hand(totals, best_at[opened], 0.0)
        guess = {"cards": n, "strategy": _rates(counts, n)}
        guess_rates = _rates_key(guess["strategy"])  # once per hand, not per valued action
        record = {"hand": hand, "mine": mine, "history": history, "theirs": None}
        while _allowed(history):
            key = (hand % 2, mine, *history)
            if key not in values_at:
                values_at[key] = {a: _value(data, hand, history, a, rates=rates) for a in _allowed(history)}
            action = _honest_action(guess, record, guess_rates)
            totals = add_loss(totals, max(values_at[key].values()), values_at[key][action])
            history = [*history, action]
            reply = _opponent_reply(data, hand, history)
            if reply:
                history.append(reply)
            record = {**record, "history": history}
        _learn(counts, n, {**record, "theirs": None if history[-1] == "fold" else theirs})
    return regret_reward(*totals)


def _new_hand(totals: list[float], data: dict[str, Any], hand: int) -> list[float]:
    """The running (achieved, zero, best) expected chips after hand ``hand`` is dealt: its best-response value
    joins the best and achieved sums (the zero is set once for the episode, :func:`_zero`)."""
    return add_hand(totals, _hand_values(data, hand)[0], 0.0)


def _hand_values(data: dict[str, Any], hand: int) -> tuple[float, float]:
    """Hand ``hand``'s value under best response and under uniformly random decisions, once dealt."""
    history = _opening(data, hand)
    allowed = _allowed(history)
    rates = _rates_key(data["strategy"])
    best = max(_value(data, hand, history, a, rates=rates) for a in allowed)
    random_value = sum(_value(data, hand, history, a, later="random", rates=rates) for a in allowed) / len(allowed)
    return best, random_value


def _resolve(action: str | None, allowed: list[str]) -> str | None:
    """The action ``pass`` stands for among ``allowed`` (check, else fold); any other action as read."""
    return ("check" if "check" in allowed else "fold") if action == PASS else action


def read_action(move: str) -> str | None:
    """``check``, ``bet``, ``call`` or ``fold`` (also ``pass``, ``raise``; a trailing remark is fine), or None."""
    if len(move) > MAX_MOVE_CHARS:
        return None
    return read_move_answer(move, lambda text: ACTIONS.get(text.strip().lower().rstrip(".!")))


def _deal(data: dict[str, Any], hand: int) -> tuple[int, int]:
    """(the model's card, the opponent's card)."""
    return _dealt(data["tape"], data["cards"], hand)


@functools.lru_cache(maxsize=65_536)
def _dealt(tape: int, cards: int, hand: int) -> tuple[int, int]:
    # Cached: the generator plays the simple rules through every hand of each candidate problem.
    mine, theirs = tape_rng(KuhnPoker.id, tape, "deal", hand).sample(range(1, cards + 1), 2)
    return mine, theirs


@functools.lru_cache(maxsize=65_536)
def _act_draw(tape: int, hand: int, index: int) -> float:
    """The uniform draw deciding the opponent's action number ``index`` of hand ``hand``."""
    return tape_rng(KuhnPoker.id, tape, "act", hand, index).random()


def _opening(data: dict[str, Any], hand: int) -> list[str]:
    """The actions before the model's first decision: the opponent's opening in even-numbered hands (model second)."""
    if hand % 2 == 0:
        return []
    _, theirs = _deal(data, hand)
    bets = _act_draw(data["tape"], hand, 0) < data["strategy"]["open"][theirs - 1]
    return ["bet" if bets else "check"]


def _opponent_reply(data: dict[str, Any], hand: int, history: list[str]) -> str | None:
    """The opponent's action after ``history`` if it is the opponent's turn, else None."""
    _, theirs = _deal(data, hand)
    draw = _act_draw(data["tape"], hand, len(history))
    strategy = data["strategy"]
    first = hand % 2 == 0  # the model is first
    if first and history == ["check"]:
        return "bet" if draw < strategy["after_check"][theirs - 1] else "check"
    if history[-1] == "bet" and len(history) in ((1, 3) if first else (2,)):
        return "call" if draw < strategy["call"][theirs - 1] else "fold"
    return None


def _allowed(history: list[str]) -> list[str]:
    """The model's options after ``history``, or [] when the hand is over (or it is not the model's turn)."""
    if not history:
        return ["check", "bet"]
    if history[-1] in ("fold", "call") or history[-2:] == ["check", "check"]:
        return []
    if history[-1] == "bet":
        return ["call", "fold"]
    return ["check", "bet"] if history == ["check"] else []


def _settle(data: dict[str, Any], hand: int, history: list[str]) -> tuple[int, str]:
    mine, theirs = _deal(data, hand)
    first = hand % 2 == 0
    if history[-1] == "fold":
        folder_is_model = (len(history) % 2 == 1) == first
        return (-1, "You lose 1 chip.") if folder_is_model else (1, "You win 1 chip.")
    stake = 2 if "bet" in history else 1
    won = stake if mine > theirs else -stake
    return won, f"Showdown: the opponent has {theirs}; you {'win' if won > 0 else 'lose'} {stake} chip{'s' * (stake > 1)}."


def _value(data: dict[str, Any], hand: int, history: list[str], action: str, later: str = "best",
           mine: int | None = None, rates: tuple[tuple[float, ...], ...] | None = None) -> float:
    """Expected chips of ``action`` now against ``data["strategy"]``, over the opponent's possible cards given
    what was seen, with the model's later decision (if any) at its best (``later="random"``: chosen at random;
    ``"call"`` or ``"fold"``: that one).
    ``mine``: the model's card (default: the one dealt). ``rates``: :func:`_rates_key` of ``data["strategy"]``, if
    the caller has it (the generator values many decisions against one strategy)."""
    if mine is None:
        mine, _ = _deal(data, hand)
    # Memoised by value: the generator values the same seat, card and actions over and over for each drawn strategy.
    if rates is None:
        rates = _rates_key(data["strategy"])
    return _strategy_value(data["cards"], rates, hand % 2 == 0, mine, tuple(history), action, later)


def _rates_key(strategy: dict[str, list[float]]) -> tuple[tuple[float, ...], ...]:
    """The opening, after-check and calling rates per card of ``strategy``, as :func:`_strategy_value`'s key."""
    return tuple(strategy["open"]), tuple(strategy["after_check"]), tuple(strategy["call"])


@functools.lru_cache(maxsize=1 << 16)
def _strategy_value(n: int, rates: tuple[tuple[float, ...], ...], first: bool, mine: int, history: tuple[str, ...],
                    action: str, later: str) -> float:
    """:func:`_value` for the strategy whose opening, after-check and calling rates per card are ``rates``.
    On lists in the order of the opponent's cards rather than dicts (it runs for every decision of every drawn
    opponent): the same sums, term by term in the same order, so the same floats."""
    opening, after_check, calls = rates
    others = [card for card in range(1, n + 1) if card != mine]
    weights = [1.0] * len(others)
    if not first:  # the opponent's opening tells something about its card
        bet_first = history[0] == "bet"
        weights = [opening[o - 1] if bet_first else 1 - opening[o - 1] for o in others]
    if first and history == ("check", "bet"):
        weights = [after_check[o - 1] for o in others]
    total = sum(weights)
    if total <= 0:
        return 0.0
    if action == "fold":
        return -1.0
    if action == "call":
        return sum(w * (2 if mine > o else -2) for w, o in zip(weights, others)) / total
    if action == "bet":
        return sum(w * (calls[o - 1] * (2 if mine > o else -2) + (1 - calls[o - 1]))
                   for w, o in zip(weights, others)) / total
    if not first:  # check behind: showdown for the antes
        return sum(w * (1 if mine > o else -1) for w, o in zip(weights, others)) / total
    bets = [after_check[o - 1] for o in others]
    call = sum(w * b * (2 if mine > o else -2) for w, b, o in zip(weights, bets, others))
    fold = -sum(w * b for w, b in zip(weights, bets))
    checked = sum(w * (1 - b) * (1 if mine > o else -1) for w, b, o in zip(weights, bets, others))
    then = {"best": max(call, fold), "random": (call + fold) / 2, "call": call, "fold": fold}[later]
    return (checked + then) / total
