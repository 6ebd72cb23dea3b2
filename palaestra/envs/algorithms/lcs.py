"""Find a longest common subsequence of two strings.

Two random strings over a small alphabet (so common subsequences are long and there are many
optimal ones). The optimum length comes from the classic dynamic programme at generation; the
verifier accepts **any** common subsequence of that length, written as one word (``BDCA``) or
with its letters separated by spaces or commas, in any case.

Strings are redrawn until matching each letter of one string at its earliest place in the other
(either way round) falls short of the optimum: it found a longest one in 0.81/0.38 of levels 0/2
before version 2.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, unify

_LETTERS = re.compile(r"^[A-Za-z](?:[ ,]*[A-Za-z])*$")


@register
class LongestCommonSubsequence(Task):
    id = "algorithms/lcs"
    family = "algorithms"
    description = "Give a longest common subsequence of two strings."
    tags = ("algorithms", "dynamic-programming", "strings")
    version = 2
    max_answer_chars = 2_000

    @dataclass(frozen=True)
    class Config:
        length: int
        alphabet: str

    presets = (
        Config(length=7, alphabet="ABCD"),
        Config(length=9, alphabet="ABCD"),
        Config(length=12, alphabet="ABCD"),
        Config(length=16, alphabet="ABCDE"),
        Config(length=22, alphabet="ABCDEF"),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:

        def draw() -> tuple[str, str, str] | None:
            first = "".join(rng.choice(config.alphabet) for _ in range(config.length))
            second = "".join(rng.choice(config.alphabet) for _ in range(config.length + rng.randint(-1, 1)))
            common = longest_common(first, second)
            if max(len(_earliest_matches(first, second)), len(_earliest_matches(second, first))) == len(common):
                return None  # matching each letter at its earliest chance would find a longest one
            return first, second, common

        first, second, common = retry(draw, what="strings that greedy matching gets wrong")
        prompt = (
            f"String 1: {first}\nString 2: {second}\n\n"
            "Find a longest common subsequence: a string whose letters appear, in order (not necessarily "
            "adjacent), in both strings, as long as possible. Give it as one word, for example: WXYZ"
        )
        return Problem(prompt=prompt, answer=common, data={"first": first, "second": second, "length": len(common)})

    def difficulty(self, problem: Problem) -> float:
        """Total length of the two strings."""
        return float(len(problem.data["first"]) + len(problem.data["second"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        word = _read_word(answer)
        if word is None:
            return Verdict.unparsed("expected a string of letters")
        for name in ("first", "second"):
            if not _is_subsequence(word, problem.data[name]):
                return Verdict.wrong(f"{word} is not a subsequence of {problem.data[name]}")
        return Verdict.judge(len(word) == problem.data["length"], f"{word} is not as long as possible")

    def spellings(self, problem: Problem) -> list[str]:
        word = problem.answer or ""
        return [*super().spellings(problem), word.lower(), " ".join(word), ", ".join(word), f'"{word}"']

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        word = problem.answer or ""
        extra = next((word + c for c in "ABCDEF" if not _is_subsequence(word + c, problem.data["first"])
                      or not _is_subsequence(word + c, problem.data["second"])), word[:-1])
        return [word[:-1] or "Z", extra, word[::-1] if not (_is_subsequence(word[::-1], problem.data["first"])
                                                           and _is_subsequence(word[::-1], problem.data["second"]))
                else word + "Z"]


def _read_word(answer: str) -> str | None:
    if not isinstance(answer, str) or len(answer) > LongestCommonSubsequence.max_answer_chars:
        return None

    def core(s: str) -> str | None:
        s = s.strip().strip("\"'`")
        return re.sub(r"[ ,]", "", s).upper() if _LETTERS.match(s) else None

    return read_answer(unify(answer), core)


def _earliest_matches(first: str, second: str) -> str:
    """The greedy common subsequence: each letter of ``first`` matched at its earliest place left in ``second``."""
    found, start = [], 0
    for letter in first:
        at = second.find(letter, start)
        if at >= 0:
            found.append(letter)
            start = at + 1
    return "".join(found)


def longest_common(first: str, second: str) -> str:
    """One longest common subsequence (dynamic programme, read back preferring the first string's order).

    >>> longest_common("ABCBDAB", "BDCABA")
    'BDAB'
    """
    rows, cols = len(first), len(second)
    table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows - 1, -1, -1):
        for j in range(cols - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if first[i] == second[j] else max(table[i + 1][j], table[i][j + 1])
    out, i, j = [], 0, 0
    while i < rows and j < cols:
        if first[i] == second[j]:
            out.append(first[i])
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return "".join(out)


def _is_subsequence(word: str, text: str) -> bool:
    letters = iter(text)
    return all(c in letters for c in word)
