"""Run-length encode a string: each maximal run of one letter written as its length followed by the letter.

The prompt states the format (``aaabcc`` is ``3a1b2c``: counts of 1 are written, runs are maximal, counts
are decimal and may have several digits). The encoding of a string in this format is unique, so the verifier
decodes the answer, says whether it spells the string, and then whether its runs are maximal (two neighbouring
runs of one letter should be merged) and its counts positive; spaces or commas between runs are read past.

The strings are runs of random letters (no two neighbouring runs share a letter) with random lengths, some
long enough for two-digit counts at higher levels.

Difficulty: the letters a single scan reads plus the runs it writes, on the drawn string.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.strings.common import word_spellings
from palaestra.verifiers.normalize import named, read_answer

EXAMPLE = "2x1y4z"  # a fixed placeholder of the right shape: never derived from the answer
_RUN = re.compile(r"(\d{1,6})([a-z])")
_ENCODING = re.compile(r"(?:\d{1,6}[a-z]){1,5000}")


def runs_of(text: str) -> list[tuple[int, str]]:
    """The maximal runs of ``text`` as (length, letter)."""
    runs: list[tuple[int, str]] = []
    for letter in text:
        if runs and runs[-1][1] == letter:
            runs[-1] = (runs[-1][0] + 1, letter)
        else:
            runs.append((1, letter))
    return runs


def _read_encoding(text: str) -> list[tuple[int, str]] | None:
    """Runs written as count-letter pairs, spaces and commas between them read past; ``None`` if unreadable."""
    packed = re.sub(r"[ ,]+", "", text.strip().strip("\"'`").lower()) if len(text) <= 30_000 else ""
    if not _ENCODING.fullmatch(packed):
        return None
    return [(int(count), letter) for count, letter in _RUN.findall(packed)]


@register
class RunLength(Task):
    id = "strings/run_length"
    family = "strings"
    description = "Run-length encode a string (each maximal run as its length followed by the letter)."
    tags = ("strings", "algorithmic")

    @dataclass(frozen=True)
    class Config:
        runs: int  # maximal runs in the string
        longest_run: int  # the longest a run may be
        alphabet: int  # distinct letters

    presets = (Config(6, 4, 3), Config(8, 6, 3), Config(11, 9, 4), Config(14, 12, 4), Config(18, 15, 5))
    growth = Growth(steps={"runs": 4, "longest_run": 3})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        letters = string.ascii_lowercase[: config.alphabet]
        text, previous = "", ""
        for _ in range(config.runs):
            letter = rng.choice([c for c in letters if c != previous])
            text += letter * rng.choice([1, 1, 2, rng.randint(1, config.longest_run)])
            previous = letter
        answer = "".join(f"{count}{letter}" for count, letter in runs_of(text))
        prompt = (
            f"Run-length encode this string:\n\n{text}\n\n"
            f"Format: split the string into maximal runs of one repeated letter and write each run as its length "
            f"(in decimal) followed by the letter, with nothing between runs; a run of one letter is written with "
            f"the count 1. For example, aaabcc is encoded as 3a1b2c. Answer with the encoding, for example: "
            f"{EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=answer, data={"text": text})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        runs = read_answer(answer, named(_read_encoding, "encoding|rle"))
        if runs is None:
            return Verdict.unparsed("expected runs written as count then letter, such as 3a1b2c")
        text = problem.data["text"]
        if any(count == 0 for count, _ in runs):
            return Verdict.wrong("a run of length 0 is not a run")
        if sum(count for count, _ in runs) != len(text) or "".join(letter * count for count, letter in runs) != text:
            return Verdict.wrong("the encoding does not decode to the string")
        merge = next((i for i in range(len(runs) - 1) if runs[i][1] == runs[i + 1][1]), None)
        if merge is not None:
            return Verdict.wrong(f"runs {merge + 1} and {merge + 2} are the same letter: runs must be maximal")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Letters scanned plus runs written for the drawn string."""
        return float(len(problem.data["text"]) + len(runs_of(problem.data["text"])))

    def spellings(self, problem: Problem) -> list[str]:
        runs = runs_of(problem.data["text"])
        spaced = " ".join(f"{count}{letter}" for count, letter in runs)
        return [*super().spellings(problem), *word_spellings(problem.answer or ""), spaced,
                ", ".join(f"{count}{letter}" for count, letter in runs), (problem.answer or "").upper()]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        runs = runs_of(problem.data["text"])
        position = rng.randrange(len(runs))
        count, letter = runs[position]

        def written(pairs: list[tuple[int, str]]) -> str:
            return "".join(f"{c}{x}" for c, x in pairs)

        nudged = [*runs[:position], (count + 1, letter), *runs[position + 1:]]
        wrong = [written(nudged), "".join(f"{x}{c}" for c, x in runs), "".join(x if c == 1 else f"{c}{x}" for c, x in runs),
                 f"{problem.answer} or {written(nudged)}"]
        longest = max(range(len(runs)), key=lambda i: runs[i][0])
        if runs[longest][0] > 1:
            c, x = runs[longest]
            wrong.append(written([*runs[:longest], (1, x), (c - 1, x), *runs[longest + 1:]]))
        return [w for w in wrong if w != problem.answer]
