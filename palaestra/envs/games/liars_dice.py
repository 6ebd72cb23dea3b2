"""Liar's dice, heads-up, against a scripted opponent: bid on the dice under both cups, or call the last bid a lie.

The model starts with the level's dice, the opponent with one or two more (the handicap). Each round both roll in
secret (the rolls come from a tape drawn with the problem, keyed by the round and the dice left, so a replay rolls
the same); the model sees its own dice only. Players alternate bids, starting with the loser of the last round (the
model starts the first): a bid ``3 fives`` claims that at least three dice of both cups show a five (no face is
wild); each bid must raise the last one (a higher count, or the same count of a higher face). Instead of bidding,
the player to act may call ``liar``: the cups are lifted, and the bidder loses a die if the bid was false, else the
caller does. Whoever loses all their dice loses the game; the reward is 1 when the model wins, else 0.

The opponent plays by a deterministic rule the prompt states, from its own dice: each of the model's dice is a
one-in-six chance on a face, except that a face the model switched to this round (its opening, or a bid on another
face than the bid before) counts one sure die; of the smallest raise on each face it picks the one most likely
true, and it calls the last bid when that bid is more likely false than its pick is true, else bids the pick. So it
calls over-bids, and its own bids are ones its dice make likely: calling blindly loses, and so does bidding blindly
(it calls a bid its dice make unlikely). Only a face the model switches to is believed, so echoing the opponent's
face does not feed it; the handicap keeps the bluffs a fixed rule can make (open on sixes, then call) from paying.
The oracle sees both cups and searches each round's bids against the rule, so it never loses a round it can win;
the generator keeps games it wins. The honest player (:func:`_honest_choice`) sees only its dice and the bids: it
keeps the opponent's hands the rule would have bid this way, weighs them by their rolls, and picks the move most
likely to win the round two of its own moves ahead (the declared share is 60% of the games a level).
v1's opponent raised whenever the bid was likely enough, into bids that were often false, so timing rules matched
an honest player (100 seeds a level): "open with your commonest face, then call" won 0.76/0.66/0.41/0.51/0.25 and
"open, raise the last count by one, then call" 0.43/0.23/0.62/0.43/0.60, against v1's honest player's
0.70/0.71/0.55/0.57/0.49; in v2 every declared timing rule wins at most 0.28 a level (most under 0.2), random legal
play none, the honest player 0.83/0.86/0.97/0.83/0.91.

Levels add dice (3 to 5 for the model) and the handicap (one die, two from level 3). The difficulty measure is the
opponent's dice plus twice the handicap plus a tenth of the turns the oracle takes to win.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, retry
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_rng
from palaestra.verifiers.moves import read_move_answer

FACE_WORDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
_SINGULAR = ("one", "two", "three", "four", "five", "six")
_NUMBER_WORDS = {w: i + 1 for i, w in enumerate(_SINGULAR)} | {"seven": 7, "eight": 8, "nine": 9, "ten": 10}
_FACE = {**{w: i + 1 for i, w in enumerate(FACE_WORDS)}, **{w: i + 1 for i, w in enumerate(_SINGULAR)},
         **{f"{i + 1}s": i + 1 for i in range(6)}, **{f"{i + 1}'s": i + 1 for i in range(6)},
         **{str(i + 1): i + 1 for i in range(6)}}
_BID = re.compile(r"^(?:bid |raise to |raise )?(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
                  r" ?(?:x ?|× ?)?(ones|twos|threes|fours|fives|sixes|one|two|three|four|five|six|[1-6]'?s|[1-6])$")
_CALL = ("liar", "call", "i call", "call liar", "challenge", "i challenge", "liar!", "you are lying", "call the bid")
_DICE_LINE = re.compile(r"Your dice: ([1-6 ]+)\.")
_COUNTS = re.compile(r"You have (\d+) dic?e, the opponent (\d+)")
_BIDS_LINE = re.compile(r"Bids this round: ([^.]*)\.")
_BID_ITEM = re.compile(r"(\d+) (\w+) by (you|the opponent)")
SLIPS = 3
HONEST_DEPTH = 2  # the honest player looks this many of its own moves ahead
MODEL, OPPONENT = 0, 1


@register
class LiarsDice(MultiTurnTask):
    id = "games/liars_dice"
    version = 2  # v2: the opponent calls a bid likelier false than its best raise is true; it has more dice
    family = "games"
    description = "Heads-up liar's dice against a scripted bidder: raise or call, seeing only your own dice."
    tags = ("games", "multi-turn", "two-player", "dice", "imperfect-information", "probability")
    one_move_per_turn = True
    hidden_information = True  # the opponent's dice
    honest_win_share = 0.6  # the honest player wins about 75-95% of the games per level

    @dataclass(frozen=True)
    class Config:
        dice: int  # the model's dice at the start
        opponent_dice: int  # the opponent's: one or two more (the level's handicap)

    presets = (Config(3, 4), Config(4, 5), Config(5, 6), Config(4, 6), Config(5, 7))
    bounded = "the oracle's search and the honest player's count of the opponent's hands grow with the dice"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            data: dict[str, Any] = {"dice": config.dice, "opponent_dice": config.opponent_dice,
                                    "tape": rng.getrandbits(48)}
            turns = _oracle_turns(data)
            return None if turns is None else {**data, "oracle_turns": turns}

        data = retry(draw, what="a game the oracle wins")
        start = _start(data)
        prompt = (
            f"Let's play liar's dice. You start with {config.dice} six-sided dice, the opponent with "
            f"{config.opponent_dice}. Each round we both roll in secret; you see only your own dice. Starting with "
            "the loser of the last round (you start the first), we take turns to bid or call. A bid such as 3 fives "
            "claims that at least 3 of all the dice on the table show a five (no face is wild); each bid must raise "
            "the last one: a higher count, or the same count of a higher face. Instead of bidding you may call the "
            "last bid a lie (write: liar). The dice are then shown: if the bid was false its bidder loses a die, "
            "else the caller does. Whoever loses all their dice loses the game; only a win scores.\n"
            "The opponent plays by this rule. It counts its own dice and gives each of yours a one-in-six chance "
            "of showing a face, except that it takes each face you switch to this round (a bid of yours on another "
            "face than the bid before it, or your opening bid) as one you hold at least one of. Of the smallest "
            "raise on each face it picks the one most likely true (the higher face on a tie); it calls the last "
            "bid when that bid is more likely false than its pick is true, else it bids its pick (and it opens a "
            "round with its pick).\n\n" + _situation(data, start) + "\n"
            "Each turn, write a bid (for example: 2 fours) or liar."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        total = problem.data["dice"] + problem.data["opponent_dice"]
        return (total - 1) * (3 * total + 1) + SLIPS  # every round lost by one die, every bid made

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        handicap = data["opponent_dice"] - data["dice"]
        return data["opponent_dice"] + 2 * handicap + data["oracle_turns"] / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _start(problem.data)

    def reads_as_move(self, problem: Problem, state: dict[str, Any], piece: str) -> bool:
        return read_move(piece) is not None

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        choice = read_move(move)
        if choice is None:
            return Outcome.invalid(state, "write a bid such as 2 fours, or liar")
        total = state["mine"] + state["theirs"]
        if choice == "liar" and not state["bids"]:
            return Outcome.invalid(state, "there is no bid to call yet: open with a bid")
        if choice != "liar":
            count, face = choice
            if count > total:
                return Outcome.invalid(state, f"there are only {total} dice on the table")
            if state["bids"] and not _raises(choice, tuple(state["bids"][-1])):
                last = state["bids"][-1]
                return Outcome.invalid(state, f"{_bid_text(tuple(choice))} does not raise {_bid_text(tuple(last))}")
        after, said = _model_turn(data, state, choice)
        if after["mine"] == 0 or after["theirs"] == 0:
            won = after["theirs"] == 0
            verdict = Verdict.right() if won else Verdict.wrong("the opponent won")
            return Outcome(after, verdict, f"{said} {'You win the game!' if won else 'You lose the game.'}", True)
        return Outcome.goes_on(after, f"{said}\n{_situation(data, after)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return _move_text(_seer_choice(problem.data, state))

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        total = state["mine"] + state["theirs"]
        last = tuple(state["bids"][-1]) if state["bids"] else None
        bids = [_bid_text(b) for b in _all_bids(total) if last is None or _raises(b, last)]
        return bids + (["liar"] if last else [])

    def heuristics(self) -> dict[str, Policy]:
        def timing(own_bids: float, how: str) -> Policy:
            """Open with your most common face (``how`` "six": with sixes); make ``own_bids`` bids a round, each
            the smallest raise on that face (``how`` "echo": the last bid's count plus one), then call."""
            def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                mine, _ = _roll(problem.data, state["round"], state["mine"], state["theirs"])
                made = sum(1 for i in range(len(state["bids"])) if _bidder(state, i) == MODEL)
                if state["bids"] and made >= own_bids:
                    return "liar"
                last = tuple(state["bids"][-1]) if state["bids"] else None
                face = 6 if how == "six" else max(range(1, 7), key=lambda f: (mine.count(f), f))
                if last is None:
                    bid = (max(1, mine.count(face)), face)
                else:
                    bid = (last[0] + 1, last[1]) if how == "echo" else _smallest_raise(last, face)
                return "liar" if bid[0] > state["mine"] + state["theirs"] else _bid_text(bid)
            return policy

        def up_to_expected(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            mine, _ = _roll(problem.data, state["round"], state["mine"], state["theirs"])
            face = max(range(1, 7), key=lambda f: (mine.count(f), f))
            last = tuple(state["bids"][-1]) if state["bids"] else None
            bid = _smallest_raise(last, face)
            if last is not None and bid[0] > mine.count(face) + state["theirs"] / 6:
                return "liar"
            return _bid_text(bid)

        return {
            "call every bid (open with your most common face)": timing(0, "face"),
            "bid once on your most common face, then call": timing(1, "face"),
            "bid twice on your most common face, then call": timing(2, "face"),
            "bid three times on your most common face, then call": timing(3, "face"),
            "bid twice (the last bid's count plus one), then call": timing(2, "echo"),
            "always raise the last bid's count by one": timing(math.inf, "echo"),
            "always make the smallest raise on your most common face": timing(math.inf, "face"),
            "bid your most common face up to its expected count, then call": up_to_expected,
            "bid once on sixes, then call": timing(1, "six"),
        }

    def honest_move(self, view: View) -> str:
        """Own dice, the dice left and this round's bids from the latest situation; the opponent's hands that
        its stated rule would have bid this way, each weighed by its chance; the move most likely to win the round
        looking two of its own moves ahead (see :func:`_honest_choice`)."""
        text = next(t for t in reversed([view.prompt, *view.observations]) if _DICE_LINE.search(t))
        mine = tuple(int(d) for d in _DICE_LINE.findall(text)[-1].split())
        theirs = int(_COUNTS.findall(text)[-1][1])
        bids_text = _BIDS_LINE.findall(text)[-1]
        items = _BID_ITEM.findall(bids_text)
        bids = tuple((int(n), FACE_WORDS.index(f) + 1) for n, f, _ in items)
        starter = OPPONENT if items and items[0][2] == "the opponent" else MODEL
        return _move_text(_honest_choice(mine, theirs, bids, starter))


def read_move(move: str) -> Any:
    """``"liar"`` or ``(count, face)``, or None.

    >>> read_move("Bid 3 fives."), read_move("LIAR!"), read_move("3 fives, then liar")
    ((3, 5), 'liar', None)
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> Any:
        lowered = " ".join(text.lower().split())
        if lowered in _CALL:
            return "liar"
        match = _BID.match(lowered)
        if not match:
            return None
        count_text, face_text = match.groups()
        count = _NUMBER_WORDS[count_text] if count_text in _NUMBER_WORDS else int(count_text)
        return (count, _FACE[face_text]) if count >= 1 else None

    return read_move_answer(move, read)


def _bid_text(bid: tuple[int, int]) -> str:
    count, face = bid
    return f"{count} {FACE_WORDS[face - 1]}"


def _move_text(choice: Any) -> str:
    return "liar" if choice == "liar" else _bid_text(tuple(choice))


def _raises(bid: tuple[int, int], last: tuple[int, int]) -> bool:
    return bid[0] > last[0] or (bid[0] == last[0] and bid[1] > last[1])


def _all_bids(total: int) -> list[tuple[int, int]]:
    return [(count, face) for count in range(1, total + 1) for face in range(1, 7)]


def _smallest_raise(last: tuple[int, int] | None, face: int) -> tuple[int, int]:
    return (1 if last is None else last[0] + (0 if face > last[1] else 1), face)


@functools.lru_cache(maxsize=4096)
def _smallest_raises(last: tuple[int, int] | None, total: int) -> tuple[tuple[int, int], ...]:
    """The smallest raise on each face that fits the dice on the table. (Cached: the opponent's rule asks for them
    for every hand the honest player weighs.)"""
    return tuple(bid for bid in (_smallest_raise(last, face) for face in range(1, 7)) if bid[0] <= total)


# --- the game -----------------------------------------------------------------------------------------------
# state: mine, theirs (dice left), round (index), bids (this round's bids, [count, face]), starter (who bid first
# this round), said_round (the bidders of this round, for the record)

def _roll(data: dict[str, Any], round_: int, mine: int, theirs: int) -> tuple[list[int], list[int]]:
    my_cup, their_cup = _cups(data["tape"], round_, mine, theirs)
    return list(my_cup), list(their_cup)


@functools.lru_cache(maxsize=4096)
def _cups(tape: int, round_: int, mine: int, theirs: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Both cups' dice, sorted, as the tape rolls them: read once per round (the oracle's search at generation
    counts the dice at every node; each fresh read hashes the tape)."""
    rng = tape_rng(LiarsDice.id, tape, "roll", round_, mine, theirs)
    return tuple(sorted(rng.randint(1, 6) for _ in range(mine))), tuple(sorted(rng.randint(1, 6) for _ in range(theirs)))


def _start(data: dict[str, Any]) -> dict[str, Any]:
    return {"mine": data["dice"], "theirs": data["opponent_dice"], "round": 0, "bids": [], "starter": MODEL}


def _situation(data: dict[str, Any], state: dict[str, Any]) -> str:
    mine, _ = _roll(data, state["round"], state["mine"], state["theirs"])
    bids = ", ".join(f"{_bid_text(tuple(bid))} by {'you' if _bidder(state, i) == MODEL else 'the opponent'}"
                     for i, bid in enumerate(state["bids"])) or "none yet, you bid first"
    return (f"Round {state['round'] + 1}. You have {state['mine']} di{'c' if state['mine'] != 1 else ''}e, the "
            f"opponent {state['theirs']}. Your dice: {' '.join(map(str, mine))}. Bids this round: {bids}.")


def _bidder(state: dict[str, Any], index: int) -> int:
    return _bidder_of(state["starter"], index)


def _bidder_of(starter: int, index: int) -> int:
    return starter if index % 2 == 0 else 1 - starter


def _true_count(data: dict[str, Any], state: dict[str, Any], face: int) -> int:
    mine, theirs = _cups(data["tape"], state["round"], state["mine"], state["theirs"])
    return mine.count(face) + theirs.count(face)


def _settle(data: dict[str, Any], state: dict[str, Any], caller: int) -> tuple[dict[str, Any], str]:
    count, face = state["bids"][-1]
    shown = _true_count(data, state, face)
    bidder = 1 - caller
    loser = caller if shown >= count else bidder
    mine, theirs = _roll(data, state["round"], state["mine"], state["theirs"])
    who = "You lose" if loser == MODEL else "The opponent loses"
    said = (f"The dice: yours {' '.join(map(str, mine))}, the opponent's {' '.join(map(str, theirs))}: "
            f"{shown} {FACE_WORDS[face - 1] if shown != 1 else _SINGULAR[face - 1]}. {who} a die.")
    after = {"mine": state["mine"] - (loser == MODEL), "theirs": state["theirs"] - (loser == OPPONENT),
             "round": state["round"] + 1, "bids": [], "starter": loser}
    return after, said


def _model_turn(data: dict[str, Any], state: dict[str, Any], choice: Any) -> tuple[dict[str, Any], str]:
    """The model's bid or call, then the opponent's answer (and its opening bid when it starts the next round)."""
    if choice == "liar":
        after, said = _settle(data, state, MODEL)
        said = "You call liar. " + said
    else:
        after = {**state, "bids": [*state["bids"], list(choice)]}
        said = f"You bid {_bid_text(tuple(choice))}."
        reply = _opponent_choice(data, after)
        if reply == "liar":
            after, settled = _settle(data, after, OPPONENT)
            said += " The opponent calls liar. " + settled
        else:
            after = {**after, "bids": [*after["bids"], list(reply)]}
            said += f" The opponent bids {_bid_text(reply)}."
            return after, said
    if after["mine"] and after["theirs"] and after["starter"] == OPPONENT:
        after = {**after, "bids": [list(_opponent_choice(data, after))]}
    return after, said


def _tail(needed: int, dice: int) -> float:
    """The chance that at least ``needed`` of ``dice`` unseen dice show a given face."""
    return _tail_cached(max(needed, 0), dice)


@functools.lru_cache(maxsize=4096)
def _tail_cached(needed: int, dice: int) -> float:
    return sum(math.comb(dice, k) * (1 / 6) ** k * (5 / 6) ** (dice - k) for k in range(needed, dice + 1))


def _switched(bids: tuple[tuple[int, int], ...], starter: int) -> int:
    """The faces the model switched to this round: its bids on another face than the bid before, and its opening;
    as a bit mask (bit ``face``), a small key for the rule's cache."""
    return sum({1 << bid[1] for i, bid in enumerate(bids)
                if _bidder_of(starter, i) == MODEL and (i == 0 or bids[i - 1][1] != bid[1])})


def _rule(own: tuple[int, ...], unseen: int, bids: tuple[tuple[int, int], ...], starter: int) -> Any:
    """The opponent's stated rule from its dice ``own`` facing ``unseen`` dice of the model: of the smallest raise
    on each face, the one most likely true (the higher face on a tie); a call when the last bid is more likely false
    than that raise is true. A face the model switched to counts one sure die among the unseen."""
    return _cached_rule(own, unseen, bids[-1] if bids else None, _switched(bids, starter))


def _rule_after(own: tuple[int, ...], unseen: int, last: tuple[int, int] | None, switched: int) -> Any:
    """:func:`_rule` from all it reads of the bids: the last one and the faces the model switched to."""

    def chance(count: int, face: int) -> float:
        sure = 1 if switched >> face & 1 and unseen else 0
        return _tail(count - own.count(face) - sure, unseen - sure)

    pick, most = None, (-1.0, 0)
    for count, face in _smallest_raises(last, len(own) + unseen):
        key = (chance(count, face), face)  # the most likely true, the higher face on a tie
        if key > most:
            pick, most = (count, face), key
    if pick is None:
        return "liar"
    if last is not None and 1 - chance(*last) > most[0]:
        return "liar"
    return pick


# Cached on what the rule reads, not on the whole bidding: the oracle's search at generation asks it at every node,
# and the honest player for every hand the opponent may hold after every line of bids it weighs (lines that end
# alike share entries: the kit's honest games fill about 450,000, a few tens of MB; without them they re-solve).
_cached_rule = functools.lru_cache(maxsize=1 << 19)(_rule_after)


def _opponent_choice(data: dict[str, Any], state: dict[str, Any]) -> Any:
    _, theirs = _cups(data["tape"], state["round"], state["mine"], state["theirs"])
    return _rule(theirs, state["mine"], tuple(tuple(bid) for bid in state["bids"]), state["starter"])


# --- players ------------------------------------------------------------------------------------------------

def _seer_choice(data: dict[str, Any], state: dict[str, Any]) -> Any:
    """The oracle: it sees both cups; the first move that wins the round against the opponent's rule, else a call
    (or the smallest true bid when there is nothing to call)."""
    won = _winning(data, state, 0)
    if won is not None:
        return won
    return "liar" if state["bids"] else (1, max(range(1, 7), key=lambda f: (_true_count(data, state, f), f)))


def _winning(data: dict[str, Any], state: dict[str, Any], depth: int) -> Any:
    """A move winning this round for the model (searching the opponent's deterministic replies), or None."""
    if state["bids"]:
        count, face = state["bids"][-1]
        if _true_count(data, state, face) < count:
            return "liar"
    if depth >= 6:
        return None
    total = state["mine"] + state["theirs"]
    last = tuple(state["bids"][-1]) if state["bids"] else None
    for bid in _all_bids(total):
        if last is not None and not _raises(bid, last):
            continue
        if _true_count(data, state, bid[1]) < bid[0]:
            continue  # a false bid: the opponent may call it
        after = {**state, "bids": [*state["bids"], list(bid)]}
        reply = _opponent_choice(data, after)
        if reply == "liar":
            return bid
        if _winning(data, {**after, "bids": [*after["bids"], list(reply)]}, depth + 1) is not None:
            return bid
    return None


def _oracle_turns(data: dict[str, Any]) -> int | None:
    """The turns the oracle takes to win the game, or None when it loses."""
    state = _start(data)
    total = data["dice"] + data["opponent_dice"]
    for turn in range(1, (total - 1) * (3 * total + 1) + 1):
        state = _model_turn(data, state, _seer_choice(data, state))[0]
        if state["theirs"] == 0:
            return turn
        if state["mine"] == 0:
            return None
    return None


@functools.lru_cache(maxsize=16)
def _hands(dice: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every sorted hand of ``dice`` dice with the number of rolls showing it."""
    hands = []
    for hand in itertools.combinations_with_replacement(range(1, 7), dice):
        rolls = math.factorial(dice)
        for face in set(hand):
            rolls //= math.factorial(hand.count(face))
        hands.append((hand, rolls))
    return tuple(hands)


def _honest_choice(mine: tuple[int, ...], unseen: int, bids: tuple[tuple[int, int], ...], starter: int) -> Any:
    """The honest player: the opponent's possible hands, each weighed by its rolls, kept when the stated rule bids
    as the opponent bid this round; then the move most likely to win the round, looking ``HONEST_DEPTH`` of its own
    moves ahead (each opponent reply read from the rule; past the horizon it calls), among a call and the smallest
    raise on each face."""
    # What the rule reads of the bids before each of the opponent's bids (read once, not once per hand).
    seen = [(bids[i - 1] if i else None, _switched(bids[:i], starter), bids[i])
            for i in range(len(bids)) if _bidder_of(starter, i) == OPPONENT]
    hands = [(hand, rolls) for hand, rolls in _hands(unseen)
             if all(_cached_rule(hand, len(mine), last, switched) == bid for last, switched, bid in seen)]

    Hands = list[tuple[tuple[int, ...], int]]

    def call_wins(last: tuple[int, int], hands: Hands) -> int:
        count, face = last
        return sum(rolls for hand, rolls in hands if mine.count(face) + hand.count(face) < count)

    def best(bids: tuple[tuple[int, int], ...], hands: Hands, depth: int) -> tuple[int, Any]:
        """(rolls of ``hands`` where the best move wins the round, that move)."""
        top: tuple[int, Any] = (call_wins(bids[-1], hands), "liar") if bids else (-1, None)
        for bid in _smallest_raises(bids[-1] if bids else None, len(mine) + unseen):
            after = (*bids, bid)
            switched = _switched(after, starter)  # the same for every hand
            won = 0
            replies: dict[tuple[int, int], Hands] = {}
            for hand, rolls in hands:
                reply = _cached_rule(hand, len(mine), bid, switched)
                if reply == "liar":
                    won += rolls if mine.count(bid[1]) + hand.count(bid[1]) >= bid[0] else 0
                else:
                    replies.setdefault(reply, []).append((hand, rolls))
            for reply, group in replies.items():
                won += call_wins(reply, group) if depth <= 1 else best((*after, reply), group, depth - 1)[0]
            if won > top[0]:
                top = (won, bid)
        return top

    return best(bids, hands or list(_hands(unseen)), HONEST_DEPTH)[1]
