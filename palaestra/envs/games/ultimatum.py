"""A repeated ultimatum game against scripted responders with hidden thresholds, some of them resentful.

Each round the model splits 10 coins with one responder (R1, R2, ... in turn, round after round): it
offers ``o`` coins; the responder accepts when ``o`` is at least its current threshold, and then the
model keeps ``10 - o``; otherwise both get nothing. Each responder has a hidden starting threshold
from 1 to 7 and one of two stated types: *steady* (the threshold never changes) or *resentful* (every
offer it rejects raises its threshold by 1 for the rest of the game, up to 10). Which responder is
which is hidden.

The best response to the true types offers each responder exactly its threshold every time, keeping
``sum(10 - t)`` over the rounds. The reward, paid after the last round, is regret-normalised
(:func:`palaestra.core.multiturn.regret_reward`): 1 at that total, 0 up to the game's zero.

Version 2: the zero sits two thirds of the way (:data:`FIXED_SHARE`, rounded up) from random play's zero (set
from 32 seeded games of uniformly random offers, :func:`palaestra.envs.games._social.random_zero`) to the most
any fixed reply keeps in this game: every constant offer 0-10 and every declared cheap rule (:data:`_RULES`),
and never below random play's zero. In version 1 the zero was random play's alone, and a constant offer of 5
or 6 scored 0.34-0.41 on average at every level while the honest player scored about 0.5: these games leave
an information-using player little over the best constant, so a zero at the best constant itself would leave
even the Bayes-optimal player about 0.1-0.2. Two thirds keeps every constant offer and cheap rule at or below
0.15 on average per level (0.09-0.13 measured on 200 games per level) and the honest player at 0.42-0.48.
A game is redrawn when its zero is within 5 coins of the best, or when the best fixed reply comes within
:data:`FIXED_ROOM` of the best (on the way from random play's zero): there the replies tell too little to
beat a fixed reply, and the honest player's score would hang on luck. The levels have 6-8 rounds per
responder (version 1: 4-6), so that probing pays. Version 2 also adds the number of responders to the public
facts and makes the honest player Bayesian.

The honest player (:meth:`Ultimatum.honest_move`) reads only the replies. Per responder it keeps the
thresholds and types consistent with that responder's replies so far (a uniform prior over thresholds 1-7,
each type equally likely) and offers what maximises the expected coins kept over that responder's remaining
rounds (:func:`_plan`, looking at most :data:`PLAN_HORIZON` of its rounds ahead). Responders are
deterministic. An unreadable offer or one outside 0-10 is refused and the turn is spent (the budget allows
two such slips). Levels add responders, rounds and resentful types (past the presets one round per
responder more per level). The difficulty measure is the rounds plus the responders plus the resentful ones
plus the mean starting threshold.

Generation speed: about 2 ms per problem at level 4. Each drawn set of responders is played through by
32 random offerers and every fixed reply (the reward's zero), and about half the draws are redrawn as above.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.core.task import Growth
from palaestra.envs.games._social import random_zero, read_command

PIE = 10
TOP_THRESHOLD = 7
RANDOM_GAMES = 32
SLIPS = 2
FIXED_SHARE = 2 / 3  # the zero's place between random play's zero (0) and the best fixed reply's total (1)
MIN_ROOM = 5  # coins between the zero and the best, or the game is redrawn
FIXED_ROOM = 0.3  # ... and the best fixed reply leaves at least this share of the way from random play to the best
RESENTFUL_PRIOR = 0.5  # the honest player's chance that a responder is resentful (the prompt gives none)
PLAN_HORIZON = 6  # the honest player plans at most this many of a responder's rounds ahead (cost grows fast)
STEADY, RESENTFUL = 0, 1
_OFFER = re.compile(r"^(?:offer|give|propose)?(?: (?:r\d+|responder \d+))? ?(\d{1,2})(?: coins?)?$")
_REPLY = re.compile(r"Round \d+: you offered R(\d+) (\d+) coins?: (accepted|refused)")


@register
class Ultimatum(MultiTurnTask):
    id = "games/ultimatum"
    family = "games"
    description = "Repeated ultimatum offers to responders with hidden thresholds, some resentful; regret-scored."
    tags = ("games", "multi-turn", "social", "bargaining", "game-theory", "imperfect-information")
    one_move_per_turn = True
    hidden_information = True  # the thresholds and types
    score_based = True

    @dataclass(frozen=True)
    class Config:
        responders: int
        rounds_each: int
        resentful_share: float

    version = 2
    presets = (Config(4, 6, 0.3), Config(4, 7, 0.3), Config(4, 8, 0.5), Config(5, 7, 0.5), Config(5, 8, 0.5))
    growth = Growth(steps={"rounds_each": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            kinds = [RESENTFUL if rng.random() < config.resentful_share else STEADY for _ in range(config.responders)]
            thresholds = [rng.randint(1, TOP_THRESHOLD) for _ in range(config.responders)]
            data: dict[str, Any] = {"kinds": kinds, "thresholds": thresholds, "responders": config.responders,
                                    "rounds": config.responders * config.rounds_each}
            best = sum(PIE - thresholds[r % config.responders] for r in range(data["rounds"]))
            scores = [_total(data, lambda offers, accepted, g=random.Random(rng.random()): g.randint(0, PIE))
                      for _ in range(RANDOM_GAMES)]
            random_level = random_zero(scores, best)
            fixed = max(_total(data, lambda offers, accepted, rule=rule: rule(config.responders, offers, accepted))
                        for rule in _fixed_replies())
            zero = max(random_level, math.ceil(random_level + FIXED_SHARE * (fixed - random_level) - 1e-9))
            if best - zero < MIN_ROOM or best - fixed < FIXED_ROOM * (best - random_level):
                return None
            return {**data, "best": best, "zero": zero}

        data = retry(draw, what="responders where the offers matter")
        k = config.responders
        prompt = (
            f"Let's play a repeated ultimatum game for {data['rounds']} rounds with {k} responders, R1 to R{k}, in "
            f"turn (round 1 with R1, round {k + 1} with R1 again). Each round you split {PIE} coins with that "
            "round's responder: you offer it some coins; it accepts when the offer is at least its current "
            f"threshold, and you keep the rest; otherwise neither gets anything. Each responder starts with a "
            f"hidden threshold from 1 to {TOP_THRESHOLD} and is of one of two types, also hidden: steady (its "
            f"threshold never changes) or resentful (every offer it refuses raises its threshold by 1 for the rest "
            f"of the game, up to {PIE}). You score the coins you keep: 0 up to a zero two thirds of the way from what "
            "uniformly random offers keep to the most that any one offer made every round (or a simple offering "
            "rule) keeps in this game, rising evenly to 1 at offering every responder exactly its threshold.\n\n"
            f"Round 1: R1. Each turn write your offer to this round's responder, for example: offer 6"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    public_keys = ("rounds", "responders")

    def max_turns(self, problem: Problem) -> int:
        return problem.data["rounds"] + SLIPS

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        kinds = data["kinds"]
        return data["rounds"] + len(kinds) + sum(kinds) + sum(data["thresholds"]) / len(kinds)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"offers": [], "kept": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        offer = read_offer(move)
        if offer is None or offer > PIE:
            return Outcome.invalid(state, f"write one offer of 0 to {PIE} coins, such as offer 6")
        history = tuple(state["offers"])
        k = len(data["kinds"])
        responder = len(history) % k
        accepted = offer >= _threshold(data, history, responder)
        kept = state["kept"] + (PIE - offer if accepted else 0)
        offers = [*state["offers"], offer]
        said = (f"Round {len(offers)}: you offered R{responder + 1} {offer} coin{'s' if offer != 1 else ''}: "
                f"{'accepted' if accepted else 'refused'}. You have kept {kept} coins.")
        after = {"offers": offers, "kept": kept}
        if len(offers) == data["rounds"]:
            reward = regret_reward(kept, data["zero"], data["best"])
            verdict = Verdict(reward, kept >= data["best"], True, f"kept {kept}, best {data['best']}")
            return Outcome(after, verdict, f"{said} The game is over (offering every responder exactly its "
                                           f"threshold keeps {data['best']}; the score's zero is {data['zero']}).",
                           True)
        return Outcome.goes_on(after, f"{said}\nRound {len(offers) + 1}: R{len(offers) % k + 1}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        history = tuple(state["offers"])
        return f"offer {_threshold(data, history, len(history) % len(data['kinds']))}"

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return [f"offer {offer}" for offer in range(PIE + 1)]

    def heuristics(self) -> dict[str, Policy]:
        def as_policy(rule: Any) -> Policy:
            def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                accepted = tuple("accepted" in text.split("\n")[0] for _, text in history if "Round" in text)
                return f"offer {rule(len(problem.data['kinds']), tuple(state['offers']), accepted)}"
            return policy

        return {name: as_policy(rule) for name, rule in _RULES.items()}

    def honest_move(self, view: View) -> str:
        """Per responder: the offer of most expected coins over its remaining rounds, given its replies so far."""
        replies = [(int(r) - 1, int(o), verdict == "accepted") for text in view.observations
                   for r, o, verdict in _REPLY.findall(text)]
        responder = int(re.findall(r"Round \d+: R(\d+)\.", (view.observations or [view.prompt])[-1])[-1]) - 1
        k, played = view.public["responders"], len(replies)
        left = sum(1 for round_index in range(played, view.public["rounds"]) if round_index % k == responder)
        mine = [(offer, yes) for r, offer, yes in replies if r == responder]
        return f"offer {_plan(_belief(tuple(mine)), min(left, PLAN_HORIZON))[1]}"


def read_offer(move: str) -> int | None:
    """The coins offered: ``6``, ``offer 6``, ``I offer 6 coins``; or None.

    >>> read_offer("Offer 6 coins."), read_offer("offer 6 then 5")
    (6, None)
    """
    groups = read_command(move, _OFFER)
    return int(groups[0]) if groups else None


def _threshold(data: dict[str, Any], history: tuple[int, ...], responder: int) -> int:
    """The responder's threshold after the offers ``history`` (a resentful one rises after each refusal)."""
    k = len(data["kinds"])
    threshold = data["thresholds"][responder]
    if data["kinds"][responder] == RESENTFUL:
        for offer in history[responder::k]:
            if offer < threshold:
                threshold = min(PIE, threshold + 1)
    return threshold


def _total(data: dict[str, Any], choose: Any) -> int:
    """The coins kept when the model offers ``choose(offers, accepted)`` each round (the history so far)."""
    offers: tuple[int, ...] = ()
    accepted: tuple[bool, ...] = ()
    kept = 0
    k = len(data["kinds"])
    for round_index in range(data["rounds"]):
        offer = choose(offers, accepted)
        yes = offer >= _threshold(data, offers, round_index % k)
        kept += PIE - offer if yes else 0
        offers, accepted = (*offers, offer), (*accepted, yes)
    return kept


def _ascending(k: int, offers: tuple[int, ...], accepted: tuple[bool, ...]) -> int:
    """Per responder: offer 1, one more after each refusal, then keep the accepted offer."""
    start = len(offers) % k
    mine, replies = offers[start::k], accepted[start::k]
    if not mine:
        return 1
    return mine[-1] if replies[-1] else min(PIE, mine[-1] + 1)


# Cheap rules, ``rule(responders, offers, accepted) -> offer`` (declared as heuristics; the zero counts them).
_RULES = {
    "always offer 3": lambda k, offers, accepted: 3,
    "always offer 4": lambda k, offers, accepted: 4,
    "always offer 5": lambda k, offers, accepted: 5,
    "always offer 6": lambda k, offers, accepted: 6,
    "offer 1, one more after each refusal, then keep the accepted offer": _ascending,
}


def _fixed_replies() -> list[Any]:
    """The rules the zero is measured against: every constant offer and every declared cheap rule."""
    return [*(lambda k, offers, accepted, offer=offer: offer for offer in range(PIE + 1)), *_RULES.values()]


Belief = tuple[tuple[int, int, float], ...]  # (current threshold, kind, probability) per hypothesis left


def _belief(replies: tuple[tuple[int, bool], ...]) -> Belief:
    """The responder's (threshold now, kind) hypotheses consistent with ``replies`` (its (offer, accepted) pairs),
    from a uniform prior over the starting thresholds and :data:`RESENTFUL_PRIOR` for the kind."""
    weights = {(threshold, kind): (RESENTFUL_PRIOR if kind == RESENTFUL else 1 - RESENTFUL_PRIOR) / TOP_THRESHOLD
               for threshold in range(1, TOP_THRESHOLD + 1) for kind in (STEADY, RESENTFUL)}
    for offer, yes in replies:
        after: dict[tuple[int, int], float] = {}
        for (threshold, kind), weight in weights.items():
            if (offer >= threshold) == yes:
                moved = min(PIE, threshold + 1) if kind == RESENTFUL and not yes else threshold
                after[moved, kind] = after.get((moved, kind), 0.0) + weight
        weights = after
    return _normalised(weights)


def _normalised(weights: dict[tuple[int, int], float]) -> Belief:
    """Sorted, summing to 1 and rounded, so equal beliefs meet in :func:`_plan`'s cache."""
    total = sum(weights.values())
    return tuple(sorted((threshold, kind, round(weight / total, 9)) for (threshold, kind), weight in weights.items()))


@lru_cache(maxsize=200_000)
def _plan(belief: Belief, left: int) -> tuple[float, int]:
    """The most expected coins kept from one responder over its ``left`` rounds, and the offer that starts it
    (the lowest on a tie). An inconsistent belief (a reply no hypothesis explains) offers the whole pie."""
    if not belief:
        return 0.0, PIE
    if left == 0:
        return 0.0, 0
    best = (-1.0, PIE)
    for offer in range(PIE + 1):
        accept = {(t, kind): w for t, kind, w in belief if offer >= t}
        refuse: dict[tuple[int, int], float] = {}
        for t, kind, w in belief:
            if offer < t:
                moved = min(PIE, t + 1) if kind == RESENTFUL else t
                refuse[moved, kind] = refuse.get((moved, kind), 0.0) + w
        yes, no = sum(accept.values()), sum(refuse.values())
        value = yes * (PIE - offer)
        value += yes * _plan(_normalised(accept), left - 1)[0] if accept else 0.0
        value += no * _plan(_normalised(refuse), left - 1)[0] if refuse else 0.0
        if value > best[0] + 1e-9:
            best = (value, offer)
    return best
