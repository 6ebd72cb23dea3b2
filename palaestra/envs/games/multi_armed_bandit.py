"""Multi-armed bandit: pull slot machines with unknown payout rates; scored by regret against the best one.

There are ``arms`` machines labelled A, B, ... and a budget of ``horizon`` pulls. A pull of a
Bernoulli machine pays 1 with its hidden probability, else 0; a pull of a Gaussian machine pays
its hidden mean plus normal noise of a standard deviation stated in the prompt (rounded to one
decimal). Every payout is drawn from ``event_rng`` keyed by the turn and the machine, so a replay
of the same pulls sees the same payouts.

Each turn the model names one machine (``C``, ``machine C``, ``pull C``; a trailing remark is
fine, ``C or D`` is not). The reward is based on expected payouts, not on luck, and normalised
to regret (:func:`palaestra.core.multiturn.regret_reward`): the episode pays, on its last pull,
``clip((sum of the pulled machines' means - horizon * mean of all means) / (horizon * (best mean
- mean of all means)))``, so picking machines at random scores about 0 and always pulling the
best machine exactly 1; a malformed move counts as a pull of the worst machine. A turn's verdict
is correct when it pulled the best machine; the oracle (which knows the means) always does. The
honest player (:meth:`MultiArmedBandit.honest_move`) plays UCB1 on the payouts it has seen.

Levels add machines, shrink the gap between the best and the second-best machine, and switch
to Gaussian payouts. The difficulty measure is the classical hardness of best-arm
identification, ``sum over the other arms of (noise / gap)^2``.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, event_rng, register, regret_reward
from palaestra.core.task import Growth
from palaestra.envs.games.common import explore_then_commit, read_label, ucb_choice

NOUNS = ("machine", "arm", "slot machine", "bandit", "lever")
VERBS = ("pull", "play", "choose", "try")


@register
class MultiArmedBandit(MultiTurnTask):
    id = "games/multi_armed_bandit"
    family = "games"
    description = "Pull slot machines with hidden payout rates; scored by regret against always pulling the best."
    tags = ("games", "multi-turn", "decision-making", "exploration")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 2
    hidden_information = True
    score_based = True
    public_keys = ("labels", "horizon", "gaussian", "noise")  # the prompt states the payout kind and noise

    @dataclass(frozen=True)
    class Config:
        arms: int
        horizon: int  # pulls in the episode
        gaussian: bool  # Gaussian payouts (else Bernoulli)
        gap: tuple[float, float]  # best minus second-best mean, in units of the payout noise
        noise: float = 1.0  # standard deviation of a Gaussian payout

    presets = (
        Config(arms=2, horizon=16, gaussian=False, gap=(0.8, 1.4)),
        Config(arms=3, horizon=24, gaussian=False, gap=(0.5, 0.9)),
        Config(arms=4, horizon=30, gaussian=True, gap=(0.5, 0.9), noise=1.0),
        Config(arms=5, horizon=40, gaussian=False, gap=(0.3, 0.6)),
        Config(arms=6, horizon=60, gaussian=True, gap=(0.25, 0.5), noise=2.0),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        labels = string.ascii_uppercase[: config.arms]
        means = _gaussian_means(rng, config) if config.gaussian else _bernoulli_means(rng, config)
        rng.shuffle(means)
        if config.gaussian:
            payout = (f"pays a random amount: its own hidden mean plus normally distributed noise with standard "
                      f"deviation {config.noise:g} (rounded to one decimal; it can be negative)")
        else:
            payout = "pays 1 with its own hidden probability and 0 otherwise"
        example = labels[-1]
        prompt = (
            f"There are {config.arms} slot machines labelled {', '.join(labels)}. Each pull of a machine {payout}. "
            f"The machines differ and do not change over time. You have {config.horizon} pulls.\n\n"
            "Your score is based on the expected payout of the machines you pull, not on luck, and compares it with "
            "picking machines at random: pulling machines at random scores 0 (or less, counted as 0), always "
            "pulling the best machine scores 1, and the score is paid after your last pull. A malformed move counts "
            "as a pull of the worst machine.\n\n"
            f"Each turn, name the one machine you pull by its letter, for example: {example}"
        )
        data = {"labels": labels, "means": means, "gaussian": config.gaussian, "noise": config.noise,
                "horizon": config.horizon}
        return Problem(prompt=prompt, answer=labels[means.index(max(means))], data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["horizon"]

    def difficulty(self, problem: Problem) -> float:
        """Arms plus log2 of (1 + the pulls it takes to tell the best arm apart, sum of (noise / gap)^2).

        The sum alone is heavy-tailed (a near-tie makes it huge), so its level means are noisy; the log keeps
        the separation in it and the arm count keeps each level above the last.
        """
        means, noise = problem.data["means"], _noise(problem.data)
        best = max(means)
        return len(means) + math.log2(1 + sum((noise / (best - m)) ** 2 for m in means if m != best))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"turn": 0, "achieved": 0.0}

    def _reward(self, problem: Problem, achieved: float, done: bool) -> float:
        means, horizon = problem.data["means"], problem.data["horizon"]
        return regret_reward(achieved, horizon * sum(means) / len(means), horizon * max(means)) if done else 0.0

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        labels, means = data["labels"], data["means"]
        turn = state["turn"] + 1
        done = turn >= data["horizon"]
        label = read_label(move, labels, NOUNS, VERBS)
        if label is None:
            achieved = state["achieved"] + min(means)
            bad = Outcome.invalid({"turn": turn, "achieved": achieved}, f"name one machine by its letter ({', '.join(labels)})")
            reward = self._reward(problem, achieved, done)
            return bad._replace(done=done, verdict=dataclasses.replace(bad.verdict, reward=reward) if reward else bad.verdict)
        arm = labels.index(label)
        achieved = state["achieved"] + means[arm]
        reward = self._reward(problem, achieved, done)
        rng = event_rng((problem.env_id, problem.level, problem.seed), "pull", turn, arm)
        if data["gaussian"]:
            paid = f"{round(rng.gauss(means[arm], data['noise']), 1):g}"
        else:
            paid = "1" if rng.random() < means[arm] else "0"
        verdict = Verdict(reward, means[arm] == max(means), True, f"pulled {label}")
        ending = f" That was your last pull; your score is {reward:.2f}." if done else ""
        return Outcome({"turn": turn, "achieved": achieved}, verdict, f"Machine {label} paid {paid}.{ending}", done)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return problem.answer or ""

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return list(problem.data["labels"])

    def honest_move(self, view: View) -> str:
        # UCB1 with its bonus scaled to the payout noise (half of it: short horizons reward exploiting sooner).
        return ucb_choice(view.public["labels"], _payouts(view.history), 0.5 * _noise(view.public))

    def heuristics(self) -> dict[str, Policy]:
        return {"always A": lambda problem, state, history, rng: problem.data["labels"][0],
                "pull each once, then the best seen":
                    lambda problem, state, history, rng: explore_then_commit(problem.data["labels"], _payouts(history))}


_PAID = re.compile(r"Machine ([A-Z]) paid (-?\d+(?:\.\d+)?)\.")


def _payouts(history: Sequence[tuple[str, str]]) -> dict[str, list[float]]:
    """What each machine paid so far, read from the observations."""
    paid: dict[str, list[float]] = {}
    for _, observation in history:
        match = _PAID.match(observation)
        if match:
            paid.setdefault(match.group(1), []).append(float(match.group(2)))
    return paid


def _noise(data: dict[str, Any]) -> float:
    # A Bernoulli payout's noise is at most 1/2; using 1/2 keeps the hardness comparable across kinds.
    return data["noise"] if data["gaussian"] else 0.5


def _bernoulli_means(rng: random.Random, config: MultiArmedBandit.Config) -> list[float]:
    gap = round(rng.uniform(*config.gap) * 0.5, 2)  # in units of the Bernoulli noise bound 1/2
    best = round(rng.uniform(0.1 + gap, 0.95), 3)
    others = [round(rng.uniform(0.05, best - gap), 3) for _ in range(config.arms - 2)]
    return [best, round(best - gap, 3), *others]


def _gaussian_means(rng: random.Random, config: MultiArmedBandit.Config) -> list[float]:
    gap = round(rng.uniform(*config.gap) * config.noise, 1)
    best = round(rng.uniform(4.0, 9.0), 1)
    spread = config.noise
    others = [round(rng.uniform(best - gap - spread, best - gap), 1) for _ in range(config.arms - 2)]
    return [best, round(best - gap, 1), *others]
