"""Make the slow functions of a generated Python repository fast on large inputs, keeping their behaviour.

Some functions of the package are written with a quadratic algorithm (a running maximum taking the maximum of
every prefix, a dedupe testing membership in a list, a spread comparing every pair, window sums re-adding
every window, a merge inserting item by item): right on the small inputs of the tests, far too slow on tens
of thousands of items. The visible tests include a timed test on a large input per slow function (it fails).
At levels 0-1 the prompt names the slow function; from level 2 it names only the tested functions, which
reach the slow ones through calls across modules. The agent finds the slow code, rewrites it in about
linear time (``n log n`` at most) with exact edits (tests read-only), runs the tests and answers ``submit``.

Judged by hidden tests on the final repository (:mod:`palaestra.envs.repo.common`), each with a time limit of
one second: small inputs (the behaviour, empty inputs included, and window sums on fewer values than the size:
in version 1 a sliding sum that gave one sum there passed 1.0 of its problems, now 0) and large generated inputs (built inside the
sandbox; the result compared by its hash), on the slow functions themselves and on the tested ones. The
quadratic versions take several seconds on the large inputs; linear ones a few milliseconds. The expected
values come from independent fast implementations in this module. Levels grow the slow functions, the calls
above them and the modules; the difficulty is four per slow function plus two per call plus the modules plus a
tenth of the package's lines.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.repo import _templates as tpl
from palaestra.envs.repo.common import (
    SUBMIT,
    Function,
    RepoTask,
    changes_between,
    draw_cases,
    edit_calls,
    expand,
    generated,
    intro,
    name_for,
    new_repository,
    package_lines,
)

MODULUS = 1_000_003


def _window_sums(values: list[int], size: int) -> list[int]:
    prefix = [0, *itertools.accumulate(values)]
    return [prefix[start + size] - prefix[start] for start in range(len(values) - size + 1)]


@dataclass(frozen=True)
class Slow:
    source: str  # the quadratic version, ``NAME`` for its name
    fast: Callable[..., Any]  # an independent fast implementation (expected values on large inputs)
    large: Callable[[random.Random], list[Any]]  # large arguments (generated inside the sandbox)
    fast_source: str | None = None  # the oracle's fast version when the leaf's template is not fast
    edges: tuple[list[Any], ...] = ()  # small arguments at an edge a fast rewrite may miss (besides empty ones)


def _ints(rng: random.Random, count: int, ordered: bool = False) -> dict[str, Any]:
    return generated(count, rng.choice((7919, 104729, 15485863)), rng.randint(1, 999), MODULUS, ordered)


SLOW: dict[str, Slow] = {
    "running_max": Slow(
        "def NAME(values):\n"
        "    peaks = []\n"
        "    for index in range(len(values)):\n"
        "        peaks.append(max(values[:index + 1]))\n"
        "    return peaks\n",
        lambda values: list(itertools.accumulate(values, max)),
        lambda rng: [_ints(rng, 30_000)]),
    "dedupe": Slow(
        "def NAME(items):\n"
        "    kept = []\n"
        "    for item in items:\n"
        "        if item not in kept:\n"
        "            kept.append(item)\n"
        "    return kept\n",
        lambda items: list(dict.fromkeys(items)),
        lambda rng: [_ints(rng, 30_000)]),
    "spread": Slow(
        "def NAME(values):\n"
        "    widest = 0\n"
        "    for first in values:\n"
        "        for second in values:\n"
        "            widest = max(widest, first - second)\n"
        "    return widest\n",
        lambda values: max(values) - min(values) if values else 0,
        lambda rng: [_ints(rng, 8_000)]),
    "window_sums": Slow(
        "def NAME(values, size):\n"
        "    sums = []\n"
        "    for start in range(len(values) - size + 1):\n"
        "        sums.append(sum(values[start:start + size]))\n"
        "    return sums\n",
        _window_sums,
        lambda rng: [_ints(rng, 80_000), rng.randint(35_000, 45_000)],
        "def NAME(values, size):\n"
        "    sums = []\n"
        "    total = sum(values[:size])\n"
        "    for start in range(len(values) - size + 1):\n"
        "        if start:\n"
        "            total += values[start + size - 1] - values[start - 1]\n"
        "        sums.append(total)\n"
        "    return sums\n",
        # v2: fewer values than the size (a sliding sum seeded with sum(values[:size]) gives one sum, not none).
        ([[4, -1], 3], [[6], 2], [[2, 9, 5], 3])),
    "merge": Slow(
        "def NAME(left, right):\n"
        "    merged = list(left)\n"
        "    for item in right:\n"
        "        position = 0\n"
        "        while position < len(merged) and merged[position] <= item:\n"
        "            position += 1\n"
        "        merged.insert(position, item)\n"
        "    return merged\n",
        lambda left, right: sorted(left + right),
        lambda rng: [_ints(rng, 6_000, True), _ints(rng, 6_000, True)]),
}
SLOW_LEAVES = tuple(leaf for leaf in tpl.LEAVES if leaf.key in SLOW)


@register
class PerformanceFix(RepoTask):
    id = "repo/performance_fix"
    family = "repo"
    description = "Rewrite the quadratic functions of a generated Python repository to be fast, keeping behaviour."
    tags = ("repo", "multi-turn", "tools", "code", "performance", "agentic")
    version = 2  # v2: window sums on fewer values than the size in the hidden tests
    test_seconds: ClassVar[float] = 12.0  # the visible timed tests stop a slow function after a second each

    @dataclass(frozen=True)
    class Config:
        modules: int
        named: bool  # the prompt names the slow functions (else only the tested ones above them)
        slow: int
        depth: int  # calls above a slow function
        others: int
        budget: int

    presets = (
        Config(1, True, 1, 0, 1, 6),
        Config(2, True, 1, 1, 1, 8),
        Config(3, False, 2, 1, 2, 10),
        Config(3, False, 2, 2, 2, 12),
        Config(4, False, 3, 2, 3, 14),
    )
    growth = Growth(steps={"modules": 1, "slow": 1, "depth": 1, "others": 1, "budget": 2},
                    limits={"modules": 14, "slow": 5, "depth": 5, "others": 10, "budget": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a repository with slow functions", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, _ = new_repository(rng, config.modules)
        taken: set[str] = set()
        slow_leaves = rng.sample(SLOW_LEAVES, config.slow)
        tested: list[tuple[Function, list[tuple[list[Any], Any]]]] = []
        hidden: list[list[Any]] = []
        slow_texts: dict[str, str] = {}
        tops: list[Function] = []
        calls = 0
        fixes: list[Function] = []
        large: list[list[Any]] = []
        for leaf in slow_leaves:
            position = rng.randrange(config.modules)
            base = repository.add_leaf(rng, taken, leaf, repository.modules[position])
            fixes.append(base)
            function = base
            for _ in range(config.depth):
                wrapper = rng.choice(tpl.WRAPPERS)
                position = rng.randint(position, config.modules - 1)
                function = repository.add(Function(
                    name_for(rng, taken, tuple(f"{p}_{base.name}" for p in wrapper.names)),
                    repository.modules[position], "wrapper", wrapper.key, leaf.params, inner=function))
                calls += 1
            tops.append(function)
            small = draw_cases(rng, function, 3, False)
            direct = draw_cases(rng, base, 2, False)
            if small is None or direct is None:
                return None
            slow = SLOW[leaf.key]
            empty_args: list[Any] = [[], []] if leaf.key == "merge" else [[]] + ([1] if "," in leaf.params else [])
            edges = [empty_args, *slow.edges]
            hidden += repository.cases_for(base, [*direct, *[(args, slow.fast(*args)) for args in edges]])
            hidden += repository.cases_for(function, small)
            # Large cases: their expected values are computed when judging (generation stays fast).
            large.append([repository.dotted(base.module), base.name, slow.large(rng), leaf.key])
            tested.append((function, small[:2]))
            slow_texts[base.name] = slow.source.replace("NAME", base.name)
        for leaf in (rng.choice([x for x in tpl.LEAVES if x not in slow_leaves]) for _ in range(config.others)):
            function = repository.add_leaf(rng, taken, leaf)
            cases = draw_cases(rng, function, 2, False)
            if cases is None:
                return None
            tested.append((function, cases[:1]))
            hidden += repository.cases_for(function, cases)
        rng.shuffle(tested)
        fast_files = repository.files(tested)
        files = dict(fast_files)
        for base in fixes:
            path = repository.path(base.module)
            files[path] = files[path].replace(base.text(), slow_texts[base.name])
            fast_source = SLOW[base.key].fast_source
            if fast_source is not None:
                fast_files[path] = fast_files[path].replace(base.text(), fast_source.replace("NAME", base.name))
        for top, base in zip(tops, fixes):
            files[f"tests/test_{top.name}.py"] += _timed_test(top, SLOW[base.key], rng)
        target = {**fast_files, **{p: t for p, t in files.items() if p.startswith("tests/")}}
        if config.named:
            focus = "The function" + ("s " if len(fixes) > 1 else " ") + ", ".join(
                f"`{f.name}` in {repository.path(f.module)}" for f in fixes) + (" are" if len(fixes) > 1 else " is")
        else:
            focus = "The functions " + ", ".join(f"`{t.name}`" for t in tops) + " are"
        prompt = (
            f"{intro(repository.package)} "
            f"{focus} far too slow on large inputs (tens of thousands of items): find the slow code "
            "and rewrite it to run in about linear time (n log n at most), keeping the behaviour exactly the same "
            "on every input, empty ones included. The test files are read-only; hidden tests, each with a time "
            "limit of one second, check the behaviour and the speed.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        changes = changes_between(files, target)
        data = {"files": files, "hidden": hidden, "large": large, "budget": config.budget, "changes": changes,
                "slow": config.slow, "calls": calls, "modules": config.modules}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def hidden_cases(self, problem: Problem, files: Any) -> list[list[Any]]:
        large = [[module, name, args, SLOW[key].fast(*[expand(a) for a in args])]
                 for module, name, args, key in problem.data["large"]]
        return [*problem.data["hidden"], *large]

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["changes"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 4 * data["slow"] + 2 * data["calls"] + data["modules"] + package_lines(data["files"]) / 10


def _timed_test(function: Function, slow: Slow, rng: random.Random) -> str:
    """A visible test: ``function`` on a large generated input, stopped after a second (an alarm)."""
    arguments = []
    for value in slow.large(rng):
        if isinstance(value, dict):
            count, step, offset, modulus, ordered = value["__ints__"]
            listed = f"[(i * {step} + {offset}) % {modulus} for i in range({count})]"
            arguments.append(f"sorted({listed})" if ordered else listed)
        else:
            arguments.append(repr(value))
    return (
        f"\n\ndef test_{function.name}_large_input():\n"
        "    import signal\n\n"
        "    def too_slow(*_):\n"
        "        raise TimeoutError(\"more than 1 s on a large input\")\n\n"
        f"    arguments = ({', '.join(arguments)},)\n"
        "    signal.signal(signal.SIGALRM, too_slow)\n"
        "    signal.setitimer(signal.ITIMER_REAL, 1.0)\n"
        "    try:\n"
        f"        {function.name}(*arguments)\n"
        "    finally:\n"
        "        signal.setitimer(signal.ITIMER_REAL, 0)\n"
    )
