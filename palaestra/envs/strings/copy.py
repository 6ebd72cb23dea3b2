"""Write back a given string: copied, then reversed or simply transformed at higher levels.

The starter task: at level 0 the answer is the one character shown, so even a
character-level model trained from scratch by RL finds rewards by chance and can
learn (``palaestra train`` uses it for its CPU demonstration). Length, alphabet
and the set of operations are the difficulty knobs. The verifier gives partial
credit for near misses, the similarity ``2 * LCS / (len(answer) + len(result))``
(LCS: longest common subsequence), which is 1 only for the exact string; that
keeps a learning signal even before a model's answers are ever exactly right.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register

_FIRST = "abcdefgh"  # level 0 draws from few letters so that even guessing is sometimes right
_LOWER = string.ascii_lowercase
_LOWER_DIGITS = string.ascii_lowercase + string.digits
_ANY = string.ascii_letters + string.digits

OPERATIONS: dict[str, str] = {
    "copy": "Write the input string exactly as it is.",
    "reverse": "Write the input string backwards, last character first.",
    "upper": "Write the input string with every letter in uppercase.",
    "swapcase": "Write the input string with the case of every letter switched.",
    "double": "Write the input string with every character written twice in a row (ab -> aabb).",
    "sort": "Write the characters of the input string sorted: digits first, then uppercase, then lowercase letters.",
}


def apply(operation: str, text: str) -> str:
    """The answer to ``operation`` on ``text``."""
    if operation == "copy":
        return text
    if operation == "reverse":
        return text[::-1]
    if operation == "upper":
        return text.upper()
    if operation == "swapcase":
        return text.swapcase()
    if operation == "double":
        return "".join(c + c for c in text)
    if operation == "sort":
        return "".join(sorted(text))  # ASCII order: digits < uppercase < lowercase, as the prompt says
    raise ValueError(f"unknown operation {operation!r}")


@register
class Copy(Task):
    id = "strings/copy"
    family = "strings"
    description = "Copy a given string, or write it reversed or simply transformed."
    tags = ("strings", "copying", "starter")

    @dataclass(frozen=True)
    class Config:
        min_length: int
        max_length: int
        alphabet: str
        operations: tuple[str, ...]

    def config(self, level: int) -> Config:
        return [
            self.Config(1, 1, _FIRST, ("copy",)),
            self.Config(2, 3, _LOWER, ("copy",)),
            self.Config(4, 6, _LOWER_DIGITS, ("copy", "reverse")),
            self.Config(5, 8, _ANY, ("reverse", "upper", "swapcase", "double")),
            self.Config(8, 12, _ANY, ("reverse", "swapcase", "double", "sort")),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        operation = rng.choice(config.operations)
        while True:  # a transform that leaves the input unchanged would test nothing
            length = rng.randint(config.min_length, config.max_length)
            text = "".join(rng.choice(config.alphabet) for _ in range(length))
            result = apply(operation, text)
            if operation == "copy" or result != text:
                break
        # The input stands last, right before the answer-format line, at a fixed distance from
        # the end of the prompt: a model that reads only the prompt's tail still sees it.
        prompt = f"{OPERATIONS[operation]}\n\nInput: {text}"
        return Problem(prompt=prompt, answer=result, data={"input": text, "operation": operation, "result": result})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        expected: str = problem.data["result"]
        text = _unquote(answer.strip())
        if not text:
            return Verdict.unparsed("empty answer")
        if len(text) > 4 * len(expected) + 16:  # bounds the work below
            return Verdict.wrong("the answer is far longer than the result")
        if text == expected:
            return Verdict.right()
        matches = sum(a == b for a, b in zip(text, expected))
        feedback = "wrong length" if len(text) != len(expected) else "wrong characters"
        return Verdict.wrong(f"{feedback}: {matches} of {len(expected)} positions right",
                             reward=matches / max(len(text), len(expected)))

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold: str = problem.data["result"]
        i = rng.randrange(len(gold))
        other = rng.choice([c for c in _ANY if c != gold[i]])
        wrong = [gold[:i] + other + gold[i + 1:], gold[:i] + gold[i + 1:], gold + gold[-1], gold[::-1]]
        return [w for w in wrong if w and w != gold]


def _common_subsequence(a: str, b: str) -> int:
    """Length of the longest common subsequence (dynamic programming, O(len(a) * len(b)))."""
    previous = [0] * (len(b) + 1)
    for ca in a:
        current = [0]
        for j, cb in enumerate(b):
            current.append(previous[j] + 1 if ca == cb else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        return text[1:-1].strip()
    return text
