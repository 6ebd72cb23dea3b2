"""The lexicographically least rotation of a string.

A rotation moves some letters from the front of the string to its back. The least rotation is a function
of the string (several start positions may give it, when the string is a power of a shorter one, but the
rotation itself is one string), so the answer is unique: the verifier reads one word, says when it is not a
rotation of the string at all, and otherwise whether a smaller rotation exists.

The strings are built from copies of their own earlier factors over a small alphabet, so many rotations
start with the same letters and must be compared far in. The least rotation always starts at a longest run of
the smallest letter, so the string is redrawn until that longest run is tied (twice at levels 0-1, three
times from level 2): with one such run, "start at the longest run of a's" answered 0.73 of level 0 and 0.59
of level 4 (now 0.43, 0.23, 0.28 at levels 0, 2, 4 over 200 seeds).

Difficulty: the letter comparisons of the naive search (each rotation compared with the best so far, letter
by letter until they differ) on the drawn string.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.strings.common import read_word, repetitive_text, word_spellings

EXAMPLE = "pqqpqr"  # a fixed placeholder of the right shape: never derived from the answer


def least_rotation(text: str) -> tuple[str, int]:
    """The least rotation and the letter comparisons the naive search makes to find it."""
    doubled, best, comparisons = text + text, 0, 0
    for start in range(1, len(text)):
        common = 0
        while common < len(text) and doubled[start + common] == doubled[best + common]:
            common += 1
        comparisons += min(common + 1, len(text))
        if common < len(text) and doubled[start + common] < doubled[best + common]:
            best = start
    return doubled[best: best + len(text)], comparisons


def longest_runs(text: str) -> int:
    """How many maximal runs of ``text``'s smallest letter, read around the circle, have the greatest length."""
    smallest = min(text)
    if set(text) == {smallest}:
        return 1
    lengths = []
    for start in range(len(text)):
        if text[start] == smallest and text[start - 1] != smallest:
            length = 1
            while text[(start + length) % len(text)] == smallest:
                length += 1
            lengths.append(length)
    return lengths.count(max(lengths))


@register
class MinimalRotation(Task):
    id = "strings/minimal_rotation"
    family = "strings"
    description = "The lexicographically least rotation of a string."
    tags = ("strings", "algorithmic")

    @dataclass(frozen=True)
    class Config:
        length: int  # letters in the string
        alphabet: int  # distinct letters
        ties: int  # longest runs of the smallest letter, at least (the least rotation starts at one of them)

    # version 2: level 0's strings have 11 letters (was 10): the repetitive 10-letter strings over three letters
    # repeated too often for 95% distinct problems over 1,000 seeds; 11 stay shorter than level 1's
    # version 3: the smallest letter's longest run is tied (see the module docstring), and level 0 has 12
    # letters (with the ties, 11 letters gave 949 distinct level-0 strings in 1,000 seeds)
    version = 3
    presets = (Config(12, 3, 2), Config(14, 3, 2), Config(19, 3, 3), Config(25, 3, 3), Config(32, 3, 3))
    growth = Growth(steps={"length": 7})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        letters = string.ascii_lowercase[: config.alphabet]
        text = retry(lambda: repetitive_text(rng, config.length, letters),
                     lambda t: longest_runs(t) >= config.ties, what="a string whose longest run of its least letter is tied")
        rotation, comparisons = least_rotation(text)
        prompt = (
            f"A rotation of a string moves some of its first letters, in order, to its end (for example, the "
            f"rotations of abc are abc, bca and cab). Find the rotation of this string that comes first in "
            f"alphabetical (lexicographic) order:\n\n{text}\n\n"
            f"Answer with the rotation itself, all {len(text)} letters, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=rotation,
                       data={"text": text, "rotation": rotation, "comparisons": comparisons})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_word(answer, string.ascii_lowercase, "rotation")
        if written is None:
            return Verdict.unparsed("expected one string of letters, such as abcab")
        written, text = written.lower(), problem.data["text"]
        if len(written) != len(text) or written not in text + text:
            return Verdict.wrong(f"{written[:40]} is not a rotation of the string")
        if written != problem.data["rotation"]:
            return Verdict.wrong(f"{written[:40]} is a rotation, but a rotation earlier in alphabetical order exists")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Letter comparisons of the naive least-rotation search on the drawn string."""
        return float(problem.data["comparisons"])

    def spellings(self, problem: Problem) -> list[str]:
        rotation = problem.data["rotation"]
        return [*super().spellings(problem), *word_spellings(rotation), rotation.upper()]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        text, rotation = problem.data["text"], problem.data["rotation"]
        others = sorted({(text + text)[i: i + len(text)] for i in range(len(text))} - {rotation})
        swaps = [i for i in range(len(rotation) - 1) if rotation[i] != rotation[i + 1]]
        wrong = [*others[:2], "".join(sorted(text)), rotation[:-1], f"{rotation} or {text}"]
        if swaps:
            i = rng.choice(swaps)
            wrong.append(rotation[:i] + rotation[i + 1] + rotation[i] + rotation[i + 2:])
        return [w for w in wrong if w != rotation]
