"""Find a longest strictly increasing subsequence of a sequence of numbers.

Sequences are random integers (repeats allowed). The optimum length comes from patience sorting
at generation; most sequences have several longest subsequences, and the verifier accepts **any**:
the values written must appear in the sequence in that order (not necessarily adjacent), each
strictly larger than the one before, as many as the optimum.

Sequences are redrawn until the greedy answers (the longest run of adjacent rises; every value larger
than the last taken, from the first value or from the smallest) fall short of the optimum: they
found a longest one in 0.56/0.12 of levels 0/2 before version 2. Version 3 also redraws against two
one-pass rules tried from every start: a climb that lowers its last value when a smaller one still fits
above the value before it (0.96/0.73/0.41 of levels 0/2/4 in version 2), and a climb that always moves to
the smallest larger value ahead (0.81/0.33/0.06). All five rules are declared heuristics. Version 4 keeps
only sequences whose repeats make a longest non-decreasing subsequence longer than the optimum: a solver that
ignores "strictly" (letting equal values follow each other) answered 0.70, 0.73, 0.67, 0.60, 0.63 of levels
0-4 before and never does now.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable
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
    version = 4  # v4: a longest non-decreasing subsequence is always longer (so it is never a right answer)

    @dataclass(frozen=True)
    class Config:
        length: int
        largest: int

    presets = (
        Config(length=10, largest=12),  # v4: not 8 values up to 20: too few sequences beat every shortcut
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
            if max(len(rule(sequence)) for rule in _GREEDY.values()) >= len(best):
                return None  # a greedy run would find a longest one
            if _longest_non_decreasing(sequence) == len(best):
                return None  # a solver that lets equal values follow each other would be right too
            return sequence, best

        # about one draw in 300 passes at level 0
        sequence, best = retry(draw, what="a sequence that greedy runs get wrong", attempts=20_000)
        prompt = (
            f"Sequence: {', '.join(map(str, sequence))}\n\n"
            "Find a longest strictly increasing subsequence: values taken from the sequence in their original "
            "order (not necessarily adjacent), each larger than the one before, as many as possible. Give the "
            "values separated by commas, for example: 3, 8, 15, 21"
        )
        return Problem(prompt=prompt, answer=", ".join(map(str, best)),
                       data={"sequence": sequence, "length": len(best)})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """The greedy rules every problem is redrawn against."""
        def policy(rule: Callable[[list[int]], list[int]]) -> Callable[[Problem], str]:
            return lambda problem: ", ".join(map(str, rule(problem.data["sequence"])))

        return {name: policy(rule) for name, rule in _GREEDY.items()}

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


def _adjacent_run(sequence: list[int]) -> list[int]:
    """The longest run of adjacent rises."""
    best: list[int] = []
    run: list[int] = []
    for value in sequence:
        run = [*run, value] if run and value > run[-1] else [value]
        if len(run) > len(best):
            best = run
    return best


def _climb(values: list[int], lowering: bool = False) -> list[int]:
    """Every value larger than the last taken, from the first; ``lowering``: a value between the last two taken also
    replaces the last."""
    taken = [values[0]]
    for value in values[1:]:
        if value > taken[-1]:
            taken.append(value)
        elif lowering and len(taken) >= 2 and taken[-2] < value < taken[-1]:
            taken[-1] = value
    return taken


def _smallest_next(values: list[int]) -> list[int]:
    """From the first value, always move to the smallest larger value ahead (the earliest of equals)."""
    taken, at = [values[0]], 0
    for _ in range(len(values)):
        ahead = [(values[k], k) for k in range(at + 1, len(values)) if values[k] > taken[-1]]
        if not ahead:
            break
        value, at = min(ahead)
        taken.append(value)
    return taken


def _every_start(rule: Callable[[list[int]], list[int]]) -> Callable[[list[int]], list[int]]:
    """The longest answer of ``rule`` started at each position (the earliest start among equals)."""
    return lambda sequence: max((rule(sequence[i:]) for i in range(len(sequence))), key=len)


_GREEDY: dict[str, Callable[[list[int]], list[int]]] = {
    "longest run of adjacent rises": _adjacent_run,
    "climb from the first value": _climb,
    "climb from the smallest value": lambda sequence: _climb(sequence[sequence.index(min(sequence)):]),
    "climb lowering the last value, from every start": _every_start(lambda values: _climb(values, lowering=True)),
    "smallest larger value next, from every start": _every_start(_smallest_next),
}


def _longest_non_decreasing(sequence: list[int]) -> int:
    """The length of a longest subsequence in which each value is at least the one before (equal values allowed).

    >>> _longest_non_decreasing([3, 1, 4, 1, 5, 9, 2, 6]), _longest_non_decreasing([2, 2, 1, 2])
    (4, 3)
    """
    tails: list[int] = []
    for x in sequence:
        k = bisect.bisect_right(tails, x)
        tails[k:k + 1] = [x]
    return len(tails)


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
