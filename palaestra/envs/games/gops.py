"""GOPS (Goofspiel): bid cards for prizes against a scripted opponent, simultaneous sealed bids.

Both players hold the cards 1..n; the prizes are another 1..n, turned up one per round in an
order drawn with the problem. Each round both bid one of their remaining cards at the same time;
the higher bid takes the prize (worth its number), equal bids discard it, bid cards are spent.
After n rounds the higher prize total wins (reward 1; a tie or a loss scores 0).

At the first three levels the opponent's bid depends only on the prize, its own remaining cards and a
tape stored with the problem (:func:`palaestra.envs.games.common.tape_rng`), never on the model's bid,
in a style the prompt describes: random cards; the card nearest the prize; the card nearest the prize
plus a random offset of up to two. So its whole sequence of bids is fixed by the problem, and the
generator keeps only problems where the best reply to that sequence (an exact search over
which card goes to which round, maximising the final margin) wins; the oracle plays that best
reply. Against those styles fixed rules win: "the lowest card at least the prize + k, else the
lowest" won every game against the nearest-card style (k = 1, 2) and against the noisy one (k = 3),
which version 1 used at levels 2-4. So the last two levels (version 2) face a *reactive* opponent:
it aims at the prize plus one more than the player's margin in the round before (bid minus prize,
clipped to -3..3; -3 for a wasted round; +1 in round 1) and bids its card nearest that aim, so
whatever fixed margin a rule keeps, it overbids it by one. Its bids follow the player's, so the
oracle (:func:`_reactive_best`) tries every card now, each followed by a simple full-knowledge rule
(:func:`_smart`: take the prize with the cheapest card beating the opponent's known bid when that
card is at most one above the card matching the prize's rank, else throw the lowest card) to the
end, and plays the best: a rollout improvement, whose final margin never falls below the first
found, and the generator keeps deals where that is a win. The fixed rules (k from -1 to 4, and
"match the prize") are declared heuristics: over 200 problems at level 4 they win 0.00-0.32 (0.21-1.00
in version 1), the lowest card every round 0.10, a random card 0.18; the honest player 1.00. The
honest player (:meth:`Gops.honest_move`), which does not know the prize order or the
opponent's draws, wins about half the games or more at every level. Each turn the model writes
one card number (``5``, ``bid 5``); a card it does not hold, or an unreadable bid, costs the
round (it bids nothing and loses the prize unless the opponent bids nothing too, which never
happens).

Levels grow the hand and sharpen the opponent. The difficulty measure is the hand size plus the
opponent's style rank (0 random, 1 nearest, 2 nearest with noise, 3 reactive).

Generation speed: version 1 made about 190 problems/s at level 4 (13 cards, noisy) on this 2-core machine. Against
the fixed styles (levels 0-2) the best reply to the opponent's bids is computed exactly by a search over every subset
of the cards (512 hands at 9 cards, each trying every card it holds), and
that table scores every decision. It is kept because each decision's reward is its exact loss against that best
reply. Against the reactive opponent (levels 3-4) generation tries each of the 13 first cards with a rollout
instead: about 1.3 ms a problem.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, retry
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_rng
from palaestra.verifiers.numeric import read_integer

STYLES = {"random": "bids a random card from its hand",
          "nearest": "bids the card in its hand nearest to the prize (the lower one on a tie)",
          "noisy": "bids the card in its hand nearest to the prize plus a random offset from -2 to 2",
          "reactive": "aims at the prize plus one more than your margin in the round before (your bid minus that "
                      "round's prize, counted as -3 when lower and 3 when higher, and as -3 for a wasted round; "
                      "in round 1 it aims at the prize plus one) and bids the card in its hand nearest to its aim "
                      "(the lower one on a tie)"}
RANK = {"random": 0, "nearest": 1, "noisy": 2, "reactive": 3}
LEAD = (-2, 4)  # the reactive opponent's aim above the prize: one more than the player's last margin, clipped
_CARDS = re.compile(r"We both hold the cards 1 to (\d+)")
_PRIZE = re.compile(r"the prize is (\d+)")
_HAND = re.compile(r"Your cards: ([\d, ]+)\.")
_THEIR_BID = re.compile(r"The opponent bid (\d+)")
_PRIZE_DONE = re.compile(r"for prize (\d+)")
_MINE = re.compile(r"You bid (\d+)\.")
_LEAD = re.compile(r"^\s*(?:(?:i\s+)?(?:bid|play)\s+(?:card\s+)?|card\s+)", re.IGNORECASE)  # "bid 5", "card 5"


@register
class Gops(MultiTurnTask):
    id = "games/gops"
    version = 2
    family = "games"
    description = "Goofspiel: bid cards for prizes in sealed simultaneous bids against a scripted bidder."
    tags = ("games", "multi-turn", "two-player", "simultaneous-moves")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True  # the prize order and the opponent's draws
    honest_win_share = 0.4  # the honest player (reads the style, plays rank-matched cards) wins 54-87% per level

    @dataclass(frozen=True)
    class Config:
        cards: int
        style: str

    presets = (Config(5, "random"), Config(7, "nearest"), Config(9, "noisy"), Config(11, "reactive"),
               Config(13, "reactive"))
    bounded = "past the presets generation gets too slow (over 1 s of CPU at level 7)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.cards

        def draw() -> dict[str, Any] | None:
            data: dict[str, Any] = {"cards": n, "style": config.style, "tape": rng.getrandbits(48)}
            prizes = data["prizes"] = rng.sample(range(1, n + 1), n)  # drawn after the tape, as v2 does
            if config.style == "reactive":  # its bids follow the player's: the oracle's line must win
                return data if _reactive_best(prizes, 0, list(range(1, n + 1)), list(range(1, n + 1)),
                                              LEAD[1], 0)[0] > 0 else None
            data["bids"] = _opponent_bids(data)
            best = _margins(tuple(data["prizes"]), tuple(data["bids"]))[(1 << n) - 1]
            return data if best > 0 else None

        data = retry(draw, what="an opponent the best reply beats")
        prompt = (
            f"Let's play GOPS. We both hold the cards 1 to {config.cards}. Prizes 1 to {config.cards} are turned up "
            "one per round; each round we both bid one of our remaining cards at the same time. The higher bid "
            "takes the prize (worth its number); equal bids discard it; bid cards are used up. After the last round "
            f"the higher prize total wins; only a win scores. The opponent {STYLES[config.style]}.\n\n"
            f"Round 1: the prize is {data['prizes'][0]}. Your cards: {_hand_text(list(range(1, n + 1)))}.\n"
            "Each turn, bid one card by its number, for example: 3. A card you do not hold wastes the round."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["cards"]

    constant_difficulty = "a shuffled prize order against an opponent of the level's style: the same decisions every deal"

    def honest_move(self, view: View) -> str:
        """Predict the opponent's bid from its stated style and the cards it has left (the reactive style's bid is known
        exactly from the last margin: play :func:`_smart`); take the prize with the
        cheapest card beating the prediction when that card is no dearer than the card matching the prize's rank
        among the prizes left (one more against the noisy style), else throw the lowest card."""
        n = int(_CARDS.search(view.prompt).group(1))  # type: ignore[union-attr]
        texts = [view.prompt, *view.observations]
        prize = int(_PRIZE.findall(texts[-1])[-1])
        hand = [int(c) for c in _HAND.findall(texts[-1])[-1].replace(",", " ").split()]
        theirs = [c for c in range(1, n + 1) if c not in {int(b) for b in _THEIR_BID.findall(" ".join(texts))}]
        won_prizes = {int(p) for p in _PRIZE_DONE.findall(" ".join(texts))}
        left = [p for p in range(1, n + 1) if p not in won_prizes]
        style = next(name for name, text in STYLES.items() if text in view.prompt)
        rank = sorted(left).index(prize)  # the prize's rank among those left, matched by the card of that rank
        if style == "reactive":  # its bid is known: its aim follows the last margin
            last = _MINE.findall(view.observations[-1]) if view.observations else []
            done = _PRIZE_DONE.findall(view.observations[-1]) if view.observations else []
            lead = _lead(int(last[-1]) - int(done[-1]) if last and done else None) if view.observations else LEAD[1]
            return str(_smart(prize, hand, theirs, lead, sorted(hand)[rank]))
        nearest = min(theirs, key=lambda c: (abs(c - prize), c))
        predicted = nearest if style == "nearest" else max(theirs) if style == "random" else nearest
        beating = [c for c in hand if c > predicted]
        matching = sorted(hand)[rank]
        if beating and min(beating) <= matching + (1 if style == "noisy" else 0):
            return str(min(beating))
        return str(min(hand))

    def difficulty(self, problem: Problem) -> float:
        return problem.data["cards"] + RANK[problem.data["style"]]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        state: dict[str, Any] = {"hand": list(range(1, problem.data["cards"] + 1)), "round": 0, "mine": 0, "theirs": 0}
        if problem.data["style"] == "reactive":
            state.update(their_hand=list(state["hand"]), lead=LEAD[1])
        return state

    def heuristics(self) -> dict[str, Any]:
        def at_least(k: int) -> Any:
            def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                prize = problem.data["prizes"][state["round"]]
                return str(min([c for c in state["hand"] if c >= prize + k] or state["hand"]))
            return policy

        def match(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            prize = problem.data["prizes"][state["round"]]
            return str(prize if prize in state["hand"] else min(state["hand"]))

        rules = {f"the lowest card at least the prize {k:+d}, else the lowest": at_least(k) for k in range(-1, 5)}
        return {**rules, "match the prize, else the lowest": match}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        t, hand = state["round"], state["hand"]
        prize = data["prizes"][t]
        reactive = data["style"] == "reactive"
        theirs_bid = _nearest(state["their_hand"], prize + state["lead"]) if reactive else data["bids"][t]
        bid = read_integer(_LEAD.sub("", move, count=1), max_digits=3) if len(move) <= MAX_MOVE_CHARS else None
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
        state = {"hand": hand, "round": t + 1, "mine": mine, "theirs": theirs}
        if reactive:
            their_hand = [c for c in before["their_hand"] if c != theirs_bid]
            state = {**state, "their_hand": their_hand, "lead": _lead(bid_value - prize if bid_value else None)}
        if t + 1 == data["cards"]:
            won = mine > theirs
            return Outcome(state, Verdict.right() if won else Verdict.wrong("not won"),
                           f"{said} {'You win!' if won else 'You do not win.'}", True)
        return Outcome(state, verdict, f"{said}\nRound {t + 2}: the prize is {data['prizes'][t + 1]}. "
                                       f"Your cards: {_hand_text(hand)}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        t = state["round"]
        if data["style"] == "reactive":
            margin = state["mine"] - state["theirs"]
            return str(_reactive_best(data["prizes"], t, state["hand"], state["their_hand"], state["lead"], margin)[1])
        margins = _margins(tuple(data["prizes"]), tuple(data["bids"]))
        mask = sum(1 << (card - 1) for card in state["hand"])
        prize, bid = data["prizes"][t], data["bids"][t]
        best = max(state["hand"], key=lambda c: (_gain(prize, c, bid) + margins[mask & ~(1 << (c - 1))], -c))
        return str(best)


def _hand_text(hand: list[int]) -> str:
    return ", ".join(map(str, hand))


def _opponent_bids(data: dict[str, Any]) -> list[int]:
    hand = list(range(1, data["cards"] + 1))
    bids = []
    for t, prize in enumerate(data["prizes"]):
        rng = tape_rng(Gops.id, data["tape"], "bid", t)
        if data["style"] == "random":
            bid = rng.choice(hand)
        else:
            aim = prize + (rng.randint(-2, 2) if data["style"] == "noisy" else 0)
            bid = min(hand, key=lambda c: (abs(c - aim), c))
        hand.remove(bid)
        bids.append(bid)
    return bids


def _nearest(hand: list[int], aim: int) -> int:
    return min(hand, key=lambda c: (abs(c - aim), c))


def _lead(margin: int | None) -> int:
    """The reactive opponent's next aim above the prize: one more than the player's margin (-3 to 3; a wasted round
    counts as -3)."""
    return LEAD[0] if margin is None else max(LEAD[0], min(LEAD[1], margin + 1))


def _smart(prize: int, hand: list[int], theirs: list[int], lead: int, matching: int) -> int:
    """Against the reactive opponent (whose bid is known): take the prize with the cheapest card beating its bid
    when that card is at most one above the card matching the prize's rank, else throw the lowest card."""
    bid = _nearest(theirs, prize + lead)
    beating = [c for c in hand if c > bid]
    return min(beating) if beating and min(beating) <= matching + 1 else min(hand)


def _reactive_best(prizes: list[int], t: int, hand: list[int], theirs: list[int], lead: int, margin: int
                   ) -> tuple[int, int]:
    """(final margin, card) of the best card now against the reactive opponent, each card followed by
    :func:`_smart` to the end (it knows the prize order). A rollout improvement: the card :func:`_smart` would bid
    is among those tried, so following this choice every round never ends below the margin first found."""
    best = (-(10**9), 0)
    for card in sorted(hand):
        mine, their, aim, total = [c for c in hand if c != card], list(theirs), lead, margin
        bid = card
        for u in range(t, len(prizes)):
            prize = prizes[u]
            if u > t:
                bid = _smart(prize, mine, their, aim, sorted(mine)[sorted(prizes[u:]).index(prize)])
                mine.remove(bid)
            theirs_bid = _nearest(their, prize + aim)
            their.remove(theirs_bid)
            total += _gain(prize, bid, theirs_bid)
            aim = _lead(bid - prize)
        if total > best[0]:
            best = (total, card)
    return best


def _gain(prize: int, mine: int, theirs: int) -> int:
    """What a round adds to the margin (own total minus the opponent's)."""
    return prize if mine > theirs else -prize if mine < theirs else 0


@functools.lru_cache(maxsize=64)
def _margins(prizes: tuple[int, ...], bids: tuple[int, ...]) -> list[int]:
    """For every hand (a bit mask of cards), the best final margin from the round that hand is held in, against
    the known ``bids``: an exact search, bottom-up over hands by size."""
    n = len(prizes)
    gains = [[_gain(prizes[t], card + 1, bids[t]) for card in range(n)] for t in range(n)]
    best = [0] * (1 << n)
    # Increasing masks: every smaller hand (a submask) is done before the hands holding it, as by size.
    for mask, plays in enumerate(_plays(n)):
        if plays:
            gain = gains[n - len(plays)]
            best[mask] = max([gain[card] + best[rest] for card, rest in plays])
    return best


@functools.cache
def _plays(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per hand (a bit mask of cards), each card's index with the hand left after bidding it (made once per deck)."""
    return tuple(tuple((card, mask & ~(1 << card)) for card in range(n) if mask >> card & 1) for mask in range(1 << n))
