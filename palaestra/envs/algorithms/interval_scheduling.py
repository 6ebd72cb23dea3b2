"""Activity selection: choose as many pairwise compatible activities as possible.

Activities are half-open time intervals ``[start, end)`` labelled with letters (a random set per
problem); two are compatible when they do not overlap (one may start exactly when the other ends).
Instances are redrawn until choosing the shortest activities first and choosing the earliest-starting
ones both fall short of the optimum (under either tie-break) (earliest finish time first, at
generation), so only the right greedy rule works; at every level, instances are also redrawn until
reading "may start exactly when another ends" as an overlap falls short (the right rule with touching
activities kept apart). From level 2 on, a trap is planted among the random activities (and the list
shuffled): four activities in a row (the optimum's part there), three mutually overlapping ones across
each of the first and the last joint, and one short activity across the middle joint, which overlaps only
two others, so "keep the activity with the fewest conflicts first" keeps it and loses an activity;
instances are redrawn until that rule, and "drop the activity with the most conflicts first", fall short
under each usual tie-break. The verifier accepts **any** maximum set: known labels, no two overlapping, as
many as the optimum.

Version 2: that misreading chose a maximum set in 0.65 of level 0, 0.43 of level 2 and 0.23 of level 4.
Version 3: "fewest conflicts first" chose a maximum set in 1.00 of levels 2 and 4 (it fails on about 1% of
random draws), "drop the most conflicting" in 0.91 of level 2 and 0.65 of level 4, "earliest start first"
0.09 of level 2; now 0 at levels 2-4 (level 2 grew from 12 to 14 activities to leave room beside the trap).
Version 4: "shortest first" chose a maximum set in 0.93 and 0.83 of levels 0 and 1 and "earliest start first"
in 0.70 of level 0 (or, with the other tie-break, 0.20 of level 1); both rules, under either tie-break, now
fall short at every level (0.00-0.03 now). "Fewest conflicts first" still answers levels 0-1 (the trap does not
fit in 7 or 9 activities); it is declared.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.algorithms.common import read_labels, sample_letters


@register
class IntervalScheduling(Task):
    id = "algorithms/interval_scheduling"
    family = "algorithms"
    description = "Choose a maximum set of non-overlapping activities (activity selection)."
    tags = ("algorithms", "greedy", "scheduling")
    version = 4  # v4: levels 0 and 1 beat both naive rules, each under either tie-break

    @dataclass(frozen=True)
    class Config:
        activities: int
        horizon: int
        longest: int
        trap: bool = False  # plant the instance that "fewest conflicts first" gets wrong

    presets = (
        Config(activities=7, horizon=24, longest=8),
        Config(activities=9, horizon=30, longest=10),
        Config(activities=14, horizon=45, longest=12, trap=True),
        Config(activities=16, horizon=55, longest=15, trap=True),
        Config(activities=22, horizon=75, longest=18, trap=True),
    )
    bounded = (
        "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"
    )

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names, spare = sample_letters(rng, config.activities)

        def draw() -> list[list[int]]:
            spans = _trap(rng, config.horizon) if config.trap else []
            while len(spans) < len(names):
                length = rng.randint(1, config.longest)
                start = rng.randint(0, config.horizon - length)
                spans.append([start, start + length])
            if config.trap:
                rng.shuffle(spans)
            return spans

        def hard(spans: list[list[int]]) -> bool:
            best = len(_greedy(spans, key=lambda s: (s[1], s[0])))
            # shortest first and earliest start first, each under both tie-breaks (earlier or later start, end)
            naive = [max(len(_greedy(spans, key=key)) for key in keys) for keys in (_SHORTEST, _EARLIEST)]
            touching_apart = _greedy(spans, key=lambda s: (s[1], s[0]), touching_overlap=True)
            if max(naive) >= best or len(touching_apart) >= best:
                return False
            return not config.trap or all(
                len(_fewest_conflicts(spans, tie)) < best and len(_drop_most_conflicts(spans, tie)) < best
                for tie in _TIES
            )

        spans = retry(draw, hard, attempts=10_000, what="activities that naive greedy rules get wrong")
        chosen = _greedy(spans, key=lambda s: (s[1], s[0]))
        listing = "\n".join(f"{name}: [{s}, {e})" for name, (s, e) in zip(names, spans))
        prompt = (
            f"These activities each occupy a time interval [start, end):\n{listing}\n\n"
            "Choose as many activities as possible such that no two of them overlap in time (an activity may "
            "start exactly when another ends). Give the labels of the chosen activities separated by commas, "
            f"for example: {spare[2]}, {spare[0]}, {spare[1]}"
        )
        return Problem(
            prompt=prompt,
            answer=", ".join(names[i] for i in sorted(chosen)),
            data={"names": names, "spans": spans, "best": len(chosen)},
        )

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def rule(pick: Callable[[list[list[int]]], list[int]]) -> Callable[[Problem], str]:
            return lambda p: ", ".join(p.data["names"][i] for i in pick(p.data["spans"]))

        return {
            "shortest first": rule(lambda spans: _greedy(spans, key=lambda s: (s[1] - s[0], s[0]))),
            "earliest start first": rule(lambda spans: _greedy(spans, key=lambda s: s)),
            "fewest conflicts first": rule(lambda spans: _fewest_conflicts(spans, _TIES[0])),
            "drop the most conflicting": rule(lambda spans: _drop_most_conflicts(spans, _TIES[0])),
        }

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
        clash = [
            n
            for n in names
            if n not in chosen
            and any(spans[index[n]][0] < spans[index[c]][1] and spans[index[c]][0] < spans[index[n]][1] for c in chosen)
        ]
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


_SHORTEST = (lambda s: (s[1] - s[0], s[0]), lambda s: (s[1] - s[0], -s[0]))
_EARLIEST = (lambda s: (s[0], s[1]), lambda s: (s[0], -s[1]))


def _overlap(first: list[int], second: list[int]) -> bool:
    return first[0] < second[1] and second[0] < first[1]


# tie-breaks among activities with equally few conflicts: earliest finish, earliest start, shortest, latest
# finish, listed first, listed last
_TIES: tuple[Callable[[list[int], int], tuple[int, ...]], ...] = (
    lambda s, i: (s[1], s[0]),
    lambda s, i: (s[0], s[1]),
    lambda s, i: (s[1] - s[0], s[0]),
    lambda s, i: (-s[1], -s[0]),
    lambda s, i: (i,),
    lambda s, i: (-i,),
)


def _neighbours(spans: list[list[int]]) -> list[set[int]]:
    return [{j for j, other in enumerate(spans) if j != i and _overlap(span, other)} for i, span in enumerate(spans)]


def _fewest_conflicts(spans: list[list[int]], tie: Callable[[list[int], int], tuple[int, ...]]) -> list[int]:
    """The wrong greedy rule: repeatedly keep the remaining activity that overlaps the fewest remaining ones
    (``tie`` orders equals) and drop the ones it overlaps."""
    near = _neighbours(spans)
    left, kept = set(range(len(spans))), []
    while left:
        best = min(left, key=lambda i: (len(near[i] & left), *tie(spans[i], i)))
        kept.append(best)
        left -= near[best] | {best}
    return kept


def _drop_most_conflicts(spans: list[list[int]], tie: Callable[[list[int], int], tuple[int, ...]]) -> list[int]:
    """Another wrong rule: repeatedly drop the activity that overlaps the most remaining ones (``tie`` orders
    equals, the last in that order dropped) until no two overlap."""
    near = _neighbours(spans)
    left = set(range(len(spans)))
    for _ in spans:  # each round drops one, and one activity left overlaps nothing
        worst = max(left, key=lambda i: (len(near[i] & left), *tie(spans[i], i)))
        if not near[worst] & left:
            break
        left.discard(worst)
    return sorted(left)


def _trap(rng: random.Random, horizon: int) -> list[list[int]]:
    """Eleven activities on which "fewest conflicts first" loses one: four in a row A, B, C, D (gaps of 0 or 1),
    three mutually overlapping ones across the A-B joint and three across the C-D joint (each overlapping
    both neighbours: four conflicts, as B and C have), and one short activity across the B-C joint that
    overlaps only B and C. Taking it first rules out B and C, and the rest leaves room for only two more."""
    lengths = [rng.randint(3, 5) for _ in range(4)]
    gaps = [rng.choice((0, 0, 1)) for _ in range(3)]
    time = rng.randint(0, horizon - sum(lengths) - sum(gaps))
    row = []
    for length, gap in zip(lengths, [*gaps, 0], strict=True):
        row.append([time, time + length])
        time += length + gap
    (a, b, c, d) = row
    middle = [rng.randint(max(b[0] + 2, b[1] - 2), b[1] - 1), rng.randint(c[0] + 1, min(c[1] - 2, c[0] + 2))]
    left = [[rng.randint(max(a[0] + 1, a[1] - 2), a[1] - 1), rng.randint(b[0] + 1, middle[0])] for _ in range(3)]
    right = [
        [rng.randint(max(c[0] + 1, middle[1]), c[1] - 1), rng.randint(d[0] + 1, min(d[1] - 1, d[0] + 2))]
        for _ in range(3)
    ]
    return [*row, middle, *left, *right]
