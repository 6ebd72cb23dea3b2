"""GOPS (Goofspiel): bid cards for prizes against a scripted opponent, simultaneous sealed bids.

Both players hold the cards 1..n; the prizes are another 1..n, turned up one per round in an
order drawn with the problem. Each round both bid one of their remaining cards at the same time;
the higher bid takes the prize (worth its number), equal bids discard it, bid cards are spent.
After n rounds the higher prize total wins (reward 1; a tie or a loss scores 0).

At level 0 the opponent bids random cards from a tape stored with the problem
(:func:`palaestra.envs.games.common.tape_rng`), never reading the model's bids: its whole sequence of bids is fixed by
the problem, the generator keeps problems where the best reply to it (an exact search over which card goes to which
round, maximising the final margin) wins, and the oracle plays that best reply.

Levels 1-4 (since version 4) face a *pattern* opponent, whose bids follow the player's: it forecasts the player's
margin (bid minus prize; a wasted round bids 0) as the margin p rounds ago for the shortest period p of 1-4 that the
player's last three margins repeat, else the lower median of the margins so far (0 in round 1); it forecasts the
player's bid as the player's lowest card at least the prize plus that margin (else the lowest), and outbids that
with its cheapest card above it when that costs at most the prize + 4, else bids its card nearest the prize. Earlier
opponents were beaten by rules that ignore them: "the lowest card at least the prize + k, else the lowest" won every
game against the card nearest the prize (version 1) and 0.85 against that plus noise; the *reactive* opponent of
versions 2-3 (the card nearest the prize plus one more than the player's last margin) and the *steady* one of version
3 (the lower median as the only forecast) lost to rules cycling through a few margins (m_t repeating a pattern of
period up to 3 with margins -1..5): in version 3, over 100 problems, the best such cycle won 0.65 at level 1, 0.61 at
level 2, 0.85 at level 3 and 0.86 at level 4, and 219-283 of the 399 cycles won over 0.3 at levels 3-4. Periods up to
4 are forecast because a forecaster of periods 1-3 lost about half its games to cycles of period 4 ((2, -1, -1, 1):
0.50 at level 4 over 150 problems; 0.29 against periods 1-4). The pattern opponent's bids are known to a player who
reads the rule and the history, so the oracle (:func:`_rollout_best`) tries every card now, each followed by a simple
full-knowledge rule (:func:`_smart`: take the prize with the cheapest card beating the opponent's known bid when that
card is at most one above the card matching the prize's rank, else throw the lowest card) to the end, and plays the
best: a rollout improvement, whose final margin never falls below the first found, and the generator keeps deals
where that is a win. The fixed rules (k from -1 to 5, and "match the prize") and the cycles that did best against
earlier opponents (:data:`PERIODIC`) are declared heuristics. Over 100 problems (version 4) the best of the 399
cycles of period up to 3 (margins -1..5) wins 0.52 at level 1 (9 cards), 0.34 at level 2 (11 cards), 0.38 at level 3
(12 cards; (2, -1, 0)) and 0.32 at level 4 (13 cards; (4, -1, 1)); the best of the 1296 cycles of period 4 (margins
-1..4) 0.38 and 0.37 at levels 3-4 over 60 problems; a constant margin at most 0.14, 0.08, 0.09 and 0.06; a random
card 0.22, 0.19, 0.29, 0.27; the honest player 0.91, 0.98, 0.98, 0.96; the oracle 1.00 at every level. The honest
player (:meth:`Gops.honest_move`), which does not know the prize order or the opponent's draws, wins about half the
games or more at every level. Each turn the model writes one card number (``5``, ``bid 5``); a card it does not
hold, or an unreadable bid, costs the round (it bids nothing and loses the prize unless the opponent bids nothing
too, which never happens).

Levels grow the hand and sharpen the opponent. The difficulty measure is the hand size plus the opponent's style rank
(0 random, 3 pattern: the ranks of versions 1-3, where 1 and 2 were the nearest-card styles).

Generation speed: version 1 made about 190 problems/s at level 4 (13 cards, noisy) on this 2-core machine. Against the
random style (level 0) the best reply to the opponent's bids is computed exactly by a search over every subset of the
cards, and that table scores every decision. Against the pattern opponent (levels 1-4) generation tries each first
card with a rollout instead: about 1.3 ms a problem at 13 cards.
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
          "pattern": "forecasts your margin this round (a margin being your bid minus that round's prize, a wasted "
                     "round counting as a bid of 0) as your margin p rounds ago, for the smallest p of 1 to 4, no "
                     "more than the rounds played, such that each of your last three margins equals your margin p "
                     "rounds before it (where there is one); when no such p fits, as the lower middle one of your "
                     "margins so far; in round 1, as 0. It forecasts your bid as your lowest card at least the prize "
                     "plus that margin, or your lowest card when none is that high, and bids its cheapest card above "
                     "that forecast when that card is at most the prize plus 4, and otherwise the card in its hand "
                     "nearest to the prize (the lower one on a tie)"}
RANK = {"random": 0, "pattern": 3}
PATTERN_CAP = 4  # the pattern style outbids its forecast of the player's bid only up to the prize + 4
PATTERN_PERIODS = (1, 2, 3, 4)  # the periods the pattern style tries, shortest first
PATTERN_WINDOW = 3  # how many of the player's last margins a period must fit
# Margin cycles that beat earlier opponents (up to 0.86 at level 4 in version 3): declared heuristics.
PERIODIC = ((2, -1), (2, 0), (2, -1, 0), (2, 0, -1), (2, 1, -1), (5, -1, 1), (3, -1, 3), (0, 2, -1), (2, -1, -1, 1))
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
    version = 4
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

    presets = (Config(5, "random"), Config(9, "pattern"), Config(11, "pattern"), Config(12, "pattern"),
               Config(13, "pattern"))
    bounded = "past the presets generation gets too slow (over 1 s of CPU at level 7)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.cards

        def draw() -> dict[str, Any] | None:
            data: dict[str, Any] = {"cards": n, "style": config.style, "tape": rng.getrandbits(48)}
            prizes = data["prizes"] = rng.sample(range(1, n + 1), n)  # drawn after the tape, as v2 does
            if config.style == "pattern":  # its bids follow the player's: the oracle's line must win
                cards = list(range(1, n + 1))
                return data if _rollout_best(prizes, 0, cards, cards, [], 0)[0] > 0 else None
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
        """Predict the opponent's bid from its stated style and the cards it has left (the pattern style's bid is known
        exactly from the margins so far and the hand: play :func:`_smart`; the random style's at most its highest card);
        take the prize with the cheapest card beating the prediction when that card is no dearer than the card
        matching the prize's rank among the prizes left, else throw the lowest card."""
        n = int(_CARDS.search(view.prompt).group(1))  # type: ignore[union-attr]
        texts = [view.prompt, *view.observations]
        prize = int(_PRIZE.findall(texts[-1])[-1])
        hand = [int(c) for c in _HAND.findall(texts[-1])[-1].replace(",", " ").split()]
        theirs = [c for c in range(1, n + 1) if c not in {int(b) for b in _THEIR_BID.findall(" ".join(texts))}]
        won_prizes = {int(p) for p in _PRIZE_DONE.findall(" ".join(texts))}
        left = [p for p in range(1, n + 1) if p not in won_prizes]
        style = next(name for name, text in STYLES.items() if text in view.prompt)
        rank = sorted(left).index(prize)  # the prize's rank among those left, matched by the card of that rank
        if style == "pattern":  # its bid is known: its forecast follows the player's margins so far
            margins = []
            for seen in view.observations:
                mine, done = _MINE.findall(seen), _PRIZE_DONE.findall(seen)
                margins.append(_margin(int(mine[-1]) if mine else 0, int(done[-1])))
            return str(_smart(hand, _their_bid(prize, theirs, margins, hand), sorted(hand)[rank]))
        beating = [c for c in hand if c > max(theirs)]
        if beating and min(beating) <= sorted(hand)[rank]:
            return str(min(beating))
        return str(min(hand))

    def difficulty(self, problem: Problem) -> float:
        return problem.data["cards"] + RANK[problem.data["style"]]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        state: dict[str, Any] = {"hand": list(range(1, problem.data["cards"] + 1)), "round": 0, "mine": 0, "theirs": 0}
        if problem.data["style"] == "pattern":
            state.update(their_hand=list(state["hand"]), margins=[])
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

        def cycle(margins: tuple[int, ...]) -> Any:
            def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                return at_least(margins[state["round"] % len(margins)])(problem, state, history, rng)
            return policy

        rules = {f"the lowest card at least the prize {k:+d}, else the lowest": at_least(k) for k in range(-1, 6)}
        cycles = {f"the lowest card at least the prize plus the margins {', '.join(f'{k:+d}' for k in margins)} in "
                  "turn, else the lowest": cycle(margins) for margins in PERIODIC}
        return {**rules, **cycles, "match the prize, else the lowest": match}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        t, hand = state["round"], state["hand"]
        prize = data["prizes"][t]
        adaptive = data["style"] == "pattern"
        theirs_bid = _their_bid(prize, state["their_hand"], state["margins"], hand) if adaptive else data["bids"][t]
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
        if adaptive:
            their_hand = [c for c in before["their_hand"] if c != theirs_bid]
            state = {**state, "their_hand": their_hand, "margins": [*before["margins"], _margin(bid_value, prize)]}
        if t + 1 == data["cards"]:
            won = mine > theirs
            return Outcome(state, Verdict.right() if won else Verdict.wrong("not won"),
                           f"{said} {'You win!' if won else 'You do not win.'}", True)
        return Outcome(state, verdict, f"{said}\nRound {t + 2}: the prize is {data['prizes'][t + 1]}. "
                                       f"Your cards: {_hand_text(hand)}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        t = state["round"]
        if data["style"] == "pattern":
            margin = state["mine"] - state["theirs"]
            return str(_rollout_best(data["prizes"], t, state["hand"], state["their_hand"], state["margins"], margin)[1])
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
    for t in range(len(data["prizes"])):
        bid = tape_rng(Gops.id, data["tape"], "bid", t).choice(hand)
        hand.remove(bid)
        bids.append(bid)
    return bids


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


def _rollout_best(prizes: list[int], t: int, hand: list[int], theirs: list[int], margins: list[int], margin: int
                  ) -> tuple[int, int]:
    """(final margin, card) of the best card now against the pattern opponent, each card followed by
    :func:`_smart` to the end (it knows the prize order). A rollout improvement: the card :func:`_smart` would bid
    is among those tried, so following this choice every round never ends below the margin first found."""
    best = (-(10**9), 0)
    for card in sorted(hand):
        mine, their, seen, total = list(hand), list(theirs), list(margins), margin
        for u in range(t, len(prizes)):
            prize = prizes[u]
            theirs_bid = _their_bid(prize, their, seen, mine)
            bid = card if u == t else _smart(mine, theirs_bid, sorted(mine)[sorted(prizes[u:]).index(prize)])
            mine.remove(bid)
            their.remove(theirs_bid)
            total += _gain(prize, bid, theirs_bid)
            seen.append(_margin(bid, prize))
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
