"""Activity selection: choose as many pairwise compatible activities as possible.

Activities are half-open time intervals ``[start, end)`` labelled with letters (a random set per
problem); two are compatible when they do not overlap (one may start exactly when the other ends).
From level 1 on, instances are redrawn until choosing the shortest activities first or the earliest-
starting ones (from level 3 on: both) falls short of the optimum (earliest finish time first, at
generation), so only the right greedy rule works; at every level, instances are also redrawn until
reading "may start exactly when another ends" as an overlap falls short (the right rule with touching
activities kept apart). The verifier accepts **any** maximum set: known labels, no two overlapping, as
many as the optimum.

Version 2: that misreading chose a maximum set in 0.65 of level 0, 0.43 of level 2 and 0.23 of level 4.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.algorithms.common import read_labels, sample_letters


@register
class IntervalScheduling(Task):
    id = "algorithms/interval_scheduling"
    family = "algorithms"
    description = "Choose a maximum set of non-overlapping activities (activity selection)."
    tags = ("algorithms", "greedy", "scheduling")
    version = 2

    @dataclass(frozen=True)
    class Config:
        activities: int
        horizon: int
        longest: int
        beat_naive: int  # how many of the naive rules (shortest first, earliest start first) must fall short

    presets = (
        Config(activities=7, horizon=24, longest=8, beat_naive=0),
        Config(activities=9, horizon=30, longest=10, beat_naive=1),
        Config(activities=12, horizon=40, longest=12, beat_naive=1),
        Config(activities=16, horizon=55, longest=15, beat_naive=2),
        Config(activities=22, horizon=75, longest=18, beat_naive=2),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names, spare = sample_letters(rng, config.activities)

        def draw() -> list[list[int]]:
            spans = []
            for _ in names:
                length = rng.randint(1, config.longest)
                start = rng.randint(0, config.horizon - length)
                spans.append([start, start + length])
            return spans

        def hard(spans: list[list[int]]) -> bool:
            best = len(_greedy(spans, key=lambda s: (s[1], s[0])))
            naive = (_greedy(spans, key=lambda s: (s[1] - s[0], s[0])), _greedy(spans, key=lambda s: s))
            touching_apart = _greedy(spans, key=lambda s: (s[1], s[0]), touching_overlap=True)
            return sum(len(kept) < best for kept in naive) >= config.beat_naive and len(touching_apart) < best

        spans = retry(draw, hard, what="activities that naive greedy rules get wrong")
        chosen = _greedy(spans, key=lambda s: (s[1], s[0]))
        listing = "\n".join(f"{name}: [{s}, {e})" for name, (s, e) in zip(names, spans))
        prompt = (
            f"These activities each occupy a time interval [start, end):\n{listing}\n\n"
            "Choose as many activities as possible such that no two of them overlap in time (an activity may "
            "start exactly when another ends). Give the labels of the chosen activities separated by commas, "
            f"for example: {spare[2]}, {spare[0]}, {spare[1]}"
        )
        return Problem(prompt=prompt, answer=", ".join(names[i] for i in sorted(chosen)),
                       data={"names": names, "spans": spans, "best": len(chosen)})

    def difficulty(self, problem: Problem) -> float:
        """Number of activities plus the size of a largest compatible set."""
        return float(len(problem.data["spans"]) + problem.data["best"] / 2)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names, spans = problem.data["names"], problem.data["spans"]
        chosen = read_labels(answer, names)
        if chosen is None:
            return Verdict.unparsed("expected activity labels separated by commas")
        if len(set(chosen)) != len(chosen):
            return Verdict.wrong("an activity is listed twice")
        index = {name: i for i, name in enumerate(names)}
        picked = sorted((spans[index[c]], c) for c in chosen)
        for (first, a), (second, b) in zip(picked, picked[1:]):
            if second[0] < first[1]:
                return Verdict.wrong(f"{a} and {b} overlap")
        return Verdict.judge(len(chosen) == problem.data["best"], f"{len(chosen)} activities is not the maximum")

    def spellings(self, problem: Problem) -> list[str]:
        chosen = (problem.answer or "").split(", ")
        braced = "{" + ", ".join(c.lower() for c in chosen) + "}"
        return [*super().spellings(problem), " ".join(reversed(chosen)), braced]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names, spans = problem.data["names"], problem.data["spans"]
        chosen = (problem.answer or "").split(", ")
        wrong = [", ".join(chosen[:-1])]
        index = {name: i for i, name in enumerate(names)}
        clash = [n for n in names if n not in chosen and any(
            spans[index[n]][0] < spans[index[c]][1] and spans[index[c]][0] < spans[index[n]][1] for c in chosen)]
        if clash:
            wrong.append(", ".join([*chosen, rng.choice(clash)]))
        return wrong


def _greedy(spans: list[list[int]], key, touching_overlap: bool = False) -> list[int]:
    """Indices picked by scanning activities in ``key`` order, keeping each that overlaps none kept (with
    ``touching_overlap``, the misreading where one ending as another starts counts as an overlap)."""
    gap = 1 if touching_overlap else 0
    kept: list[int] = []
    for i in sorted(range(len(spans)), key=lambda i: key(spans[i])):
        s, e = spans[i]
        if all(e + gap <= spans[j][0] or spans[j][1] + gap <= s for j in kept):
            kept.append(i)
    return kept
