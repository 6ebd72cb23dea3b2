"""Implement a generated integer function: a recurrence, a digit map, a Collatz-like walk or a count.

Templates (drawn per problem; parameters generated):

- **recurrence**: ``a(0..k-1)`` given, ``a(n) = (c1*a(n-1) + ... + ck*a(n-k) + d*n + e) mod M``;
  return ``a(n)``;
- **digit_map**: ``f(x)`` = ``m`` times the sum of the ``p``-th powers of the base-``b`` digits of
  ``x``, plus ``c``; return ``f`` applied ``k`` times to ``n``;
- **walk**: ``x -> x // 2`` if ``x`` is even else ``a*x + b`` (``a``, ``b`` odd, Collatz-like); return
  the number of steps until ``x <= t``, capped at ``L`` (some test runs into the cap);
- **count**: how many ``x`` in ``[1, n]`` satisfy every one of several generated digit and
  divisibility conditions (at least two).

Levels raise the recurrence order, the number of conditions and the input sizes; the difficulty
measure is the number of clauses of the specification plus the base-10 logarithm of the largest input.

Generation speed: about 280 problems/s at level 4 on this 2-core machine. The expected outputs are
computed by running the drawn reference function in-process on every test input (recurrences and counts
up to large arguments), and every near miss (a clause left out, a constant off by one) is run on the
tests to prove some test rejects it; that proof is what keeps off-by-one solutions from earning reward.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.envs.code.common import (
    FunctionTask,
    compiled_function,
    dedupe_inputs,
    function_problem,
    function_tests,
    pick_examples,
    rejects_near_misses,
    varied,
)

EXAMPLES = 3  # tests shown in the prompt


@register
class IntegerSequence(FunctionTask):
    id = "code/integer_sequence"
    description = "Write a function for a generated integer recurrence, digit map, Collatz-like walk or count."
    tags = ("code", "programming", "math")
    version = 3  # v3: the hidden tests beyond the examples are never all one value (2% of level-0 problems were)

    @dataclass(frozen=True)
    class Config:
        templates: tuple[str, ...]
        order: int  # recurrence order
        conditions: int  # conditions of the count template
        max_n: int  # recurrence index bound; the count template uses max_n // 8
        tests: int

    def config(self, level: int) -> Config:
        c = self.Config
        every = ("recurrence", "digit_map", "walk", "count")
        return [
            c(templates=every, order=1, conditions=2, max_n=200, tests=10),
            c(templates=every, order=2, conditions=2, max_n=1_000, tests=10),
            c(templates=every, order=2, conditions=3, max_n=4_000, tests=12),
            c(templates=every, order=3, conditions=3, max_n=16_000, tests=12),
            c(templates=every, order=3, conditions=4, max_n=30_000, tests=14),
        ][level]
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[Any, ...] | None:
            template = rng.choice(config.templates)
            text, params, source, reference, inputs, spec, mutants = _TEMPLATES[template](rng, config)
            tests = function_tests(reference, dedupe_inputs(inputs))
            # each near miss (a clause left out, a constant off by one) fails some test
            pinned = rejects_near_misses(mutants, tests)
            # the tests the prompt does not show take two values at least, so the examples plus one constant fail
            shown = set(pick_examples(tests, EXAMPLES))
            hidden_varied = varied([t for i, t in enumerate(tests) if i not in shown], at_least=2)
            return (text, params, source, tests, spec) if varied(tests, at_least=4) and pinned and hidden_varied else None

        text, params, source, tests, spec = retry(draw, what="an integer function with varied results")
        return function_problem(function="solve", params=params, task_text=text, tests=tests,
                                reference_source=source, examples=EXAMPLES, extra={"spec": spec})

    def difficulty(self, problem: Problem) -> float:
        """The recurrence's order or the number of conditions (2 for the other templates) plus log10 of the
        largest input."""
        spec = problem.data["spec"]
        clauses = {"recurrence": len(spec.get("coeffs", ())), "count": len(spec.get("conditions", ()))}.get(
            spec["template"], 2)
        largest = max(abs(t["args"][0]) for t in problem.data["tests"])
        return clauses + math.log10(1 + largest)


def _recurrence(rng: random.Random, config: IntegerSequence.Config) -> tuple[Any, ...]:
    k = config.order
    m = rng.choice([97, 101, 1009, 10007, 65537, 1_000_003])
    coeffs = [rng.randint(1, 9) for _ in range(k)]
    start = [rng.randrange(m) for _ in range(k)]
    d = rng.choice([0, 0, rng.randint(1, 5)])
    e = rng.randint(0, 9)

    table = list(start)  # computed once, up to the largest n tested

    lags = list(enumerate(coeffs, 1))

    def reference(n: int) -> int:
        for i in range(len(table), n + 1):
            total = d * i + e
            for lag, c in lags:
                total += c * table[i - lag]
            table.append(total % m)
        return table[n]

    terms = " + ".join(f"{c}*a(n-{i + 1})" for i, c in enumerate(coeffs))
    extra = (f" + {d}*n" if d else "") + (f" + {e}" if e else "")
    given = ", ".join(f"a({i}) = {v}" for i, v in enumerate(start))
    text = (
        f"A sequence is defined by {given}, and for every n >= {k}:\n"
        f"a(n) = ({terms}{extra}) mod {m}\n"
        "Write a Python function `solve(n)` that returns a(n) for an integer n >= 0."
    )
    expr = " + ".join(f"{c} * a[-{i + 1}]" for i, c in enumerate(coeffs))
    expr += (f" + {d} * len(a)" if d else "") + (f" + {e}" if e else "")
    source = (
        "def solve(n):\n"
        f"    a = {start}\n"
        "    while len(a) <= n:\n"
        f"        a.append(({expr}) % {m})\n"
        "    return a[n]\n"
    )
    ns = list(range(min(k + 2, 4))) + [rng.randint(k, config.max_n) for _ in range(config.tests)] + [config.max_n]
    spec = {"template": "recurrence", "m": m, "coeffs": coeffs, "start": start, "d": d, "e": e}
    return text, "n", source, reference, [[n] for n in ns][: config.tests], spec, []  # values are pseudo-random


def _digit_map(rng: random.Random, config: IntegerSequence.Config) -> tuple[Any, ...]:
    base = rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 12, 16])
    power = rng.randint(1, 3) if base > 2 else 1  # binary digits are their own squares and cubes
    m = rng.choice([1, 1, 2, 3, 4])
    c = rng.randint(0, 30)

    source = _digit_map_source(base, power, m, c)
    reference = compiled_function(source)  # the reference source, run in-process: the map is written once
    mutants = [compiled_function(_digit_map_source(*near)) for near in _off_by_one((base, power, m, c))]

    what = "digits" if power == 1 else ("squares of the digits" if power == 2 else "cubes of the digits")
    times = f"{m} times " if m != 1 else ""
    plus = f", plus {c}" if c else ""
    text = (
        f"Let f(x) be {times}the sum of the {what} of x written in base {base}{plus} (f(0) = {c}).\n"
        "Write a Python function `solve(n, k)` that returns the result of applying f to n exactly k times "
        "(solve(n, 0) == n), for integers n >= 0 and k >= 0."
    )
    top = config.max_n * 100
    inputs = [[0, 1], [rng.randint(1, 9), 0], [base ** 3 - 1, 1]]
    while len(inputs) < config.tests:
        inputs.append([rng.randint(0, top), rng.randint(1, 12)])
    spec = {"template": "digit_map", "base": base, "power": power, "m": m, "c": c}
    return text, "n, k", source, reference, inputs, spec, mutants


def _walk(rng: random.Random, config: IntegerSequence.Config) -> tuple[Any, ...]:
    q = 2
    a = rng.choice([1, 3])  # odd, with b odd: every odd value is followed by a halving (Collatz-like)
    b = rng.choice(range(1, 17, 2))
    t = rng.randint(1, 9)
    cap = rng.randint(8, 40)  # low enough that some walks run into it

    source = _walk_source(q, a, b, t, cap)
    reference = compiled_function(source)  # the reference source, run in-process: the walk is written once
    mutants = [compiled_function(_walk_source(*near)) for near in _off_by_one((q, a, b, t, cap))]

    step = f"{a}*x + {b}" if a != 1 else f"x + {b}"
    text = (
        f"Starting from an integer x = n, repeat this step: if x is divisible by {q}, x becomes x // {q}; "
        f"otherwise x becomes {step}. Stop as soon as x <= {t}, or after {cap} steps if that comes first.\n"
        "Write a Python function `solve(n)` that returns the number of steps taken (0 if n is already "
        f"<= {t})."
    )
    inputs = [[1], [t], [t + 1]] + [[rng.randint(1, config.max_n * 10)] for _ in range(config.tests)]
    spec = {"template": "walk", "q": q, "a": a, "b": b, "t": t, "cap": cap}
    return text, "n", source, reference, inputs[: config.tests] + [[_capped_start(q, a, b, t, cap)]], spec, mutants


def _walk_source(q: int, a: int, b: int, t: int, cap: int) -> str:
    return (f"def solve(n):\n    steps = 0\n    while n > {t} and steps < {cap}:\n"
            f"        n = n // {q} if n % {q} == 0 else {a} * n + {b}\n        steps += 1\n    return steps\n")


def _capped_start(q: int, a: int, b: int, t: int, cap: int) -> int:
    """The smallest start from 1 to 300 whose walk runs into the cap (1 if none does)."""
    walk = compiled_function(_walk_source(q, a, b, t, cap))
    return next((n for n in range(1, 301) if walk(n) == cap), 1)


def _digit_map_source(base: int, power: int, m: int, c: int) -> str:
    scaled = f"{m} * total" if m != 1 else "total"
    return (f"def solve(n, k):\n    for _ in range(k):\n        total = 0\n        while n > 0:\n"
            f"            total += (n % {base}) ** {power}\n            n //= {base}\n        n = {scaled} + {c}\n"
            "    return n\n")


def _off_by_one(constants: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The constants with one of them moved by one (bases and divisors stay at least 2)."""
    out = []
    for i, value in enumerate(constants):
        for delta in (-1, 1):
            near = constants[:i] + (value + delta,) + constants[i + 1:]
            if near[0] >= 2:
                out.append(near)
    return out


# A condition: (description, code over x); the code, in the reference source, is also compiled as the trusted
# predicate (:func:`_count`), so a condition is written once.
Condition = tuple[str, str]


def _digit_sum_condition(rng: random.Random) -> Condition:
    m = rng.randint(2, 9)
    r = rng.randrange(m)
    return (f"the sum of its decimal digits leaves remainder {r} when divided by {m}",
            f"sum(map(int, str(x))) % {m} == {r}")


def _remainder_condition(rng: random.Random) -> Condition:
    a = rng.randint(3, 15)
    r = rng.randrange(a)
    return f"x % {a} == {r}", f"x % {a} == {r}"


def _digit_condition(rng: random.Random) -> Condition:
    d = rng.randint(0, 9)
    if rng.random() < 0.5:
        return f"its decimal representation does not contain the digit {d}", f"'{d}' not in str(x)"
    return f"its decimal representation contains the digit {d}", f"'{d}' in str(x)"


def _binary_condition(rng: random.Random) -> Condition:
    m = rng.randint(2, 4)
    r = rng.randrange(m)
    return (f"the number of 1s in its binary representation leaves remainder {r} when divided by {m}",
            f"bin(x).count('1') % {m} == {r}")


def _coprime_condition(rng: random.Random) -> Condition:
    g = rng.choice([6, 10, 12, 14, 15, 18, 20, 21, 22, 26, 28, 30, 33, 35, 36, 39, 42, 45, 55, 60])
    return f"it has no common divisor greater than 1 with {g}", f"math.gcd(x, {g}) == 1"


_RELATIONS = {"==": "equal to", "!=": "different from", "<": "less than", ">": "greater than", "<=": "at most",
              ">=": "at least"}


def _ends_condition(rng: random.Random) -> Condition:
    rel = rng.choice(sorted(_RELATIONS))
    return f"its last decimal digit is {_RELATIONS[rel]} its first decimal digit", f"str(x)[-1] {rel} str(x)[0]"


CONDITIONS = (_digit_sum_condition, _remainder_condition, _digit_condition, _binary_condition,
              _coprime_condition, _ends_condition)


def _count(rng: random.Random, config: IntegerSequence.Config) -> tuple[Any, ...]:
    chosen = [kind(rng) for kind in rng.sample(CONDITIONS, config.conditions)]
    predicates = [compiled_function(f"import math\n\ndef holds(x):\n    return {code}\n", "holds") for _, code in chosen]
    top = max(50, config.max_n // 8)
    satisfied = [0]  # satisfied[x]: the conditions x meets, as bits; computed once up to the largest n tested

    def counter(required: int) -> Callable[[int], int]:
        counts = [0]  # counts[n]: how many x in [1, n] meet the required conditions

        def count(n: int) -> int:
            for x in range(len(satisfied), n + 1):
                satisfied.append(sum(1 << i for i, holds in enumerate(predicates) if holds(x)))
            for x in range(len(counts), n + 1):
                counts.append(counts[-1] + (satisfied[x] & required == required))
            return counts[max(n, 0)]

        return count

    everything = (1 << len(chosen)) - 1
    reference = counter(everything)
    mutants = [counter(everything & ~(1 << i)) for i in range(len(chosen))]  # a condition left out

    listed = "\n".join(f"- {text}" for text, _ in chosen)
    text = (
        "Write a Python function `solve(n)` that returns how many integers x with 1 <= x <= n satisfy all "
        f"of these conditions:\n{listed}\n(solve(n) is 0 for n < 1.)"
    )
    checks = "".join(f"        if not ({code}):\n            continue\n" for _, code in chosen)
    head = "import math\n\n" if any("math." in code for _, code in chosen) else ""
    source = (
        f"{head}def solve(n):\n"
        "    count = 0\n"
        "    for x in range(1, n + 1):\n"
        f"{checks}"
        "        count += 1\n"
        "    return count\n"
    )
    inputs = [[0], [1], [rng.randint(2, 20)], [top]] + [[rng.randint(1, top)] for _ in range(config.tests)]
    spec = {"template": "count", "conditions": [code for _, code in chosen]}
    return text, "n", source, reference, inputs[: config.tests], spec, mutants


_TEMPLATES = {"recurrence": _recurrence, "digit_map": _digit_map, "walk": _walk, "count": _count}
