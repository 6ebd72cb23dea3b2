"""Blackjack under house rules drawn per game, scored by the expected value of each decision against the best rule of thumb.

Each game draws its own rules and states them in the prompt: the shoe (an endless shoe, so every draw is
independent: each draw is a card from a full pack holding four of each rank except for two or three rank groups, one
of 2..9, the ten-valued ranks together or the ace, held 0, 1 or 8 times instead), the dealer's rule (it draws until
it has 15, 16, 17 or 18 or more, and from level 2 may hit a soft total of exactly that), the payout of a win (from
level 3: even money, 1.5 or 2 times the bet) and whether doubling is allowed. Each hand the player gets two cards
and sees the dealer's up card; the dealer has checked for blackjack (hands where either side has a natural are not
dealt). Each turn the model writes one decision: ``hit``, ``stand`` or, where the level allows it, ``double`` (on
the first two cards only: one more card and the bet doubled). The dealer then plays and the hand is settled and
shown. The cards come from a tape per hand drawn with the problem
(:func:`palaestra.envs.games.common.tape_uniform` scaled by the pack's counts, card ``i`` of hand ``h``), so a
replay deals the same cards.

Why drawn rules (version 4): with the usual game (four of each rank, the dealer standing on 17) the exact optimum is
the published basic-strategy chart, and a model that had memorised a chart scored 0.98-1.00 in version 3 without
computing anything. Under a drawn shoe, dealer total and payout the chart errs by 0.02 chips or more in 5-60% of
the dealt hands (median 15-26% per level; a game where it, or another rule that often leads, errs so in under 5% of
dealt hands is redrawn), and only computing expected values from the stated rules finds the best decision.

The reward does not depend on luck. Each decision has an exact expected value (the endless shoe, the dealer's rule
and payout, the cards seen, best play afterwards), computed for every hand state at once per game
(:class:`_Table`). The episode pays, when the last hand is settled,
``regret_reward(achieved, best_rule, best)``: ``achieved`` is the sum over the hands of the best decisions' value at
the deal less what each decision made gave up against the best one (an unreadable or illegal move counts as the
worst decision and costs a turn), ``best`` the sum of the best decisions' values, and ``best_rule`` the largest
``achieved`` of the rules of thumb in :data:`SIMPLE_RULES` played on the same cards at generation (the best one per
game, chosen after the fact): the published basic-strategy chart for the usual game (:func:`chart`: hard and soft
totals, doubling where allowed, written from the chart's known content), its version for a dealer hitting soft 17
and for this dealer's soft rule, the chart with its thresholds shifted by -4..+4 points, the chart with its hard
standing totals moved by -2..+2 (to the dealer's standing total), "stand on 12+ against 2-6, else hit below 17",
"hit below T" for every T in 12..21 (= "stand on T or more"; 21 is "always hit"), each also doubling on hard 10 and
11, "play like the dealer", "always stand", "always the most aggressive" (double, else hit) and "double when
allowed". So each of these rules scores exactly 0, random play scores 0 (it is far below them), and only decisions
better than the best rule on these hands earn reward.

Hands are drawn so that the rules keep making costly mistakes (and no reply repeated wins: "hit", "stand" and
"double" every turn are rules of the family, so they score 0): on a share of the hands (level 0: 2/3, level 1:
3/4, level 2: 2/3, level 3: 2/3, level 4: 3/4, spread evenly) the hand is drawn among the deals where the rule
leading so far (the largest running ``achieved``) loses at least :data:`RULE_LOSS` chips on its first decision.
A game is redrawn where the best play beats the best rule by less than the level's margin of its edge over uniformly
random decisions (levels 0-2: 5%, levels 3-4: 10%), so the scale is never a knife edge: measured over 40 games a
level, the best rule gives up 5-51% of that edge (median 11-23% per level). Measured over 40 games a level (levels 0, 2, 4):
every rule of the family 0.00, rules outside it 0.00-0.01 (the chart's decision flipped; the chart shifted by the
dealer's standing total and the count of ten-valued cards; "hit below the dealer's total, double on 10 and 11"; the
hit-soft-17 chart with thresholds -1), random decisions 0.00, exact play 1, and exact play with 5% (10%) of its
decisions random 0.63-0.87 (0.43-0.68); play that takes the chart's decision wherever it is within 0.02 chips of the
best scores 1.00. The chips won or lost are reported for flavour only.

Levels add hands, then doubling, the dealer's soft rule, a third changed rank group and the payout, and a larger
margin and share of hands drawn against the leading rule. The difficulty measure is the number of hands times the
number of decisions allowed, plus ten times the share of best play's edge over random play that the best rule gives
up.

Generation speed: 16-31 ms a problem per level (version 3: 12-29 ms) on this 2-core machine (measured with other work running). Each
draw of rules builds the value table (about 1,000 states) and checks the strong rules' error rate at once (a game is
drawn 1.3-2.5 times on average); each hand replays the 40 rules on its tape with their decisions cached per hand
state. The exact values are kept because each decision is scored by them, and the rule replays because the zero is
the best rule on these very cards.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, register, regret_reward, retry
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_uniform
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import squeeze_spaces, unify

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
POINTS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10, "K": 10, "A": 11}
# The usual pack: four of each rank (the game the published basic-strategy chart is for).
USUAL_COUNTS = (4,) * len(RANKS)
# A rank group (2..9 one rank each, the four ten-valued ranks together, the ace) a shoe may hold in another number.
GROUPS = (("2",), ("3",), ("4",), ("5",), ("6",), ("7",), ("8",), ("9",), ("10", "J", "Q", "K"), ("A",))
GROUP_COUNTS = (0, 1, 8)  # the count per rank of a changed group (the usual pack has 4)
ACTIONS = {"hit": "hit", "h": "hit", "hit me": "hit", "stand": "stand", "s": "stand", "stay": "stand",
           "stick": "stand", "double": "double", "d": "double", "double down": "double"}
EPSILON = 1e-9
RULE_LOSS = 0.02  # chips per unit bet
MIN_TRICKY_CHANCE = 0.05
DOUBLING_RULE = "double when allowed"


@dataclass(frozen=True)
class Rules:
    """One game's rules: the shoe, the dealer's rule, the payout and whether doubling is allowed (hashable)."""

    counts: tuple[int, ...]  # copies of each rank of RANKS per pack of the endless shoe
    stand: int  # the dealer stands on this total or more ...
    hits_soft: bool  # ... except that it hits a soft total of exactly ``stand``
    pay: float  # a won bet pays this many times the stake (a lost one costs the stake)
    double: bool  # doubling down allowed on the first two cards


# The usual game, indexed by whether the dealer hits a soft 17.
USUAL = (Rules(USUAL_COUNTS, 17, False, 1.0, True), Rules(USUAL_COUNTS, 17, True, 1.0, True))


def _rules(data: dict[str, Any]) -> Rules:
    return Rules(tuple(data["counts"]), data["stand"], data["hits_soft"], data["pay"], data["double"])


# --- the simple rules (the zero) ----------------------------------------------------------------------------------
# Each reads what a player sees of the hand: (total, soft, dealer's up card in points, doubling allowed now, rules).
SimpleRule = Callable[[int, bool, int, bool, Rules], str]


def chart(total: int, soft: bool, up: int, can_double: bool, hits_soft_17: bool = False) -> str:
    """The published basic-strategy chart for the usual game (infinite deck, dealer stands on 17 or, with
    ``hits_soft_17``, hits a soft 17; no splits): "double" where the chart doubles and doubling is allowed, else
    hit (stand for the chart's "double, else stand")."""
    double_or_hit = "double" if can_double else "hit"
    double_or_stand = "double" if can_double else "stand"
    if soft:
        if total >= 20:
            return "stand"
        if total == 19:
            return double_or_stand if hits_soft_17 and up == 6 else "stand"
        if total == 18:
            if 3 <= up <= 6 or (hits_soft_17 and up == 2):
                return double_or_stand
            return "stand" if up in (2, 7, 8) or (up == 11 and not hits_soft_17) else "hit"
        if total == 17:
            return double_or_hit if 3 <= up <= 6 else "hit"
        if total in (15, 16):
            return double_or_hit if 4 <= up <= 6 else "hit"
        if total in (13, 14):
            return double_or_hit if 5 <= up <= 6 else "hit"
        return "hit"
    if total >= 17:
        return "stand"
    if total >= 13:
        return "stand" if up <= 6 else "hit"
    if total == 12:
        return "stand" if 4 <= up <= 6 else "hit"
    if total == 11:
        return double_or_hit if up <= 10 or hits_soft_17 else "hit"
    if total == 10:
        return double_or_hit if up <= 9 else "hit"
    if total == 9:
        return double_or_hit if 3 <= up <= 6 else "hit"
    return "hit"


def _simple_rules() -> dict[str, SimpleRule]:
    rules: dict[str, SimpleRule] = {
        "basic-strategy chart": lambda t, s, u, d, r: chart(t, s, u, d),
        "basic-strategy chart (dealer hits soft 17)": lambda t, s, u, d, r: chart(t, s, u, d, True),
        "basic-strategy chart for the dealer's soft rule": lambda t, s, u, d, r: chart(t, s, u, d, r.hits_soft),
    }
    for shift in (-4, -3, -2, -1, 1, 2, 3, 4):  # the chart read `shift` points lower: its thresholds moved up
        rules[f"basic-strategy chart, thresholds {shift:+d}"] = (
            lambda k: lambda t, s, u, d, r: chart(max(4, min(21, t - k)), s, u, d))(shift)
    for shift in (-2, -1, 1, 2):  # the chart read against the dealer's standing total (17 -> the drawn one)
        rules[f"basic-strategy chart, stand totals {shift:+d}"] = (
            lambda k: lambda t, s, u, d, r: chart(t, s, u, d) if t < 12 or s else
            ("stand" if t >= 17 + k or (t >= 13 + k and u <= 6) or (t >= 12 + k and 4 <= u <= 6) else "hit"))(shift)
    rules["stiff hands: stand on 12+ against 2-6, else hit below 17"] = (
        lambda t, s, u, d, r: "stand" if t >= 17 or (t >= 12 and u <= 6 and not s) else "hit")
    for limit in range(12, 22):
        name = "stand on 12 or more" if limit == 12 else f"hit below {limit}"
        rules[name] = (lambda k: lambda t, s, u, d, r: "hit" if t < k else "stand")(limit)
        rules[f"hit below {limit}, double on 10 and 11"] = (
            lambda k: lambda t, s, u, d, r: "double" if d and not s and t in (10, 11) else
            ("hit" if t < k else "stand"))(limit)
    rules["play like the dealer"] = (
        lambda t, s, u, d, r: "hit" if t < r.stand or (t == r.stand and s and r.hits_soft) else "stand")
    rules["always stand"] = lambda t, s, u, d, r: "stand"
    rules["always the most aggressive (double, else hit)"] = lambda t, s, u, d, r: "double" if d else "hit"
    rules[DOUBLING_RULE] = lambda t, s, u, d, r: "double" if d else ("hit" if t < 17 else "stand")
    return rules


SIMPLE_RULES = _simple_rules()
# The rules declared to the kit (each played through the env per level): the chart and the textbook ones.
# The rules that most often play a game best (measured), checked first: a game where one of them is seldom wrong is
# redrawn before its hands are dealt.
STRONG_RULES = ("basic-strategy chart", "basic-strategy chart, stand totals -2", "basic-strategy chart, stand totals -1",
                "stand on 12 or more", "hit below 17, double on 10 and 11", "hit below 16, double on 10 and 11",
                "play like the dealer", "hit below 12, double on 10 and 11")
DECLARED = ("basic-strategy chart", "basic-strategy chart (dealer hits soft 17)", "basic-strategy chart, thresholds +1",
            "basic-strategy chart, thresholds -1", "stiff hands: stand on 12+ against 2-6, else hit below 17",
            "hit below 17", "stand on 12 or more", "hit below 15", "hit below 17, double on 10 and 11",
            "play like the dealer", "always stand", DOUBLING_RULE)


@register
class Blackjack(MultiTurnTask):
    id = "games/blackjack"
    family = "games"
    description = "Play blackjack hands under drawn house rules; each decision is scored by its exact expected value."
    tags = ("games", "multi-turn", "decision-making", "probability")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 4
    score_based = True

    @dataclass(frozen=True)
    class Config:
        hands: int
        double: bool  # doubling down allowed on the first two cards
        changes: int  # rank groups whose count in the pack differs from the usual four per rank
        stands: tuple[int, ...]  # the dealer's standing totals drawn from
        soft_rule: bool  # whether the dealer may hit a soft standing total (drawn)
        pays: tuple[float, ...]  # the payouts of a win drawn from
        tricky: float  # the share of hands drawn among those where the usual chart's first decision is wrong
        margin: float  # the best play beats the best simple rule by at least this share of its edge over random

    presets = (
        Config(30, False, 2, (16, 17, 18), False, (1.0,), 2 / 3, 0.05),
        Config(32, False, 2, (15, 16, 17, 18), False, (1.0,), 3 / 4, 0.05),
        Config(24, True, 2, (15, 16, 17, 18), True, (1.0,), 2 / 3, 0.05),
        Config(24, True, 3, (15, 16, 17, 18), True, (1.0, 1.5, 2.0), 2 / 3, 0.1),
        Config(24, True, 3, (15, 16, 17, 18), True, (1.0, 1.5, 2.0), 3 / 4, 0.1),
    )
    bounded = "levels are rule variants (drawn shoes, dealer rules, payouts, doubling) with a rising margin over the simple rules: no size to grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw_hand(rules: Rules, hand: int, against: frozenset[tuple[int, bool, int]]) -> int | None:
            tape = rng.getrandbits(48)
            deal = _deal(self.id, tape, hand, rules.counts)
            if _total(deal["player"])[0] == 21 or POINTS[deal["up"]] + POINTS[deal["hole"]] == 21:
                return None  # a natural on either side: a hand with no decision
            if against and (*_total(deal["player"]), POINTS[deal["up"]]) not in against:
                return None
            return tape

        def draw_game() -> dict[str, Any] | None:
            rules = _draw_rules(rng, config)
            if any(_rule_errors(rules, name)[1] < MIN_TRICKY_CHANCE for name in STRONG_RULES):
                return None  # a rule that often leads is seldom wrong under these rules: redraw them at once
            names = list(SIMPLE_RULES)
            running = [[0.0, 0.0] for _ in names]  # each rule's (achieved, best) sums as the env keeps them
            steps: list[dict[tuple[int, bool, int, bool], tuple[str, float]]] = [{} for _ in names]
            tapes: list[int] = []
            table = _table(rules)
            random_sum = 0.0
            for hand in range(config.hands):
                against: frozenset[tuple[int, bool, int]] = frozenset()
                if _is_tricky(hand, config.tricky):  # a hand where the leading rule's first decision is wrong
                    leader = max(range(len(names)), key=lambda i: (running[i][0], -i))
                    against, chance = _rule_errors(rules, names[leader])
                    if chance < MIN_TRICKY_CHANCE:
                        return None  # a simple rule is seldom wrong under these rules: a knife-edge scale
                # a deal has no natural at least 4 times in 5 and is one against the leader at least 1 time in 20
                # then: 400 draws fail about once in 10^7
                tape = retry(functools.partial(draw_hand, rules, hand, against), attempts=400,
                             what="a hand without a natural")
                tapes.append(tape)
                _play_rules(self.id, tape, hand, rules, running, steps)
                deal = _deal(self.id, tape, hand, rules.counts)
                random_sum += table.random(*_total(deal["player"]), POINTS[deal["up"]], rules.double)
            best = running[0][1]
            zero, name = max((sums[0], name) for sums, name in zip(running, names, strict=True))
            if best - zero < config.margin * (best - random_sum):
                return None  # a simple rule plays these hands almost as well as exact play: a knife-edge scale
            return {"tapes": tapes, "hands": config.hands, "counts": list(rules.counts), "stand": rules.stand,
                    "hits_soft": rules.hits_soft, "pay": rules.pay, "double": rules.double, "zero": zero,
                    "best_rule": name, "margin": (best - zero) / (best - random_sum)}

        # measured: 1.2-2.5 draws of rules per game (40 games a level), so 300 attempts never run out
        data = retry(draw_game, attempts=300, what="rules and hands where the simple rules fall short")
        rules = _rules(data)
        choices = "hit, stand or double" if config.double else "hit or stand"
        double = (" Double (only on your first two cards) doubles your bet and gives you exactly one more card."
                  if config.double else "")
        prompt = (
            f"Let's play {config.hands} hands of blackjack against the dealer, under this table's own rules. "
            f"{_shoe_text(rules.counts)} Number cards count their number, J, Q and K count 10, an ace counts 11 "
            f"or 1. Going over 21 loses. The dealer has already checked for blackjack, and draws after you: "
            f"{_dealer_text(rules)} {_pay_text(rules.pay)}{double}\n\n"
            "Your score rewards good decisions, not luck: each decision is valued by its exact expected winnings "
            "under these rules, and the score compares your decisions with the best of a broad family of fixed "
            "rules of thumb played on the same hands (the published basic-strategy chart of the usual game and "
            "versions of it with shifted thresholds, hitting below a fixed total, playing like the dealer, "
            "always standing, always doubling or hitting): matching the best of them scores 0 (or less, counted "
            "as 0), decisions that always have the highest expected value score 1. The score is paid when the "
            "last hand is settled; an unreadable move counts as the worst decision.\n\n"
            f"{_situation(config.hands, 0, _deal(self.id, data['tapes'][0], 0, rules.counts))}\n\n"
            f"Each turn, write one decision ({choices}), for example: stand"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return 12 * problem.data["hands"]  # a shoe of small cards makes long hands

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        # More hands and decisions, and a larger share of the edge over random play that the best rule gives up.
        return data["hands"] * (3 if data["double"] else 2) + 10 * data["margin"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        deal = _deal(self.id, problem.data["tapes"][0], 0, tuple(problem.data["counts"]))
        return {"hand": 0, "cards": deal["player"], "made": 0, "right": 0,
                "values": _new_hand([0.0, 0.0], _rules(problem.data), deal)}

    def reads_as_move(self, problem: Problem, state: dict[str, Any], piece: str) -> bool:
        # "bet, call": the second action is illegal until the opponent answers, yet it is a plan
        return read_action(piece) is not None

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        rules = _rules(data)
        hand, cards = state["hand"], state["cards"]
        up = _card(self.id, data["tapes"][hand], hand, 1, rules.counts)
        allowed = _allowed(data, cards)
        values = _decision_values(rules, cards, up)
        action = read_action(move)
        made = state["made"] + 1
        if action is None or action not in allowed:
            why = "unreadable" if action is None else f"{action} is not allowed now"
            state = {**state, "made": made, "values": _add_loss(state["values"], values, min(values.values()))}
            return Outcome(state, Verdict.unparsed(why), f"Invalid move: {why}; write one of {', '.join(allowed)}.")
        right = state["right"] + (values[action] >= max(values.values()) - EPSILON)
        totals = _add_loss(state["values"], values, values[action])
        if action == "hit":
            cards = [*cards, _card(self.id, data["tapes"][hand], hand, 2 + len(cards), rules.counts)]
            total, _ = _total(cards)
            if total < 21:
                state = {**state, "cards": cards, "made": made, "right": right, "values": totals}
                return Outcome(state, Verdict.wrong("hand goes on"),
                               f"You draw {cards[-1]}. {_hand_text(cards)} Dealer shows {up}.")
        elif action == "double":
            cards = [*cards, _card(self.id, data["tapes"][hand], hand, 2 + len(cards), rules.counts)]
        return self._settle(problem, hand, cards, action == "double", made, right, totals)

    def _settle(self, problem: Problem, hand: int, cards: list[str], doubled: bool, made: int, right: int,
                totals: list[float]) -> Outcome:
        """Finish the hand: the dealer draws, the result is shown, the hand's share is paid, the next is dealt."""
        data = problem.data
        rules = _rules(data)
        deal = _deal(self.id, data["tapes"][hand], hand, rules.counts)
        dealer = [deal["up"], deal["hole"]]
        total, _ = _total(cards)
        drawn = 2 + len(cards)
        if total <= 21:
            for _ in range(30):  # a dealer never needs more than about a dozen cards
                if _dealer_stands(*_total(dealer), rules):
                    break
                dealer.append(_card(self.id, data["tapes"][hand], hand, drawn, rules.counts))
                drawn += 1
        dealer_total, _ = _total(dealer)
        stake = 2 if doubled else 1
        chips: float  # a win pays the table's payout (1, 1.5 or 2 times the stake)
        if total > 21:
            result, chips = f"You bust with {total}.", -stake
        elif dealer_total > 21:
            result, chips = f"The dealer has {', '.join(dealer)} and busts.", stake * rules.pay
        else:
            sign = (total > dealer_total) - (total < dealer_total)
            chips = stake * (rules.pay if sign > 0 else sign)
            outcome = {1: "you win", 0: "a push", -1: "you lose"}[sign]
            result = f"You have {total}; the dealer has {', '.join(dealer)} = {dealer_total}: {outcome}."
        if doubled:
            result = f"You double and draw {cards[-1]}. {result}"
        elif len(cards) > 2 and total >= 21:  # the hit that ended the hand
            result = f"You draw {cards[-1]}. {result}"
        # Not how many decisions were the best: that tally would teach the drawn rules' best play hand by hand.
        report = f"{result} Chips this hand: {chips:+g}."
        if hand + 1 == data["hands"]:
            reward = regret_reward(totals[0], data["zero"], totals[1])
            verdict = Verdict(reward, reward >= 1.0 - EPSILON, True, report)
            return Outcome({"hand": hand, "cards": cards, "made": made, "right": right, "values": totals}, verdict,
                           f"{report} That was the last hand; your score is {reward:.2f}.", True)
        verdict = Verdict(0.0, right == made, True, report)
        following = _deal(self.id, data["tapes"][hand + 1], hand + 1, rules.counts)
        state = {"hand": hand + 1, "cards": following["player"], "made": 0, "right": 0,
                 "values": _new_hand(totals, rules, following)}
        return Outcome(state, verdict, f"{report}\n\n{_situation(data['hands'], hand + 1, following)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        rules = _rules(data)
        values = _decision_values(rules, state["cards"], _card(self.id, data["tapes"][state["hand"]], state["hand"], 1,
                                                               rules.counts))
        return max(_allowed(data, state["cards"]), key=values.__getitem__)

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return _allowed(problem.data, state["cards"])

    def heuristics(self) -> dict[str, Policy]:
        def policy(rule: SimpleRule) -> Policy:
            def play(problem: Problem, state: dict[str, Any], history: Any, rng: Any) -> str:
                data = problem.data
                rules = _rules(data)
                up = _card(self.id, data["tapes"][state["hand"]], state["hand"], 1, rules.counts)
                total, soft = _total(state["cards"])
                return rule(total, soft, POINTS[up], rules.double and len(state["cards"]) == 2, rules)
            return play

        return {name: policy(SIMPLE_RULES[name]) for name in DECLARED}


def _is_tricky(hand: int, share: float) -> bool:
    """Whether hand ``hand`` is one drawn where the chart errs: spread evenly, ``share`` of the hands."""
    return int((hand + 1) * share) > int(hand * share)


@functools.lru_cache(maxsize=256)
def _start_states(rules: Rules) -> tuple[tuple[int, bool, int, float, dict[str, float], float], ...]:
    """The first-decision states of a dealt hand without a natural: (total, soft, up, chance, the decisions' values,
    the best value)."""
    table = _table(rules)
    odds = table.odds
    pairs: dict[tuple[int, bool], float] = {}
    for first, p in odds:
        for second, q in odds:
            state = _add(*_add(0, False, first), second)
            if state[0] != 21:
                pairs[state] = pairs.get(state, 0.0) + p * q
    chances = {(*state, up): p * r * sum(h for v, h in odds if up + v != 21)
               for state, p in pairs.items() for up, r in odds}
    size = sum(chances.values())
    states = []
    for (total, soft, up), p in chances.items():
        values = table.values(total, soft, up, rules.double)
        states.append((total, soft, up, p / size, values, max(values.values())))
    return tuple(states)


@functools.lru_cache(maxsize=4096)
def _rule_errors(rules: Rules, name: str) -> tuple[frozenset[tuple[int, bool, int]], float]:
    """The first-decision states where the simple rule ``name``'s decision loses at least :data:`RULE_LOSS` chips
    against the best under ``rules``, and the chance that a dealt hand is one of them."""
    rule = SIMPLE_RULES[name]
    wrong, chance = set(), 0.0
    for total, soft, up, p, values, best in _start_states(rules):
        if best - values[rule(total, soft, up, rules.double, rules)] >= RULE_LOSS:
            wrong.add((total, soft, up))
            chance += p
    return frozenset(wrong), chance


def _draw_rules(rng: random.Random, config: Blackjack.Config) -> Rules:
    """A shoe with ``config.changes`` rank groups in other numbers, a dealer rule and a payout."""
    counts = dict.fromkeys(RANKS, 4)
    for group in rng.sample(GROUPS, config.changes):
        count = rng.choice(GROUP_COUNTS)
        for rank in group:
            counts[rank] = count
    hits_soft = config.soft_rule and rng.random() < 0.5
    return Rules(tuple(counts[rank] for rank in RANKS), rng.choice(config.stands), hits_soft, rng.choice(config.pays),
                 config.double)


def _shoe_text(counts: Sequence[int]) -> str:
    changed = []
    for group in GROUPS:
        count = counts[RANKS.index(group[0])]
        if count != 4:
            names = f"{', '.join(group[:-1])} and {group[-1]}" if len(group) > 1 else group[0]
            amount = "none" if count == 0 else f"{count} card{'s' if count > 1 else ''}{' each' if len(group) > 1 else ''}"
            changed.append(f"{names}: {amount}")
    return (f"Cards come from an endless shoe: every draw is one card from a full pack of {sum(counts)} cards "
            f"holding four cards of each rank except these ({'; '.join(changed)}), so a rank's chance on every draw is "
            f"its count out of {sum(counts)}, whatever was drawn before.")


def _dealer_text(rules: Rules) -> str:
    soft = f", except that it hits a soft {rules.stand} (an ace counted as 11)" if rules.hits_soft else ""
    return f"the dealer draws until it has {rules.stand} or more and then stands{soft}."


def _pay_text(pay: float) -> str:
    if pay == 1.0:
        return "A win pays even money (your bet again), a push returns your bet, a loss loses it."
    return f"A win pays {pay:g} times your bet, a push returns your bet, a loss loses it."


def _dealer_stands(total: int, soft: bool, rules: Rules) -> bool:
    return total > rules.stand or (total == rules.stand and not (soft and rules.hits_soft))


class _Table:
    """Exact expected chips under one game's rules (endless shoe), for every hand state and up card.

    Built at once, the states in an order where each one's successors come first: hard 21 down to 11 (a card
    leads only to a larger hard total), soft 21 down to 12 (a larger soft total or a hard total of 12 or more),
    then hard 10 down to 4 (a larger hard total or a soft total)."""

    ORDER = ([(t, False) for t in range(21, 10, -1)] + [(t, True) for t in range(21, 11, -1)]
             + [(t, False) for t in range(10, 3, -1)])

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        size = sum(rules.counts)
        odds: dict[int, float] = {}
        for rank, count in zip(RANKS, rules.counts, strict=True):
            if count:
                odds[POINTS[rank]] = odds.get(POINTS[rank], 0.0) + count / size
        self.odds = tuple(sorted(odds.items()))
        self._dealer_from: dict[tuple[int, bool], dict[int, float]] = {}
        self._dealer = {up: self._dealer_final(up) for up in range(2, 12)}
        self._stand: dict[int, list[float]] = {}
        self._values: dict[tuple[int, bool, int, bool], dict[str, float]] = {}
        self._random: dict[tuple[int, bool, int, bool], float] = {}
        moves = {(t, soft): [(_add(t, soft, v), p) for v, p in self.odds] for t, soft in self.ORDER}
        for up in range(2, 12):
            finals = self._dealer[up]
            stand = self._stand[up] = [self._stand_total(t, finals) for t in range(22)]
            after: dict[tuple[int, bool], float] = {}  # a hand just hit to this state, played on optimally

            def then(state: tuple[int, bool]) -> float:
                total = state[0]
                return -1.0 if total > 21 else stand[21] if total == 21 else after[state]  # noqa: B023

            for state in self.ORDER:
                hit = sum(p * then(nxt) for nxt, p in moves[state])
                after[state] = max(hit, stand[state[0]])
                double = 2 * sum(p * (stand[nxt[0]] if nxt[0] <= 21 else -1.0) for nxt, p in moves[state])
                self._values[(*state, up, False)] = {"hit": hit, "stand": stand[state[0]]}
                self._values[(*state, up, True)] = {"hit": hit, "stand": stand[state[0]], "double": double}

    def _stand_total(self, total: int, finals: dict[int, float]) -> float:
        pay = self.rules.pay
        return sum(p * (pay if final == 22 or total > final else 0.0 if total == final else -1.0)
                   for final, p in finals.items())

    def _dealer_final(self, up: int) -> dict[int, float]:
        hole_odds = [(v, p) for v, p in self.odds if up + v != 21] or list(self.odds)
        norm = sum(p for _, p in hole_odds)
        result: dict[int, float] = {}
        for hole, p in hole_odds:
            for final, q in self.dealer_from(*_add(*_add(0, False, up), hole)).items():
                result[final] = result.get(final, 0.0) + p / norm * q
        return result

    def dealer(self, up: int) -> dict[int, float]:
        """Probabilities of the dealer's final total (22 = bust) given the up card, knowing it has no blackjack."""
        return self._dealer[up]

    def dealer_from(self, total: int, soft: bool) -> dict[int, float]:
        if total > 21:
            return {22: 1.0}
        if _dealer_stands(total, soft, self.rules):
            return {total: 1.0}
        result = self._dealer_from.get((total, soft))
        if result is None:
            result = {}
            for value, p in self.odds:
                for final, q in self.dealer_from(*_add(total, soft, value)).items():
                    result[final] = result.get(final, 0.0) + p * q
            self._dealer_from[(total, soft)] = result
        return result

    def stand(self, total: int, up: int) -> float:
        return -1.0 if total > 21 else self._stand[up][total]

    def values(self, total: int, soft: bool, up: int, can_double: bool) -> dict[str, float]:
        """The exact expected chips of each allowed decision now, playing optimally afterwards."""
        return self._values[(total, soft, up, can_double)]

    def random(self, total: int, soft: bool, up: int, can_double: bool) -> float:
        """Exact expected chips of choosing uniformly at random among the allowed decisions, now and after."""
        if total >= 21:  # 21 after a hit ends the hand (the game stands for the player)
            return self.stand(total, up)
        key = (total, soft, up, can_double)
        value = self._random.get(key)
        if value is None:
            values = self.values(total, soft, up, can_double)
            hit = sum(p * self.random(*_add(total, soft, v), up, False) for v, p in self.odds)
            options = [values["stand"], hit, *([values["double"]] if can_double else [])]
            value = self._random[key] = sum(options) / len(options)
        return value


@functools.lru_cache(maxsize=256)
def _table(rules: Rules) -> _Table:
    return _Table(rules)


def _play_rules(env_id: str, tape: int, hand: int, rules: Rules, running: list[list[float]],
                steps: list[dict[tuple[int, bool, int, bool], tuple[str, float]]]) -> None:
    """Play hand ``hand`` by every simple rule, updating each rule's running (achieved, best) sums exactly as the env
    keeps them.

    ``steps`` caches per rule its decision and the decision's loss per hand state (total, soft, up, two cards): the
    rules read nothing else, and under one game's rules the values depend on nothing else."""
    deal = _deal(env_id, tape, hand, rules.counts)
    up = POINTS[deal["up"]]
    best = max(_decision_values(rules, deal["player"], deal["up"]).values())
    start = (*_total(deal["player"]), up, True)
    table = _table(rules)
    for i, rule in enumerate(SIMPLE_RULES.values()):
        achieved, cards, key = running[i][0] + best, deal["player"], start
        for _ in range(30):
            step = steps[i].get(key)
            if step is None:
                total, soft, _, two = key
                values = table.values(total, soft, up, rules.double and two)
                action = rule(total, soft, up, rules.double and two, rules)
                step = steps[i][key] = action, max(values.values()) - values[action]
            achieved -= step[1]
            if step[0] != "hit":
                break
            cards = [*cards, _card(env_id, tape, hand, 2 + len(cards), rules.counts)]
            total, soft = _total(cards)
            if total >= 21:
                break
            key = (total, soft, up, False)
        running[i] = [achieved, running[i][1] + best]


def _decision_values(rules: Rules, cards: Sequence[str], up: str) -> dict[str, float]:
    """The exact expected chips of each allowed decision now (best play afterwards)."""
    total, soft = _total(cards)
    return _table(rules).values(total, soft, POINTS[up], rules.double and len(cards) == 2)


def _new_hand(totals: list[float], rules: Rules, deal: dict[str, Any]) -> list[float]:
    """The running (achieved, best) expected chips after a new hand is dealt: the hand adds its value under best
    play to both (the achieved sum then loses what each decision gives up)."""
    best = max(_decision_values(rules, deal["player"], deal["up"]).values())
    return [totals[0] + best, totals[1] + best]


def _add_loss(totals: list[float], values: dict[str, float], chosen: float) -> list[float]:
    """The running sums after one decision: the achieved sum loses what the decision gave up against the best."""
    return [totals[0] - (max(values.values()) - chosen), totals[1]]


def read_action(move: str) -> str | None:
    """``hit``, ``stand`` or ``double`` from the move (``H``, ``stay``, ``double down``, a trailing remark), or None."""
    if len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> str | None:
        return ACTIONS.get(squeeze_spaces(unify(text)).strip().lower().rstrip(".!").strip())

    return read_move_answer(move, read)


@functools.lru_cache(maxsize=65_536)
def _card(env_id: str, tape: int, hand: int, index: int, counts: tuple[int, ...] = USUAL_COUNTS) -> str:
    """Card ``index`` of hand ``hand``: 0 and 2 the player's first two, 1 the dealer's up card, 3 the hole card,
    then every further card in the order drawn; a rank's chance is its count out of the pack's size."""
    point = tape_uniform(env_id, tape, hand, index) * sum(counts)
    for rank, count in zip(RANKS, counts, strict=True):
        if point < count:
            return rank
        point -= count
    return max((rank for rank, count in zip(RANKS, counts, strict=True) if count), key=RANKS.index)  # rounding


def _deal(env_id: str, tape: int, hand: int, counts: tuple[int, ...] = USUAL_COUNTS) -> dict[str, Any]:
    return {"player": [_card(env_id, tape, hand, 0, counts), _card(env_id, tape, hand, 2, counts)],
            "up": _card(env_id, tape, hand, 1, counts), "hole": _card(env_id, tape, hand, 3, counts)}


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
    """A hand's (total, soft) after drawing a card of ``value`` (11 for an ace): soft while an ace counts 11."""
    total += value
    if value == 11:
        if total > 21:
            total -= 10  # the new ace counts 1
        else:
            soft = True
    if total > 21 and soft:
        total, soft = total - 10, False
    return total, soft


# --- the usual game (four of each rank, dealer stands on 17 or hits a soft 17, even money): the chart's game ---

def _dealer_outcomes(up: int, hit_soft_17: bool) -> dict[int, float]:
    return _table(USUAL[hit_soft_17]).dealer(up)


def _stand_value(total: int, up: int, hit_soft_17: bool) -> float:
    return _table(USUAL[hit_soft_17]).stand(total, up)


def _action_value(action: str, total: int, soft: bool, up: int, hit_soft_17: bool) -> float:
    """Exact expected chips of ``action`` in the usual game now, playing optimally afterwards."""
    return _table(USUAL[hit_soft_17]).values(total, soft, up, True)[action]


def _random_value(total: int, soft: bool, up: int, hit_soft_17: bool, can_double: bool) -> float:
    return _table(USUAL[hit_soft_17]).random(total, soft, up, can_double)
