"""Contextual bandit: show each visitor one of several ads; the best ad depends on the visitor's profile.

Each turn a visitor arrives with a profile (one value per feature, e.g. ``segment=student,
device=phone``) and the model shows one ad, A, B, .... The visitor clicks with a hidden
probability that depends on the ad and the profile additively (a base rate per ad plus one
effect per ad and profile value, clipped), so what is learnt about one profile tells something
about the others. Profiles and clicks come from a tape drawn with the problem
(:func:`palaestra.envs.games.common.tape_rng`), so a replay sees the same visitors and clicks.

Each turn the model names one ad (``C``, ``ad C``, ``show C``). The reward is per visitor and
based on click probabilities, not on luck: showing ad ``a`` to a visitor with profile ``x``
earns ``(p(a, x) - p_worst(x)) / (visitors * (p_best(x) - p_worst(x)))``, so showing every
visitor their best ad earns exactly 1; a malformed move earns 0 and costs the visitor. A
turn's verdict is correct when the best ad for that visitor was shown; the oracle always
shows it. Every problem has at least two profiles whose best ads differ, and a clear gap
between the best and second-best ad for every profile.

Levels add features, values and ads. The difficulty measure is the number of profiles times
the number of ads.
"""

from __future__ import annotations

import itertools
import random
import string
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.games.common import invalid, read_label, tape_rng

FEATURES = {
    "segment": ["student", "professional", "retiree"],
    "device": ["phone", "desktop"],
    "time": ["morning", "evening"],
}
MIN_GAP = 0.08


@register
class ContextualBandit(MultiTurnTask):
    id = "games/contextual_bandit"
    family = "games"
    description = "Choose an ad for each visitor profile to maximise clicks; the best ad depends on the profile."
    tags = ("games", "multi-turn", "decision-making", "exploration")

    @dataclass(frozen=True)
    class Config:
        features: tuple[tuple[str, int], ...]  # (feature, number of its values used)
        ads: int
        visitors: int

    presets = (
        Config((("device", 2),), ads=2, visitors=12),
        Config((("segment", 3),), ads=3, visitors=18),
        Config((("segment", 2), ("device", 2)), ads=3, visitors=24),
        Config((("segment", 3), ("device", 2)), ads=4, visitors=30),
        Config((("segment", 3), ("device", 2), ("time", 2)), ads=4, visitors=40),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        labels = string.ascii_uppercase[: config.ads]
        values = {name: FEATURES[name][:count] for name, count in config.features}
        profiles = [dict(zip(values, combo)) for combo in itertools.product(*values.values())]

        def draw() -> dict[str, Any] | None:
            base = [rng.uniform(0.1, 0.45) for _ in labels]
            effect = {f"{name}={v}": [rng.uniform(-0.2, 0.3) for _ in labels] for name in values for v in values[name]}
            table = []
            for profile in profiles:
                row = [round(min(0.95, max(0.02, base[a] + sum(effect[f"{k}={v}"][a] for k, v in profile.items()))), 2)
                       for a in range(len(labels))]
                ranked = sorted(row, reverse=True)
                if ranked[0] - ranked[1] < MIN_GAP:
                    return None
                table.append(row)
            if len({row.index(max(row)) for row in table}) < 2:
                return None
            return {"rates": table}

        model = retry(draw, what="click rates whose best ad depends on the profile")
        tape = rng.getrandbits(48)
        data = {"labels": labels, "features": {k: list(v) for k, v in values.items()}, "rates": model["rates"],
                "tape": tape, "visitors": config.visitors}
        listing = "; ".join(f"{name}: {', '.join(vals)}" for name, vals in values.items())
        prompt = (
            f"You run an ad slot on a website and have {config.ads} ads, labelled {', '.join(labels)}. Each turn a "
            f"visitor arrives and you see their profile ({listing}). You show them one ad; they click it with a "
            "hidden probability that depends on the ad and on their profile. The probabilities do not change over "
            f"time. {config.visitors} visitors will come.\n\n"
            "Your score is based on the click probabilities of the ads you show, not on luck: showing each visitor "
            "the best ad for their profile earns the most, the worst ad nothing, so always showing the best ad "
            "would score 1. A malformed move counts as showing the worst ad.\n\n"
            f"First visitor: {_profile_text(data, 0)}.\n\n"
            f"Each turn, name the one ad you show by its letter, for example: {labels[-1]}"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["visitors"]

    def difficulty(self, problem: Problem) -> float:
        """Arms times contexts, plus the contexts whose two best arms pay within 0.1 of each other (harder
        to tell apart)."""
        rates = problem.data["rates"]
        close = sum(1 for row in rates if len(row) > 1 and sorted(row)[-1] - sorted(row)[-2] < 0.1)
        return float(len(rates) * len(problem.data["labels"]) + close)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"turn": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        turn = state["turn"]
        done = turn + 1 >= data["visitors"]
        following = "" if done else f" Next visitor: {_profile_text(data, turn + 1)}."
        label = read_label(move, data["labels"], ("ad",), ("show", "choose", "display"))
        if label is None:
            bad = invalid({"turn": turn + 1}, f"name one ad by its letter ({', '.join(data['labels'])})")
            return bad._replace(observation=bad.observation + following, done=done)
        ad = data["labels"].index(label)
        row = data["rates"][_profile_index(data, turn)]
        best, worst = max(row), min(row)
        reward = (row[ad] - worst) / (data["visitors"] * (best - worst))
        clicked = tape_rng(ContextualBandit.id, data["tape"], "click", turn, ad).random() < row[ad]
        said = f"Ad {label}: {'clicked' if clicked else 'not clicked'}."
        ending = " That was the last visitor." if done else following
        return Outcome({"turn": turn + 1}, Verdict(reward, row[ad] == best, True, said), said + ending, done)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        row = data["rates"][_profile_index(data, state["turn"])]
        return data["labels"][row.index(max(row))]


def _profile_index(data: dict[str, Any], turn: int) -> int:
    """The profile of visitor ``turn``: a uniform draw from the tape, as an index into the rate table's rows."""
    return tape_rng(ContextualBandit.id, data["tape"], "visitor", turn).randrange(len(data["rates"]))


def _profile_text(data: dict[str, Any], turn: int) -> str:
    index = _profile_index(data, turn)
    combos = list(itertools.product(*data["features"].values()))
    return ", ".join(f"{name}={value}" for name, value in zip(data["features"], combos[index]))
