"""Liar's dice, heads-up, against a scripted opponent: bid on the dice under both cups, or call the last bid a lie.

Both players start with the level's number of six-sided dice. Each round both roll in secret (the rolls come from
a tape drawn with the problem, keyed by the round and the dice left, so a replay rolls the same); the model sees
its own dice only. Players alternate bids, starting with the loser of the last round (the model starts the first):
a bid ``3 fives`` claims that at least three dice of both cups show a five (no face is wild); each bid must raise
the last one (a higher count, or the same count of a higher face). Instead of bidding, the player to act may
call ``liar``: the cups are lifted, and the bidder loses a die if the bid was false, else the caller does. Whoever
loses all their dice loses the game; the reward is 1 when the model wins, else 0.

The opponent plays by a rule the prompt states, from its own dice: it calls when the chance that the bid is true
(its own dice counted, each of the model's dice a one-in-six chance) is below its threshold; otherwise it makes,
of the smallest raise on each face, the one most likely true (the higher face on a tie); at the lower levels it
sometimes raises at random among those instead (a bluff). Its threshold rises and its bluffs fade with the level.
A uniformly random legal player loses almost every game (a random raise is usually an absurd claim, and is
called). The oracle sees both cups and searches each round's bids against the opponent's rule (which is
deterministic given the tape), so it never loses a round it can win; the generator keeps games it wins. The honest
player (:meth:`LiarsDice.honest_move`) uses its own dice and the opponent's bids (a face the opponent bid is taken
as one it holds at least one of): it calls when the bid is less than 40% likely true, else makes the smallest
raise most likely true; it wins about half the games or more at every level (the declared share is 30%).

Levels add dice (2 to 5 each) and sharpen the opponent. The difficulty measure is the dice per player plus the
opponent's threshold times four plus a tenth of the turns the oracle takes to win.
"""

from __future__ import annotations

import functools
import math
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, retry
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_rng, tape_uniform
from palaestra.verifiers.normalize import read_answer

FACE_WORDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
_SINGULAR = ("one", "two", "three", "four", "five", "six")
_NUMBER_WORDS = {w: i + 1 for i, w in enumerate(_SINGULAR)} | {"seven": 7, "eight": 8, "nine": 9, "ten": 10}
_FACE = {**{w: i + 1 for i, w in enumerate(FACE_WORDS)}, **{w: i + 1 for i, w in enumerate(_SINGULAR)},
         **{f"{i + 1}s": i + 1 for i in range(6)}, **{f"{i + 1}'s": i + 1 for i in range(6)},
         **{str(i + 1): i + 1 for i in range(6)}}
_BID = re.compile(r"^(?:i )?(?:bid |raise to |raise )?(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
                  r" ?(?:x ?|× ?)?(ones|twos|threes|fours|fives|sixes|one|two|three|four|five|six|[1-6]'?s|[1-6])$")
_CALL = ("liar", "call", "i call", "call liar", "challenge", "i challenge", "liar!", "you are lying", "call the bid")
_DICE_LINE = re.compile(r"Your dice: ([1-6 ]+)\.")
_COUNTS = re.compile(r"You have (\d+) dic?e, the opponent (\d+)")
_BIDS_LINE = re.compile(r"Bids this round: ([^.]*)\.")
_BID_ITEM = re.compile(r"(\d+) (\w+) by (you|the opponent)")
SLIPS = 3
HONEST_CALL = 0.4  # the honest player calls a bid less likely true than this
MODEL, OPPONENT = 0, 1


@register
class LiarsDice(MultiTurnTask):
    id = "games/liars_dice"
    family = "games"
    description = "Heads-up liar's dice against a scripted bidder: raise or call, seeing only your own dice."
    tags = ("games", "multi-turn", "two-player", "dice", "imperfect-information", "probability")
    one_move_per_turn = True
    hidden_information = True  # the opponent's dice
    honest_win_share = 0.3  # the honest player wins about 50-75% of the games per level

    @dataclass(frozen=True)
    class Config:
        dice: int
        threshold: float  # the opponent calls a bid less likely true than this
        bluff: float  # chance the opponent raises at random among the smallest raises
        reads: bool  # whether the opponent takes a face the model bid as one the model holds

    presets = (Config(2, 0.2, 0.3, False), Config(3, 0.3, 0.2, False), Config(3, 0.4, 0.1, True),
               Config(4, 0.45, 0.05, True), Config(5, 0.45, 0.0, True))
    bounded = "the oracle's search over each round's bids grows with the dice; five each is the last level kept cheap"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            data: dict[str, Any] = {"dice": config.dice, "threshold": config.threshold, "bluff": config.bluff,
                                    "reads": config.reads, "tape": rng.getrandbits(48)}
            turns = _oracle_turns(data)
            return None if turns is None else {**data, "oracle_turns": turns}

        data = retry(draw, what="a game the oracle wins")
        bluff = (f" With chance {round(100 * config.bluff)}% it raises instead to one of those smallest raises at "
                 "random (a bluff)." if config.bluff else "")
        start = _start(data)
        prompt = (
            f"Let's play liar's dice. We each start with {config.dice} six-sided dice. Each round we both roll in "
            "secret; you see only your own dice. Starting with the loser of the last round (you start the first), "
            "we take turns to bid or call. A bid such as 3 fives claims that at least 3 of all the dice on the "
            "table show a five (no face is wild); each bid must raise the last one: a higher count, or the same "
            "count of a higher face. Instead of bidding you may call the last bid a lie (write: liar). The dice are "
            "then shown: if the bid was false its bidder loses a die, else the caller does. Whoever loses all "
            "their dice loses the game; only a win scores.\n"
            "The opponent counts its own dice and gives each of yours a one-in-six chance of showing a face: it "
            f"calls when the last bid is less than {round(100 * config.threshold)}% likely true; otherwise it "
            "makes, of the smallest raise on each face, the one most likely true (the higher face on a tie)."
            + (" It takes each face you bid this round as one you hold at least one of." if config.reads else "")
            + bluff + "\n\n" + _situation(data, start) + "\n"
            "Each turn, write a bid (for example: 2 fours) or liar."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        dice = problem.data["dice"]
        return (2 * dice - 1) * 6 * dice + SLIPS

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return data["dice"] + 4 * data["threshold"] + data["oracle_turns"] / 10

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
        return {
            "call every bid (open with one of your most common face)":
                lambda problem, state, history, rng: "liar" if state["bids"] else _open_text(problem.data, state),
            "raise the count by one on the same face (open with your most common face)":
                lambda problem, state, history, rng: _plus_one(problem.data, state),
        }

    def honest_move(self, view: View) -> str:
        """Own dice, the dice left and this round's bids from the latest situation; call a bid less than 40% likely
        true (a face the opponent bid counts as one it holds), else the smallest raise most likely true."""
        text = next(t for t in reversed([view.prompt, *view.observations]) if _DICE_LINE.search(t))
        mine = [int(d) for d in _DICE_LINE.findall(text)[-1].split()]
        theirs = int(_COUNTS.findall(text)[-1][1])
        bids_text = _BIDS_LINE.findall(text)[-1]
        bids = [((int(n), FACE_WORDS.index(f) + 1), who) for n, f, who in _BID_ITEM.findall(bids_text)]
        held = {bid[1] for bid, who in bids if who == "the opponent"}
        return _move_text(_reasoned_choice(mine, theirs, bids[-1][0] if bids else None, held, HONEST_CALL))


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

    return read_answer(move, read)


def _bid_text(bid: tuple[int, int]) -> str:
    count, face = bid
    return f"{count} {FACE_WORDS[face - 1]}"


def _move_text(choice: Any) -> str:
    return "liar" if choice == "liar" else _bid_text(tuple(choice))


def _raises(bid: tuple[int, int], last: tuple[int, int]) -> bool:
    return bid[0] > last[0] or (bid[0] == last[0] and bid[1] > last[1])


def _all_bids(total: int) -> list[tuple[int, int]]:
    return [(count, face) for count in range(1, total + 1) for face in range(1, 7)]


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
    return {"mine": data["dice"], "theirs": data["dice"], "round": 0, "bids": [], "starter": MODEL}


def _situation(data: dict[str, Any], state: dict[str, Any]) -> str:
    mine, _ = _roll(data, state["round"], state["mine"], state["theirs"])
    bids = ", ".join(f"{_bid_text(tuple(bid))} by {'you' if _bidder(state, i) == MODEL else 'the opponent'}"
                     for i, bid in enumerate(state["bids"])) or "none yet, you bid first"
    return (f"Round {state['round'] + 1}. You have {state['mine']} di{'c' if state['mine'] != 1 else ''}e, the "
            f"opponent {state['theirs']}. Your dice: {' '.join(map(str, mine))}. Bids this round: {bids}.")


def _bidder(state: dict[str, Any], index: int) -> int:
    return state["starter"] if index % 2 == 0 else 1 - state["starter"]


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


def _reasoned_choice(own: list[int], unseen: int, last: tuple[int, int] | None, held: set[int],
                     threshold: float) -> Any:
    """Call when ``last`` is less likely true than ``threshold`` (own dice counted, each unseen die one in six;
    a face in ``held`` counts one more sure die among the unseen); else, of the smallest raise on each face, the one
    most likely true (the higher face on a tie)."""
    def chance(bid: tuple[int, int]) -> float:
        count, face = bid
        sure = own.count(face) + (1 if face in held and unseen else 0)
        return _tail(count - sure, unseen - (1 if face in held and unseen else 0))

    if last is not None and chance(last) < threshold:
        return "liar"
    options = []
    for face in range(1, 7):
        count = 1 if last is None else last[0] + (0 if face > last[1] else 1)
        if count <= len(own) + unseen:
            options.append((count, face))
    if not options:
        return "liar"
    return max(options, key=lambda bid: (chance(bid), bid[1]))


def _opponent_choice(data: dict[str, Any], state: dict[str, Any]) -> Any:
    _, theirs = _roll(data, state["round"], state["mine"], state["theirs"])
    last = tuple(state["bids"][-1]) if state["bids"] else None
    held = {bid[1] for i, bid in enumerate(state["bids"]) if _bidder(state, i) == MODEL} if data["reads"] else set()
    choice = _reasoned_choice(theirs, state["mine"], last, held, data["threshold"])  # type: ignore[arg-type]
    if choice != "liar" and data["bluff"] and \
            tape_uniform(LiarsDice.id, data["tape"], "bluff", state["round"], len(state["bids"])) < data["bluff"]:
        total = state["mine"] + state["theirs"]
        options = [(1 if last is None else last[0] + (0 if face > last[1] else 1), face) for face in range(1, 7)]
        options = [bid for bid in options if bid[0] <= total]
        pick = tape_uniform(LiarsDice.id, data["tape"], "pick", state["round"], len(state["bids"]))
        choice = options[int(pick * len(options))]
    return choice


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
    for turn in range(1, 6 * data["dice"] * 2 * data["dice"]):
        state = _model_turn(data, state, _seer_choice(data, state))[0]
        if state["theirs"] == 0:
            return turn
        if state["mine"] == 0:
            return None
    return None


def _open_text(data: dict[str, Any], state: dict[str, Any]) -> str:
    mine, _ = _roll(data, state["round"], state["mine"], state["theirs"])
    face = max(range(1, 7), key=lambda f: (mine.count(f), f))
    return _bid_text((max(1, mine.count(face)), face))


def _plus_one(data: dict[str, Any], state: dict[str, Any]) -> str:
    if not state["bids"]:
        return _open_text(data, state)
    count, face = state["bids"][-1]
    if count + 1 > state["mine"] + state["theirs"]:
        return "liar"
    return _bid_text((count + 1, face))
