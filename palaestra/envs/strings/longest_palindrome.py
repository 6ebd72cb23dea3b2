"""Find a longest palindromic substring of a string.

The string is random over a small alphabet with one palindrome of three letters or more planted at a random
place (so the answer is rarely a single letter, and never guessable from the string's length). Many strings
have several longest palindromes: any of them is right. The verifier checks the answer is a substring, reads
the same backwards, and is as long as the longest one (found by expanding around every centre at
generation); a shorter palindrome is wrong and told so.

Version 2: a coin decides whether the longest palindromes have odd or even length (the planted one takes that
parity), and the string is redrawn until the longest ones have it and the first palindrome of three letters or
more met reading from the left (the longest one starting at the first such start, or ending at the first such
end) is shorter than the longest: in v1 expanding around letters only (forgetting even palindromes) answered
0.50, 0.78 and 0.47 of levels 0, 1 and 4, and that first palindrome 0.35 of level 0 and 0.25 of levels 1-2 (40
seeds a level). Now a search of one centre kind answers about half (the coin: no string defeats both kinds) and
the first palindrome none.

Difficulty: the centre-expansion steps an exhaustive search makes on the drawn string (it grows with the
string's length and with how many palindromes it holds).
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import named, read_answer
from palaestra.verifiers.sets import read_token

EXAMPLE = "xyzzyx"  # a fixed placeholder of the right shape: never derived from the answer


def palindromes_by_centre(text: str) -> tuple[int, int]:
    """The longest palindrome's length and the expansion steps of the search that finds it (both centre kinds)."""
    best, steps = 0, 0
    for centre in range(2 * len(text) - 1):
        left, right = centre // 2, centre // 2 + centre % 2
        while left >= 0 and right < len(text) and text[left] == text[right]:
            left, right, steps = left - 1, right + 1, steps + 1
        best = max(best, right - left - 1)
    return best, steps


def first_met(text: str) -> int:
    """The length of the first palindrome of three letters or more met reading from the left, the longer of two
    readings: the longest one at the first start that has one, and the longest one at the first end that has one
    (0 when there is none)."""
    def palindrome(i: int, j: int) -> bool:
        return text[i:j] == text[i:j][::-1]

    n = len(text)
    by_start = next((j - i for i in range(n) for j in range(n, i + 2, -1) if palindrome(i, j)), 0)
    by_end = next((j - i for j in range(3, n + 1) for i in range(j - 2) if palindrome(i, j)), 0)
    return max(by_start, by_end)


@register
class LongestPalindrome(Task):
    id = "strings/longest_palindrome"
    family = "strings"
    description = "Find a longest palindromic substring of a string (any of several longest is right)."
    tags = ("strings", "algorithmic")
    version = 2  # v2: the longest palindromes' parity is a coin; the first palindrome met is never a longest one

    @dataclass(frozen=True)
    class Config:
        length: int  # letters in the string
        alphabet: int  # distinct letters it is drawn from

    presets = (Config(14, 2), Config(20, 3), Config(32, 3), Config(48, 4), Config(70, 4))
    growth = Growth(limits={"alphabet": 26})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        letters = string.ascii_lowercase[: config.alphabet]
        parity = rng.randrange(2)  # of the longest palindromes: a search around letters only (odd) or only
        # between letters (even) then answers half the problems, as no string can defeat both

        def draw() -> str:
            text = [rng.choice(letters) for _ in range(config.length)]
            size = rng.randint(3, max(4, config.length // 4))
            size += (size - parity) % 2  # the planted palindrome has the drawn parity
            half = [rng.choice(letters) for _ in range(size // 2)]
            planted = half + ([rng.choice(letters)] if size % 2 else []) + half[::-1]
            start = rng.randrange(config.length - len(planted) + 1)
            text[start: start + len(planted)] = planted
            return "".join(text)

        def fair(word: str) -> bool:
            longest = palindromes_by_centre(word)[0]
            return longest % 2 == parity and first_met(word) < longest

        # v1: expanding around letters only answered 0.78 of level 1, the first palindrome met 0.35 of level 0
        word = retry(draw, fair, what="a string whose longest palindromes have the drawn parity and come late")
        longest, steps = palindromes_by_centre(word)
        answer = next(word[i: i + longest] for i in range(len(word) - longest + 1)
                      if word[i: i + longest] == word[i: i + longest][::-1])
        prompt = (
            f"A palindrome reads the same forwards and backwards. Find a longest substring (a run of consecutive "
            f"letters) of this string that is a palindrome:\n\n{word}\n\n"
            f"If several palindromic substrings have the greatest length, give any one of them. Answer with the "
            f"substring itself, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=answer, data={"text": word, "longest": longest, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_answer(answer, named(read_token, "palindrome|substring"))
        if written is None or not written.isalpha():
            return Verdict.unparsed("expected one substring of letters, such as abcba")
        text, longest = problem.data["text"], problem.data["longest"]
        written = written.lower() if text.islower() else written
        if written not in text:
            return Verdict.wrong(f"{written[:40]} is not a substring of the string")
        if written != written[::-1]:
            return Verdict.wrong(f"{written[:40]} is not a palindrome")
        if len(written) < longest:
            return Verdict.wrong(f"{written[:40]} is a palindrome, but a longer one exists")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Centre-expansion steps of the exhaustive search on the drawn string."""
        return float(len(problem.data["text"]) + problem.data["steps"])

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        others = [problem.data["text"][i: i + len(gold)] for i in range(len(problem.data["text"]) - len(gold) + 1)]
        other = next((o for o in others if o == o[::-1] and o != gold), gold)  # another longest one, if any
        return [*super().spellings(problem), f'"{gold}"', f"\\boxed{{{gold}}}", f"Answer: {gold}", f"{gold}.",
                gold.upper(), other]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold, text = problem.answer or "", problem.data["text"]
        wrong = [gold[1:-1] or gold + gold, gold + text[0] if gold + text[0] != (gold + text[0])[::-1] else gold * 2]
        shorter = next((text[i: i + len(gold) - 1] for i in range(len(text) - len(gold) + 2)
                        if len(gold) > 2 and text[i: i + len(gold) - 1] == text[i: i + len(gold) - 1][::-1]), None)
        if shorter:
            wrong.append(shorter)
        wrong.append(f"{gold} or {text[:3]}")
        return [w for w in wrong if w != gold]
