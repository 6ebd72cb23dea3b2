"""Implement a generated integer function: a recurrence, a digit map, a Collatz-like walk or a count.

Templates (drawn per problem; parameters generated):

- **recurrence**: ``a(0..k-1)`` given, ``a(n) = (c1*a(n-1) + ... + ck*a(n-k) + d*n + e) mod M``;
  return ``a(n)``;
- **digit_map**: ``f(x)`` = sum of the ``p``-th powers of the base-``b`` digits of ``x``, plus ``c``;
  return ``f`` applied ``k`` times to ``n``;
- **walk**: ``x -> x // q`` if ``q`` divides ``x`` else ``a*x + b``; return the number of steps until
  ``x <= t``, capped at ``L``;
- **count**: how many ``x`` in ``[1, n]`` satisfy every one of several generated digit and
  divisibility conditions.

Levels raise the recurrence order, the number of conditions and the input sizes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.envs.code.common import FunctionTask, dedupe_inputs, function_problem, function_tests, varied


@register
class IntegerSequence(FunctionTask):
    id = "code/integer_sequence"
    description = "Write a function for a generated integer recurrence, digit map, Collatz-like walk or count."
    tags = ("code", "programming", "math")

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
            c(templates=every, order=1, conditions=1, max_n=200, tests=10),
            c(templates=every, order=2, conditions=2, max_n=1_000, tests=10),
            c(templates=every, order=2, conditions=2, max_n=4_000, tests=12),
            c(templates=every, order=3, conditions=3, max_n=6_000, tests=12),
            c(templates=every, order=3, conditions=4, max_n=10_000, tests=14),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        while True:
            template = rng.choice(config.templates)
            text, params, source, reference, inputs, spec = _TEMPLATES[template](rng, config)
            tests = function_tests(reference, dedupe_inputs(inputs))
            if varied(tests, at_least=4):
                break
        return function_problem(function="solve", params=params, task_text=text, tests=tests,
                                reference_source=source, examples=3, extra={"spec": spec})


def _signed(c: int, term: str) -> str:
    """' + 3*a(n-1)' / ' - 3*a(n-1)' with the sign folded in (first term handled by the caller)."""
    return f" {'-' if c < 0 else '+'} {abs(c)}{'*' + term if term else ''}"


def _recurrence(rng: random.Random, config: IntegerSequence.Config) -> tuple[Any, ...]:
    k = config.order
    m = rng.choice([97, 101, 1009, 10007, 65537, 1_000_003])
    coeffs = [rng.randint(1, 9) for _ in range(k)]
    start = [rng.randrange(m) for _ in range(k)]
    d = rng.choice([0, 0, rng.randint(1, 5)])
    e = rng.randint(0, 9)

    table = list(start)  # computed once, up to the largest n tested

    def reference(n: int) -> int:
        while len(table) <= n:
            table.append((sum(c * table[-1 - i] for i, c in enumerate(coeffs)) + d * len(table) + e) % m)
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
    return text, "n", source, reference, [[n] for n in ns][: config.tests], spec


def _digit_map(rng: random.Random, config: IntegerSequence.Config) -> tuple[Any, ...]:
    base = rng.choice([2, 3, 5, 7, 8, 10, 10, 16])
    power = rng.randint(1, 3)
    c = rng.randint(0, 9)

    def f(x: int) -> int:
        total = 0
        while x > 0:
            total += (x % base) ** power
            x //= base
        return total + c

    def reference(n: int, k: int) -> int:
        for _ in range(k):
            n = f(n)
        return n

    what = "digits" if power == 1 else ("squares of the digits" if power == 2 else "cubes of the digits")
    plus = f", plus {c}" if c else ""
    text = (
        f"Let f(x) be the sum of the {what} of x written in base {base}{plus} (f(0) = {c}).\n"
        "Write a Python function `solve(n, k)` that returns the result of applying f to n exactly k times "
        "(solve(n, 0) == n), for integers n >= 0 and k >= 0."
    )
    source = (
        "def solve(n, k):\n"
        "    for _ in range(k):\n"
        "        total = 0\n"
        "        while n > 0:\n"
        f"            total += (n % {base}) ** {power}\n"
        f"            n //= {base}\n"
        f"        n = total + {c}\n"
        "    return n\n"
    )
    top = config.max_n * 100
    inputs = [[0, 1], [rng.randint(1, 9), 0], [base ** 3 - 1, 1]]
    while len(inputs) < config.tests:
        inputs.append([rng.randint(0, top), rng.randint(1, 12)])
    spec = {"template": "digit_map", "base": base, "power": power, "c": c}
    return text, "n, k", source, reference, inputs, spec


def _walk(rng: random.Random, config: IntegerSequence.Config) -> tuple[Any, ...]:
    q = rng.choice([2, 2, 3])
    a = rng.choice([1, 3, 5] if q == 2 else [1, 2, 4])
    b = rng.choice([x for x in range(1, 6) if (a + x) % q != 0] or [1])
    t = rng.randint(1, 4)
    cap = rng.choice([50, 100, 200])

    def reference(n: int) -> int:
        steps = 0
        while n > t and steps < cap:
            n = n // q if n % q == 0 else a * n + b
            steps += 1
        return steps

    step = f"{a}*x + {b}" if a != 1 else f"x + {b}"
    text = (
        f"Starting from an integer x = n, repeat this step: if x is divisible by {q}, x becomes x // {q}; "
        f"otherwise x becomes {step}. Stop as soon as x <= {t}, or after {cap} steps if that comes first.\n"
        "Write a Python function `solve(n)` that returns the number of steps taken (0 if n is already "
        f"<= {t})."
    )
    source = (
        "def solve(n):\n"
        "    steps = 0\n"
        f"    while n > {t} and steps < {cap}:\n"
        f"        n = n // {q} if n % {q} == 0 else {a} * n + {b}\n"
        "        steps += 1\n"
        "    return steps\n"
    )
    inputs = [[1], [t], [t + 1]] + [[rng.randint(1, config.max_n * 10)] for _ in range(config.tests)]
    spec = {"template": "walk", "q": q, "a": a, "b": b, "t": t, "cap": cap}
    return text, "n", source, reference, inputs[: config.tests], spec


# A condition: (description, code over x, trusted predicate).
def _conditions(rng: random.Random) -> list[tuple[str, str, Callable[[int], bool]]]:
    m, r = rng.randint(2, 7), 0
    a = rng.randint(3, 9)
    r = rng.randrange(a)
    d = rng.randint(0, 9)
    g = rng.choice([6, 10, 12, 15, 30])
    return [
        (f"the sum of its decimal digits is divisible by {m}", f"sum(map(int, str(x))) % {m} == 0",
         lambda x: sum(map(int, str(x))) % m == 0),
        (f"x % {a} == {r}", f"x % {a} == {r}", lambda x: x % a == r),
        (f"its decimal representation does not contain the digit {d}", f"'{d}' not in str(x)",
         lambda x: str(d) not in str(x)),
        ("its binary representation has an even number of 1s", "bin(x).count('1') % 2 == 0",
         lambda x: bin(x).count("1") % 2 == 0),
        (f"it has no common divisor greater than 1 with {g}", f"math.gcd(x, {g}) == 1",
         lambda x: math.gcd(x, g) == 1),
        ("its first and last decimal digits are different", "str(x)[0] != str(x)[-1]",
         lambda x: str(x)[0] != str(x)[-1]),
    ]


def _count(rng: random.Random, config: IntegerSequence.Config) -> tuple[Any, ...]:
    chosen = rng.sample(_conditions(rng), config.conditions)
    top = max(50, config.max_n // 8)
    counts = [0]  # counts[n]: how many x in [1, n] qualify, computed once up to the largest n tested

    def reference(n: int) -> int:
        while len(counts) <= n:
            x = len(counts)
            counts.append(counts[-1] + all(p(x) for _, _, p in chosen))
        return counts[max(n, 0)]

    listed = "\n".join(f"- {text}" for text, _, _ in chosen)
    text = (
        "Write a Python function `solve(n)` that returns how many integers x with 1 <= x <= n satisfy all "
        f"of these conditions:\n{listed}\n(solve(n) is 0 for n < 1.)"
    )
    checks = "".join(f"        if not ({code}):\n            continue\n" for _, code, _ in chosen)
    head = "import math\n\n" if any("math." in code for _, code, _ in chosen) else ""
    source = (
        f"{head}def solve(n):\n"
        "    count = 0\n"
        "    for x in range(1, n + 1):\n"
        f"{checks}"
        "        count += 1\n"
        "    return count\n"
    )
    inputs = [[0], [1], [rng.randint(2, 20)], [top]] + [[rng.randint(1, top)] for _ in range(config.tests)]
    spec = {"template": "count", "conditions": [code for _, code, _ in chosen]}
    return text, "n", source, reference, inputs[: config.tests], spec


_TEMPLATES = {"recurrence": _recurrence, "digit_map": _digit_map, "walk": _walk, "count": _count}
