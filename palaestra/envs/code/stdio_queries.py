"""Write a whole program: read input in a stated format from stdin and print the results.

Two templates:

- **queries**: an array of ``n`` integers and ``q`` queries, each a generated keyword with
  arguments, from a generated set of query kinds (range sum / maximum / minimum / count above a
  threshold, point assignment, range addition, range reversal, swap); print one line per
  answering query;
- **cases**: ``T`` test cases, each a list of integers; print for each one the value of a
  generated pipeline of list operations ending in a reduction.

Outputs are compared line by line (trailing whitespace and trailing blank lines tolerated).
Levels grow the inputs and the number of query kinds or pipeline steps (each step changes some
answer); the difficulty measure is the number of values the program reads on the largest test. Expected outputs come
from the reference program's own statements run in-process (each query kind and pipeline step written once).

Version 3: a count query's threshold is one of the array's values half the time, and the tests must reject a
program counting ">= x" for "greater than x" (it passed 58-95% of the problems with a count query).

Generation speed: about 850 problems/s at level 4 on this 2-core machine. Each draw builds the query or
test-case inputs and computes every expected output in-process (the pipelines are proved pinned down by
their tests), and about 1 draw in 3 is redrawn because the outputs are too uniform; varied outputs are
what stop a constant program from passing.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.code import _pipelines as pl
from palaestra.envs.code.common import StdioTask, compiled_function, random_ints, stdio_problem, varied
from palaestra.envs.code.templates import ProgramTexts

WORDS = ("ALPHA", "BRAVO", "CRANE", "DELTA", "EMBER", "FJORD", "GLYPH", "HAVEN", "IVORY", "JOULE", "KNOT",
         "LUMEN", "MAPLE", "NOVA", "ORBIT", "PIVOT", "QUILL", "RIDGE", "SPARK", "TIDAL", "UMBRA", "VIVID")

# kind: (arguments, prints?, description with {w} for the keyword)
KINDS: dict[str, tuple[tuple[str, ...], bool, str]] = {
    "sum": (("l", "r"), True, "`{w} l r`: print the sum of a[l..r]"),
    "max": (("l", "r"), True, "`{w} l r`: print the largest of a[l..r]"),
    "min": (("l", "r"), True, "`{w} l r`: print the smallest of a[l..r]"),
    "count": (("l", "r", "x"), True, "`{w} l r x`: print how many of a[l..r] are greater than x"),
    "set": (("i", "v"), False, "`{w} i v`: set a[i] to v"),
    "add": (("l", "r", "v"), False, "`{w} l r v`: add v to each of a[l..r]"),
    "reverse": (("l", "r"), False, "`{w} l r`: reverse the order of a[l..r]"),
    "swap": (("i", "j"), False, "`{w} i j`: swap a[i] and a[j]"),
}
PRINTING = ("sum", "max", "min", "count")
# kind: the statement of the reference program answering it (the trusted reference runs the same statements)
ACTIONS = {
    "sum": "out.append(str(sum(a[l - 1:r])))",
    "max": "out.append(str(max(a[l - 1:r])))",
    "min": "out.append(str(min(a[l - 1:r])))",
    "count": "out.append(str(sum(1 for v in a[l - 1:r] if v > x)))",
    "set": "a[i - 1] = v",
    "add": "for k in range(l - 1, r):\n                a[k] += v",
    "reverse": "a[l - 1:r] = a[l - 1:r][::-1]",
    "swap": "a[i - 1], a[j - 1] = a[j - 1], a[i - 1]",
}
# the count query's boundary slip (">= x" for "greater than x"), which the hidden tests must reject
COUNT_SLIP = ACTIONS["count"].replace("v > x", "v >= x")

CODE = ProgramTexts("stdio_queries")


@register
class StdioQueries(StdioTask):
    id = "code/stdio_queries"
    description = "Write a stdin/stdout program: process generated array queries, or solve T test cases."
    tags = ("code", "programming", "stdio")
    version = 3

    @dataclass(frozen=True)
    class Config:
        kinds: int  # query kinds in the queries template
        steps: int  # pipeline steps (before the reduction) in the cases template
        max_n: int
        max_q: int  # queries, or test cases
        value: int
        tests: int

    presets = (
        Config(kinds=2, steps=2, max_n=6, max_q=4, value=20, tests=6),
        Config(kinds=3, steps=2, max_n=10, max_q=8, value=50, tests=6),
        Config(kinds=3, steps=3, max_n=15, max_q=12, value=100, tests=7),
        Config(kinds=4, steps=3, max_n=25, max_q=20, value=500, tests=8),
        Config(kinds=5, steps=4, max_n=40, max_q=30, value=1000, tests=8),
    )
    growth = Growth(steps={"max_q": 40})  # v3: +10 queries a level left the difficulty means of levels 6-7 within sampling noise

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[str, list[dict[str, str]], str, dict[str, Any]] | None:
            made = (_queries if rng.random() < 0.6 else _cases)(rng, config)
            return made if made is not None and varied(made[1], key="stdout", at_least=min(4, len(made[1]))) else None

        text, tests, source, spec = retry(draw, what="a program specification with varied outputs")
        _example_first(tests)
        return stdio_problem(task_text=text, tests=tests, reference_source=source, extra={"spec": spec})

    def difficulty(self, problem: Problem) -> float:
        """Numbers the program reads on the largest test (array values, query arguments, test cases)."""
        return max(len(t["stdin"].split()) for t in problem.data["tests"])


def _example_first(tests: list[dict[str, str]]) -> None:
    """Move the test shown as the example to the front: the one with the most output lines among
    those with a short input (the shortest input if none is short)."""
    short = [i for i, t in enumerate(tests) if len(t["stdin"]) <= 250]
    if short:
        best = max(short, key=lambda i: (tests[i]["stdout"].count("\n"), -i))
    else:
        best = min(range(len(tests)), key=lambda i: len(tests[i]["stdin"]))
    tests.insert(0, tests.pop(best))


# --- queries ---------------------------------------------------------------------------------

@functools.cache
def _run_queries(count: str = ACTIONS["count"]) -> Callable[[list[int], list[tuple[Any, ...]]], list[str]]:
    """The trusted reference, ``run(a, queries)`` with queries as (kind, *1-based arguments): the reference
    program's own statements (``ACTIONS``) compiled in-process, so each query is written once (``count``: the
    count query's statement, replaced by :data:`COUNT_SLIP` to run the slip)."""
    actions = {**ACTIONS, "count": count}
    branches = "".join(f"        {'el' if number else ''}if kind == {kind!r}:\n            {', '.join(KINDS[kind][0])}, = values\n"
                       f"            {actions[kind]}\n" for number, kind in enumerate(KINDS))
    return compiled_function(f"def run(a, queries):\n    a = list(a)\n    out = []\n    for kind, *values in queries:\n"
                             f"{branches}    return out\n", "run")


def _random_query(rng: random.Random, kind: str, a: list[int], value: int) -> tuple[Any, ...]:
    """A query on the array ``a`` (its first values: a count's threshold is one of them half the time, so the
    boundary of "greater than" is tested)."""
    n = len(a)
    left = rng.randint(1, n)
    right = rng.randint(left, n)
    if kind in ("sum", "max", "min", "reverse"):
        return (kind, left, right)
    if kind == "count":
        return (kind, left, right, rng.choice(a[left - 1:right]) if rng.random() < 0.5 else rng.randint(-value, value))
    if kind == "set":
        return (kind, rng.randint(1, n), rng.randint(-value, value))
    if kind == "add":
        return (kind, left, right, rng.randint(-value // 2, value // 2))
    return (kind, rng.randint(1, n), rng.randint(1, n))  # swap


def _queries(
    rng: random.Random, config: StdioQueries.Config
) -> tuple[str, list[dict[str, str]], str, dict[str, Any]] | None:
    printing = rng.sample(PRINTING, rng.randint(1, min(config.kinds - 1, len(PRINTING))))
    others = [k for k in KINDS if k not in PRINTING]
    kinds = printing + rng.sample(others, config.kinds - len(printing))
    words = dict(zip(kinds, rng.sample(WORDS, len(kinds))))
    tests, cases = [], []
    for t in range(config.tests):
        n = 1 if t == config.tests - 1 and config.tests > 3 else rng.randint(1, config.max_n)
        q = rng.randint(1, config.max_q)
        a = random_ints(rng, n, -config.value, config.value)
        queries = [_random_query(rng, rng.choice(kinds), a, config.value) for _ in range(q)]
        if not any(query[0] in PRINTING for query in queries):
            queries.append(_random_query(rng, printing[0], a, config.value))
        lines = [f"{n} {len(queries)}", " ".join(map(str, a))]
        lines += [" ".join([words[query[0]], *map(str, query[1:])]) for query in queries]
        tests.append({"stdin": "\n".join(lines) + "\n", "stdout": "\n".join(_run_queries()(a, queries)) + "\n"})
        cases.append((a, queries))
    for kind in kinds:  # a program ignoring any one kind of query fails some test
        if all(_run_queries()(a, [q for q in queries if q[0] != kind]) == _run_queries()(a, queries)
               for a, queries in cases):
            return None
    if "count" in kinds and all(_run_queries(COUNT_SLIP)(a, queries) == _run_queries()(a, queries) for a, queries in cases):
        return None  # counting ">= x" passed 58-95% of problems with a count query: a test must tell it apart
    described = "\n".join("- " + KINDS[k][2].format(w=words[k]) for k in kinds)
    text = (
        "Write a Python program that reads from standard input an array a[1..n] of integers and a list of "
        "queries, and answers them in order.\n\n"
        "Input: the first line holds n and q; the second line holds the n integers a[1], ..., a[n]; each of "
        "the next q lines holds one query. Positions are 1-based, a[l..r] means a[l], a[l+1], ..., a[r] "
        "(always 1 <= l <= r <= n, and 1 <= i, j <= n). The queries are:\n"
        f"{described}\n\n"
        "Output: one line for each query that prints, in order. Queries change the array for all later queries."
    )
    return text, tests, _queries_source(kinds, words), {"template": "queries", "words": words}


def _queries_source(kinds: list[str], words: dict[str, str]) -> str:
    branches = []
    for number, kind in enumerate(kinds):
        args = KINDS[kind][0]
        keyword = "if" if number == 0 else "elif"
        unpack = ", ".join(args) + (" = " if len(args) > 1 else ", = ") + "values"
        branches.append(CODE("branch", keyword=keyword, word=words[kind], fields=len(args) + 1, unpack=unpack,
                             action=ACTIONS[kind]))
    return (
        CODE("head") + "".join(branches)
        + "    print('\\n'.join(out))\n\n\n"
        "main()\n"
    )


# --- cases -----------------------------------------------------------------------------------

def _cases(
    rng: random.Random, config: StdioQueries.Config
) -> tuple[str, list[dict[str, str]], str, dict[str, Any]] | None:
    pipeline = pl.draw_pipeline(rng, pl.ARRAYS, config.steps, ("filter", "map", "order", "window"), reduce_chance=1.0)
    tests, lists = [], []
    for _ in range(config.tests):
        cases = [random_ints(rng, rng.randint(1, config.max_n), -config.value, config.value)
                 for _ in range(rng.randint(1, max(2, config.max_q // 3)))]
        lines = [str(len(cases))]
        for xs in cases:
            lines += [str(len(xs)), " ".join(map(str, xs))]
        answers = [str(pl.apply_pipeline(pipeline, xs, pl.ARRAYS)) for xs in cases]
        lists += cases
        tests.append({"stdin": "\n".join(lines) + "\n", "stdout": "\n".join(answers) + "\n"})
    if not pl.pinned_down(pipeline, lists, pl.ARRAYS):
        return None
    steps = pl.describe_pipeline(pipeline, pl.ARRAYS)  # it ends in a reduction
    text = (
        "Write a Python program that reads several test cases from standard input and prints one answer per "
        "test case.\n\n"
        "Input: the first line holds the number of test cases T. Each test case is two lines: the first holds "
        "n (n >= 1), the second the n integers of a list xs.\n\n"
        f"For each test case, apply these steps to xs in order and print the resulting number on its own line:\n"
        f"{steps}"
    )
    function = pl.render_pipeline(pipeline, pl.ARRAYS)
    source = (
        "import sys\n"
        + ("" if function.startswith("import") else "\n\n")
        + f"{function}\n\n"
        "def main():\n"
        "    data = sys.stdin.read().split()\n"
        "    t = int(data[0])\n"
        "    pos = 1\n"
        "    out = []\n"
        "    for _ in range(t):\n"
        "        n = int(data[pos])\n"
        "        xs = [int(v) for v in data[pos + 1:pos + 1 + n]]\n"
        "        pos += 1 + n\n"
        "        out.append(str(solve(xs)))\n"
        "    print('\\n'.join(out))\n\n\n"
        "main()\n"
    )
    return text, tests, source, {"template": "cases", "pipeline": pipeline}
