"""Find a longest strictly increasing subsequence of a sequence of numbers.

Sequences are random integers (repeats allowed). The optimum length comes from patience sorting
at generation; most sequences have several longest subsequences, and the verifier accepts **any**:
the values written must appear in the sequence in that order (not necessarily adjacent), each
strictly larger than the one before, as many as the optimum.

Sequences are redrawn until the greedy answers (the longest run of adjacent rises; every value larger
than the last taken, from the first value or from the smallest) fall short of the optimum: they
found a longest one in 0.56/0.12 of levels 0/2 before version 2.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.algorithms.common import read_ints


@register
class LongestIncreasingSubsequence(Task):
    id = "algorithms/lis"
    family = "algorithms"
    description = "Give a longest strictly increasing subsequence of a sequence."
    tags = ("algorithms", "dynamic-programming", "sequences")
    version = 2

    @dataclass(frozen=True)
    class Config:
        length: int
        largest: int

    presets = (
        Config(length=8, largest=20),
        Config(length=12, largest=40),
        Config(length=16, largest=60),
        Config(length=22, largest=90),
        Config(length=30, largest=99),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:

        def draw() -> tuple[list[int], list[int]] | None:
            sequence = [rng.randint(0, config.largest) for _ in range(config.length)]
            best = longest_increasing(sequence)
            if _greedy_longest(sequence) >= len(best):
                return None  # a greedy run would find a longest one
            return sequence, best

        sequence, best = retry(draw, what="a sequence that greedy runs get wrong")
        prompt = (
            f"Sequence: {', '.join(map(str, sequence))}\n\n"
            "Find a longest strictly increasing subsequence: values taken from the sequence in their original "
            "order (not necessarily adjacent), each larger than the one before, as many as possible. Give the "
            "values separated by commas, for example: 3, 8, 15, 21"
        )
        return Problem(prompt=prompt, answer=", ".join(map(str, best)),
                       data={"sequence": sequence, "length": len(best)})

    def difficulty(self, problem: Problem) -> float:
        """Length of the sequence plus the length of a longest increasing subsequence."""
        return float(len(problem.data["sequence"]) + problem.data["length"] / 2)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        values = read_ints(answer)
        if values is None:
            return Verdict.unparsed("expected numbers separated by commas")
        if any(b <= a for a, b in zip(values, values[1:])):
            return Verdict.wrong("the values are not strictly increasing")
        if not is_subsequence(values, problem.data["sequence"]):
            return Verdict.wrong("these values do not appear in the sequence in this order")
        return Verdict.judge(len(values) == problem.data["length"], f"{len(values)} values is not the longest")

    def spellings(self, problem: Problem) -> list[str]:
        values = (problem.answer or "").split(", ")
        return [*super().spellings(problem), " ".join(values), "[" + ", ".join(values) + "]", " -> ".join(values)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values = [int(v) for v in (problem.answer or "").split(", ")]
        wrong = [", ".join(map(str, values[:-1])), ", ".join(map(str, values[::-1]))]
        missing = next((x for x in range(values[-1] + 1, values[-1] + 200) if x not in problem.data["sequence"]), None)
        if missing is not None:
            wrong.append(", ".join(map(str, [*values[:-1], missing])))
        return [w for w in wrong if w != problem.answer]


def _greedy_longest(sequence: list[int]) -> int:
    """The longest of the greedy answers: the longest run of adjacent rises, and taking every value larger
    than the last taken, from the first value or from the smallest."""
    run = longest_run = 1
    for before, after in zip(sequence, sequence[1:]):
        run = run + 1 if after > before else 1
        longest_run = max(longest_run, run)

    def climb(values: list[int]) -> int:
        taken = [values[0]]
        for value in values[1:]:
            if value > taken[-1]:
                taken.append(value)
        return len(taken)

    lowest = sequence.index(min(sequence))
    return max(longest_run, climb(sequence), climb(sequence[lowest:]))


def longest_increasing(sequence: list[int]) -> list[int]:
    """One longest strictly increasing subsequence (patience sorting with back links).

    >>> longest_increasing([3, 1, 4, 1, 5, 9, 2, 6])
    [1, 4, 5, 6]
    """
    tails: list[int] = []  # tails[k]: the smallest last value of an increasing run of length k + 1
    tail_index: list[int] = []
    back = [-1] * len(sequence)
    for i, x in enumerate(sequence):
        k = bisect.bisect_left(tails, x)
        if k == len(tails):
            tails.append(x)
            tail_index.append(i)
        else:
            tails[k], tail_index[k] = x, i
        back[i] = tail_index[k - 1] if k else -1
    out = []
    i = tail_index[-1] if tail_index else -1
    while i >= 0:
        out.append(sequence[i])
        i = back[i]
    return out[::-1]


def is_subsequence(values: list[int], sequence: list[int]) -> bool:
    """Whether ``values`` appear in ``sequence`` in order (greedy matching)."""
    position = 0
    for value in values:
        while position < len(sequence) and sequence[position] != value:
            position += 1
        if position == len(sequence):
            return False
        position += 1
    return True
