"""The suffix array of a string: the start positions of its suffixes in sorted order, 0-based.

The prompt states the conventions (positions counted from 0; alphabetical order; a suffix that is a prefix
of another comes first). Suffixes of one string are all different, so their order, and the answer, is
unique: the verifier reads a list of integers (commas or spaces, brackets or none), says when it is not a
list of every position once, and otherwise names the first adjacent pair out of order.

The strings are built from copies of their own earlier factors, so many suffixes share long prefixes.

Version 3: a string is kept only when two suffixes sharing their first ``shared`` letters (3 at level 0, 4 at
levels 1-2, 5 from level 3) come in the order of their positions, and two others against it, so sorting on the
first few letters with ties left in position order (or the reverse) is wrong: in v2 sorting on the first 3
letters answered 0.38 of level 0 (0.75 with later positions first on ties), on the first 4 0.78 and 0.90 (40
seeds a level). Levels 0 and 1 have 12 and 15 letters (10 and 13 before), so their problems stay distinct.

Difficulty: the letter comparisons that separate each suffix from its sorted neighbour (the suffixes'
count plus the common prefixes of neighbours) on the drawn string.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.strings.common import (
    integer_list_corruptions,
    integer_list_spellings,
    read_integer_list,
    repetitive_text,
)

EXAMPLE = "3, 0, 4, 1, 2"  # a fixed placeholder of the right shape: never derived from the answer


def suffix_array(text: str) -> list[int]:
    """Start positions of the suffixes of ``text`` in sorted order."""
    return sorted(range(len(text)), key=lambda i: text[i:])


def decided_both_ways(text: str, shared: int) -> bool:
    """Whether two suffixes with the same first ``shared`` letters sort in the order of their positions, and two
    others against it: then a sort on those letters, ties kept in either position order, is wrong."""
    heads: dict[str, list[int]] = {}
    for start in range(len(text) - shared + 1):
        heads.setdefault(text[start: start + shared], []).append(start)
    orders = {text[i:] < text[j:] for group in heads.values() for a, i in enumerate(group) for j in group[a + 1:]}
    return orders == {True, False}


def neighbour_comparisons(text: str, order: list[int]) -> int:
    """The suffixes' count plus the common prefixes of sorted neighbours: what telling them apart takes."""
    total = len(text)
    for before, after in zip(order, order[1:]):
        common = 0
        while after + common < len(text) and before + common < len(text) and \
                text[before + common] == text[after + common]:
            common += 1
        total += common
    return total


@register
class SuffixArray(Task):
    id = "strings/suffix_array"
    family = "strings"
    description = "The suffix array of a string (0-based start positions of its suffixes in sorted order)."
    tags = ("strings", "algorithmic")
    version = 3  # v3: a sort on the first few letters, ties in either position order, is wrong on every string

    @dataclass(frozen=True)
    class Config:
        length: int  # letters in the string
        alphabet: int  # distinct letters
        shared: int  # suffixes with this many first letters in common must sort both with and against position

    # level 0 on four letters: on three, 7% of 1,000 level-0 strings repeated; levels 0-1 have 12 and 15 letters
    # (10 and 13 in v2): of the strings that sort both ways, 86% and 92% of 1,000 were distinct, now 99%
    presets = (Config(12, 4, 3), Config(15, 3, 4), Config(17, 3, 4), Config(22, 4, 5), Config(28, 4, 5))
    growth = Growth(steps={"length": 6})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        # v2: sorting on the first 3 letters answered 0.38-0.75 of level 0, on the first 4 0.78-0.90
        text = retry(lambda: repetitive_text(rng, config.length, string.ascii_lowercase[: config.alphabet]),
                     lambda t: decided_both_ways(t, config.shared), attempts=1000,
                     what="a string whose suffixes sharing their first letters sort both ways")
        order = suffix_array(text)
        prompt = (
            f"The suffix array of a string lists the starting positions of all its suffixes in alphabetical "
            f"(lexicographic) order. Positions count from 0, and a suffix that is a prefix of a longer suffix "
            f"comes before it (for example, the suffix array of aba is 2, 0, 1: a < aba < ba).\n\n"
            f"Compute the suffix array of this string:\n\n{text}\n\n"
            f"Answer with the {len(text)} positions in order, separated by commas, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=", ".join(map(str, order)),
                       data={"text": text, "order": order, "comparisons": neighbour_comparisons(text, order)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_integer_list(answer, "suffix array|array")
        if written is None:
            return Verdict.unparsed("expected a list of integers separated by commas, such as 3, 0, 2, 1")
        text = problem.data["text"]
        if sorted(written) != list(range(len(text))):
            return Verdict.wrong(f"the answer must list every position 0 to {len(text) - 1} exactly once")
        if written != problem.data["order"]:
            first = next(i for i in range(len(written) - 1) if text[written[i]:] > text[written[i + 1]:])
            return Verdict.wrong(f"the suffix at {written[first + 1]} comes before the suffix at {written[first]}, "
                                 f"not after it")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Letter comparisons separating sorted neighbouring suffixes of the drawn string."""
        return float(problem.data["comparisons"])

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), *integer_list_spellings(problem.data["order"])]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        order = problem.data["order"]
        wrong = integer_list_corruptions(order, rng)
        return [*wrong, ", ".join(map(str, sorted(order))), ", ".join(map(str, order[::-1]))]
