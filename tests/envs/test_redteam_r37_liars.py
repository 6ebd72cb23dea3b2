"""Red team, round 3 session 37: games/liars_dice's opponent rule.

Version 1's opponent raised whenever the last bid was likely enough, to its likeliest smallest raise, however
unlikely that raise was; its raises climbed into false bids, so rules that only count their turns matched an honest
player (100 seeds a level, levels 0-4): "open with your commonest face, then call" won 0.76/0.66/0.41/0.51/0.25,
"open, raise once on your commonest face, then call" 0.60/0.60/0.13/0.32/0.36, "open, raise the last bid's count by
one, then call" 0.43/0.23/0.62/0.43/0.60, against the honest player's 0.70/0.71/0.55/0.57/0.49. Version 2's
opponent calls the last bid when it is more likely false than the opponent's best raise is true (believing one die
of each face the model switches to) and starts with one or two more dice: every timing rule below wins at most
0.28 a level (most under 0.2), random legal play none, and an honest player that infers the opponent's possible
hands from its stated rule 0.83/0.86/0.97/0.83/0.91.

The timing rules and the honest player here read only the situation text the model sees (its dice, the dice left,
this round's bids) and the rule as the prompt states it.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable

from palaestra.core.registry import make_source
from palaestra.envs.games import liars_dice

LIARS = "games/liars_dice"
FACES = ("ones", "twos", "threes", "fours", "fives", "sixes")
Bid = tuple[int, int]
Seen = tuple[tuple[int, ...], int, list[tuple[Bid, bool]]]  # own dice, the opponent's dice, bids (bid, by me)


def _seen(text: str) -> Seen:
    mine = tuple(int(d) for d in re.findall(r"Your dice: ([1-6 ]+)\.", text)[-1].split())
    theirs = int(re.findall(r"the opponent (\d+)\. Your dice", text)[-1])
    bids_text = re.findall(r"Bids this round: ([^.]*)\.", text)[-1]
    bids = [((int(n), FACES.index(f) + 1), who == "you") for n, f, who in
            re.findall(r"(\d+) (\w+) by (you|the opponent)", bids_text)]
    return mine, theirs, bids


def _text(bid: Bid) -> str:
    return f"{bid[0]} {FACES[bid[1] - 1]}"


def _win_share(level: int, seeds: int, player: Callable[[Seen], str]) -> float:
    source = make_source(LIARS)
    wins = 0
    for seed in range(seeds):
        problem = source.sample(level, seed)
        state, text = source.initial_state(problem), problem.prompt
        for _ in range(source.max_turns(problem)):
            outcome = source.play(problem, state, player(_seen(text)))
            if outcome.done:
                wins += bool(outcome.verdict.correct)
                break
            state, text = outcome.state, outcome.observation
    return wins / seeds


def _timing(own_bids: float, how: str) -> Callable[[Seen], str]:
    """Open with the commonest face of your dice (``how`` "six": sixes), make ``own_bids`` bids a round -- the
    smallest raise on that face, or (``how`` "echo") the last bid's count plus one -- then call."""
    def player(seen: Seen) -> str:
        mine, theirs, bids = seen
        if bids and sum(by_me for _, by_me in bids) >= own_bids:
            return "liar"
        face = 6 if how == "six" else max(range(1, 7), key=lambda f: (mine.count(f), f))
        if not bids:
            return _text((max(1, mine.count(face)), face))
        count, last_face = bids[-1][0]
        bid = (count + 1, last_face) if how == "echo" else (count + (face <= last_face), face)
        return "liar" if bid[0] > len(mine) + theirs else _text(bid)
    return player


def _up_to_expected(seen: Seen) -> str:
    mine, theirs, bids = seen
    face = max(range(1, 7), key=lambda f: (mine.count(f), f))
    count = 1 if not bids else bids[-1][0][0] + (face <= bids[-1][0][1])
    return "liar" if bids and count > mine.count(face) + theirs / 6 else _text((count, face))


TIMING_RULES = {
    "call every bid": _timing(0, "face"),
    "open, then call": _timing(1, "face"),
    "open, raise once, then call": _timing(2, "face"),
    "open, raise twice, then call": _timing(3, "face"),
    "open, raise the count by one once, then call": _timing(2, "echo"),
    "always raise the count by one": _timing(math.inf, "echo"),
    "always the smallest raise on the commonest face": _timing(math.inf, "face"),
    "the commonest face up to its expected count, then call": _up_to_expected,
    "open on sixes, then call": _timing(1, "six"),
}


def test_timing_rules_lose_at_every_level():
    for name, rule in TIMING_RULES.items():
        shares = [_win_share(level, 30, rule) for level in range(5)]
        assert max(shares) <= 0.4 and sum(shares) / 5 <= 0.25, (name, shares)


# --- an honest player written from the prompt's statement of the rule ----------------------------------------

@functools.lru_cache(maxsize=None)
def _chance(needed: int, dice: int) -> float:
    return sum(math.comb(dice, k) * (1 / 6) ** k * (5 / 6) ** (dice - k) for k in range(max(needed, 0), dice + 1))


def _stated_rule(own: tuple[int, ...], unseen: int, bids: list[tuple[Bid, bool]]) -> object:
    """The opponent's move as the prompt states it (``bids`` marked True where the model bid)."""
    switched = {bid[1] for i, (bid, by_model) in enumerate(bids)
                if by_model and (i == 0 or bids[i - 1][0][1] != bid[1])}

    def likely(bid: Bid) -> float:
        sure = 1 if bid[1] in switched and unseen else 0
        return _chance(bid[0] - own.count(bid[1]) - sure, unseen - sure)

    last = bids[-1][0] if bids else None
    raises = [(1 if last is None else last[0] + (face <= last[1]), face) for face in range(1, 7)]
    raises = [bid for bid in raises if bid[0] <= len(own) + unseen]
    if not raises:
        return "liar"
    pick = max(raises, key=lambda bid: (likely(bid), bid[1]))
    return "liar" if last is not None and 1 - likely(last) > likely(pick) else pick


def _rolls(hand: tuple[int, ...]) -> int:
    """The rolls that show ``hand`` (sorted)."""
    rolls = math.factorial(len(hand))
    for face in set(hand):
        rolls //= math.factorial(hand.count(face))
    return rolls


def _honest(seen: Seen) -> str:
    """Keep the opponent's hands its rule bids this way from; call when the last bid is false in most of them, else
    the smallest raise most likely to win (called while true, or answered by a raise false in that hand)."""
    mine, theirs, bids = seen
    hands = [(hand, _rolls(hand)) for hand in itertools.combinations_with_replacement(range(1, 7), theirs)
             if all(by_me or _stated_rule(hand, len(mine), bids[:i]) == bid for i, (bid, by_me) in enumerate(bids))]

    def true_in(bid: Bid, hand: tuple[int, ...]) -> bool:
        return mine.count(bid[1]) + hand.count(bid[1]) >= bid[0]

    best: tuple[float, str] = (-1.0, "")
    if bids:
        best = (sum(rolls for hand, rolls in hands if not true_in(bids[-1][0], hand)), "liar")
    last = bids[-1][0] if bids else None
    for face in range(1, 7):
        bid = (1 if last is None else last[0] + (face <= last[1]), face)
        if bid[0] > len(mine) + theirs:
            continue
        won = 0
        for hand, rolls in hands:
            reply = _stated_rule(hand, len(mine), [*bids, (bid, True)])
            wins = true_in(bid, hand) if reply == "liar" else not true_in(reply, hand)  # type: ignore[arg-type]
            won += rolls * wins
        if won > best[0]:
            best = (won, _text(bid))
    return best[1]


def test_an_honest_player_from_the_stated_rule_wins():
    for level in (0, 4):
        assert _win_share(level, 12, _honest) >= 0.6, level


def test_the_envs_honest_player_wins_its_declared_share():
    source = make_source(LIARS)
    wins = sum(source.honest_turns(source.sample(4, seed), source.max_turns(source.sample(4, seed))) is not None
               for seed in range(12))
    assert wins >= source.honest_win_share * 12


def test_the_opponent_plays_the_stated_rule():
    source = make_source(LIARS)
    checked = 0
    for seed in range(10):
        problem = source.sample(2, seed)
        state = source.initial_state(problem)
        rule = _timing(3, "face")
        text = problem.prompt
        while True:
            before = len(state["bids"])
            outcome = source.play(problem, state, rule(_seen(text)))
            if outcome.done or outcome.state["round"] != state["round"]:
                break
            _, their_cup = liars_dice._roll(problem.data, state["round"], state["mine"], state["theirs"])
            seen = _seen(outcome.observation)
            assert _stated_rule(tuple(their_cup), state["mine"], seen[2][:before + 1]) == seen[2][before + 1][0]
            checked += 1
            state, text = outcome.state, outcome.observation
    assert checked >= 10
