"""Write back a given string: copied, then reversed or simply transformed at higher levels.

The starter task: at level 0 the answer is the one character shown (one of 8,
a declared space of 8 problems), so even a character-level model trained from
scratch by RL finds rewards by chance and can learn (``palaestra train`` uses it
for its CPU demonstration). Length, alphabet and the set of operations are the
difficulty knobs. The answer is read as written, or through quotes, ``\boxed{}``,
a lead-in (``The answer is``) or a short trailing sentence. The verifier gives
partial credit for near misses, the share of positions holding the right
character (over the longer of the two strings), which is 1 only for the exact
string; that keeps a learning signal even before a model's answers are ever
exactly right.

Version 2: level 1 copies 3 or 4 letters (2 or 3 gave too few distinct problems);
every prompt shows an example; answers read through the shared wrappers; a
difficulty measure.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer

_FIRST = "abcdefgh"  # level 0 draws from few letters so that even guessing is sometimes right
_LOWER = string.ascii_lowercase
_LOWER_DIGITS = string.ascii_lowercase + string.digits
_ANY = string.ascii_letters + string.digits

OPERATIONS: dict[str, str] = {
    "copy": "Write the input string exactly as it is (for the input xY3 you would write xY3).",
    "reverse": "Write the input string backwards, last character first (for the input xY3 you would write 3Yx).",
    "upper": "Write the input string with every letter in uppercase (for the input xY3 you would write XY3).",
    "swapcase": "Write the input string with the case of every letter switched (for the input xY3 you would "
                "write Xy3).",
    "double": "Write the input string with every character written twice in a row (for the input xY3 you would "
              "write xxYY33).",
    "sort": "Write the characters of the input string sorted: digits first, then uppercase, then lowercase letters "
            "(for the input xY3 you would write 3Yx).",
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
    version = 2

    @dataclass(frozen=True)
    class Config:
        min_length: int
        max_length: int
        alphabet: str
        operations: tuple[str, ...]

    presets = (
        Config(1, 1, _FIRST, ("copy",)),
        Config(3, 4, _LOWER, ("copy",)),
        Config(4, 6, _LOWER_DIGITS, ("copy", "reverse")),
        Config(5, 8, _ANY, ("reverse", "upper", "swapcase", "double")),
        Config(8, 12, _ANY, ("reverse", "swapcase", "double", "sort")),
    )
    growth = Growth()

    def space_size(self, level: int) -> int | None:
        """Level 0 copies one of its 8 letters: 8 problems (the CPU demo's smoke task)."""
        config = self.level_config(level)
        if config.max_length > 1 or config.operations != ("copy",):
            return None
        return len(config.alphabet)

    def generate(self, rng: random.Random, config: Config) -> Problem:
        operation = rng.choice(config.operations)

        def draw() -> str:
            length = rng.randint(config.min_length, config.max_length)
            return "".join(rng.choice(config.alphabet) for _ in range(length))

        # a transform that leaves the input unchanged would test nothing
        text = retry(draw, lambda t: operation == "copy" or apply(operation, t) != t,
                     what="an input the operation changes")
        result = apply(operation, text)
        # The input stands last, right before the answer-format line, at a fixed distance from
        # the end of the prompt: a model that reads only the prompt's tail still sees it.
        prompt = f"{OPERATIONS[operation]}\n\nInput: {text}"
        return Problem(prompt=prompt, answer=result, data={"input": text, "operation": operation, "result": result})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        expected: str = problem.data["result"]
        # Text that is not one string of letters and digits still earns partial credit as written.
        text = _read_string(answer) or answer.strip()
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

    def difficulty(self, problem: Problem) -> float:
        """Characters of the input to process, counted twice when they must also be transformed."""
        length = len(problem.data["input"])
        return float(length if problem.data["operation"] == "copy" else 2 * length)

    def spellings(self, problem: Problem) -> list[str]:
        gold: str = problem.data["result"]
        return [*super().spellings(problem), f'"{gold}"', f"`{gold}`", f"\\boxed{{{gold}}}", f"The answer is {gold}",
                f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold: str = problem.data["result"]
        i = rng.randrange(len(gold))
        other = rng.choice([c for c in _ANY if c != gold[i]])
        changed = gold[:i] + other + gold[i + 1:]
        wrong = [changed, gold[:i] + gold[i + 1:], gold + gold[-1], gold[::-1], f"{gold} or {changed}",
                 gold.swapcase()]
        return [w for w in wrong if w and w != gold]


def _token(text: str) -> str | None:
    return text if text and text.isascii() and text.isalnum() else None


def _read_string(answer: str) -> str | None:
    """The answer as one string of letters and digits: as written, else through wrappers and a trailing remark.

    A bare string is taken as it is first, so an answer that happens to be a lead-in word
    (``so``) is never stripped away.
    """
    text = answer.strip()
    return _token(text) or read_answer(text, _token)
