"""Dynamic programming on subsequences: longest (or heaviest) subsequence under generated constraints.

A chosen subsequence keeps the original order. Constraints apply to every two consecutive
chosen elements ``p`` (earlier) and ``q`` (later), at positions ``i < j``: an order relation
(strictly increasing, non-decreasing, strictly decreasing, non-increasing, or none), a bound on
``|q - p|``, a divisibility rule on ``q - p`` or ``q + p``, and a bound on the gap ``j - i``, each
with generated constants, and each changing some test's result. The objective is the length, or
the largest sum, of such a subsequence (non-empty; 0 for an empty list). Levels add constraints
and grow the lists; the reference is the quadratic dynamic programme, and the difficulty measure
its pair checks on the largest test. The hidden tests reject every rule left out and every boundary slip
(a bound moved by one, an order or ratio read with the other strictness) that some short list tells apart: such
a list is added where the drawn ones do not (v3; a slip of a bound or a strictness passed all tests in
0.19-0.32 of the cases before, 0.01-0.04 now, other slips such as a ratio moved by one included).

Generation speed: about 25 ms a problem at level 4 on this 2-core machine. Each draw runs the quadratic
dynamic programme on all 14 tests of up to 45 elements, once with every rule and once with each rule left
out (redrawn when some rule changes no result or the results are too uniform: both keep every stated
constraint meaningful to the tests), then once per near miss, drawing up to 500 short lists for those no
test tells apart.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.envs.code.common import FunctionTask, compiled_function, function_problem, int_list_inputs

# (text, code): the code is a condition over xs[j] (the earlier chosen element) and xs[i] at positions j < i; it is
# rendered into the reference source and compiled as the trusted pair test (:func:`_masks_function`), so a rule is
# written once.
Rule = tuple[str, str]


def _order(kind: str) -> Rule:
    return {
        "inc": ("each element is strictly greater than the previous one", "xs[j] < xs[i]"),
        "nondec": ("each element is greater than or equal to the previous one", "xs[j] <= xs[i]"),
        "dec": ("each element is strictly less than the previous one", "xs[j] > xs[i]"),
        "noninc": ("each element is less than or equal to the previous one", "xs[j] >= xs[i]"),
    }[kind]


def _close(rng: random.Random) -> Rule:
    d = rng.randint(1, 15)
    return (f"each element differs from the previous one by at most {d}", f"abs(xs[i] - xs[j]) <= {d}")


def _far(rng: random.Random) -> Rule:
    d = rng.randint(1, 10)
    return (f"each element differs from the previous one by at least {d}", f"abs(xs[i] - xs[j]) >= {d}")


def _multiple(what: str, op: str) -> Callable[[random.Random], Rule]:
    """The rule that the ``what`` of two consecutive elements (``xs[i] op xs[j]``) is, or is not, a multiple of m."""
    def draw(rng: random.Random) -> Rule:
        m = rng.randint(2, 7)
        negated = rng.random() < 0.5
        return (f"the {what} each element and the previous one is {'not ' if negated else ''}a multiple of {m}",
                f"(xs[i] {op} xs[j]) % {m} {'!=' if negated else '=='} 0")

    return draw


def _gap_min(rng: random.Random) -> Rule:
    g = rng.randint(2, 6)
    return ((f"consecutive chosen elements are at least {g} positions apart in the list (no two consecutive "
             f"chosen positions j < i with i - j < {g})"), f"i - j >= {g}")


def _gap_max(rng: random.Random) -> Rule:
    g = rng.randint(1, 5)
    if g == 1:
        return ("consecutive chosen elements are adjacent in the list (the subsequence is a contiguous run)",
                "i - j == 1")
    return (f"consecutive chosen elements are at most {g} positions apart in the list", f"i - j <= {g}")


def _rise(rng: random.Random) -> Rule:
    d = rng.randint(0, 10)
    return (f"each element is at most {d} greater than the previous one", f"xs[i] - xs[j] <= {d}")


def _drop(rng: random.Random) -> Rule:
    d = rng.randint(0, 10)
    return (f"each element is at most {d} less than the previous one", f"xs[j] - xs[i] <= {d}")


def _scale(rng: random.Random) -> Rule:
    k = rng.randint(2, 4)
    if rng.random() < 0.5:
        return (f"each element is at least {k} times the previous one", f"xs[i] >= {k} * xs[j]")
    return (f"each element is at most {k} times the previous one", f"xs[i] <= {k} * xs[j]")


RULES = {"close": _close, "far": _far, "difference": _multiple("difference between", "-"),
         "sum": _multiple("sum of", "+"), "gap_min": _gap_min, "gap_max": _gap_max, "rise": _rise, "drop": _drop,
         "scale": _scale}


@register
class Subsequence(FunctionTask):
    id = "code/subsequence"
    description = "Dynamic programming: longest or heaviest subsequence under generated pairwise constraints."
    tags = ("code", "programming", "dynamic-programming")
    version = 3  # v3: the hidden tests reject every bound moved by one and every order or ratio's other strictness

    @dataclass(frozen=True)
    class Config:
        extra_rules: int  # constraints besides the order relation, each of another kind
        sum_chance: float  # chance the objective is the largest sum instead of the length
        max_len: int
        value: int
        tests: int

    presets = (
        Config(extra_rules=2, sum_chance=0.5, max_len=9, value=15, tests=10),
        Config(extra_rules=2, sum_chance=0.5, max_len=14, value=20, tests=12),
        Config(extra_rules=3, sum_chance=0.5, max_len=20, value=20, tests=12),
        Config(extra_rules=3, sum_chance=0.5, max_len=30, value=30, tests=14),
        Config(extra_rules=4, sum_chance=0.5, max_len=45, value=40, tests=14),
    )
    bounded = "past the presets generation gets too slow (over 1 s of CPU at level 7)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[str, list[str], list[Rule], str, list[dict[str, Any]]] | None:
            order = rng.choice(["inc", "nondec", "dec", "noninc", "none"])
            kinds = sorted(rng.sample(sorted(RULES), config.extra_rules))
            rules = ([_order(order)] if order != "none" else []) + [RULES[k](rng) for k in kinds]
            objective = "sum" if rng.random() < config.sum_chance else "length"
            inputs = pinning_inputs(rng, [xs for [xs] in int_list_inputs(rng, config.tests, config.max_len,
                                                                         -config.value // 3, config.value)],
                                    rules, objective, config.value)
            if inputs is None:
                return None
            masks = [_rule_masks(xs, rules) for xs in inputs]
            everything = (1 << len(rules)) - 1
            expected = [_best(xs, m, everything, objective) for xs, m in zip(inputs, masks)]
            if len(set(expected)) < 4:
                return None
            tests = [{"args": [xs], "expected": want} for xs, want in zip(inputs, expected)]
            return order, kinds, rules, objective, tests

        order, kinds, rules, objective, tests = retry(draw, what="constraints that all matter, with varied results")
        listed = "\n".join(f"- {text}" for text, _ in rules)
        goal = ("the largest possible sum of its elements" if objective == "sum"
                else "the largest possible number of elements")
        text = (
            "Write a Python function `solve(xs)` that takes a list of integers `xs` and returns "
            f"{goal} over all non-empty subsequences of `xs` (elements kept in their original order, not "
            f"necessarily adjacent) in which every chosen element after the first satisfies, relative to the "
            f"chosen element just before it:\n{listed}\nReturn 0 for an empty list."
        )
        condition = " and ".join(code for _, code in rules)
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
        spec: dict[str, Any] = {"order": order, "rules": kinds, "conditions": [code for _, code in rules],
                                "objective": objective}
        return function_problem(function="solve", params="xs", task_text=text, tests=tests,
                                reference_source=source, examples=2, extra={"spec": spec})

    def difficulty(self, problem: Problem) -> float:
        """Pair checks of the quadratic dynamic programme on the largest test: rules times pairs."""
        n = max(len(t["args"][0]) for t in problem.data["tests"])
        return len(problem.data["spec"]["conditions"]) * n * (n - 1) / 2


# the short lists drawn for a near miss that no test rejects: how many, how long, how far apart neighbours are
WITNESS_TRIES, WITNESS_LEN, WITNESS_STEP = 500, 10, 16


def near_misses(code: str) -> list[str]:
    """The conditions a careless reading of the rule ``code`` (one of ours) gives: a bound moved by one (``<=``
    read as ``<``, "at least d" as "more than d"), the other strictness of an order or a ratio, "adjacent" read
    as "at most 2 apart". The hidden tests reject each (:func:`pinning_inputs`), so a boundary slip fails."""
    if code in ORDER_SLIPS:
        return [ORDER_SLIPS[code]]
    if code == "i - j == 1":
        return ["i - j <= 2"]
    bound = re.fullmatch(r"(.*) (<=|>=) (-?\d+)", code)
    if bound:
        head, op, value = bound.group(1), bound.group(2), int(bound.group(3))
        return [f"{head} {op} {value - 1}", f"{head} {op} {value + 1}"]
    ratio = re.fullmatch(r"xs\[i\] (<=|>=) (.*)", code)
    return [f"xs[i] {ratio.group(1)[0]} {ratio.group(2)}"] if ratio else []


ORDER_SLIPS = {"xs[j] < xs[i]": "xs[j] <= xs[i]", "xs[j] <= xs[i]": "xs[j] < xs[i]",
               "xs[j] > xs[i]": "xs[j] >= xs[i]", "xs[j] >= xs[i]": "xs[j] > xs[i]"}


def pinning_inputs(rng: random.Random, inputs: list[list[int]], rules: list[Rule], objective: str,
                   value: int) -> list[list[int]] | None:
    """``inputs``, plus short lists where needed, on which every near miss of the rules we can tell apart changes
    some result; None when leaving out some rule changes none (a rule would be a no-op). Random long lists rarely
    sit on a bound, so for each of its :func:`near_misses` they miss up to :data:`WITNESS_TRIES` short lists are
    drawn (values near one another: most bounds are on differences), and the first one it changes is added; a
    near miss none changes is taken as the same rule in the presence of the others (a bound another rule
    already implies). Before v3 a bound moved by one passed all tests in 0.19-0.32 of the slips."""
    codes = [code for _, code in rules]
    slips = [(r, miss) for r, code in enumerate(codes) for miss in near_misses(code)]
    bits = _masks_function(tuple(codes + [miss for _, miss in slips]))
    everything = (1 << len(rules)) - 1
    chosen, masks = list(inputs), [bits(xs) for xs in inputs]
    results = [_best(xs, m, everything, objective) for xs, m in zip(chosen, masks)]

    def rejected(required: int) -> bool:
        return any(_best(xs, m, required, objective) != want for xs, m, want in zip(chosen, masks, results))

    if not all(rejected(everything & ~(1 << r)) for r in range(len(rules))):
        return None
    for s, (r, _) in enumerate(slips):
        required = everything & ~(1 << r) | 1 << (len(rules) + s)
        if rejected(required):
            continue
        for _ in range(WITNESS_TRIES):
            xs = [rng.randint(-value // 3, value)]
            while len(xs) < rng.randint(2, WITNESS_LEN):
                xs.append(min(value, max(-value // 3, xs[-1] + rng.randint(-WITNESS_STEP, WITNESS_STEP))))
            m = bits(xs)
            want = _best(xs, m, everything, objective)
            if _best(xs, m, required, objective) != want:
                chosen.append(xs)
                masks.append(m)
                results.append(want)
                break
    return chosen


@lru_cache(maxsize=256)
def _masks_function(codes: tuple[str, ...]) -> Callable[[list[int]], list[list[int]]]:
    """The rules' code (our own, also in the reference source) compiled once into one trusted function
    of ``xs`` that returns every pair's rule bits, so the pair loop runs without a call per rule."""
    bits = " | ".join(f"({1 << r} if ({code}) else 0)" for r, code in enumerate(codes)) or "0"
    return compiled_function(f"def masks(xs):\n    return [[{bits} for j in range(i)] for i in range(len(xs))]\n",
                             "masks")


def _rule_masks(xs: list[int], rules: list[Rule]) -> list[list[int]]:
    """masks[i][j] (j < i): the rules that choosing xs[j] just before xs[i] satisfies, as bits."""
    return _masks_function(tuple(code for _, code in rules))(xs)


def _best(xs: list[int], masks: list[list[int]], required: int, objective: str) -> int:
    """The DP with only the ``required`` rules (bits) enforced."""
    best: list[int] = []
    for i, q in enumerate(xs):
        here = q if objective == "sum" else 1
        value = here
        for j in range(i):
            if masks[i][j] & required == required:
                value = max(value, best[j] + here)
        best.append(value)
    return max(best) if best else 0
