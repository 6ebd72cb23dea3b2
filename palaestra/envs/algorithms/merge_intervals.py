"""Merge overlapping intervals into a list of disjoint ones.

Closed integer intervals ``[a, b]`` are drawn uniformly over a horizon short enough that merges
chain (an interval overlapping two others joins them). Intervals that share a point merge,
including ones that only touch (``[1, 3]`` and ``[3, 5]`` give ``[1, 5]``). The merged list is
unique; the verifier compares it as a set of intervals (any order, any bracket spelling). Draws are
redrawn until both misreadings of "share a point" change the answer: keeping intervals that only touch
apart, and joining intervals one apart (``[1, 3]`` and ``[4, 5]``), which share no point.

Version 2: version 1 drew uniformly, so those two misreadings merged 0.63 and 0.73 of level 0 and 0.27
and 0.42 of level 4 right.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.algorithms.common import read_intervals


@register
class MergeIntervals(Task):
    id = "algorithms/merge_intervals"
    family = "algorithms"
    description = "Merge overlapping closed intervals into disjoint intervals."
    tags = ("algorithms", "intervals", "sorting")
    version = 2

    @dataclass(frozen=True)
    class Config:
        intervals: int
        horizon: int
        longest: int

    presets = (
        Config(intervals=5, horizon=30, longest=8),
        Config(intervals=8, horizon=50, longest=10),
        Config(intervals=12, horizon=80, longest=12),
        Config(intervals=17, horizon=120, longest=15),
        Config(intervals=24, horizon=180, longest=18),
    )
    growth = Growth(limits={"longest": 18})  # longer intervals past the presets would merge the whole list

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> list[list[int]]:
            spans = []
            for _ in range(config.intervals):
                start = rng.randint(0, config.horizon)
                spans.append([start, start + rng.randint(0, config.longest)])
            return spans

        def telling(spans: list[list[int]]) -> bool:  # touching must matter, and so must a gap of one
            right = merge(spans)
            return merge(spans, reach=-1) != right and merge(spans, reach=1) != right

        spans = retry(draw, telling, what="intervals that touch and intervals one apart")
        merged = merge(spans)
        listing = ", ".join(f"[{a}, {b}]" for a, b in spans)
        prompt = (
            f"Merge these closed intervals: {listing}\n\n"
            "Intervals that share at least one point (including intervals that only touch, like [1, 3] and "
            "[3, 5]) merge into one. Give the merged, non-overlapping intervals in increasing order, separated by "
            "commas, for example: [0, 4], [6, 11], [15, 15]"
        )
        return Problem(prompt=prompt, answer=", ".join(f"[{a}, {b}]" for a, b in merged),
                       data={"intervals": spans, "merged": merged})

    def difficulty(self, problem: Problem) -> float:
        """Number of intervals to merge plus the merges they take (intervals in, minus intervals out)."""
        data = problem.data
        return float(len(data["intervals"]) + (len(data["intervals"]) - len(data["merged"])) / 2)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        got = read_intervals(answer)
        if got is None:
            return Verdict.unparsed("expected intervals such as [0, 4], [6, 11]")
        truth = [tuple(m) for m in problem.data["merged"]]
        if sorted(got) == truth:
            return Verdict.right()
        if len(got) != len(truth):
            return Verdict.wrong(f"expected {len(truth)} merged intervals, got {len(got)}")
        return Verdict.wrong("the merged intervals are wrong")

    def spellings(self, problem: Problem) -> list[str]:
        merged = problem.data["merged"]
        return [*super().spellings(problem), " ".join(f"({a},{b})" for a, b in reversed(merged)),
                "[" + ", ".join(f"[{a}, {b}]" for a, b in merged) + "]", "\n".join(f"{a}-{b}" for a, b in merged)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        merged = [list(m) for m in problem.data["merged"]]
        spans = problem.data["intervals"]
        wrong = [", ".join(f"[{a}, {b}]" for a, b in merged[:-1]) or "[0, 0]",
                 ", ".join(f"[{a}, {b + 1}]" for a, b in merged),
                 ", ".join(f"[{a}, {b}]" for a, b in sorted(spans)) if len(merge(spans)) < len(spans) else "[1, 0]"]
        return wrong


def merge(spans: list[list[int]], reach: int = 0) -> list[list[int]]:
    """Closed intervals merged where they share a point, in increasing order; with ``reach`` 1 also where
    one starts one past the other's end, with -1 only where they share more than a point (misreadings).

    >>> merge([[3, 5], [1, 3], [7, 8]]), merge([[3, 5], [1, 3], [6, 8]], reach=1), merge([[3, 5], [1, 3]], reach=-1)
    ([[1, 5], [7, 8]], [[1, 8]], [[1, 3], [3, 5]])
    """
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1] + reach:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged
