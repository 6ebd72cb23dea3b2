"""A repeated ultimatum game against scripted responders with hidden thresholds, some of them resentful.

Each round the model splits 10 coins with one responder (R1, R2, ... in turn, round after round): it
offers ``o`` coins; the responder accepts when ``o`` is at least its current threshold, and then the
model keeps ``10 - o``; otherwise both get nothing. Each responder has a hidden starting threshold
from 1 to 7 and one of two stated types: *steady* (the threshold never changes) or *resentful* (every
offer it rejects raises its threshold by 1 for the rest of the game, up to 10). Which responder is
which is hidden.

The best response to the true types offers each responder exactly its threshold every time, keeping
``sum(10 - t)`` over the rounds. The reward, paid after the last round, is regret-normalised
(:func:`palaestra.core.multiturn.regret_reward`): 1 at that total, 0 up to a zero set from 32 seeded
games of uniformly random offers (:func:`palaestra.envs.games._social.random_zero`). From level 2 a
game where a constant offer (3, 4 or 5) or the rule "offer 1, then one more after each refusal, then
keep the accepted offer" scores 0.5 or more is kept only with the level's chance (0.5, 0.3, 0.2).

The honest player (:meth:`Ultimatum.honest_move`) reads only the replies. Per responder: it opens
with 5; while the responder has refused nothing it offers one less after each acceptance (probing
down); after a refusal it offers two more (one more in case it is resentful), and after a later
acceptance it keeps that offer. It scores about 0.5 (0.44-0.51 per level measured), so the reward's
upper half needs better inference about the types. Responders are deterministic. An
unreadable offer or one outside 0-10 is refused and the turn is spent (the budget allows two such
slips). Levels add responders, rounds and resentful types (past the presets one round per responder
more per level). The difficulty measure is the rounds plus the responders plus the resentful ones
plus the mean starting threshold.

Generation speed: about 580 problems/s at level 4 on this 2-core machine. Each drawn set of responders is played
through by 32 random offerers (the reward's zero) and the simple offering rules, and about half the draws are
redrawn because offers hardly matter or a rule scores too well. The games are kept because the reward is normalised
to them and no simple rule may earn it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.core.task import Growth
from palaestra.envs.games._social import random_zero, read_command

PIE = 10
TOP_THRESHOLD = 7
RANDOM_GAMES = 32
SLIPS = 2
STEADY, RESENTFUL = 0, 1
_OFFER = re.compile(r"^(?:i )?(?:offer|give|propose)?(?: (?:r\d+|responder \d+))? ?(\d{1,2})(?: coins?)?$")
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
        rule_keep: float  # the chance a game a cheap rule scores 0.5 or more in is kept

    presets = (Config(3, 4, 0.3, 1.0), Config(4, 4, 0.3, 1.0), Config(4, 5, 0.5, 0.5), Config(5, 5, 0.5, 0.3),
               Config(5, 6, 0.5, 0.2))
    growth = Growth(steps={"rounds_each": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            kinds = [RESENTFUL if rng.random() < config.resentful_share else STEADY for _ in range(config.responders)]
            thresholds = [rng.randint(1, TOP_THRESHOLD) for _ in range(config.responders)]
            data: dict[str, Any] = {"kinds": kinds, "thresholds": thresholds,
                                    "rounds": config.responders * config.rounds_each}
            best = sum(PIE - thresholds[r % config.responders] for r in range(data["rounds"]))
            scores = [_total(data, lambda offers, accepted, g=random.Random(rng.random()): g.randint(0, PIE))
                      for _ in range(RANDOM_GAMES)]
            zero = random_zero(scores, best)
            if best - zero < 5:
                return None
            rules = [_total(data, lambda offers, accepted, rule=rule: rule(len(data["kinds"]), offers, accepted))
                     for rule in _RULES.values()]
            if max(regret_reward(s, zero, best) for s in rules) >= 0.5 and rng.random() >= config.rule_keep:
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
            f"of the game, up to {PIE}). You score the coins you keep: 0 up to a zero set so that uniformly random "
            "offers average at most 0.05, rising evenly to 1 at offering every responder exactly its threshold.\n\n"
            f"Round 1: R1. Each turn write your offer to this round's responder, for example: offer 6"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    public_keys = ("rounds",)

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
        """Per responder: open with 5; while it has refused nothing, offer one less after each acceptance; after a
        refusal offer two more (one more in case it is resentful); after a later acceptance keep that offer."""
        replies = [(int(r) - 1, int(o), verdict == "accepted") for text in view.observations
                   for r, o, verdict in _REPLY.findall(text)]
        responder = int(re.findall(r"Round \d+: R(\d+)\.", (view.observations or [view.prompt])[-1])[-1]) - 1
        mine = [(offer, yes) for r, offer, yes in replies if r == responder]
        if not mine:
            return "offer 5"
        last, yes = mine[-1]
        if not yes:
            return f"offer {min(PIE, last + 2)}"
        return f"offer {max(0, last - 1) if all(y for _, y in mine) else last}"


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


# Cheap rules, ``rule(responders, offers, accepted) -> offer``.
_RULES = {
    "always offer 3": lambda k, offers, accepted: 3,
    "always offer 4": lambda k, offers, accepted: 4,
    "always offer 5": lambda k, offers, accepted: 5,
    "offer 1, one more after each refusal, then keep the accepted offer": _ascending,
}
