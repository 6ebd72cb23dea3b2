"""The smallest period of a string.

``p`` is a period of a string ``s`` of length ``n`` when ``s[i] = s[i + p]`` for every ``i`` with
``i + p < n`` (the string is a prefix of a word repeated every ``p`` letters); the smallest one is unique.
Every string is built by repeating a random word past its own length (a whole number of times and then a
part), so it always has a period shorter than itself and its length is never the answer; the word is redrawn
until its length is the smallest period of the string, so answers spread evenly from half the length plus three
to the length minus four (version 4; 7 to two thirds of the length before).
The verifier reads one integer and says whether it is not a period (naming a mismatching pair of
positions) or a period that is not the smallest.

Version 2: the planted word repeats its own first letters (three or more, usually four or more, four letters
of it left free) at a shorter shift of two or more, a decoy that then breaks off, so "where the first few
letters recur" is not the period: the recurrence of the first three letters answered 0.92 of level 0 and 0.78
of level 4 (now 0), of the first four 0.99 and 0.97 (now 0.21 and 0.08). Levels past 4 add 12 letters
each (9 before), so the difficulty's mean keeps growing despite the decoys' spread.

Version 3: levels 0-3 have 30, 35, 40 and 45 letters (20, 26, 33 and 41 before): the answer is uniform over
7 .. 2n/3, only 7 values at level 0, where the constant "10" answered 0.17 (and 11 values at level 1, 0.11); now
at least 14 values a level. The decoy is as long as it can be (within two letters of the most the word allows) at
a shift of at most half the word, so "where the first eight letters recur" answers 0.53 of level 0 and 0.23 of
level 4 (0.82 and 0.64 before; the first six: 0.33 and 0.14, before 0.61 and 0.44).

Version 4: "the first position where the string's first k letters recur" answered, at levels 0-4 (40 seeds),
0.53/0.45/0.40/0.25/0.35 for k = 8 and 0.70/0.55/0.53/0.40/0.45 for k = 10, since a decoy inside the word is
shorter than the word. Now the period is more than half the length plus two and the decoy runs across the word's
end: the string agrees with itself at a shift prime to the period for at least as many letters as the string
has after one period (and at most the period less two, Fine and Wilf's bound being the period less one), so a
prefix short enough to recur at the period recurs at the false shift first: every k now answers 0 at levels
0-7, as does the shift with the longest agreement, and that agreement plus a constant at most 0.075 (200 seeds). Levels 0-4 have 40 to
58 letters (30 to 50 before), so that the answers still take at least 14 values a level (17 at level 1).

Difficulty: the string's length plus its smallest period (the letters to read and the span each comparison
reaches). Until version 2 it was the letter comparisons of the naive search (each candidate period from 1 up,
compared letter by letter until a mismatch); the longer decoys of version 3 make that count vary too much from
string to string (a standard deviation of 41 at level 4, against a rise of 8 from level 3) to order the levels on
a small sample. The data still records it (``comparisons``).
"""

from __future__ import annotations

import math
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import named, read_answer
from palaestra.verifiers.numeric import read_integer

EXAMPLE = 7  # a fixed placeholder of the right shape: never derived from the answer


def smallest_period(text: str) -> tuple[int, int]:
    """The smallest period of ``text`` and the letter comparisons of the naive search that finds it."""
    comparisons = 0
    for candidate in range(1, len(text) + 1):
        matched = 0
        while candidate + matched < len(text) and text[matched] == text[candidate + matched]:
            matched += 1
        comparisons += matched + (candidate + matched < len(text))
        if candidate + matched == len(text):
            return candidate, comparisons
    return len(text), comparisons


def prefix_recurrence(text: str, letters: int) -> int:
    """Where the first ``letters`` letters of ``text`` next occur (its length if nowhere): the shortcut that reads
    a prefix's recurrence as the period, fooled by the decoy.

    >>> prefix_recurrence("abcabxabcabxab", 3), prefix_recurrence("abcabxabcabxab", 4)
    (6, 6)
    >>> prefix_recurrence("ababcababc", 2)
    2
    """
    found = text.find(text[:letters], 1)
    return found if found > 0 else len(text)


@register
class Period(Task):
    id = "strings/period"
    family = "strings"
    description = "The smallest period of a string."
    tags = ("strings", "algorithmic")
    version = 4  # v4: the decoy runs across the word's end; periods n/2 + 3 .. n - 4 (a prefix's recurrence answered 0.7)

    @dataclass(frozen=True)
    class Config:
        length: int  # letters in the string
        alphabet: int  # distinct letters

    presets = (Config(40, 4), Config(46, 4), Config(50, 4), Config(54, 4), Config(58, 4))  # v4: 40 .. 58 (30 .. 50)
    growth = Growth(steps={"length": 12})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        letters = string.ascii_lowercase[: config.alphabet]
        # v4: past half the length plus three, so a prefix long enough to outrun the decoy (below) has no room
        # to recur at the period inside the string; at least four letters repeat
        planted = rng.randint(config.length // 2 + 3, config.length - 4)

        def draw() -> str:
            # v4: a decoy that runs across the word's end: the string agrees with itself shifted by ``shift``
            # for its first ``agree`` letters and then breaks off (inside the string). Fine and Wilf: with periods
            # p and q over p + q - gcd(p, q) letters a string has period gcd(p, q), so for a shift prime to the
            # word's length the agreement can reach planted - 2 letters. It is at least the length - planted
            # letters a prefix has room for when it recurs at the period, so every prefix short enough to recur
            # there recurs at the shift first; between the two its length is uniform, so it does not tell the period
            shift = rng.choice([s for s in range(2, planted - 1) if math.gcd(s, planted) == 1])
            agree = rng.randint(config.length - planted, min(planted - 2, config.length - shift - 1))
            # positions of the word that the agreement ties together (the string repeats the word), by union-find
            parent = list(range(planted))

            def root(position: int) -> int:
                while parent[position] != position:
                    parent[position] = parent[parent[position]]
                    position = parent[position]
                return position

            for position in range(agree):
                parent[root(position % planted)] = root((position + shift) % planted)
            chosen = {group: rng.choice(letters) for group in sorted({root(i) for i in range(planted)})}
            # the break: the two letters after the agreement differ (the ties left out keep them apart)
            before, after = root(agree % planted), root((agree + shift) % planted)
            chosen[after] = rng.choice([letter for letter in letters if letter != chosen[before]])
            word = "".join(chosen[root(i)] for i in range(planted))
            return (word * 2)[: config.length]

        # the planted word must not itself be periodic, so the answers spread evenly over n/2 + 3 .. n - 4
        text = retry(draw, lambda t: smallest_period(t)[0] == planted, what="a string of the drawn period")
        period, comparisons = smallest_period(text)
        prompt = (
            f"A positive integer p is a period of a string s of length n when s[i] = s[i + p] for every position "
            f"i with i + p < n (for example, abcabca has periods 3, 6 and 7). Find the smallest period of this "
            f"string:\n\n{text}\n\nAnswer with one integer, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=str(period),
                       data={"text": text, "period": period, "comparisons": comparisons})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        return {"where the first eight letters recur": lambda p: str(prefix_recurrence(p.data["text"], 8))}

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_answer(answer, named(read_integer, "period"))
        if value is None:
            return Verdict.unparsed("expected one integer, such as 5")
        text, period = problem.data["text"], problem.data["period"]
        if not 1 <= value <= len(text):
            return Verdict.wrong(f"a period is between 1 and the string's length {len(text)}")
        mismatch = next((i for i in range(len(text) - value) if text[i] != text[i + value]), None)
        if mismatch is not None:
            return Verdict.wrong(f"{value} is not a period: the letters at positions {mismatch} and "
                                 f"{mismatch + value} (from 0) differ")
        if value != period:
            return Verdict.wrong(f"{value} is a period, but a smaller one exists")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """The string's length plus its smallest period."""
        return float(len(problem.data["text"]) + problem.data["period"])

    def spellings(self, problem: Problem) -> list[str]:
        period = problem.data["period"]
        return [*super().spellings(problem), f"\\boxed{{{period}}}", f"Answer: {period}", f"{period}.",
                f"p = {period}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        period, length = problem.data["period"], len(problem.data["text"])
        wrong = {period - 1, period + 1, 2 * period, length} - {period, 0}
        return [*map(str, sorted(wrong)), f"{period} or {period + 1}"]
