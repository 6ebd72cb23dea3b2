"""Find a longest common subsequence of two strings.

Two random strings over a small alphabet (so common subsequences are long and there are many
optimal ones). The optimum length comes from the classic dynamic programme at generation; the
verifier accepts **any** common subsequence of that length, written as one word (``BDCA``) or
with its letters separated by spaces, commas or hyphens (``C-A-D-B``), in any case.

Strings are redrawn until matching each letter of one string at its earliest place in the other
(either way round) falls short of the optimum: it found a longest one in 0.81/0.38 of levels 0/2
before version 2. Version 3 also redraws against matching at the earliest chance after skipping the first
letters of the driving string (any number; 0.85/0.53/0.05 of levels 0/2/4 in version 2) and against taking, each
step, the next matching pair that skips the fewest letters of both strings (0.69/0.58/0.32). The rules, either
string driving, are declared heuristics.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, unify

# the letters, optionally separated by spaces, commas or hyphens ("C A D B", "C, A, D, B", "C-A-D-B")
_LETTERS = re.compile(r"^[A-Za-z](?:[ ,-]*[A-Za-z])*$")


@register
class LongestCommonSubsequence(Task):
    id = "algorithms/lcs"
    family = "algorithms"
    description = "Give a longest common subsequence of two strings."
    tags = ("algorithms", "dynamic-programming", "strings")
    version = 3
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
            if max(len(rule(first, second)) for rule in _GREEDY.values()) == len(common):
                return None  # matching each letter at its earliest chance would find a longest one
            return first, second, common

        first, second, common = retry(draw, what="strings that greedy matching gets wrong", attempts=4000)
        prompt = (
            f"String 1: {first}\nString 2: {second}\n\n"
            "Find a longest common subsequence: a string whose letters appear, in order (not necessarily "
            "adjacent), in both strings, as long as possible. Give it as one word, for example: WXYZ"
        )
        return Problem(prompt=prompt, answer=common, data={"first": first, "second": second, "length": len(common)})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """The greedy matchings every problem is redrawn against."""
        def policy(rule: Callable[[str, str], str]) -> Callable[[Problem], str]:
            return lambda problem: rule(problem.data["first"], problem.data["second"]) or "A"

        return {name: policy(rule) for name, rule in _GREEDY.items()}

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
        return re.sub(r"[ ,-]", "", s).upper() if _LETTERS.match(s) else None

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


def _earliest_after_skips(first: str, second: str) -> str:
    """The longest of :func:`_earliest_matches` with the first 0, 1, 2... letters of ``first`` skipped."""
    return max((_earliest_matches(first[skip:], second) for skip in range(len(first))), key=len)


def _fewest_skips(first: str, second: str) -> str:
    """Each step, the next matching pair that skips the fewest letters of both strings (the earliest in ``first``
    among equals)."""
    found: list[str] = []
    i = j = 0
    for _ in range(min(len(first), len(second))):
        best: tuple[int, int, int] | None = None
        for ii in range(i, len(first)):
            jj = second.find(first[ii], j)
            if jj >= 0 and (best is None or (ii - i) + (jj - j) < best[0]):
                best = ((ii - i) + (jj - j), ii, jj)
        if best is None:
            break
        _, i, j = best
        found.append(first[i])
        i, j = i + 1, j + 1
    return "".join(found)


_GREEDY: dict[str, Callable[[str, str], str]] = {
    "earliest match, string 1 driving": _earliest_matches,
    "earliest match, string 2 driving": lambda first, second: _earliest_matches(second, first),
    "earliest match after skipped letters, string 1 driving": _earliest_after_skips,
    "earliest match after skipped letters, string 2 driving": lambda first, second: _earliest_after_skips(second, first),
    "fewest skipped letters next, string 1 driving": _fewest_skips,
    "fewest skipped letters next, string 2 driving": lambda first, second: _fewest_skips(second, first),
}


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
