"""Apply a composition of primitive string functions, f(g(h(x))), to a given string.

Every primitive (reverse, rotate, Caesar shift, drop vowels, ...) is defined in
the prompt in one line; the nesting depth and the input length are the
difficulty knobs. Every step matters: each produces a string not seen earlier in
the chain, and leaving out any one step changes the final result (no ``sort``
that undoes an earlier rotation, no ``lower`` after ``swapcase``). The verifier
compares the resulting string exactly (case matters); quotes, ``\boxed{}``, a
lead-in such as ``The result is`` and a short trailing sentence are looked through.

Version 4: applying the functions in the wrong order (the outermost first, reading the expression
left to right) never gives the result; it gave it on 0.53 of level-1 problems (two steps that commute),
0.17 at level 2 and 0.05 at level 4, now 0.

Version 2: no step whose removal leaves the result unchanged (52% of level-4 chains
had one); answers read through the shared wrappers; a difficulty measure.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer

_VOWELS = frozenset("aeiouAEIOU")
_EXAMPLE = "xYzab"  # the prompt's example spelling, whatever the answer


@register
class Compose(Task):
    id = "strings/compose"
    family = "strings"
    description = "Apply a nested composition of well-defined string functions to a string."
    tags = ("strings", "composition", "algorithmic")
    max_answer_chars = 1_000
    version = 4  # v4: applying the steps in the wrong order (outermost first) no longer gives the result

    @dataclass(frozen=True)
    class Config:
        depth: int  # number of nested function applications
        min_length: int  # input string length range
        max_length: int
        max_output: int  # longest intermediate string allowed
        mixed_case: bool  # whether the input mixes upper- and lowercase letters

    presets = (
        Config(depth=1, min_length=5, max_length=7, max_output=16, mixed_case=False),
        Config(depth=2, min_length=6, max_length=8, max_output=20, mixed_case=False),
        Config(depth=3, min_length=7, max_length=10, max_output=24, mixed_case=False),
        Config(depth=4, min_length=9, max_length=12, max_output=28, mixed_case=True),
        Config(depth=6, min_length=10, max_length=14, max_output=32, mixed_case=True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[str, list[Call], str] | None:
            source = _random_word(rng, config)
            steps = _random_steps(rng, source, config)
            return None if steps is None else (source, *steps)

        source, calls, result = retry(draw, what="a chain of string functions in which every step matters")
        expression = f'"{source}"'
        for call in calls:
            expression = call.render(expression)
        used = sorted({call.primitive.name for call in calls})
        definitions = "\n".join(f"- {PRIMITIVES[name].signature}: {PRIMITIVES[name].definition}" for name in used)
        prompt = (
            "The following string functions are defined (positions count from 1; letters are the "
            "English letters a-z and A-Z):\n"
            f"{definitions}\n\n"
            f"Compute the value of:\n\n{expression}\n\n"
            "Give the resulting string exactly (letter case matters), without quotes, for example: "
            + _EXAMPLE
        )
        return Problem(prompt=prompt, answer=result, data={
            "input": source, "expression": expression, "result": result,
            "calls": [[call.primitive.name, call.k] for call in calls],
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if len(answer) > self.max_answer_chars:
            return Verdict.wrong("the answer is far longer than the result")
        text = _read_letters(answer)
        if text is None:
            return Verdict.unparsed("expected one string of letters")
        expected = problem.data["result"]
        if text == expected:
            return Verdict.right()
        if text.lower() == expected.lower():
            return Verdict.wrong("right letters, wrong letter case")
        if len(text) != len(expected):
            return Verdict.wrong("the string has the wrong length")
        return Verdict.wrong("wrong string")

    def difficulty(self, problem: Problem) -> float:
        """Characters processed: the total length of the strings the steps are applied to."""
        current, processed = problem.data["input"], 0
        for name, k in problem.data["calls"]:
            processed += len(current)
            current = PRIMITIVES[name].apply(current, k or 0)
        return float(processed)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.data["result"]
        return [*super().spellings(problem), f'"{gold}"', f"'{gold}'", f"`{gold}`", f"\\boxed{{{gold}}}", f"**{gold}**",
                f"The result is {gold}", f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.data["result"]
        i = rng.randrange(len(gold))
        other = rng.choice([c for c in string.ascii_lowercase if c != gold[i].lower()])
        changed = gold[:i] + (other.upper() if gold[i].isupper() else other) + gold[i + 1 :]
        before_last = problem.data["input"]
        for name, k in problem.data["calls"][:-1]:
            before_last = PRIMITIVES[name].apply(before_last, k or 0)
        wrong = [changed, gold[:i] + gold[i + 1 :], gold.swapcase(), problem.data["input"], before_last,
                 f"{gold} or {changed}", f'"{gold}" (or "{changed}")']
        return [w for w in wrong if w != gold]


@dataclass(frozen=True)
class Primitive:
    name: str
    signature: str
    definition: str
    apply: Callable[[str, int], str]
    parameters: tuple[int, ...] = ()  # possible values of k; empty: the function takes no k


@dataclass(frozen=True)
class Call:
    primitive: Primitive
    k: int | None

    def render(self, inner: str) -> str:
        if self.k is None:
            return f"{self.primitive.name}({inner})"
        return f"{self.primitive.name}({inner}, {self.k})"


def _rotate(s: str, k: int) -> str:
    k %= len(s)
    return s[k:] + s[:k]


def _caesar(s: str, k: int) -> str:
    def shift(c: str) -> str:
        if c in string.ascii_lowercase:
            return chr((ord(c) - 97 + k) % 26 + 97)
        if c in string.ascii_uppercase:
            return chr((ord(c) - 65 + k) % 26 + 65)
        return c

    return "".join(shift(c) for c in s)


def _swap_pairs(s: str) -> str:
    chars = list(s)
    for i in range(0, len(chars) - 1, 2):
        chars[i], chars[i + 1] = chars[i + 1], chars[i]
    return "".join(chars)


def _collapse_runs(s: str) -> str:
    return "".join(c for i, c in enumerate(s) if i == 0 or s[i - 1] != c)


def _upper_at_odd(s: str) -> str:
    return "".join(c.upper() if i % 2 == 0 else c for i, c in enumerate(s))


PRIMITIVES: dict[str, Primitive] = {
    p.name: p
    for p in [
        Primitive("reverse", "reverse(s)", "the characters of s in reverse order", lambda s, k: s[::-1]),
        Primitive("upper", "upper(s)", "s with every letter in uppercase", lambda s, k: s.upper()),
        Primitive("lower", "lower(s)", "s with every letter in lowercase", lambda s, k: s.lower()),
        Primitive("swapcase", "swapcase(s)", "s with the case of every letter switched", lambda s, k: s.swapcase()),
        Primitive(
            "rotate_left", "rotate_left(s, k)",
            "move the first k characters of s to its end (k is taken modulo the length of s)",
            _rotate, (1, 2, 3),
        ),
        Primitive(
            "rotate_right", "rotate_right(s, k)",
            "move the last k characters of s to its front (k is taken modulo the length of s)",
            lambda s, k: _rotate(s, -k), (1, 2, 3),
        ),
        Primitive(
            "drop_vowels", "drop_vowels(s)", "s with every vowel (a, e, i, o, u, in either case) removed",
            lambda s, k: "".join(c for c in s if c not in _VOWELS),
        ),
        Primitive("double", "double(s)", "s with every character written twice in a row (abc -> aabbcc)",
                  lambda s, k: "".join(c + c for c in s)),
        Primitive(
            "swap_pairs", "swap_pairs(s)",
            "swap the 1st and 2nd characters, the 3rd and 4th, and so on; a last unpaired character stays",
            lambda s, k: _swap_pairs(s),
        ),
        Primitive(
            "caesar", "caesar(s, k)",
            "replace every letter by the letter k places later in the alphabet, wrapping from z to a "
            "and keeping its case",
            _caesar, (1, 2, 3, 5, 13),
        ),
        Primitive(
            "sort", "sort(s)",
            "the characters of s sorted in ascending order, all uppercase letters before all lowercase ones",
            lambda s, k: "".join(sorted(s)),
        ),
        Primitive("odd_positions", "odd_positions(s)", "keep only the 1st, 3rd, 5th, ... characters of s",
                  lambda s, k: s[::2]),
        Primitive("collapse_runs", "collapse_runs(s)", "replace every run of equal adjacent characters by one",
                  lambda s, k: _collapse_runs(s)),
        Primitive("mirror", "mirror(s)", "s followed by the reverse of s (abc -> abccba)", lambda s, k: s + s[::-1]),
        Primitive("upper_odd", "upper_odd(s)", "uppercase the 1st, 3rd, 5th, ... characters of s; keep the rest",
                  lambda s, k: _upper_at_odd(s)),
        Primitive("take_first", "take_first(s, k)", "the first k characters of s (all of s if it is shorter)",
                  lambda s, k: s[:k], (3, 4, 5, 6)),
    ]
}
_NAMES = sorted(PRIMITIVES)


def _random_word(rng: random.Random, config: Compose.Config) -> str:
    length = rng.randint(config.min_length, config.max_length)
    word = "".join(rng.choice(string.ascii_lowercase) for _ in range(length))
    if config.mixed_case:
        word = "".join(c.upper() if rng.random() < 0.3 else c for c in word)
    return word


def _random_steps(rng: random.Random, source: str, config: Compose.Config) -> tuple[list[Call], str] | None:
    """Calls applied innermost first and the final string; None when no chain of essential steps was found.

    Every step must produce a string never seen before in the chain (no step is a no-op
    and no pair of steps cancels out), and after every step, leaving out any single
    earlier step must change the string reached (no later step makes an earlier one moot).
    The last step must also make the chain read inside out differ from it read outside in.
    """
    seen, current, calls = {source}, source, []
    for _ in range(config.depth):
        for _attempt in range(20):
            primitive = PRIMITIVES[rng.choice(_NAMES)]
            k = rng.choice(primitive.parameters) if primitive.parameters else None
            result = primitive.apply(current, k or 0)
            chain = [*calls, Call(primitive, k)]
            if (2 <= len(result) <= config.max_output and result not in seen
                    and all(_apply_without(source, chain, i) != result for i in range(len(calls)))
                    # (a chain read the wrong way round must miss: one step alone reads the same both ways)
                    and (len(chain) < config.depth or len(chain) == 1 or _apply_reversed(source, chain) != result)):
                break
        else:
            return None
        calls = chain
        seen.add(result)
        current = result
    return calls, current


def _apply_without(source: str, calls: list[Call], skipped: int) -> str | None:
    """The result of ``calls`` on ``source`` with call number ``skipped`` left out (None if a string empties)."""
    current = source
    for i, call in enumerate(calls):
        if i == skipped:
            continue
        if not current:
            return None
        current = call.primitive.apply(current, call.k or 0)
    return current


def _apply_reversed(source: str, calls: list[Call]) -> str | None:
    """The result of ``calls`` applied outermost first, as if ``f(g(x))`` applied ``f`` before ``g``."""
    current: str | None = source
    for call in reversed(calls):
        if not current:
            return None
        current = call.primitive.apply(current, call.k or 0)
    return current


def _letters(text: str) -> str | None:
    return text if text and text.isascii() and text.isalpha() else None


def _read_letters(answer: str) -> str | None:
    """The answer as one string of letters: as written, else without wrappers, a lead-in or a trailing remark.

    A bare string of letters is taken as it is first, so a result that happens to be a
    lead-in word (``so``, ``Thus``) is never stripped away.
    """
    text = answer.strip()
    return _letters(text) or read_answer(text, _letters)
