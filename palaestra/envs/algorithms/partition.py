"""Split numbers into two groups of equal sum, or show that it cannot be done.

Random positive integers (larger at higher levels, where more numbers would otherwise almost
always split) whose total is always even and whose largest number is at most half the
total (so neither parity nor one dominant number gives the answer away); draws are redrawn until a
split exists or not; at every level (levels 0 and 1 since version 4, where the greedy was right on 0.83 and
0.57 of the problems, counting its ``impossible``), a split must exist that neither textbook heuristic (the
greedy, largest number first into the lighter group, and Karmarkar-Karp differencing; both declared to the
kit, answering ``impossible`` when they end unequal) finds. The answer is one of the two groups (the other is the rest): the verifier
accepts **any** sub-multiset of the numbers summing to half the total, and ``impossible`` exactly
when there is none (subset-sum dynamic programme at generation).

``impossible`` has no short proof (the problem is NP-hard), so it is the certificate-free side: only
20% of problems have no split (``IMPOSSIBLE_SHARE``), and a constant ``impossible`` scores about
0.20. It must be said alone: a group with ``impossible`` beside it is a hedge and is not read.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.algorithms.common import differencing_split, read_ints
from palaestra.envs.graphs.common import without_yes
from palaestra.verifiers.choices import read_option
from palaestra.verifiers.claims import has_digit, mentions

IMPOSSIBLE = ("impossible", "not possible", "no", "none", "it is impossible", "cannot be done", "no such split")
IMPOSSIBLE_SHARE = 0.2  # the certificate-free side is rare, so answering it blindly pays little


@register
class Partition(Task):
    id = "algorithms/partition"
    family = "algorithms"
    description = "Split numbers into two groups of equal sum, or say it is impossible."
    tags = ("algorithms", "dynamic-programming", "np-hard")
    version = 4  # v4: levels 0 and 1 beat the textbook heuristics too
    certificate_free = ("impossible",)

    @dataclass(frozen=True)
    class Config:
        count: int
        largest: int

    presets = (
        Config(count=5, largest=15),
        Config(count=7, largest=40),
        Config(count=9, largest=150),
        Config(count=11, largest=600),
        Config(count=13, largest=2500),
    )
    growth = Growth(steps={"largest": 1900})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        possible = rng.random() >= IMPOSSIBLE_SHARE

        def draw() -> list[int] | None:
            numbers = [rng.randint(1, config.largest) for _ in range(config.count)]
            total = sum(numbers)
            return numbers if total % 2 == 0 and 2 * max(numbers) <= total else None

        def fits(numbers: list[int]) -> bool:
            if (half_subset(numbers) is not None) != possible:
                return False
            return not possible or all(  # a split must exist that neither textbook heuristic finds
                _split_of(rule(numbers)) is None for rule in _TEXTBOOK.values())

        numbers = retry(draw, fits, attempts=2_000, what="numbers of the drawn kind")
        group = half_subset(numbers)
        prompt = (
            f"Numbers: {', '.join(map(str, numbers))}\n\n"
            "Can these numbers be split into two groups with the same sum (every number in exactly one group)? "
            "If they can, give the numbers of one group separated by commas, for example: 12, 5, 5 (the other "
            "group is the rest). If they cannot, answer: impossible"
        )
        return Problem(prompt=prompt, answer="impossible" if group is None else ", ".join(map(str, group)),
                       data={"numbers": numbers, "possible": possible})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def policy(rule: Callable[[list[int]], tuple[list[int], list[int]]]) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                group = _split_of(rule(problem.data["numbers"]))
                return "impossible" if group is None else ", ".join(map(str, group))

            return answer

        return {name: policy(rule) for name, rule in _TEXTBOOK.items()}

    def difficulty(self, problem: Problem) -> float:
        """How many numbers times half their total (the subset-sum table)."""
        numbers = problem.data["numbers"]
        return float(len(numbers) * sum(numbers) // 2)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        numbers = problem.data["numbers"]
        if isinstance(answer, str) and len(answer) < 600 and not has_digit(answer) and read_option(
                answer, {True: IMPOSSIBLE}):
            return Verdict.judge(not problem.data["possible"], "an equal split exists")
        if mentions(answer, [w for w in IMPOSSIBLE if w != "no"]):
            return Verdict.unparsed("the answer gives both a group and 'impossible'")
        group = read_ints(without_yes(answer))
        if group is None:
            return Verdict.unparsed("expected numbers separated by commas, or 'impossible'")
        if Counter(group) - Counter(numbers):
            return Verdict.wrong("the group uses numbers that are not in the list (or uses one too often)")
        half = sum(numbers) // 2
        return Verdict.judge(sum(group) == half, f"the group sums to {sum(group)}, not {half}")

    def spellings(self, problem: Problem) -> list[str]:
        if not problem.data["possible"]:
            return [*super().spellings(problem), "Impossible.", "It is impossible"]
        group = (problem.answer or "").split(", ")
        rest = list((Counter(problem.data["numbers"]) - Counter(map(int, group))).elements())
        return [*super().spellings(problem), " ".join(reversed(group)), ", ".join(map(str, rest)),
                "{" + ", ".join(group) + "}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        numbers = problem.data["numbers"]
        if not problem.data["possible"]:
            return [", ".join(map(str, numbers[: len(numbers) // 2])), str(numbers[0]), f"impossible; {numbers[0]}"]
        group = (problem.answer or "").split(", ")
        return ["impossible", ", ".join(group[:-1]) or "0", ", ".join([*group, group[0]]),
                f"{problem.answer}. Impossible.", f"impossible ({problem.answer})"]


def _split_of(groups: tuple[list[int], list[int]]) -> list[int] | None:
    """The first group when the two sums are equal, else None."""
    return groups[0] if sum(groups[0]) == sum(groups[1]) else None


def _greedy_split(numbers: list[int]) -> tuple[list[int], list[int]]:
    """The textbook greedy: numbers from the largest down, each into the group with the smaller sum."""
    groups: tuple[list[int], list[int]] = ([], [])
    for x in sorted(numbers, reverse=True):
        groups[sum(groups[0]) > sum(groups[1])].append(x)
    return groups


def _differencing(numbers: list[int]) -> tuple[list[int], list[int]]:
    """Karmarkar-Karp differencing (the shared split of item indices), as the two groups' numbers."""
    left, right = differencing_split(numbers)
    return [numbers[i] for i in left], [numbers[i] for i in right]


# Each with ``impossible`` when it ends with unequal sums: from level 2 on, no instance with a split has
# one that either finds (v2 redrew against neither, and differencing then solved 57%, 45% and 38% of
# levels 2-4, the greedy 25-30% of levels 2-3).
_TEXTBOOK: dict[str, Callable[[list[int]], tuple[list[int], list[int]]]] = {
    "largest first into the lighter group": _greedy_split,
    "Karmarkar-Karp differencing": _differencing,
}


def half_subset(numbers: list[int]) -> list[int] | None:
    """Numbers (a sub-multiset, in list order) summing to half the total, or None.

    >>> half_subset([3, 1, 1, 2, 2, 1]), half_subset([2, 2, 3, 3, 4])
    ([3, 1, 1], [2, 2, 3])
    """
    total = sum(numbers)
    if total % 2:
        return None
    half = total // 2
    # Reachable sums as the bits of one integer; first_reached[i] holds the sums that became reachable
    # with numbers[i], so each such sum minus numbers[i] was reachable with the numbers before it.
    reached, first_reached, within = 1, [], (1 << (half + 1)) - 1
    for x in numbers:
        grown = (reached | reached << x) & within
        first_reached.append(grown & ~reached)
        reached = grown
    if not reached >> half & 1:
        return None
    chosen, s = [], half
    while s:
        i = next(i for i, sums in enumerate(first_reached) if sums >> s & 1)
        chosen.append(i)
        s -= numbers[i]
    return [numbers[i] for i in sorted(chosen)]
