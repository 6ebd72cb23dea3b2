"""Cribbage pegging with both hands shown, against a scripted opponent; the point margin scored by regret.

Each player holds a few cards (ranks only matter: A counts 1, 2-10 their number, J Q K count 10).
The model leads; the players alternate, each card adding its value to a running count that may
not pass 31. The player of a card scores: 2 when the count reaches 15; 2 when it reaches 31; 2 for
a pair with the card just before, 6 for three of a rank in a row, 12 for four; a run of n >= 3
when the last n cards played since the count restarted are n consecutive ranks in any order (the
longest such run scores). A player with no card that fits says "go" (the rules do it); when
neither can play, the player of the last card scores 1 (none at exactly 31), the count restarts at
0 and the other player plays next. The game ends when both hands are empty (the last card scores
its 1 by the same rule). Passing is automatic, so every move of the model is one card, and the
game takes as many turns as the model has cards.

Both hands are shown (open pegging), so the game has no hidden information. The opponent follows
a rule the prompt states, deterministic from the state: at level 0 a random card (drawn from a
tape stored with the problem, :func:`palaestra.envs.games.common.tape_rng`, keyed by the state, so a
replay replays it); from level 1 the card scoring most now; from level 2 the card scoring most now
less the most the model can score with its reply. So the whole game is a tree over the model's
choices, searched exactly (memoised on the state): ``best`` is the best final margin (the model's
points less the opponent's); the exact distribution of the margins a uniformly random legal player
reaches gives the ``baseline``: the lowest whole margin, at least random play's mean, at which
random play's expected reward is at most 0.05 (a margin spread makes random play's mean a zero
that chance alone beats too often), raised (version 2) to the best margin any of the simple rules of
:data:`RULES` makes (the most points now, now less the opponent's best reply, or the most margin until
the next turn, each with either tie-break; the lowest or the highest card), played through at
generation. In version 1 the zero was random play's alone, and the rule "most points now less the
opponent's best reply" scored 0.23, 0.37, 0.33, 0.22 and 0.17 on average at levels 0-4 (80 seeds a
level); every rule of the family now scores 0. The reward, paid when the last card is played, is
``clip((margin - baseline) / (best - baseline))`` (:func:`palaestra.core.multiturn.regret_reward`):
random play scores about 0.05 at most, the oracle (the exact search) 1. The generator keeps deals
where ``best - baseline`` is at least two points (version 1 kept, from level 3, the deals where the
greedy rule fell short of ``best``: every deal now does). A card the model does not hold, or one that would pass 31, is refused (the turn is spent;
the budget allows two such slips).

Levels grow the hands and sharpen the opponent (version 2: five cards against a random, greedy and
wary opponent, then six against a greedy and a wary one). The difficulty measure is twice the
number of cards per hand plus the opponent's rank (0 random, 1 greedy, 2 wary), plus an eighth of the points from the
reward's zero to the best margin (at most 1), plus a twentieth of what random play gives up (at most 1).

Generation speed: about 25 to 40 problems/s at level 4 on this 2-core machine (it varies with the number of draws
the seeds need). Each drawn deal is solved by a memoised search for the best pegging margin and for the exact spread
of random play's margin (the reward's top and zero), and the eight rules of :data:`RULES` are played through; deals
are redrawn where play hardly matters or a rule comes within two points of the best margin. The exact values are kept because the reward is normalised to them.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, register, regret_reward, retry
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_rng
from palaestra.verifiers.moves import read_move_answer

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_WORDS = {"ace": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
              "nine": 9, "ten": 10, "jack": 11, "queen": 12, "king": 13, "a": 1, "j": 11, "q": 12, "k": 13, "t": 10}
STYLES = {"random": "plays a random card among those that fit",
          "greedy": "plays the card that scores it the most points now (the highest-counting card on a tie)",
          "wary": "plays the card that maximises its points now less the most points you can score with your "
                  "reply (the highest-counting card on a tie)"}
RANK_OF_STYLE = {"random": 0, "greedy": 1, "wary": 2}
LIMIT = 31
RANDOM_REWARD = 0.05  # the reward's zero is set so that uniformly random legal play averages at most this
SLIPS = 2  # refused moves the turn budget allows
_MOVE = re.compile(r"^(?:(?:play|lay|lead)\s+)?(?:the\s+)?(?:card\s+)?"
                   r"([a-z]+|\d{1,2})(?:\s*(?:of\s+[a-z]+|[♠♥♦♣]|[cdhs]))?$")

ME, THEM = 0, 1
State = tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...], int, int]
# (model's hand, opponent's hand, count, ranks played since the count restarted, who played last (-1: nobody), to move)


@register
class CribbagePegging(MultiTurnTask):
    id = "games/cribbage_pegging"
    family = "games"
    description = "Cribbage pegging with both hands shown against a scripted opponent; margin scored by regret."
    tags = ("games", "multi-turn", "two-player", "cards", "planning")
    one_move_per_turn = True  # a reply holding several cards is refused (checked by the kit)
    score_based = True
    version = 2  # v2: the reward's zero is at least the best margin of simple rules (RULES), not random play's alone

    @dataclass(frozen=True)
    class Config:
        cards: int  # per hand
        style: str  # the opponent's rule
        room: int  # keep only deals where the best margin beats the reward's zero by at least this many points

    presets = (Config(5, "random", 2), Config(5, "greedy", 2), Config(5, "wary", 2),
               Config(6, "greedy", 2), Config(6, "wary", 2))
    bounded = "six cards a hand use most of a player's cards in a real deal, and the exact search grows steeply"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            deck = [rank for rank in range(1, 14) for _ in range(4)]
            dealt = rng.sample(deck, 2 * config.cards)
            data: dict[str, Any] = {"mine": sorted(dealt[:config.cards]), "theirs": sorted(dealt[config.cards:]),
                                    "style": config.style, "tape": rng.getrandbits(48)}
            start = _start(data)
            best = _best(_key(data), start)
            baseline, mean = baseline_margin(_key(data), start, best)
            greedy = _greedy_margin(data)
            rules = max(_rule_margin(data, rule) for rule in RULES.values())
            baseline = max(baseline, rules)
            if best - baseline < config.room:
                return None
            return {**data, "best": best, "baseline": baseline, "random": round(mean, 6), "greedy": greedy,
                    "rules": rules}

        data = retry(draw, what="a deal where the play matters")
        prompt = (
            "Let's play the pegging of cribbage with both hands shown. Cards count A = 1, 2-10 their number, J Q K = "
            "10. You lead; we take turns playing one card each, adding its value to a running count that may not "
            "pass 31. The player of a card scores 2 when the count reaches 15, 2 when it reaches exactly 31, 2 for "
            "a pair with the card just before (6 for three of a rank in a row, 12 for four), and n for a run: the "
            "last n >= 3 cards played since the count restarted are n consecutive ranks in any order (A low, J Q K "
            "ranks 11-13; the longest run scores). A player with no card that fits passes (this is done for you); "
            "when neither can play, the player of the last card scores 1 (none at exactly 31), the count restarts "
            "at 0, and the other player plays next. The pegging ends when both hands are empty; the last card "
            f"scores 1 the same way. The opponent {STYLES[config.style]}.\n\n"
            "You score by your margin (your points less the opponent's): 0 up to a baseline margin, set so that "
            "playing uniformly random cards averages a score of at most 0.05 and no simple rule of thumb (the card "
            "scoring most now, or most now less the opponent's best reply, or most until your next turn; the "
            "lowest or the highest card) scores, rising evenly to 1 for the best margin possible against this "
            "opponent.\n\n"
            f"{_situation(start_state(data))}\n"
            "Each turn, play one card by its rank, for example: 7"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return len(problem.data["mine"]) + SLIPS

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return (2 * len(data["mine"]) + RANK_OF_STYLE[data["style"]] + min(1.0, (data["best"] - data["baseline"]) / 8)
                + min(1.0, (data["best"] - data["random"]) / 20))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return start_state(problem.data)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        rank = read_rank(move)
        if rank is None:
            return Outcome.invalid(state, "write one card by its rank, such as 7, 10 or K")
        if rank not in state["mine"]:
            return Outcome(state, Verdict.wrong("not held"), f"You hold no {RANK_NAMES[rank - 1]}.")
        if state["count"] + value(rank) > LIMIT:
            return Outcome(state, Verdict.wrong("passes 31"),
                           f"{RANK_NAMES[rank - 1]} would take the count past 31 (it is {state['count']}).")
        data = problem.data
        said: list[str] = []
        after, gained = _after_model(_key(data), _frozen(state), rank, said)
        points = [state["points"][0] + gained[0], state["points"][1] + gained[1]]
        new = {**_thawed(after), "points": points}
        if not after[0] and not after[1]:
            margin = points[0] - points[1]
            reward = regret_reward(margin, data["baseline"], data["best"])
            ending = (f"The pegging is over: you {points[0]}, the opponent {points[1]} (margin {margin}; the best "
                      f"margin was {data['best']}, the reward's zero {data['baseline']}).")
            verdict = Verdict(reward, margin >= data["best"], True, f"margin {margin} of best {data['best']}")
            return Outcome(new, verdict, " ".join([*said, ending]), True)
        return Outcome.goes_on(new, " ".join([*said, _situation(new)]))

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        key, frozen = _key(problem.data), _frozen(state)
        return RANK_NAMES[max(_playable(frozen), key=lambda r: (_choice_value(key, frozen, r), r)) - 1]

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return [RANK_NAMES[r - 1] for r in _playable(_frozen(state))]

    def heuristics(self) -> dict[str, Policy]:
        def as_policy(rule: Any) -> Policy:
            return lambda problem, state, history, rng: RANK_NAMES[rule(_key(problem.data), _frozen(state)) - 1]

        return {name: as_policy(rule) for name, rule in RULES.items()}


def value(rank: int) -> int:
    """What a card adds to the count: its rank, face cards 10."""
    return min(rank, 10)


COUNTS = tuple(min(rank, 10) for rank in range(14))  # value() by rank, for the searches' inner loops


def read_rank(move: str) -> int | None:
    """The rank a move names (``7``, ``K``, ``king``, ``play the 10``, ``Q♠``), or None.

    >>> read_rank("play the king."), read_rank("10"), read_rank("7 9")
    (13, 10, None)
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> int | None:
        match = _MOVE.match(" ".join(text.lower().split()))
        if not match:
            return None
        word = match.group(1)
        if word.isdigit():
            return int(word) if 2 <= int(word) <= 10 else None
        return RANK_WORDS.get(word)

    return read_move_answer(move, read)


def start_state(data: dict[str, Any]) -> dict[str, Any]:
    return {**_thawed(_start(data)), "points": [0, 0]}


def _key(data: dict[str, Any]) -> tuple[str, int]:
    return data["style"], data["tape"]


def _start(data: dict[str, Any]) -> State:
    return tuple(data["mine"]), tuple(data["theirs"]), 0, (), -1, ME


def _frozen(state: dict[str, Any]) -> State:
    return (tuple(state["mine"]), tuple(state["theirs"]), state["count"], tuple(state["run"]), state["last"],
            state["to_move"])


def _thawed(state: State) -> dict[str, Any]:
    mine, theirs, count, run, last, to_move = state
    return {"mine": list(mine), "theirs": list(theirs), "count": count, "run": list(run), "last": last,
            "to_move": to_move}


@functools.lru_cache(maxsize=1 << 16)
def _fits(hand: tuple[int, ...], count: int) -> tuple[int, ...]:
    return tuple(sorted({r for r in hand if count + COUNTS[r] <= LIMIT}))


def _playable(state: State) -> tuple[int, ...]:
    return _fits(state[0], state[2])


@functools.lru_cache(maxsize=1 << 16)
def score_card(run: tuple[int, ...], count: int) -> int:
    """Points for the last card of ``run`` (the ranks since the count restarted) bringing the count to ``count``.

    >>> score_card((5, 10), 15), score_card((4, 4, 4), 12), score_card((3, 5, 4), 12), score_card((9, 9), 18)
    (2, 6, 3, 2)
    """
    points = 2 if count in (15, LIMIT) else 0
    same = 1
    while same < len(run) and run[-1 - same] == run[-1]:
        same += 1
    points += {2: 2, 3: 6, 4: 12}.get(same, 0)
    for length in range(len(run), 2, -1):
        tail = run[-length:]
        # consecutive ranks in some order: all different and spanning exactly ``length`` ranks
        if max(tail) - min(tail) == length - 1 and len(set(tail)) == length:
            points += length
            break
    return points


def _place(state: State, who: int, rank: int) -> tuple[State, int]:
    """``who`` plays ``rank``: the state after it (the other to move) and the points it scores."""
    mine, theirs, count, run, _, _ = state
    hand = mine if who == ME else theirs
    at = hand.index(rank)
    hand = hand[:at] + hand[at + 1:]
    count, run = count + COUNTS[rank], run + (rank,)
    points = score_card(run, count)
    if who == ME:
        mine = hand
    else:
        theirs = hand
    return (mine, theirs, count, run, who, 1 - who), points


def _opponent_card(key: tuple[str, int], state: State) -> int:
    style, tape = key
    options = _fits(state[1], state[2])
    if style == "random":
        return tape_rng(CribbagePegging.id, tape, "card", state).choice(options)

    count, run, mine, wary = state[2], state[3], state[0], style == "wary"
    chosen, chosen_worth = 0, (0, 0)
    for rank in options:  # the first card of the highest worth, as max() keeps it
        after, played = count + COUNTS[rank], run + (rank,)
        points = score_card(played, after)
        if wary:
            replies = _fits(mine, after)
            if replies:
                points -= max([score_card(played + (r,), after + COUNTS[r]) for r in replies])
        worth = points, COUNTS[rank]
        if not chosen or worth > chosen_worth:
            chosen, chosen_worth = rank, worth
    return chosen


def _settle(key: tuple[str, int], state: State, said: list[str] | None) -> tuple[State, list[int]]:
    """Play the opponent's cards and the passes until the model must choose a card or both hands are empty
    (telling what happened in ``said`` unless it is None: the search needs no words)."""
    gained = [0, 0]
    while state[0] or state[1]:
        mine, theirs, count, run, last, to_move = state
        if to_move == ME and _fits(mine, count):
            break
        if to_move == THEM and _fits(theirs, count):
            rank = _opponent_card(key, state)
            state, points = _place(state, THEM, rank)
            gained[THEM] += points
            if said is not None:
                said.append(f"The opponent plays {RANK_NAMES[rank - 1]} (count {state[2]})"
                            + (f" and scores {points}." if points else "."))
            continue
        if _fits(mine if to_move == THEM else theirs, count):  # the player to move passes
            state = (mine, theirs, count, run, last, 1 - to_move)
            continue
        state = _restart(state, gained, said)
    else:
        if state[4] != -1:
            state = _restart(state, gained, said)
    return state, gained


def _restart(state: State, gained: list[int], said: list[str] | None) -> State:
    """Neither can play: the last card scores 1 (none at 31); the count restarts with the other player."""
    mine, theirs, count, _, last, _ = state
    who = "You score" if last == ME else "The opponent scores"
    if count != LIMIT:
        gained[last] += 1
    if said is not None:
        said.append(f"Go: {who} 1 for the last card; the count restarts at 0." if count != LIMIT
                    else "The count restarts at 0.")
    return mine, theirs, 0, (), -1, 1 - last


def _after_model(key: tuple[str, int], state: State, rank: int, said: list[str] | None = None
                 ) -> tuple[State, tuple[int, int]]:
    """The model plays ``rank``: the next decision point (or the end) and the points both scored meanwhile (what
    happened goes into ``said`` in words, unless it is None)."""
    if said is None:
        return _searched(key, state, rank)
    placed, points = _place(state, ME, rank)
    said.append(f"You play {RANK_NAMES[rank - 1]} (count {placed[2]})" + (f" and score {points}." if points else "."))
    settled, gained = _settle(key, placed, said)
    return settled, (gained[ME] + points, gained[THEM])


@functools.lru_cache(maxsize=1 << 17)
def _searched(key: tuple[str, int], state: State, rank: int) -> tuple[State, tuple[int, int]]:
    placed, points = _place(state, ME, rank)
    settled, gained = _settle(key, placed, None)
    return settled, (gained[ME] + points, gained[THEM])


@functools.lru_cache(maxsize=1 << 17)
def _choice_value(key: tuple[str, int], state: State, rank: int) -> int:
    """The best margin from ``state`` once the model plays ``rank``."""
    after, gained = _after_model(key, state, rank)
    return gained[ME] - gained[THEM] + _best(key, after)


@functools.lru_cache(maxsize=1 << 17)
def _best(key: tuple[str, int], state: State) -> int:
    """The best margin the model can still make from a decision point (0 once both hands are empty)."""
    if not state[0] and not state[1]:
        return 0
    return max(_choice_value(key, state, r) for r in _playable(state))


@functools.lru_cache(maxsize=1 << 16)
def _spread(key: tuple[str, int], state: State) -> tuple[tuple[int, float], ...]:
    """The final margins a uniformly random legal player reaches from a decision point, with their chances."""
    if not state[0] and not state[1]:
        return ((0, 1.0),)
    chances: dict[int, float] = {}
    options = _playable(state)
    for rank in options:
        after, gained = _after_model(key, state, rank)
        for margin, chance in _spread(key, after):
            total = gained[ME] - gained[THEM] + margin
            chances[total] = chances.get(total, 0.0) + chance / len(options)
    return tuple(sorted(chances.items()))


def baseline_margin(key: tuple[str, int], state: State, best: int) -> tuple[int, float]:
    """The zero of the reward scale from ``state``: the lowest whole margin, at least random play's mean, at which
    uniformly random legal play averages a reward of at most :data:`RANDOM_REWARD`; and random play's mean margin."""
    spread = _spread(key, state)
    mean = sum(margin * chance for margin, chance in spread)
    baseline = -(-mean // 1)  # the mean rounded up
    while baseline < best and sum(chance * regret_reward(margin, baseline, best)
                                  for margin, chance in spread) > RANDOM_REWARD:
        baseline += 1
    return int(baseline), mean


def _greedy_card(state: State) -> int:
    """The textbook rule: the card that scores most now (the highest-counting on a tie)."""
    return max(_playable(state), key=lambda r: (_place(state, ME, r)[1], value(r), r))


def _greedy_margin(data: dict[str, Any]) -> int:
    return _rule_margin(data, lambda key, state: _greedy_card(state))


def _rule_margin(data: dict[str, Any], rule: Any) -> int:
    """The final margin the model makes playing ``rule(key, state) -> rank`` at every decision point."""
    key, state, margin = _key(data), _start(data), 0
    for _ in range(2 * len(data["mine"]) + 2):  # the model plays a card each round: at most its hand's size
        if not state[0] and not state[1]:
            break
        state, gained = _after_model(key, state, rule(key, state))
        margin += gained[ME] - gained[THEM]
    return margin


def _points_now(key: tuple[str, int], state: State, rank: int) -> int:
    return _place(state, ME, rank)[1]


def _points_less_threat(key: tuple[str, int], state: State, rank: int) -> int:
    """The opponent's "wary" rule turned on the model: its points now less the most the opponent's reply scores."""
    placed, points = _place(state, ME, rank)
    replies = _fits(placed[1], placed[2])
    return points - max([score_card(placed[3] + (r,), placed[2] + COUNTS[r]) for r in replies], default=0)


def _margin_till_next(key: tuple[str, int], state: State, rank: int) -> int:
    """The margin until the model's next decision: its points less the opponent's meanwhile."""
    gained = _after_model(key, state, rank)[1]
    return gained[ME] - gained[THEM]


def _by(worth: Any, high: bool) -> Any:
    """The rule "the card of most ``worth``", ties to the highest-counting card (``high``) or the lowest."""
    sign = 1 if high else -1
    return lambda key, state: max(_playable(state), key=lambda r: (worth(key, state, r), sign * COUNTS[r], sign * r))


# Simple rules of thumb (``rule(key, state) -> rank``): the reward's zero is at least the best margin among them.
RULES = {
    "play the card scoring most now": _by(_points_now, True),
    "play the card scoring most now, the lowest on a tie": _by(_points_now, False),
    "play the card scoring most now less the opponent's best reply": _by(_points_less_threat, True),
    "play the card scoring most now less the opponent's best reply, the lowest on a tie": _by(_points_less_threat,
                                                                                              False),
    "play the card gaining the most margin until your next turn": _by(_margin_till_next, True),
    "play the card gaining the most margin until your next turn, the lowest on a tie": _by(_margin_till_next, False),
    "play the lowest card": lambda key, state: min(_playable(state), key=lambda r: (COUNTS[r], r)),
    "play the highest card": lambda key, state: max(_playable(state), key=lambda r: (COUNTS[r], r)),
}


def _hand_text(hand: list[int]) -> str:
    return " ".join(RANK_NAMES[r - 1] for r in hand) or "(empty)"


def _situation(state: dict[str, Any]) -> str:
    run = " ".join(RANK_NAMES[r - 1] for r in state["run"]) or "none"
    return (f"Count {state['count']} (cards since it restarted: {run}). Your hand: {_hand_text(state['mine'])}. "
            f"The opponent's hand: {_hand_text(state['theirs'])}. Score: you {state['points'][0]}, "
            f"the opponent {state['points'][1]}.")
