"""The Burrows–Wheeler transform of a string with the end marker ``$``.

The prompt states the convention: ``$`` is appended to the string and sorts before every letter; the
rotations of ``s$`` are sorted and the transform is their last letters, top to bottom. The transform is a
function of the string, so the answer is unique: the verifier reads one word over the letters and ``$``,
tells an answer that is not a rearrangement of ``s$`` from one that is but in the wrong order (naming the
first wrong position), and accepts only the transform computed at generation.

The strings are built from copies of their own earlier factors, so the transform has the long runs of equal
letters it is known for and rotations share long prefixes.

Difficulty: the letter comparisons that separate each rotation from its sorted neighbour (the rotations'
count plus the common prefixes of neighbours) on the drawn string.
"""

from __future__ import annotations

import random
import string
from collections import Counter
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.strings.common import (
    burrows_wheeler,
    read_word,
    repetitive_text,
    sorting_comparisons,
    word_spellings,
)

SUBJECT = "transform(?:ation)?|bwt|last column"  # "The transform is ...", "The Burrows-Wheeler transform is ..."
EXAMPLE = "pq$qpp"  # a fixed placeholder of the right shape: never derived from the answer


@register
class BurrowsWheeler(Task):
    id = "strings/bwt"
    family = "strings"
    description = "The Burrows–Wheeler transform of a string with the end marker $ (rotations sorted, $ first)."
    tags = ("strings", "algorithmic")

    @dataclass(frozen=True)
    class Config:
        length: int  # letters in the string, before the end marker
        alphabet: int  # distinct letters it is drawn from

    # version 2: level 0's strings have 11 letters (was 10): the repetitive 10-letter strings over three letters
    # repeated too often for 95% distinct problems over 1,000 seeds; 11 stay shorter than level 1's
    version = 2
    presets = (Config(11, 3), Config(13, 3), Config(17, 3), Config(22, 4), Config(28, 4))
    growth = Growth(steps={"length": 6})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        text = repetitive_text(rng, config.length, string.ascii_lowercase[: config.alphabet]) + "$"
        transform = burrows_wheeler(text)
        prompt = (
            f"Compute the Burrows–Wheeler transform of the string s = {text[:-1]} with the end marker $.\n\n"
            f"Convention: append $ to s (giving {text}); the character $ sorts before every letter. List all "
            f"{len(text)} rotations of {text}, sort them in lexicographic order, and read the last character "
            f"of each sorted rotation from top to bottom. The transform has {len(text)} characters, including "
            f"exactly one $.\n\nAnswer with the transform as one string, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=transform,
                       data={"text": text, "transform": transform, "comparisons": sorting_comparisons(text)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_word(answer, string.ascii_lowercase + "$", SUBJECT)
        if written is None:
            return Verdict.unparsed("expected one string of letters and one $, such as ab$ba")
        written, text, transform = written.lower(), problem.data["text"], problem.data["transform"]
        if Counter(written) != Counter(text):
            return Verdict.wrong(f"{written[:40]} is not a rearrangement of the characters of {text[:40]}: "
                                 f"the transform permutes them")
        wrong = next((i for i, (w, t) in enumerate(zip(written, transform, strict=True)) if w != t), None)
        if wrong is not None:
            return Verdict.wrong(f"character {wrong + 1} is wrong (the last character of sorted rotation "
                                 f"{wrong + 1})")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Letter comparisons separating sorted neighbouring rotations of the drawn string."""
        return float(problem.data["comparisons"])

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), *word_spellings(problem.data["transform"]),
                problem.data["transform"].upper()]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        transform, text = problem.data["transform"], problem.data["text"]
        swaps = [i for i in range(len(transform) - 1) if transform[i] != transform[i + 1]]
        i = rng.choice(swaps)
        swapped = transform[:i] + transform[i + 1] + transform[i] + transform[i + 2:]
        first_column = "".join(sorted(text))
        wrong = [swapped, first_column, transform[::-1], transform[:-1], transform.replace("$", ""),
                 f"{transform} or {swapped}"]
        return [w for w in wrong if w != transform]
