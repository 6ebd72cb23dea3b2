"""Count the objects with a property, exactly, by writing a program: enumeration first, then dynamic programming.

Four counting questions, each with an exact integer answer:

- how many integers from 1 to ``N`` have digit sum ``S``;
- how many strings of length ``n`` over 2-4 given letters do not contain a given substring;
- in how many ways ``n`` is an ordered sum of parts from a given set (climbing ``n`` stairs with
  the allowed step sizes);
- how many subsets of a given list of positive integers sum to exactly ``T``.

At level 0 the search space has thousands of elements and brute force in the python tool works; by
level 4 it has 10^15 or more (brute force would not finish within the tool's time limit), so the
program must count by dynamic programming. The difficulty is the drawn problem's size (the digits of ``N``,
the string length, the number written as a sum, the list's length) as a multiple of its kind's size at level
4, times 10: brute force's search space grows exponentially in it, and sizes compare across the four kinds
where raw log10 spaces do not (they differ threefold at a level, so a level's mean moved with its kind mix).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.tools.common import ToolTask, counted_units, tool_call
from palaestra.verifiers.numeric import grade_number

KINDS = ("digit_sum", "avoid_pattern", "compositions", "subset_sum")
SIZE_FIELDS = {"digit_sum": "digits", "avoid_pattern": "length", "compositions": "total", "subset_sum": "items"}


@register
class CountByProgram(ToolTask):
    id = "tools/count_by_program"
    family = "tools"
    description = "Count objects with a property exactly by writing a program (brute force, then dynamic programming)."
    tags = ("tools", "multi-turn", "python", "combinatorics", "dynamic-programming")
    tool_names = ("python",)
    version = 2

    @dataclass(frozen=True)
    class Config:
        digits: tuple[int, int]  # of N
        length: tuple[int, int]  # of the strings
        total: tuple[int, int]  # the number written as an ordered sum
        items: tuple[int, int]  # in the subset-sum list

    presets = (
        Config((3, 4), (6, 8), (10, 16), (10, 12)),
        Config((5, 6), (10, 14), (20, 30), (14, 18)),
        Config((7, 8), (16, 22), (35, 50), (20, 24)),
        Config((10, 12), (25, 35), (60, 90), (26, 30)),
        Config((14, 16), (40, 60), (100, 150), (32, 40)),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(KINDS)
        params, text, answer, space = retry(lambda: _draw(kind, config, rng), what=f"a {kind} question")
        example = "2718"  # a fixed placeholder: independent of the answer
        prompt = (
            f"{text}\n\nCount with the python tool (a program, not by hand); each call may run for at most 5 "
            f"seconds. Answer with the exact integer, e.g. <answer>{example}</answer>.\n\n{self.tools_prompt(5)}"
        )
        data = {"kind": kind, "params": params, "space": space, "budget": 5}
        return Problem(prompt=prompt, answer=str(answer), data=data)

    def difficulty(self, problem: Problem) -> float:
        kind, params = problem.data["kind"], problem.data["params"]
        size = {"digit_sum": lambda: len(str(params["n"])), "avoid_pattern": lambda: params["length"],
                "compositions": lambda: params["total"], "subset_sum": lambda: len(params["numbers"])}[kind]()
        low, high = getattr(self.presets[-1], SIZE_FIELDS[kind])
        return 10 * size / ((low + high) / 2)

    def judge(self, problem: Problem, answer: str) -> Verdict:
        verdict = grade_number(answer, int(problem.answer or 0), units=counted_units(problem.prompt))
        if verdict is None:
            return Verdict.unparsed("not an integer")
        return Verdict.judge(verdict)

    def plan(self, problem: Problem) -> list[str]:
        return [tool_call("python", code=_code(problem.data["kind"], problem.data["params"])), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        value = int(problem.answer or 0)
        return [f"{value:,}", f"{value}.", f"({value})"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = int(problem.answer or 0)
        return [str(value + 1), str(max(value - 1, 0)) if value else "1", f"{value} or {value + 1}"]


def _draw(kind: str, config: Any, rng: random.Random) -> tuple[dict[str, Any], str, int, int] | None:
    """(parameters, question, answer, brute-force space), or None for a degenerate draw."""
    if kind == "digit_sum":
        digits = rng.randint(*config.digits)
        n = rng.randint(10 ** (digits - 1), 10**digits - 1)
        s = rng.randint(2, 9 * digits // 2 + 2)
        answer = _count_digit_sum(n, s)
        text = f"How many integers from 1 to {n} (inclusive) have a sum of decimal digits equal to {s}?"
        return ({"n": n, "s": s}, text, answer, n) if answer else None
    if kind == "avoid_pattern":
        letters = "".join(sorted(rng.sample("abcdefgh", rng.randint(2, 4))))
        length = rng.randint(*config.length)
        pattern = "".join(rng.choice(letters) for _ in range(rng.randint(2, 4)))
        answer = _count_avoiding(letters, length, pattern)
        text = (f"How many strings of length {length} made of the letters {', '.join(letters)} (each usable any "
                f"number of times) do not contain "
                f"'{pattern}' as a substring (consecutive letters)?")
        return {"letters": letters, "length": length, "pattern": pattern}, text, answer, len(letters) ** length
    if kind == "compositions":
        total = rng.randint(*config.total)
        parts = sorted(rng.sample(range(1, 10), rng.randint(2, 4)))
        answer = _count_compositions(total, parts)
        text = (f"In how many ways can {total} be written as an ordered sum of parts, each part one of "
                f"{', '.join(map(str, parts))}? (Order matters: 1 + 2 and 2 + 1 are different ways.)")
        return ({"total": total, "parts": parts}, text, answer, max(answer, 2)) if answer else None
    count = rng.randint(*config.items)
    numbers = [rng.randint(1, 60) for _ in range(count)]
    target = rng.randint(sum(numbers) // 4, sum(numbers) // 2)
    answer = _count_subsets(numbers, target)
    text = (f"How many subsets of the following {count} numbers (the positions are distinct, even where values repeat) "
            f"have a sum of exactly {target}?\n{', '.join(map(str, numbers))}")
    return ({"numbers": numbers, "target": target}, text, answer, 2**count) if answer else None


def _count_digit_sum(n: int, s: int) -> int:
    """Integers in [1, n] with digit sum s: a walk down n's digits over free-suffix counts."""
    digits = [int(c) for c in str(n)]
    length = len(digits)
    free = [[0] * (s + 1) for _ in range(length + 1)]  # free[k][t]: k-digit strings (zeros allowed) summing to t
    free[0][0] = 1
    for k in range(1, length + 1):
        for t in range(s + 1):
            free[k][t] = sum(free[k - 1][t - d] for d in range(10) if d <= t)
    total, prefix = 0, 0
    for i, digit in enumerate(digits):
        rest = length - i - 1
        for d in range(digit):
            if prefix + d <= s:
                total += free[rest][s - prefix - d]
        prefix += digit
    return total + (prefix == s)  # n itself; 0 is never counted (s >= 2)


def _count_avoiding(letters: str, length: int, pattern: str) -> int:
    """Strings avoiding ``pattern``: a dynamic programme over the longest pattern prefix matched so far."""
    def advance(state: int, letter: str) -> int:
        text = pattern[:state] + letter
        for size in range(min(len(text), len(pattern)), -1, -1):
            if text.endswith(pattern[:size]):
                return size
        return 0

    table = {(state, letter): advance(state, letter) for state in range(len(pattern)) for letter in letters}
    counts = [1] + [0] * (len(pattern) - 1)
    for _ in range(length):
        nxt = [0] * len(pattern)
        for state, ways in enumerate(counts):
            if ways:
                for letter in letters:
                    target = table[state, letter]
                    if target < len(pattern):
                        nxt[target] += ways
        counts = nxt
    return sum(counts)


def _count_compositions(total: int, parts: list[int]) -> int:
    ways = [1] + [0] * total
    for value in range(1, total + 1):
        ways[value] = sum(ways[value - part] for part in parts if part <= value)
    return ways[total]


def _count_subsets(numbers: list[int], target: int) -> int:
    ways = [1] + [0] * target
    for x in numbers:
        for total in range(target, x - 1, -1):
            ways[total] += ways[total - x]
    return ways[target]


def _code(kind: str, p: dict[str, Any]) -> str:
    """The oracle's program: memoised recursion (a different method from the generator's tables)."""
    head = "from functools import lru_cache\n"
    if kind == "digit_sum":
        return head + (
            f"digits = [int(c) for c in str({p['n']})]\n@lru_cache(None)\n"
            "def count(i, left, tight):\n    if left < 0:\n        return 0\n    if i == len(digits):\n"
            "        return int(left == 0)\n    top = digits[i] if tight else 9\n"
            "    return sum(count(i + 1, left - d, tight and d == top) for d in range(top + 1))\n"
            f"count(0, {p['s']}, True)"
        )
    if kind == "avoid_pattern":
        return head + (
            f"letters, pattern, n = {p['letters']!r}, {p['pattern']!r}, {p['length']}\n@lru_cache(None)\n"
            "def count(i, tail):\n    if i == n:\n        return 1\n"
            "    return sum(count(i + 1, (tail + c)[1 - len(pattern):]) for c in letters\n"
            "               if not (tail + c).endswith(pattern))\ncount(0, '')"
        )
    if kind == "compositions":
        return head + (
            f"parts = {p['parts']!r}\n@lru_cache(None)\n"
            "def count(left):\n    if left == 0:\n        return 1\n"
            "    return sum(count(left - part) for part in parts if part <= left)\n"
            f"count({p['total']})"
        )
    return head + (
        f"numbers, target = {p['numbers']!r}, {p['target']}\n@lru_cache(None)\n"
        "def count(i, left):\n    if left < 0:\n        return 0\n    if i == len(numbers):\n"
        "        return int(left == 0)\n    return count(i + 1, left) + count(i + 1, left - numbers[i])\n"
        "count(0, target)"
    )
