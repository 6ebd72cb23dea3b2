"""Multi-armed bandit: pull slot machines with unknown payout rates; scored by regret against the best one.

There are ``arms`` machines labelled A, B, ... and a budget of ``horizon`` pulls. A pull of a
Bernoulli machine pays 1 with its hidden probability, else 0; a pull of a Gaussian machine pays
its hidden mean plus normal noise of a standard deviation stated in the prompt (rounded to one
decimal). Every payout is drawn from ``event_rng`` keyed by the turn and the machine, so a replay
of the same pulls sees the same payouts.

Each turn the model names one machine (``C``, ``machine C``, ``pull C``; a trailing remark is
fine, ``C or D`` is not). The reward is based on expected payouts, not on luck, and normalised
to regret (:func:`palaestra.core.multiturn.regret_reward`): the episode pays, on its last pull,
``clip((sum of the pulled machines' means - horizon * zero) / (horizon * (best mean - zero)))``
with ``zero`` the higher of the second-best mean and the mean of all means, so always pulling the
second-best machine (or any worse one) and picking at random score 0 and always pulling the best
machine exactly 1; a malformed move counts as a
pull of the worst machine. A turn's verdict is correct when it pulled the best machine; the
oracle (which knows the means) always does. The honest player
(:meth:`MultiArmedBandit.honest_move`) plays UCB1 on the payouts it has seen.

Levels add machines, shrink the gap between the best and the second-best machine, and switch
to Gaussian payouts. The difficulty measure is the classical hardness of best-arm
identification, ``sum over the other arms of (noise / gap)^2``.

Version 3: repeating one machine blindly no longer earns reward. Version 2 put the zero at the
mean of all machines (random play's mean), so a fixed machine scored 1 whenever it happened to be
the best and partial credit whenever it was above the mean: 0.52 / 0.36 / 0.34 / 0.31 / 0.28 at
levels 0-4 (the best of the fixed machines over 200 seeds). Now the zero is the second-best
machine (or random play's mean where that is higher), so a fixed machine scores 1 when it is the
best and 0 otherwise, 1/arms on average; every level has at least 10 machines (16 at the top,
at most 26 beyond), the other machines lie within 0.4 noise of the second-best (only the best is
clearly above the rest, so exploring a poor machine costs about one gap per pull) and the
horizons are longer so that a learner still finds the best one.
Measured over 200 seeds per level 0-4 (and 5): every fixed machine at most 0.13 / 0.14 / 0.11 /
0.11 / 0.095 (0.08), 1/arms on average; random play at most 0.011; pull each once then commit
0.20-0.28; the honest UCB1 player 0.59 / 0.66 / 0.56 / 0.62 / 0.49 (0.54).
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
    version = 3
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
        spread: float = 0.4  # the other machines' means lie this far below the second-best at most (noise units)

    # At least 10 machines at every level: a machine repeated blindly is the best one in 1/arms of the games.
    presets = (
        Config(arms=10, horizon=40, gaussian=False, gap=(1.0, 1.4)),
        Config(arms=10, horizon=50, gaussian=False, gap=(0.9, 1.3)),
        Config(arms=12, horizon=64, gaussian=True, gap=(0.9, 1.2), noise=1.0),
        Config(arms=14, horizon=80, gaussian=False, gap=(0.8, 1.1)),
        Config(arms=16, horizon=96, gaussian=True, gap=(0.7, 1.0), noise=2.0),
    )
    growth = Growth(limits={"arms": 26})  # one letter per machine

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
            "the better of always pulling the second-best machine and picking machines at random: that scores 0 "
            "(anything worse is counted as 0), always pulling the best machine scores 1, and the score is paid "
            "after your last pull. A malformed move counts as a pull of the worst machine.\n\n"
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
        return regret_reward(achieved, horizon * _zero(means), horizon * max(means)) if done else 0.0

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
        # UCB1 with its bonus scaled to the payout noise (0.3 of it: many machines and a short horizon reward
        # exploiting sooner; 0.3 scored 0.49 at the top level where 0.5 scored 0.36 and 0.7 0.33).
        return ucb_choice(view.public["labels"], _payouts(view.history), 0.3 * _noise(view.public))

    def heuristics(self) -> dict[str, Policy]:
        return {"always A": lambda problem, state, history, rng: problem.data["labels"][0],
                "always the prompt's example (the last machine)":
                    lambda problem, state, history, rng: problem.data["labels"][-1],
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


def _zero(means: Sequence[float]) -> float:
    """The mean payout per pull that scores 0: the better of the second-best machine and random play.

    Random play usually pays less than the second-best machine, but not always (one far better machine
    among close ones lifts the mean of all above the runner-up).
    """
    return max(sorted(means)[-2], sum(means) / len(means))


def _bernoulli_means(rng: random.Random, config: MultiArmedBandit.Config) -> list[float]:
    gap = round(rng.uniform(*config.gap) * 0.5, 2)  # in units of the Bernoulli noise bound 1/2
    spread = config.spread * 0.5
    second = round(rng.uniform(min(0.05 + spread, 0.95 - gap), 0.95 - gap), 3)
    others = [round(max(0.02, rng.uniform(second - spread, second)), 3) for _ in range(config.arms - 2)]
    return [round(second + gap, 3), second, *others]


def _gaussian_means(rng: random.Random, config: MultiArmedBandit.Config) -> list[float]:
    gap = round(rng.uniform(*config.gap) * config.noise, 1)
    second = round(rng.uniform(4.0, 9.0), 1)
    spread = config.spread * config.noise
    others = [round(rng.uniform(second - spread, second), 1) for _ in range(config.arms - 2)]
    return [round(second + gap, 1), second, *others]
