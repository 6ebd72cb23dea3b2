"""Kuhn poker against a fixed, exploitable opponent; each decision scored by its expected value.

Generalised Kuhn poker with a deck of cards 1..n (n = 3 is classic Kuhn poker). Each hand both
players ante one chip and get one card; the first player checks or bets one chip; facing a bet
a player calls or folds; after check, the second player checks (showdown for the antes) or
bets, and the first player then calls or folds. At a showdown the higher card takes the pot.
The model moves first in odd hands and second in even ones. Cards and the opponent's choices
are drawn from a tape stored with the problem (:func:`palaestra.envs.games.common.tape_rng`).

The opponent follows a fixed mixed strategy (per card: how often it bets first, bets after a
check, calls a bet), drawn at generation and hidden; stronger cards bet and call more often.
The reward does not depend on luck: a decision is *right* when no other decision has a higher
expected value against that strategy, given the model's card and what it has seen this hand
(exact, over the opponent's possible cards; later decisions assumed right). Each hand is
worth ``1 / hands``, shared by the decisions in it and paid when the hand ends; an unreadable
move counts as a wrong decision and costs a turn. The oracle plays the best response and
scores 1; the chips won are reported for flavour. Showdowns reveal the opponent's card, which
is how its tendencies can be learnt.

Levels grow the deck and the number of hands. The difficulty measure is the number of hands
times the deck size.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_rng
from palaestra.verifiers.normalize import read_answer

ACTIONS = {"check": "check", "bet": "bet", "call": "call", "fold": "fold", "raise": "bet", "pass": "check"}
EPSILON = 1e-9


@register
class KuhnPoker(MultiTurnTask):
    id = "games/kuhn_poker"
    family = "games"
    description = "Play (generalised) Kuhn poker hands against a fixed exploitable strategy; EV-scored decisions."
    tags = ("games", "multi-turn", "two-player", "imperfect-information", "probability")

    @dataclass(frozen=True)
    class Config:
        cards: int
        hands: int

    presets = (Config(3, 4), Config(3, 8), Config(4, 8), Config(5, 10), Config(6, 12))
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def tendency() -> list[float]:  # per card, low to high: stronger cards act more aggressively
            return sorted(round(rng.random(), 2) for _ in range(config.cards))

        strategy = {"open": tendency(), "after_check": tendency(), "call": tendency()}
        strategy["call"][-1] = 1.0  # nobody folds the best card
        data = {"cards": config.cards, "hands": config.hands, "strategy": strategy, "tape": rng.getrandbits(48)}
        prompt = (
            f"Let's play {config.hands} hands of poker with a deck of cards 1 to {config.cards} (higher is better). "
            "Each hand we both put in one chip and get one card. The first player checks or bets one chip. Facing a "
            "bet, a player calls (puts in one chip) or folds (gives up the pot). After a check, the second player "
            "checks (the higher card wins the pot) or bets, and the first player then calls or folds. You act first "
            "in odd-numbered hands and second in even-numbered ones. The opponent plays a fixed strategy that you "
            "do not know; a showdown shows you its card.\n\n"
            "Your score rewards good decisions, not luck: a decision counts as right when no other decision has a "
            "higher expected value against the opponent's strategy. Each hand is worth "
            f"1/{config.hands} of the score, shared by your decisions in it; an unreadable move counts as wrong.\n\n"
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
        return {"hand": 0, "history": _opening(problem.data, 0), "made": 0, "right": 0, "chips": 0}

    def _situation(self, data: dict[str, Any], hand: int, history: list[str]) -> str:
        mine, _ = _deal(data, hand)
        first = hand % 2 == 0
        history = history or _opening(data, hand)
        seat = "You act first." if first else "You act second."
        seen = "" if first else f" The opponent {history[0]}s."
        return f"Hand {hand + 1} of {data['hands']}. {seat} Your card: {mine}.{seen}"

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        hand, history = state["hand"], state["history"]
        allowed = _allowed(history)
        action = read_action(move)
        made = state["made"] + 1
        if action is None or action not in allowed:
            why = "unreadable" if action is None else f"{action} is not allowed now"
            return Outcome({**state, "made": made}, Verdict.unparsed(why),
                           f"Invalid move: {why}; write one of {', '.join(allowed)}.")
        values = {a: _value(data, hand, history, a) for a in allowed}
        right = state["right"] + (values[action] >= max(values.values()) - EPSILON)
        history = [*history, action]
        said = [f"You {action}."]
        reply = _opponent_reply(data, hand, history)
        if reply:
            history.append(reply)
            said.append(f"The opponent {reply}s.")
        if _allowed(history):  # the model acts again this hand (after check, bet: call or fold)
            state = {**state, "history": history, "made": made, "right": right}
            return Outcome(state, Verdict.wrong("hand goes on"), " ".join(said))
        chips, result = _settle(data, hand, history)
        share = right / made / data["hands"]
        report = f"{' '.join(said)} {result} Your decisions this hand: {right} of {made} right."
        verdict = Verdict(share, right == made, True, report)
        total = state["chips"] + chips
        if hand + 1 == data["hands"]:
            return Outcome({**state, "history": history, "made": made, "right": right, "chips": total}, verdict,
                           f"{report} That was the last hand; your chips: {total:+d}.", True)
        state = {"hand": hand + 1, "history": _opening(data, hand + 1), "made": 0, "right": 0, "chips": total}
        return Outcome(state, verdict, f"{report}\n\n{self._situation(data, hand + 1, state['history'])}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        allowed = _allowed(state["history"])
        return max(allowed, key=lambda a: _value(problem.data, state["hand"], state["history"], a))


def read_action(move: str) -> str | None:
    """``check``, ``bet``, ``call`` or ``fold`` (also ``pass``, ``raise``; a trailing remark is fine), or None."""
    if len(move) > MAX_MOVE_CHARS:
        return None
    return read_answer(move, lambda text: ACTIONS.get(text.strip().lower().rstrip(".!")))


def _deal(data: dict[str, Any], hand: int) -> tuple[int, int]:
    """(the model's card, the opponent's card)."""
    mine, theirs = tape_rng(KuhnPoker.id, data["tape"], "deal", hand).sample(range(1, data["cards"] + 1), 2)
    return mine, theirs


def _opening(data: dict[str, Any], hand: int) -> list[str]:
    """The actions before the model's first decision: the opponent's opening in even-numbered hands (model second)."""
    if hand % 2 == 0:
        return []
    _, theirs = _deal(data, hand)
    bets = tape_rng(KuhnPoker.id, data["tape"], "act", hand, 0).random() < data["strategy"]["open"][theirs - 1]
    return ["bet" if bets else "check"]


def _opponent_reply(data: dict[str, Any], hand: int, history: list[str]) -> str | None:
    """The opponent's action after ``history`` if it is the opponent's turn, else None."""
    _, theirs = _deal(data, hand)
    draw = tape_rng(KuhnPoker.id, data["tape"], "act", hand, len(history)).random()
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


def _value(data: dict[str, Any], hand: int, history: list[str], action: str) -> float:
    """Expected chips of ``action`` now against the opponent's strategy, over its possible cards given what was
    seen, with the model's later decision (if any) taken at its best."""
    mine, _ = _deal(data, hand)
    n, strategy = data["cards"], data["strategy"]
    first = hand % 2 == 0
    others = [card for card in range(1, n + 1) if card != mine]
    weight = {o: 1.0 for o in others}
    if not first:  # the opponent's opening tells something about its card
        bet_first = history[0] == "bet"
        weight = {o: strategy["open"][o - 1] if bet_first else 1 - strategy["open"][o - 1] for o in others}
    if first and history == ["check", "bet"]:
        weight = {o: strategy["after_check"][o - 1] for o in others}
    total = sum(weight.values())
    if total <= 0:
        return 0.0

    def showdown(o: int, stake: int) -> float:
        return stake if mine > o else -stake

    def expect(chips: dict[int, float]) -> float:
        return sum(weight[o] * chips[o] for o in others) / total

    if action == "fold":
        return -1.0
    if action == "call":
        return expect({o: showdown(o, 2) for o in others})
    if action == "bet":
        return expect({o: strategy["call"][o - 1] * showdown(o, 2) + (1 - strategy["call"][o - 1]) for o in others})
    if not first:  # check behind: showdown for the antes
        return expect({o: showdown(o, 1) for o in others})
    bets = {o: strategy["after_check"][o - 1] for o in others}
    call = sum(weight[o] * bets[o] * showdown(o, 2) for o in others)
    fold = -sum(weight[o] * bets[o] for o in others)
    checked = sum(weight[o] * (1 - bets[o]) * showdown(o, 1) for o in others)
    return (checked + max(call, fold)) / total
