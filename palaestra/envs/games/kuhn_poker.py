"""Kuhn poker against a fixed, exploitable opponent; each decision scored by its expected value.

Generalised Kuhn poker with a deck of cards 1..n (n = 3 is classic Kuhn poker). Each hand both
players ante one chip and get one card; the first player checks or bets one chip; facing a bet
a player calls or folds; after check, the second player checks (showdown for the antes) or
bets, and the first player then calls or folds. At a showdown the higher card takes the pot.
The model moves first in odd hands and second in even ones. Cards and the opponent's choices
are drawn from a tape stored with the problem (:func:`palaestra.envs.games.common.tape_rng`).

The opponent follows a fixed mixed strategy (per card: how often it bets first, bets after a
check, calls a bet), drawn at generation and hidden; stronger cards call more often, but any card
may bet (bluff). From level 1 the strategy is drawn so that the simple rules "bet and call with
the top half of the deck" and "always check or call" score at most 70%, 60%, 50%, 40% (levels 1-4).
The reward does not depend on luck and is normalised to regret
(:func:`palaestra.core.multiturn.regret_reward`): each decision has an exact expected value
against that strategy, given the model's card and what it has seen this hand (over the
opponent's possible cards; later decisions at their best). The episode pays, when the last hand
ends, ``clip((achieved - random) / (best - random))`` where ``best`` sums each hand's value under
the best response, ``achieved`` is ``best`` less what each decision gave up against the best
decision then, and ``random`` sums each hand's exact value under uniformly random decisions: random
play scores about 0, the best response (the oracle) exactly 1. An unreadable move counts as the
worst decision and costs a turn. The chips won are reported for flavour. Showdowns reveal the
opponent's card, which is how its tendencies can be learnt; the honest player
(:meth:`KuhnPoker.honest_move`) does so, starting from the belief that stronger cards bet and call
more.

Levels grow the deck and the number of hands. The difficulty measure is the number of hands
times the deck size.

Generation speed: about 60 to 150 problems/s at level 4 on this 2-core machine (it varies with the number of draws
the seeds need). Each drawn opponent strategy is tested by playing both simple rules through the whole 40-hand
episode, every decision valued exactly against the strategy (once per seat, card and actions so far), and about 4 in
5 draws are redrawn because a rule scores above the level's cap; the test is kept because it is what stops a
textbook rule from earning reward. A third of the time goes to seeding the random generators that deal each hand and
draw the opponent's actions off the problem's tape.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.core.task import Growth
from palaestra.envs.games._poker import EPSILON, SCORE_RULES, add_hand, add_loss, game_over, hand_report
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_rng
from palaestra.verifiers.normalize import read_answer

ACTIONS = {"check": "check", "bet": "bet", "call": "call", "fold": "fold", "raise": "bet", "pass": "check"}


@register
class KuhnPoker(MultiTurnTask):
    id = "games/kuhn_poker"
    family = "games"
    description = "Play (generalised) Kuhn poker hands against a fixed exploitable strategy; EV-scored decisions."
    tags = ("games", "multi-turn", "two-player", "imperfect-information", "probability")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 2
    hidden_information = True
    score_based = True
    public_keys = ("cards", "hands")

    @dataclass(frozen=True)
    class Config:
        cards: int
        hands: int
        rule_share: float  # a problem is kept only if each simple rule scores at most this

    presets = (
        Config(3, 30, 1.0),
        Config(3, 36, 0.7),
        Config(4, 36, 0.6),
        Config(5, 40, 0.5),
        Config(6, 40, 0.4),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def tendency(ordered: bool) -> list[float]:  # per card, low to high
            rates = [round(rng.random(), 2) for _ in range(config.cards)]
            return sorted(rates) if ordered else rates

        def draw() -> dict[str, Any] | None:
            # Calling follows card strength; betting need not (an opponent may bluff with weak cards).
            strategy = {"open": tendency(False), "after_check": tendency(False), "call": tendency(True)}
            strategy["call"][-1] = 1.0  # nobody folds the best card
            data = {"cards": config.cards, "hands": config.hands, "strategy": strategy, "tape": rng.getrandbits(48)}
            if config.rule_share < 1.0 and any(_rule_score(self, data, rule) > config.rule_share
                                               for rule in self.heuristics().values()):
                return None
            return data

        data = retry(draw, what="an opponent against whom the simple rules do poorly")
        prompt = (
            f"Let's play {config.hands} hands of poker with a deck of cards 1 to {config.cards} (higher is better). "
            "Each hand we both put in one chip and get one card. The first player checks or bets one chip. Facing a "
            "bet, a player calls (puts in one chip) or folds (gives up the pot). After a check, the second player "
            "checks (the higher card wins the pot) or bets, and the first player then calls or folds. You act first "
            "in odd-numbered hands and second in even-numbered ones. The opponent plays a fixed strategy that you "
            "do not know; a showdown shows you its card.\n\n"
            f"{SCORE_RULES} The score is paid when the last hand ends; an unreadable move counts as the worst "
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
        return {"hand": 0, "history": _opening(problem.data, 0), "made": 0, "right": 0, "chips": 0,
                "values": _new_hand([0.0, 0.0, 0.0], problem.data, 0)}

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
        action = read_action(move)
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
        report = hand_report(said, result, right, made)
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
        n = view.public["cards"]
        hands = _read_hands([view.prompt, *view.observations])
        current = hands[-1]
        strategy = _estimate(n, hands[:-1])
        data = {"cards": n, "strategy": strategy}
        allowed = _allowed(current["history"])
        return max(allowed, key=lambda a: _value(data, current["hand"], current["history"], a, mine=current["mine"]))

    def heuristics(self) -> dict[str, Policy]:
        def by_strength(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            mine, _ = _deal(problem.data, state["hand"])
            strong = mine > problem.data["cards"] / 2
            allowed = _allowed(state["history"])
            return ("bet" if strong else "check") if "bet" in allowed else ("call" if strong else "fold")

        return {"bet and call with the top half of the deck": by_strength,
                "always check or call": lambda problem, state, history, rng:
                    "check" if "check" in _allowed(state["history"]) else "call"}


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
    proportion to how likely that card was to make it under the current estimate.
    """
    counts = {kind: [[2 * (c / n if kind == "call" else 0.5), 2.0] for c in range(1, n + 1)]
              for kind in ("open", "after_check", "call")}

    def rate(kind: str, card: int) -> float:
        yes, total = counts[kind][card - 1]
        return yes / total

    for record in hands:
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
    return {kind: [rate(kind, c) for c in range(1, n + 1)] for kind in counts}


def _rule_score(task: KuhnPoker, data: dict[str, Any], rule: Policy) -> float:
    """The score of the deterministic ``rule`` on the problem ``data`` describes: its episode played out with the
    sums :meth:`KuhnPoker.play` keeps, without the words. A decision's values depend only on the seat, the model's
    card and the actions so far, so each is worked out once per episode (the generator scores every candidate)."""
    problem = Problem(env_id=task.id, data=data)
    values_at: dict[tuple[Any, ...], dict[str, float]] = {}
    openings: dict[tuple[Any, ...], tuple[float, float]] = {}
    totals = [0.0, 0.0, 0.0]
    for hand in range(data["hands"]):
        mine, history = _deal(data, hand)[0], _opening(data, hand)
        key = (hand % 2, mine, *history)
        if key not in openings:
            openings[key] = _hand_values(data, hand)
        best, random_value = openings[key]
        totals = add_hand(totals, best, random_value)
        while _allowed(history):
            key = (hand % 2, mine, *history)
            if key not in values_at:
                values_at[key] = {a: _value(data, hand, history, a) for a in _allowed(history)}
            values = values_at[key]
            action = rule(problem, {"hand": hand, "history": history}, (), None)  # type: ignore[arg-type]
            totals = add_loss(totals, max(values.values()), values[action])
            history = [*history, action]
            reply = _opponent_reply(data, hand, history)
            if reply:
                history.append(reply)
    return regret_reward(*totals)


def _new_hand(totals: list[float], data: dict[str, Any], hand: int) -> list[float]:
    """The running (achieved, random, best) expected chips after hand ``hand`` is dealt: its best-response
    value joins the best and achieved sums, its value under uniformly random decisions the random sum."""
    return add_hand(totals, *_hand_values(data, hand))


def _hand_values(data: dict[str, Any], hand: int) -> tuple[float, float]:
    """Hand ``hand``'s value under best response and under uniformly random decisions, once dealt."""
    history = _opening(data, hand)
    allowed = _allowed(history)
    best = max(_value(data, hand, history, a) for a in allowed)
    random_value = sum(_value(data, hand, history, a, later="random") for a in allowed) / len(allowed)
    return best, random_value


def read_action(move: str) -> str | None:
    """``check``, ``bet``, ``call`` or ``fold`` (also ``pass``, ``raise``; a trailing remark is fine), or None."""
    if len(move) > MAX_MOVE_CHARS:
        return None
    return read_answer(move, lambda text: ACTIONS.get(text.strip().lower().rstrip(".!")))


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
           mine: int | None = None) -> float:
    """Expected chips of ``action`` now against ``data["strategy"]``, over the opponent's possible cards given
    what was seen, with the model's later decision (if any) at its best (``later="random"``: chosen at random).
    ``mine``: the model's card (default: the one dealt)."""
    if mine is None:
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
    return (checked + (max(call, fold) if later == "best" else (call + fold) / 2)) / total
