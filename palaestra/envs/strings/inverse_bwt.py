"""Recover a string from its Burrows–Wheeler transform (with the end marker ``$``).

The prompt gives the transform and states the convention it was made with: ``$`` appended to the string and
sorting before every letter, rotations of ``s$`` sorted, last letters read top to bottom. Under that
convention the transform determines the string (the rotation that ends in ``$`` is the string itself), so
the answer is unique: the verifier reads one word over the letters (a trailing ``$`` is allowed), tells an
answer whose letters differ from the transform's from one with the right letters in the wrong order, and
accepts only the original string.

Difficulty: the letter comparisons that separate each rotation of ``s$`` from its sorted neighbour (the
rotations' count plus the common prefixes of neighbours): the work of checking a candidate by sorting, and
the ambiguity the inversion has to resolve.
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

SUBJECT = "s|string|original|word"  # "s = abc", "The hidden string is abc"
EXAMPLE = "qppqp"  # a fixed placeholder of the right shape: never derived from the answer


@register
class InverseBurrowsWheeler(Task):
    id = "strings/inverse_bwt"
    family = "strings"
    description = "Recover the original string from its Burrows–Wheeler transform with the end marker $."
    tags = ("strings", "algorithmic")

    @dataclass(frozen=True)
    class Config:
        length: int  # letters in the hidden string, before the end marker
        alphabet: int  # distinct letters it is drawn from

    # version 2: level 0's strings have 11 letters (was 10): the repetitive 10-letter strings over three letters
    # repeated too often for 95% distinct problems over 1,000 seeds; 11 stay shorter than level 1's
    version = 2
    presets = (Config(11, 3), Config(13, 3), Config(17, 3), Config(22, 4), Config(28, 4))
    growth = Growth(steps={"length": 6})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        text = repetitive_text(rng, config.length, string.ascii_lowercase[: config.alphabet])
        transform = burrows_wheeler(text + "$")
        prompt = (
            f"The Burrows–Wheeler transform of a string s is made like this: append the end marker $ to s (the "
            f"character $ sorts before every letter), sort all rotations of s$ in lexicographic order, and read "
            f"the last character of each sorted rotation from top to bottom.\n\n"
            f"The transform of a hidden string s is:\n\n{transform}\n\n"
            f"Recover s. Answer with s itself (its letters only, without the $), for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=text,
                       data={"transform": transform, "text": text, "comparisons": sorting_comparisons(text + "$")})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_word(answer, string.ascii_lowercase + "$", SUBJECT)
        if written is None:
            return Verdict.unparsed("expected one string of letters, such as abcab")
        written, text = written.lower(), problem.data["text"]
        if written.endswith("$"):
            written = written[:-1]  # s$ names the same string: the marker is not part of s
        if Counter(written) != Counter(text):
            return Verdict.wrong(f"{written[:40]} does not use the letters of the transform (less its $) "
                                 f"exactly once each")
        if written != text:
            return Verdict.wrong(f"{written[:40]} has the right letters, but its transform is "
                                 f"{burrows_wheeler(written + '$')[:40]}, not the one given")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Letter comparisons separating sorted neighbouring rotations of the hidden string with its marker."""
        return float(problem.data["comparisons"])

    def spellings(self, problem: Problem) -> list[str]:
        text = problem.data["text"]
        return [*super().spellings(problem), *word_spellings(text), f"{text}$", text.upper()]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        text, transform = problem.data["text"], problem.data["transform"]
        swaps = [i for i in range(len(text) - 1) if text[i] != text[i + 1]]
        wrong = [text[::-1], text[1:] + text[0], transform.replace("$", ""), text[:-1], f"{text} or {text[::-1]}"]
        if swaps:
            i = rng.choice(swaps)
            wrong.append(text[:i] + text[i + 1] + text[i] + text[i + 2:])
        return [w for w in wrong if w != text and burrows_wheeler(w.split(" ")[0] + "$") != transform]
