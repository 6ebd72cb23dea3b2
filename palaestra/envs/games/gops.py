"""GOPS (Goofspiel): bid cards for prizes against a scripted opponent, simultaneous sealed bids.

Both players hold the cards 1..n; the prizes are another 1..n, turned up one per round in an
order drawn with the problem. Each round both bid one of their remaining cards at the same time;
the higher bid takes the prize (worth its number), equal bids discard it, bid cards are spent.
After n rounds the higher prize total wins.

Reward (since version 5): regret-normalised final margin (own prize total minus the opponent's),
``regret_reward(margin, zero, best)`` (:func:`palaestra.core.multiturn.regret_reward`). ``best`` is the reference
player's margin on the deal (the oracle below); the **zero is the best final margin, at least 0, that any of the simple
rules of :data:`RULES` reaches on the same deal against the same opponent** (each rule's margin is computed exactly at
generation by :func:`_rule_margin`: the opponent is deterministic), and the generator keeps only deals where ``best``
exceeds that zero. So every simple rule scores 0 on every deal, only a win can score (the zero is at least 0), and a
player scores by beating the best fixed rule's margin. The rules (declared heuristics, so the kit keeps checking them):
"the lowest card at least the prize + k, else the lowest" for k = -1..5, the margin cycles that beat earlier opponents
(:data:`PERIODIC`), "match the prize", always the highest card, always the lowest, the card of the prize's rank among
the prizes left (and one rank above it), the highest card on the highest prize left (else the lowest), and the highest
card on the top half of the prizes left (else the lowest). Before version 5 a win scored 1: against v4's random
level-0 bidder "match the prize" and "the lowest card at least the prize" won 0.90 and random cards 0.40, and "the
highest card on the top half of the prizes left, else the lowest" won 0.78, 0.62, 0.45 at levels 0, 2, 4 (40 problems
a level); random cards won 0.23-0.30 at levels 2-4.

Every level (level 0 too since version 5; it faced a random bidder from a tape before, against which an honest
player cannot plan: it scored 0.00 under this zero) faces the *pattern* opponent, whose bids follow the player's: it
forecasts the player's margin (bid minus prize; a wasted round bids 0) as the margin p rounds ago for the shortest
period p of 1-4 that the player's last three margins repeat, else the lower median of the margins so far (0 in round
1); it forecasts the player's bid as the player's lowest card at least the prize plus that margin (else the lowest),
and outbids that with its cheapest card above it when that costs at most the prize + 4, else bids its card nearest the
prize. (Earlier opponents were beaten by rules that ignore them; cycles of margins of period up to 3 won 0.65-0.86
against v3's opponents; periods up to 4 are forecast because a forecaster of periods 1-3 lost about half its games to
the cycle (2, -1, -1, 1).) The pattern opponent's bids are known to a player who reads the rule and the history, so the
oracle (:func:`_rollout_best`) tries every card now, each followed to the end by each simple full-knowledge rule of
:data:`FOLLOWERS` (:func:`_smart`: take the prize with the cheapest card beating the opponent's known bid when that
card is at most one above the card matching the prize's rank, else throw the lowest card; :func:`_beat`: always the
cheapest card beating the known bid, else the lowest), and plays the best: a rollout improvement, whose final margin
never falls below the first found (a player may beat it: the reward is capped at 1).

Solving the game is modelling the opponent: a player who computes the pattern opponent's bid from its stated rule and
beats it with its cheapest card scores 0.95, 0.98, 0.98 at levels 0, 2, 4 (40 problems a level; v4's honest rule on
the known bid, :func:`_smart` alone, 0.07, 0.45, 0.51); rules that ignore the opponent score 0. The honest player
(:meth:`Gops.honest_move`) does not know the prize order: it computes the opponent's bid from the stated rule and
tries every card now followed by each rule of :data:`FOLLOWERS`, averaged over :data:`HONEST_ORDERS` prize orders
drawn for the rounds left. Measured (version 5, 40 problems a level, levels 0, 2, 4): the honest player 0.95, 0.98,
0.98 (kit, all five levels: about 0.9 or more); every rule of :data:`RULES` 0.00 (by construction); uniformly random
cards 0.03, 0.00, 0.00; the oracle 1.
Each turn the model writes one card number (``5``, ``bid 5``); a card it does not hold, or an unreadable bid, costs
the round (it bids nothing and loses the prize unless the opponent bids nothing too, which never happens).

Levels grow the hand (6, 9, 11, 12, 13 cards). The difficulty measure is the hand size plus the opponent's style rank
(3 for the pattern style: the ranks of versions 1-3, where 0 was the random style and 1 and 2 the nearest-card
styles; the random style, its bids from a tape, left the code with version 5, when no level used it any more).

Generation speed: each drawn deal is played by the oracle's rollouts and by every rule of :data:`RULES`: about 7 ms
of CPU a problem at 13 cards on this 2-core machine (version 5; version 4: 1.6 ms).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, regret_reward, retry
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.numeric import read_integer

STYLES = {"pattern": "forecasts your margin this round (a margin being your bid minus that round's prize, a wasted "
                     "round counting as a bid of 0) as your margin p rounds ago, for the smallest p of 1 to 4, no "
                     "more than the rounds played, such that each of your last three margins equals your margin p "
                     "rounds before it (where there is one); when no such p fits, as the lower middle one of your "
                     "margins so far; in round 1, as 0. It forecasts your bid as your lowest card at least the prize "
                     "plus that margin, or your lowest card when none is that high, and bids its cheapest card above "
                     "that forecast when that card is at most the prize plus 4, and otherwise the card in its hand "
                     "nearest to the prize (the lower one on a tie)"}
RANK = {"pattern": 3}
PATTERN_CAP = 4  # the pattern style outbids its forecast of the player's bid only up to the prize + 4
PATTERN_PERIODS = (1, 2, 3, 4)  # the periods the pattern style tries, shortest first
HONEST_ORDERS = 6  # prize orders the honest player samples for its rollouts
PATTERN_WINDOW = 3  # how many of the player's last margins a period must fit
# Margin cycles that beat earlier opponents (up to 0.86 at level 4 in version 3): declared heuristics.
PERIODIC = ((2, -1), (2, 0), (2, -1, 0), (2, 0, -1), (2, 1, -1), (5, -1, 1), (3, -1, 3), (0, 2, -1), (2, -1, -1, 1))
_CARDS = re.compile(r"We both hold the cards 1 to (\d+)")
_PRIZE = re.compile(r"the prize is (\d+)")
_HAND = re.compile(r"Your cards: ([\d, ]+)\.")
_THEIR_BID = re.compile(r"The opponent bid (\d+)")
_PRIZE_DONE = re.compile(r"for prize (\d+)")
_MINE = re.compile(r"You bid (\d+)\.")
_LEAD = re.compile(r"^\s*(?:(?:bid|play)\s+(?:card\s+)?|card\s+)", re.IGNORECASE)  # "bid 5", "card 5"


@register
class Gops(MultiTurnTask):
    id = "games/gops"
    version = 5
    family = "games"
    description = "Goofspiel: bid cards for prizes in sealed simultaneous bids against a scripted bidder."
    tags = ("games", "multi-turn", "two-player", "simultaneous-moves")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True  # the prize order and the opponent's draws
    score_based = True  # since version 5: the final margin, regret-normalised between the best simple rule and the reference

    @dataclass(frozen=True)
    class Config:
        cards: int
        style: str

    presets = (Config(6, "pattern"), Config(9, "pattern"), Config(11, "pattern"), Config(12, "pattern"),
               Config(13, "pattern"))
    bounded = "the presets end at 13 cards, a suit of the standard deck"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.cards

        def draw() -> dict[str, Any] | None:
            data: dict[str, Any] = {"cards": n, "style": config.style, "tape": rng.getrandbits(48)}
            prizes = data["prizes"] = rng.sample(range(1, n + 1), n)  # drawn after the tape, as v2 does
            cards = list(range(1, n + 1))  # its bids follow the player's: the oracle's line must win
            best = _rollout_best(prizes, 0, cards, cards, [], 0)[0]
            zero = max(0, max(_rule_margin(data, rule) for rule in RULES.values()))
            return {**data, "best": best, "zero": zero} if best > zero else None

        data = retry(draw, attempts=200, what="an opponent the best reply beats by more than every simple rule")
        prompt = (
            f"Let's play GOPS. We both hold the cards 1 to {config.cards}. Prizes 1 to {config.cards} are turned up "
            "one per round; each round we both bid one of our remaining cards at the same time. The higher bid "
            "takes the prize (worth its number); equal bids discard it; bid cards are used up. After the last round "
            "the higher prize total wins. Your margin is your prize total minus the opponent's; only a win scores: "
            "your reward is 0 up to the best margin (at least 0) that a set of simple fixed bidding rules reaches "
            "against this opponent on this deal, rising evenly to 1 at the margin of a reference player who knows "
            f"the prize order. The opponent {STYLES[config.style]}.\n\n"
            f"Round 1: the prize is {data['prizes'][0]}. Your cards: {_hand_text(list(range(1, n + 1)))}.\n"
            "Each turn, bid one card by its number, for example: 3. A card you do not hold wastes the round."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["cards"]

    constant_difficulty = "a shuffled prize order against an opponent of the level's style: the same decisions every deal"

    def honest_move(self, view: View) -> str:
        """Predict the opponent's bid from its stated style and the cards it has left (the pattern style's bid is known
        exactly from the margins so far and the hand: try each card now followed by each rule of :data:`FOLLOWERS` over
        sampled prize orders for the rounds left, and bid the best on average."""
        n = int(_CARDS.search(view.prompt).group(1))  # type: ignore[union-attr]
        texts = [view.prompt, *view.observations]
        prize = int(_PRIZE.findall(texts[-1])[-1])
        hand = [int(c) for c in _HAND.findall(texts[-1])[-1].replace(",", " ").split()]
        theirs = [c for c in range(1, n + 1) if c not in {int(b) for b in _THEIR_BID.findall(" ".join(texts))}]
        won_prizes = {int(p) for p in _PRIZE_DONE.findall(" ".join(texts))}
        left = [p for p in range(1, n + 1) if p not in won_prizes]
        margins = []
        for seen in view.observations:
            mine, done = _MINE.findall(seen), _PRIZE_DONE.findall(seen)
            margins.append(_margin(int(mine[-1]) if mine else 0, int(done[-1])))
        rest = sorted(set(left) - {prize})
        rng = random.Random(f"gops-honest {prize} {hand} {theirs} {margins}")
        orders = [[prize, *rng.sample(rest, len(rest))] for _ in range(HONEST_ORDERS)]
        return str(max(((follow, card) for follow in FOLLOWERS for card in sorted(hand)), key=lambda line: sum(
            _rollout(order, line[1], hand, theirs, margins, line[0]) for order in orders))[1])

    def difficulty(self, problem: Problem) -> float:
        return problem.data["cards"] + RANK[problem.data["style"]]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        hand = list(range(1, problem.data["cards"] + 1))
        return {"hand": hand, "round": 0, "mine": 0, "theirs": 0, "their_hand": list(hand), "margins": []}

    def heuristics(self) -> dict[str, Any]:
        def policy(rule: Any) -> Any:
            def choose(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                t = state["round"]
                prizes = problem.data["prizes"]
                return str(rule(prizes[t], sorted(state["hand"]), sorted(prizes[t:]), t))
            return choose

        return {name: policy(rule) for name, rule in RULES.items()}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        t, hand = state["round"], state["hand"]
        prize = data["prizes"][t]
        theirs_bid = _their_bid(prize, state["their_hand"], state["margins"], hand)
        bid = read_move_answer(move, lambda text: read_integer(_LEAD.sub("", text, count=1), max_digits=3))
        verdict = Verdict.wrong("bid")
        if bid is None or bid not in hand:
            said = "Invalid bid: you bid nothing this round."
            verdict = Verdict.unparsed("not a card in hand")
            bid_value = 0
        else:
            hand = [c for c in hand if c != bid]
            said = f"You bid {bid}."
            bid_value = bid
        mine, theirs = state["mine"], state["theirs"]
        if bid_value > theirs_bid:
            mine += prize
            result = "you take it"
        elif bid_value < theirs_bid:
            theirs += prize
            result = "the opponent takes it"
        else:
            result = "a tie: it is discarded"
        said += f" The opponent bid {theirs_bid} for prize {prize}: {result}. Score: you {mine}, opponent {theirs}."
        before = state
        state = {"hand": hand, "round": t + 1, "mine": mine, "theirs": theirs,
                 "their_hand": [c for c in before["their_hand"] if c != theirs_bid],
                 "margins": [*before["margins"], _margin(bid_value, prize)]}
        if t + 1 == data["cards"]:
            won = mine > theirs
            reward = regret_reward(mine - theirs, data["zero"], data["best"])
            return Outcome(state, Verdict(reward, won, True, f"margin {mine - theirs}, zero {data['zero']}, "
                                                               f"reference {data['best']}"),
                           f"{said} {'You win' if won else 'You do not win'} by a margin of {mine - theirs} (the "
                           f"score's zero is {data['zero']}; the reference player's margin is {data['best']}).",
                           True)
        return Outcome(state, verdict, f"{said}\nRound {t + 2}: the prize is {data['prizes'][t + 1]}. "
                                       f"Your cards: {_hand_text(hand)}.")

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return [str(card) for card in state["hand"]]

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        margin = state["mine"] - state["theirs"]
        return str(_rollout_best(problem.data["prizes"], state["round"], state["hand"], state["their_hand"],
                                 state["margins"], margin)[1])


def _hand_text(hand: list[int]) -> str:
    return ", ".join(map(str, hand))


def _nearest(hand: list[int], aim: int) -> int:
    return min(hand, key=lambda c: (abs(c - aim), c))


def _margin(bid: int, prize: int) -> int:
    """The player's margin in a round: bid minus prize (a wasted round bids 0)."""
    return bid - prize


def _their_bid(prize: int, theirs: list[int], margins: list[int], hand: list[int]) -> int:
    """The pattern opponent's bid from the player's margins so far and the player's ``hand``: it expects the player's
    lowest card at least the prize plus the margin :func:`_forecast` gives, else the player's lowest card, and bids its
    cheapest card above that when that card is at most the prize plus :data:`PATTERN_CAP`, else its card nearest the
    prize."""
    aim = prize + _forecast(margins)
    expected = min([c for c in hand if c >= aim] or hand)
    beating = [c for c in theirs if c > expected]
    return min(beating) if beating and min(beating) <= prize + PATTERN_CAP else _nearest(theirs, prize)


def _forecast(margins: list[int]) -> int:
    """The pattern style's forecast of the player's margin: the margin ``p`` rounds ago for the shortest period ``p``
    (1-4, at most the rounds played) that each of the last :data:`PATTERN_WINDOW` margins repeats (those with a margin
    ``p`` rounds before), else the lower median of the margins so far; 0 in round 1."""
    n = len(margins)
    if not n:
        return 0
    for p in PATTERN_PERIODS:
        if p <= n and all(margins[i] == margins[i - p] for i in range(max(p, n - PATTERN_WINDOW), n)):
            return margins[n - p]
    return sorted(margins)[(n - 1) // 2]


def _smart(hand: list[int], bid: int, matching: int) -> int:
    """Against a known bid: take the prize with the cheapest card beating ``bid`` when that card is at most one above
    ``matching`` (the card whose rank in the hand is the prize's among the prizes left), else throw the lowest card."""
    beating = [c for c in hand if c > bid]
    return min(beating) if beating and min(beating) <= matching + 1 else min(hand)


def _beat(hand: list[int], bid: int, matching: int) -> int:
    """Against a known bid: take every prize with the cheapest card beating ``bid``, else throw the lowest card."""
    beating = [c for c in hand if c > bid]
    return min(beating) if beating else min(hand)


FOLLOWERS = (_smart, _beat)  # the full-knowledge rules the oracle's (and the honest player's) rollouts follow


def _rollout_best(prizes: list[int], t: int, hand: list[int], theirs: list[int], margins: list[int], margin: int
                  ) -> tuple[int, int]:
    """(final margin, card) of the best card now against the pattern opponent, each card followed to the end by
    each rule of :data:`FOLLOWERS` (it knows the prize order). A rollout improvement: the card the best line's rule
    bids next is among those tried with the same rule after it, so following this choice every round never ends
    below the margin first found."""
    best = (-(10**9), 0)
    for follow in FOLLOWERS:
        for card in sorted(hand):
            total = margin + _rollout(prizes[t:], card, hand, theirs, margins, follow)
            if total > best[0]:
                best = (total, card)
    return best


def _rollout(prizes: list[int], card: int, hand: list[int], theirs: list[int], margins: list[int], follow: Any
             ) -> int:
    """The margin gained over ``prizes`` (the rounds left, in a known or assumed order) bidding ``card`` now and then
    ``follow`` (a rule of :data:`FOLLOWERS`), against the pattern opponent."""
    mine, their, seen, total = list(hand), list(theirs), list(margins), 0
    for u, prize in enumerate(prizes):
        theirs_bid = _their_bid(prize, their, seen, mine)
        bid = card if u == 0 else follow(mine, theirs_bid, sorted(mine)[sorted(prizes[u:]).index(prize)])
        mine.remove(bid)
        their.remove(theirs_bid)
        total += _gain(prize, bid, theirs_bid)
        seen.append(_margin(bid, prize))
    return total


def _gain(prize: int, mine: int, theirs: int) -> int:
    """What a round adds to the margin (own total minus the opponent's)."""
    return prize if mine > theirs else -prize if mine < theirs else 0


# The simple rules (since version 5 the reward's zero is the best margin among them on the deal): each maps (the
# prize, the hand sorted, the prizes left sorted (the prize among them), the round) to a card of the hand.
Rule = Any


def _at_least(k: int) -> Rule:
    return lambda prize, hand, left, t: min([c for c in hand if c >= prize + k] or hand)


def _cycle(margins: tuple[int, ...]) -> Rule:
    return lambda prize, hand, left, t: _at_least(margins[t % len(margins)])(prize, hand, left, t)


RULES: dict[str, Rule] = {
    **{f"the lowest card at least the prize {k:+d}, else the lowest": _at_least(k) for k in range(-1, 6)},
    **{f"the lowest card at least the prize plus the margins {', '.join(f'{k:+d}' for k in margins)} in turn, else "
       "the lowest": _cycle(margins) for margins in PERIODIC},
    "match the prize, else the lowest": lambda prize, hand, left, t: prize if prize in hand else hand[0],
    "always the highest card": lambda prize, hand, left, t: hand[-1],
    "always the lowest card": lambda prize, hand, left, t: hand[0],
    "the card of the prize's rank among the prizes left": lambda prize, hand, left, t: hand[left.index(prize)],
    "that card plus one rank (capped)": lambda prize, hand, left, t: hand[min(len(hand) - 1, left.index(prize) + 1)],
    "the highest card on the highest prize left, else the lowest":
        lambda prize, hand, left, t: hand[-1] if prize == left[-1] else hand[0],
    "the highest card on the top half of the prizes left, else the lowest":
        lambda prize, hand, left, t: hand[-1] if 2 * left.index(prize) >= len(left) else hand[0],
}


def _rule_margin(data: dict[str, Any], rule: Rule) -> int:
    """The final margin (own prize total minus the opponent's) ``rule`` reaches on this deal against its opponent."""
    n, prizes = data["cards"], data["prizes"]
    seen: list[int] = []  # the player's margins so far (what the pattern opponent forecasts from)
    hand, theirs, total = list(range(1, n + 1)), list(range(1, n + 1)), 0
    for t in range(n):
        prize = prizes[t]
        their_bid = _their_bid(prize, theirs, seen, hand)
        bid = rule(prize, hand, sorted(prizes[t:]), t)
        hand.remove(bid)
        theirs.remove(their_bid)
        seen.append(_margin(bid, prize))
        total += _gain(prize, bid, their_bid)
    return total
