"""Align two strings with the fewest edits (Levenshtein distance), showing the alignment.

Two random strings over a small alphabet; the second is derived from the first by random
insertions, deletions and substitutions, so they are related but not trivially. The answer is an
alignment: the two strings written one above the other with ``-`` for gaps. Its cost is the number
of columns whose two characters differ (a gap counts as different). The verifier accepts **any**
alignment of the two strings whose cost equals the edit distance (dynamic programme at generation).

Pairs are redrawn until lining the strings up at either end (all gaps at the other end) costs more
than the optimum: it was optimal in 0.42/0.23 of levels 0/2 before version 2. From level 1 on (version 3) they are
also redrawn until none of the shared greedy scans (:mod:`palaestra.solvers.greedy_alignment`: match, else skip up to
1-3 letters to a match, else pair the letters; left to right or right to left) is optimal: single scans gave an
optimal alignment in 0.46-0.74 of levels 1-2 and 0.20-0.39 of level 4 before, their best in 1.00/0.96/0.87 of
levels 1/2/4. The scans are declared heuristics. Level 0 cannot beat them all (nearly every short pair has a greedy
optimum; 8 of 20 seeds found none in 3,000 draws), so until version 4 it kept their answers: 5 letters over four with
2 edits, where single scans were optimal for 0.73-0.82 of the pairs (300 seeds). Version 4 draws 6 letters over
three with 3 edits and keeps a pair only when at most 2 of the 12 scans are optimal (about 1 draw in 80): single
scans now score 0.00-0.25 there, the best of all twelve 0.68 (300 seeds). Version 5 also redraws pairs that
an alignment without substitutions (gaps around a longest common subsequence: the clause "substitutions cost 1"
ignored) aligns optimally: 0.10, 0.33, 0.17, 0.07, 0.10 of levels 0-4 before, none now.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.solvers.greedy_alignment import SCANS, Column, greedy_scans
from palaestra.verifiers.normalize import read_answer, unify

_LABEL = re.compile(r"^[A-Za-z0-9 ]{0,12}: ?")


@register
class EditDistance(Task):
    id = "algorithms/edit_distance"
    family = "algorithms"
    description = "Give an optimal alignment of two strings under unit-cost edits (edit distance)."
    tags = ("algorithms", "dynamic-programming", "strings")
    version = 5  # v5: pairs an alignment without substitutions aligns optimally are redrawn
    max_answer_chars = 2_000
    multiline = True

    @dataclass(frozen=True)
    class Config:
        length: int
        edits: int
        alphabet: str
        beat_scans: bool = False  # no greedy scan of palaestra.solvers.greedy_alignment is optimal
        optimal_scans: int | None = None  # else at most this many of the scans are optimal (None: any number)

    presets = (
        Config(length=6, edits=3, alphabet="abc", optimal_scans=2),
        Config(length=7, edits=3, alphabet="abcd", beat_scans=True),
        Config(length=9, edits=4, alphabet="abcde", beat_scans=True),
        Config(length=12, edits=6, alphabet="abcdef", beat_scans=True),
        Config(length=16, edits=8, alphabet="abcdef", beat_scans=True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[str, str, int, str, str] | None:
            first = "".join(rng.choice(config.alphabet) for _ in range(config.length))
            second = list(first)
            for _ in range(config.edits):
                kind = rng.randrange(3)
                spot = rng.randrange(len(second) + (kind == 0))
                if kind == 0 or not second:
                    second.insert(spot, rng.choice(config.alphabet))
                elif kind == 1:
                    del second[spot]
                else:
                    second[spot] = rng.choice(config.alphabet)
            second_text = "".join(second) or rng.choice(config.alphabet)
            distance, top, bottom = align(first, second_text)
            if _padded_cost(first, second_text) == distance:
                return None  # lining the strings up at one end, gaps at the other, would be optimal
            if _gaps_only_cost(first, second_text) == distance:
                return None  # so would an alignment without substitutions (a longest common subsequence)
            if config.beat_scans and any(_cost(columns) == distance for columns in greedy_scans(first, second_text)):
                return None  # a greedy scan would be optimal
            if config.optimal_scans is not None and sum(
                    _cost(columns) == distance for columns in greedy_scans(first, second_text)) > config.optimal_scans:
                return None  # more greedy scans than allowed would be optimal
            return first, second_text, distance, top, bottom

        first, second_text, distance, top, bottom = retry(draw, what="strings that need gaps inside", attempts=3000)
        prompt = (
            f"String 1: {first}\nString 2: {second_text}\n\n"
            "Align the two strings with the fewest edits (insertions, deletions and substitutions, each costing 1). "
            "Write string 1 on the first line and string 2 on the second, inserting - for gaps so that both lines "
            "have the same length; the cost is the number of columns whose two characters differ. For example, "
            "an alignment of kitten with sitting:\nkitten-\nsitting"
        )
        return Problem(prompt=prompt, answer=f"{top}\n{bottom}",
                       data={"first": first, "second": second_text, "distance": distance})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """The shared greedy scans, each as an alignment."""
        def rule(index: int) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                columns = list(greedy_scans(problem.data["first"], problem.data["second"]))[index]
                return "\n".join("".join(column[side] or "-" for column in columns) for side in (0, 1))

            return answer

        names = [f"greedy scan {way}, look-ahead {look}{'' if guard else ', unguarded'}"
                 for way in ("left to right", "right to left") for look, guard in SCANS]
        return {name: rule(index) for index, name in enumerate(names)}

    def difficulty(self, problem: Problem) -> float:
        """Total length of the two strings, plus the edits the best alignment needs, plus a tenth of the columns
        between its first and last gap (the look-ahead a scan needs to place them; version 3's redraws leave level
        1's problems alike in lengths and edits)."""
        top, _, bottom = (problem.answer or "").partition("\n")
        gaps = [i for i, pair in enumerate(zip(top, bottom)) if "-" in pair]
        span = gaps[-1] - gaps[0] if gaps else 0
        return float(len(problem.data["first"]) + len(problem.data["second"]) + problem.data["distance"]) + span / 10

    def verify(self, problem: Problem, answer: str) -> Verdict:
        lines = _read_lines(answer)
        if lines is None:
            return Verdict.unparsed("expected two lines: string 1 and string 2 with - for gaps")
        top, bottom = lines
        if len(top) != len(bottom):
            return Verdict.wrong("the two lines have different lengths")
        if top.replace("-", "") != problem.data["first"] or bottom.replace("-", "") != problem.data["second"]:
            return Verdict.wrong("without the gaps the lines are not the two strings")
        if any(a == b == "-" for a, b in zip(top, bottom)):
            return Verdict.wrong("a column holds two gaps")
        cost = sum(a != b for a, b in zip(top, bottom))
        return Verdict.judge(cost == problem.data["distance"], f"the alignment costs {cost}, more than the minimum")

    def spellings(self, problem: Problem) -> list[str]:
        top, bottom = (problem.answer or "").split("\n")
        return [*super().spellings(problem), f"String 1: {top}\nString 2: {bottom}", f"```\n{top}\n{bottom}\n```",
                f"{' '.join(top)}\n{' '.join(bottom)}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        first, second = problem.data["first"], problem.data["second"]
        top, bottom = (problem.answer or "").split("\n")
        worst = f"{first}{'-' * len(second)}\n{'-' * len(first)}{second}"  # delete all, insert all
        wrong = [top, f"{bottom}\n{top}" if first != second else "x\ny", f"{top}-\n{bottom}"]
        if len(first) + len(second) > problem.data["distance"]:
            wrong.append(worst)
        return wrong


def _read_lines(answer: str) -> tuple[str, str] | None:
    if not isinstance(answer, str) or len(answer) > EditDistance.max_answer_chars:
        return None

    def core(text: str) -> tuple[str, str] | None:
        lines = [_LABEL.sub("", line.strip()).replace(" ", "").replace("_", "-").lower()
                 for line in text.split("\n") if line.strip()]
        if len(lines) != 2 or not all(re.fullmatch(r"[a-z-]+", line) for line in lines):
            return None
        return lines[0], lines[1]

    return read_answer(unify(answer), core)


def align(first: str, second: str) -> tuple[int, str, str]:
    """The edit distance and one optimal alignment (two gapped lines).

    >>> align("kitten", "sitting")
    (3, 'kitten-', 'sitting')
    """
    rows, cols = len(first), len(second)
    cost = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows + 1):
        cost[i][0] = i
    for j in range(cols + 1):
        cost[0][j] = j
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            cost[i][j] = min(cost[i - 1][j] + 1, cost[i][j - 1] + 1,
                             cost[i - 1][j - 1] + (first[i - 1] != second[j - 1]))
    top, bottom = [], []
    i, j = rows, cols
    while i or j:
        if i and j and cost[i][j] == cost[i - 1][j - 1] + (first[i - 1] != second[j - 1]):
            top.append(first[i - 1])
            bottom.append(second[j - 1])
            i, j = i - 1, j - 1
        elif i and cost[i][j] == cost[i - 1][j] + 1:
            top.append(first[i - 1])
            bottom.append("-")
            i -= 1
        else:
            top.append("-")
            bottom.append(second[j - 1])
            j -= 1
    return cost[rows][cols], "".join(reversed(top)), "".join(reversed(bottom))


def _cost(columns: list[Column]) -> int:
    """The number of columns whose two characters differ (a gap differs from every letter)."""
    return sum(top != bottom for top, bottom in columns)


def _gaps_only_cost(first: str, second: str) -> int:
    """The cost of the best alignment without substitutions: every letter outside a longest common subsequence
    faces a gap (what ignoring the substitutions, or costing them 2, finds).

    >>> _gaps_only_cost("abc", "abd"), _gaps_only_cost("abc", "ac")
    (2, 1)
    """
    common = [0] * (len(second) + 1)
    for letter in first:
        diagonal = 0
        for j, other in enumerate(second, 1):
            diagonal, common[j] = common[j], diagonal + 1 if letter == other else max(common[j], common[j - 1])
    return len(first) + len(second) - 2 * common[-1]


def _padded_cost(first: str, second: str) -> int:
    """The cheaper cost of the two alignments without inner gaps: the strings lined up at the start or at the end."""
    width = max(len(first), len(second))

    def cost(top: str, bottom: str) -> int:
        return sum(a != b for a, b in zip(top, bottom))

    return min(cost(first.ljust(width, "-"), second.ljust(width, "-")),
               cost(first.rjust(width, "-"), second.rjust(width, "-")))
