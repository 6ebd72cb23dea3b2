"""Ranking and unranking in lexicographic order: the k-th arrangement of a word's letters, an arrangement's
position, and the k-th subset of a given size.

The letters of a generated word (distinct at first, with repeated letters from level 2) are arranged in every
distinct way and the arrangements listed in alphabetical order; one question asks for the arrangement at
position k, the other for the position of a given arrangement. From level 1, k-element subsets of {1, ..., n},
each written in increasing order, are listed in lexicographic order and the subset at position k is asked.
Each answer is unique and computed by counting: the arrangements that start with a smaller letter number
(len - 1)! / (product of the remaining letters' repeat factorials), the subsets that start with a smaller
element C(n - e, k - 1); the tests check the counts against listing everything.

Answers: a word (case aside), a whole number, or the subset's elements in increasing order. Levels grow the
word and the set (unbounded: one more letter and two more elements per level). Difficulty: the letters (or
elements), the digits of the list's length, and one more for repeated letters (the count divides).

Version 3: no question sits at an end of a list. The first arrangement and the first subset are printed in the
prompt, the second arrangement is the first with its last two letters swapped and the last is the letters in
reverse: positions 3 to N - 1 are drawn for arrangements and 2 to N for subsets. Those ends answered 0.11 of level
0 in version 2 (300 seeds; 0.02 of level 1); now 0.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, strip_wrappers
from palaestra.verifiers.numeric import read_integer
from palaestra.verifiers.sets import read_list

EXAMPLES = {"kth_arrangement": "DACB", "position": "1234", "kth_subset": "2, 5, 7"}  # fixed placeholders
KIND_STEPS = {"kth_arrangement": 1, "position": 1, "kth_subset": 2}


def arrangements(counts: Counter[str]) -> int:
    """Distinct arrangements of a multiset of letters."""
    total = math.factorial(sum(counts.values()))
    for c in counts.values():
        total //= math.factorial(c)
    return total


def kth_arrangement(letters: str, k: int) -> str:
    """The arrangement at position k (from 1) in alphabetical order."""
    counts = Counter(letters)
    out = []
    for _ in range(len(letters)):
        for letter in sorted(counts):
            if counts[letter] == 0:
                continue
            counts[letter] -= 1
            block = arrangements(counts)
            if k <= block:
                out.append(letter)
                break
            k -= block
            counts[letter] += 1
    return "".join(out)


def position_of(word: str) -> int:
    """The position (from 1) of an arrangement of its own letters in alphabetical order."""
    counts = Counter(word)
    rank = 1
    for letter in word:
        for smaller in sorted(counts):
            if smaller >= letter:
                break
            if counts[smaller]:
                counts[smaller] -= 1
                rank += arrangements(counts)
                counts[smaller] += 1
        counts[letter] -= 1
    return rank


def kth_subset(n: int, size: int, k: int) -> list[int]:
    """The size-element subset of {1..n} at position k (from 1) in lexicographic order."""
    out, start = [], 1
    for slot in range(size, 0, -1):
        for element in range(start, n + 1):
            block = math.comb(n - element, slot - 1)
            if k <= block:
                out.append(element)
                start = element + 1
                break
            k -= block
    return out


# "Position 18", "at position 18", "It is at position 18.", "YZCA is at position 18": the number after it is read whole.
_POSITION = re.compile(r"(?:(?:it|([A-Za-z]{1,60})) is )?(?:at )?position:? (?:#|no\. ?|number )?", re.IGNORECASE)


def _read_position(text: str, word: str) -> int | None:
    """The position written, bare or named (``Position 18``); a named word must be the one asked about."""
    s = " ".join(strip_wrappers(text).split())
    named = _POSITION.match(s)
    if named and (named.group(1) is None or named.group(1).upper() == word.upper()):
        s = s[named.end() :]
    return read_integer(s)


def _read_word(text: str) -> str | None:
    s = strip_wrappers(text).strip()
    return s.upper() if 0 < len(s) <= 60 and s.isascii() and s.isalpha() else None


@register
class PermutationRank(Task):
    id = "sequences/permutation_rank"
    family = "sequences"
    description = "Lexicographic ranking: the k-th arrangement of a word, an arrangement's position, the k-th subset."
    tags = ("math", "combinatorics", "counting")
    version = 3  # v3: no arrangement at position 1, 2 or last, no subset at 1 (those ends paid 0.11 at level 0)

    @dataclass(frozen=True)
    class Config:
        letters: int  # letters of the word
        repeats: bool  # whether letters may repeat
        elements: int  # n of the subsets (0: no subset questions)

    presets = (Config(4, False, 0), Config(5, False, 12), Config(6, True, 14), Config(8, True, 18),
               Config(10, True, 22))
    # Words stop at 26 letters (level 20; version 2): words without repeats draw distinct letters from the
    # alphabet, and past 26 generation raised (5 seeds in 40 at level 25, 25 in 40 at level 40). The subsets'
    # n keeps growing.
    growth = Growth(steps={"letters": 1, "elements": 2}, limits={"letters": 26})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kinds = ["kth_arrangement", "position"] + (["kth_subset"] if config.elements else [])
        kind = rng.choice(kinds)
        if kind == "kth_subset":
            n = config.elements
            size = rng.randint(2, n // 2)
            total = math.comb(n, size)
            k = rng.randint(2, total)  # the first subset is printed in the prompt
            subset = kth_subset(n, size, k)
            prompt = (f"All {size}-element subsets of {{1, 2, ..., {n}}} are written with their elements in increasing "
                      f"order and listed in lexicographic order ({', '.join(str(i) for i in range(1, size + 1))} "
                      f"first). Which subset is at position {k}?\n\nGive its elements in increasing order, separated "
                      f"by commas, for example: {EXAMPLES['kth_subset']}")
            return Problem(prompt=prompt, answer=", ".join(map(str, subset)),
                           data={"kind": kind, "n": n, "size": size, "k": k, "total": total, "answer": subset})
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        if config.repeats:
            pool = rng.sample(alphabet, max(2, config.letters - rng.randint(1, config.letters // 2)))
            letters = "".join(sorted(pool + [rng.choice(pool) for _ in range(config.letters - len(pool))]))
        else:
            letters = "".join(sorted(rng.sample(alphabet, config.letters)))
        total = arrangements(Counter(letters))
        # the first arrangement is printed, the second swaps its last two letters, the last reverses it
        k = rng.randint(3, total - 1)
        word = kth_arrangement(letters, k)
        intro = (f"All the different arrangements of the letters {' '.join(letters)} (each arrangement uses every "
                 f"letter exactly once{', and arrangements that read the same count once' if config.repeats else ''})"
                 f" are listed in alphabetical order, starting with {letters} at position 1.")
        if kind == "kth_arrangement":
            prompt = (f"{intro} Which arrangement is at position {k}?\n\nGive it as one word, for example: "
                      f"{EXAMPLES['kth_arrangement']}")
            answer = word
        else:
            prompt = f"{intro} At which position is {word}?\n\nGive a whole number, for example: {EXAMPLES['position']}"
            answer = str(k)
        return Problem(prompt=prompt, answer=answer,
                       data={"kind": kind, "letters": letters, "k": k, "total": total, "answer": word})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        if not isinstance(answer, str) or len(answer) > 400:
            return Verdict.unparsed("expected one answer")
        if data["kind"] == "kth_subset":
            found = read_list(answer, read_integer, space_separated=True)
            if found is None:
                return Verdict.unparsed(f"expected the subset's elements, such as {EXAMPLES['kth_subset']}")
            right = found == data["answer"]
        elif data["kind"] == "position":
            number = read_answer(answer, lambda s: _read_position(s, data["answer"]))
            if number is None:
                return Verdict.unparsed(f"expected a whole number such as {EXAMPLES['position']}")
            right = number == data["k"]
        else:
            word = read_answer(answer, _read_word)
            if word is None:
                return Verdict.unparsed(f"expected one word such as {EXAMPLES['kth_arrangement']}")
            if sorted(word) != sorted(data["letters"]):
                return Verdict.wrong("that word does not use exactly the given letters")
            right = word == data["answer"]
        return Verdict.judge(right, "right" if right else "not the entry at that position")

    def difficulty(self, problem: Problem) -> float:
        """Letters or elements, the digits of the list's length, and one for repeated letters."""
        data = problem.data
        items = data["n"] if data["kind"] == "kth_subset" else len(data["letters"])
        repeated = data["kind"] != "kth_subset" and len(set(data["letters"])) < len(data["letters"])
        return float(items + len(str(data["total"])) + repeated + KIND_STEPS[data["kind"]])

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        extra = [gold.lower()] if problem.data["kind"] == "kth_arrangement" else []
        if problem.data["kind"] == "kth_subset":
            extra = ["{" + gold + "}", gold.replace(", ", " ")]
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"{gold}.", f"Answer: {gold}", *extra]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        if data["kind"] == "kth_subset":
            other = kth_subset(data["n"], data["size"], data["k"] % data["total"] + 1)
            return [", ".join(map(str, other)), ", ".join(map(str, data["answer"][:-1])),
                    f"{problem.answer} or {', '.join(map(str, other))}"]
        if data["kind"] == "position":
            k = data["k"]
            return [str(k + 1), str(k - 1), f"{k} or {k + 1}"]
        neighbour = kth_arrangement(data["letters"], data["k"] % data["total"] + 1)
        return [neighbour, data["answer"][:-1], f"{data['answer']} or {neighbour}"]
