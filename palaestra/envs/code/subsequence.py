"""Dynamic programming on subsequences: longest (or heaviest) subsequence under generated constraints.

A chosen subsequence keeps the original order. Constraints apply to every two consecutive
chosen elements ``p`` (earlier) and ``q`` (later), at positions ``i < j``: an order relation
(strictly increasing, non-decreasing, strictly decreasing, non-increasing, or none), a bound on
``|q - p|``, a divisibility rule on ``q - p``, and a bound on the gap ``j - i``. The objective is the length, or the
largest sum, of such a subsequence (non-empty; 0 for an empty list). Levels add constraints
and grow the lists; the reference is the quadratic dynamic programme.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.envs.code.common import FunctionTask, function_problem, function_tests, int_list_inputs, varied

# (text, code over xs[j] = p, xs[i] = q, indices j < i, trusted predicate)
Rule = tuple[str, str, Callable[[int, int, int, int], bool]]


def _order(kind: str) -> Rule:
    return {
        "inc": ("each element is strictly greater than the previous one", "xs[j] < xs[i]",
                lambda p, q, j, i: p < q),
        "nondec": ("each element is greater than or equal to the previous one", "xs[j] <= xs[i]",
                   lambda p, q, j, i: p <= q),
        "dec": ("each element is strictly less than the previous one", "xs[j] > xs[i]",
                lambda p, q, j, i: p > q),
        "noninc": ("each element is less than or equal to the previous one", "xs[j] >= xs[i]",
                   lambda p, q, j, i: p >= q),
    }[kind]


def _rules(rng: random.Random) -> dict[str, Rule]:
    d = rng.randint(1, 9)
    g = rng.randint(2, 5)
    m = rng.randint(2, 4)
    return {
        "close": (f"each element differs from the previous one by at most {d}", f"abs(xs[i] - xs[j]) <= {d}",
                  lambda p, q, j, i: abs(q - p) <= d),
        "far": (f"each element differs from the previous one by at least {d}", f"abs(xs[i] - xs[j]) >= {d}",
                lambda p, q, j, i: abs(q - p) >= d),
        "mod_diff": (f"the difference between each element and the previous one is not a multiple of {m}",
                     f"(xs[i] - xs[j]) % {m} != 0", lambda p, q, j, i: (q - p) % m != 0),
        "mod_same": (f"the difference between each element and the previous one is a multiple of {m}",
                     f"(xs[i] - xs[j]) % {m} == 0", lambda p, q, j, i: (q - p) % m == 0),
        "gap_min": ((f"consecutive chosen elements are at least {g} positions apart in the list (no two "
                     f"chosen positions i < j with j - i < {g})"), f"i - j >= {g}", lambda p, q, j, i: i - j >= g),
        "gap_max": (f"consecutive chosen elements are at most {g} positions apart in the list",
                    f"i - j <= {g}", lambda p, q, j, i: i - j <= g),
    }


@register
class Subsequence(FunctionTask):
    id = "code/subsequence"
    description = "Dynamic programming: longest or heaviest subsequence under generated pairwise constraints."
    tags = ("code", "programming", "dynamic-programming")

    @dataclass(frozen=True)
    class Config:
        extra_rules: int  # constraints besides the order relation
        sum_chance: float  # chance the objective is the largest sum instead of the length
        max_len: int
        value: int
        tests: int

    def config(self, level: int) -> Config:
        c = self.Config
        return [
            c(extra_rules=1, sum_chance=0.3, max_len=8, value=10, tests=10),
            c(extra_rules=1, sum_chance=0.4, max_len=12, value=15, tests=12),
            c(extra_rules=2, sum_chance=0.5, max_len=20, value=20, tests=12),
            c(extra_rules=2, sum_chance=0.5, max_len=30, value=30, tests=14),
            c(extra_rules=3, sum_chance=0.5, max_len=45, value=40, tests=14),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        while True:
            order = rng.choice(["inc", "nondec", "dec", "noninc", "none"] if config.extra_rules else
                               ["inc", "nondec", "dec", "noninc"])
            pool = _rules(rng)
            names = sorted(pool)
            chosen: list[str] = []
            while len(chosen) < config.extra_rules:
                name = rng.choice(names)
                clash = {"close": "far", "far": "close", "mod_diff": "mod_same", "mod_same": "mod_diff",
                         "gap_min": "gap_max", "gap_max": "gap_min"}[name]
                if name not in chosen and clash not in chosen:
                    chosen.append(name)
            rules = ([_order(order)] if order != "none" else []) + [pool[n] for n in chosen]
            if not rules:
                continue
            objective = "sum" if rng.random() < config.sum_chance else "length"
            inputs = int_list_inputs(rng, config.tests, config.max_len, -config.value // 3, config.value)
            tests = function_tests(lambda xs, r=rules, o=objective: best_subsequence(xs, r, o), inputs)
            if varied(tests, at_least=4):
                break
        listed = "\n".join(f"- {text}" for text, _, _ in rules)
        goal = ("the largest possible sum of its elements" if objective == "sum"
                else "the largest possible number of elements")
        text = (
            "Write a Python function `solve(xs)` that takes a list of integers `xs` and returns "
            f"{goal} over all non-empty subsequences of `xs` (elements kept in their original order, not "
            f"necessarily adjacent) in which every chosen element after the first satisfies, relative to the "
            f"chosen element just before it:\n{listed}\nReturn 0 for an empty list."
        )
        condition = " and ".join(code for _, code, _ in rules)
        start, step = ("xs[i]", "best[j] + xs[i]") if objective == "sum" else ("1", "best[j] + 1")
        source = (
            "def solve(xs):\n"
            "    best = []  # best[i]: the best subsequence ending at position i\n"
            "    for i in range(len(xs)):\n"
            f"        best.append({start})\n"
            "        for j in range(i):\n"
            f"            if {condition}:\n"
            f"                best[i] = max(best[i], {step})\n"
            "    return max(best) if best else 0\n"
        )
        spec: dict[str, Any] = {"order": order, "rules": chosen, "objective": objective}
        return function_problem(function="solve", params="xs", task_text=text, tests=tests,
                                reference_source=source, examples=2, extra={"spec": spec})


def best_subsequence(xs: list[int], rules: list[Rule], objective: str) -> int:
    """The trusted reference: the quadratic DP over the last chosen position."""
    best: list[int] = []
    for i, q in enumerate(xs):
        here = q if objective == "sum" else 1
        value = here
        for j in range(i):
            if all(pred(xs[j], q, j, i) for _, _, pred in rules):
                value = max(value, best[j] + here)
        best.append(value)
    return max(best) if best else 0
