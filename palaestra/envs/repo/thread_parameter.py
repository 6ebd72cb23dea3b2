"""Add an optional parameter to a function of a generated Python repository and thread it through all its callers.

The package has a function ``L`` (windows of sums, a running maximum, chunks, a merge...) that other functions
call across modules, directly or through other functions (a tree of callers, several chains deep). The
request: give ``L`` a new last parameter (``limit=None``, or another name) with which it uses only the first
``limit`` items of its first argument (all of them when it is None), and give the same last parameter to
every function that calls ``L`` directly or indirectly, passing it down unchanged (they behave as before
otherwise). The prompt names ``L`` only: the agent finds the callers (search, read), edits the signatures
and calls with exact edits (tests read-only), runs the visible tests (the callers' tests with a limit fail
until the parameter reaches them) and answers ``submit``.

Judged by hidden tests on the final repository (:mod:`palaestra.envs.repo.common`): ``L`` and every function
of the tree of its callers, with the new parameter given (positionally, last) and without it; the expected
values come from the target repository's own text, and one call of each has a limit of 0 (no items: in
version 1 every limit was at least 1, and ``if limit:``, which takes 0 for None, passed 1.0 of the problems;
now 0). Truncating the input in a caller instead of in ``L`` changes what the caller reports about its input,
and fails. Levels grow the chains, their depth and the
modules; the difficulty is two per function to change plus the modules.

Generation speed: about 700-1,000 problems/s at level 4 (near the line). Each function of the caller tree is
compiled from the target repository's text and run on drawn inputs, with and without a limit, until enough
calls whose result the limit changes are found: the hidden tests' expected values come from that text.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

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
    intro,
    name_for,
    new_repository,
)

PARAMETER_NAMES = ("limit", "max_items", "first_n", "head")
LIST_FIRST = tuple(leaf for leaf in tpl.LEAVES if leaf.key != "parse_pairs")  # the first argument is a list


@register
class ThreadParameter(RepoTask):
    id = "repo/thread_parameter"
    family = "repo"
    description = "Add an optional parameter to a function and to every function calling it, directly or not."
    tags = ("repo", "multi-turn", "tools", "code", "agentic")
    version = 2  # v2: a call with a limit of 0 for every changed function

    @dataclass(frozen=True)
    class Config:
        modules: int
        chains: int  # chains of callers above the function
        depth: int  # callers in a chain (at most)
        others: int
        budget: int

    presets = (
        Config(2, 1, 1, 1, 8),
        Config(3, 1, 2, 1, 10),
        Config(3, 2, 2, 2, 12),
        Config(4, 2, 3, 2, 14),
        Config(5, 3, 3, 3, 16),
    )
    growth = Growth(steps={"modules": 1, "chains": 1, "depth": 1, "others": 1, "budget": 3},
                    limits={"modules": 10, "chains": 5, "depth": 5, "others": 5, "budget": 45})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a repository and a parameter to thread", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, _ = new_repository(rng, config.modules)
        taken: set[str] = set()
        leaf = rng.choice(LIST_FIRST)
        parameter = rng.choice([name for name in PARAMETER_NAMES if name not in leaf.params.split(", ")])
        start = rng.randrange(config.modules)
        base = repository.add_leaf(rng, taken, leaf, repository.modules[start])
        callers: list[Function] = []
        tops: list[Function] = []
        for _ in range(config.chains):
            function, position = base, start
            # A chain may branch off an earlier chain's caller: the callers form a tree.
            if callers and rng.random() < 0.4:
                function = rng.choice(callers)
                position = repository.modules.index(function.module)
            for _ in range(rng.randint(1, config.depth)):
                wrapper = rng.choice(tpl.WRAPPERS)
                position = rng.randint(position, config.modules - 1)
                function = repository.add(Function(
                    name_for(rng, taken, tuple(f"{p}_{base.name}" for p in wrapper.names)),
                    repository.modules[position], "wrapper", wrapper.key, leaf.params, inner=function))
                callers.append(function)
            tops.append(function)
        others = [other for other in tpl.LEAVES if other is not leaf]
        distractors = [repository.add_leaf(rng, taken, other)
                       for other in (rng.choice(others) for _ in range(config.others))]
        plain: dict[str, list[tuple[list[Any], Any]]] = {}
        for function in [base, *callers, *distractors]:
            cases = draw_cases(rng, function, 2, False)
            if cases is None:
                return None
            plain[function.name] = cases
        files = repository.files([])
        first = leaf.params.split(",")[0].strip()
        base.signature = f"{leaf.params}, {parameter}=None"
        base.prelude = f"    if {parameter} is not None:\n        {first} = {first}[:{parameter}]\n"
        for caller in callers:
            caller.signature = f"{leaf.params}, {parameter}=None"
            caller.call_args = f"{leaf.params}, {parameter}"
        tested: list[tuple[Function, list[tuple[list[Any], Any]]]] = []
        hidden: list[list[Any]] = []
        for function in [base, *callers]:
            limited = _limited_cases(rng, function, count=4)
            if limited is None:
                return None
            if function in tops:
                tested.append((function, [limited[0], plain[function.name][0]]))
            hidden += repository.cases_for(function, limited + plain[function.name])
        for function in distractors:
            tested.append((function, plain[function.name][:1]))
            hidden += repository.cases_for(function, plain[function.name])
        rng.shuffle(tested)
        target = repository.files(tested)
        files.update({path: text for path, text in target.items() if path.startswith("tests/")})
        prompt = (
            f"{intro(repository.package)} "
            f"Add a new last parameter `{parameter}` with the default value None to the function "
            f"`{base.name}` in {repository.path(base.module)}: when `{parameter}` is not None, `{base.name}` uses "
            f"only the first `{parameter}` items of its argument `{first}` (all of them when it is None). Then add "
            f"the same last parameter `{parameter}=None` to every function of the package that calls "
            f"`{base.name}`, directly or through other functions, each passing it down unchanged and otherwise "
            "behaving as before. The test files are read-only; hidden tests call these functions with and without "
            f"`{parameter}`.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        changes = changes_between(files, target)
        data = {"files": files, "hidden": hidden, "budget": config.budget, "changes": changes,
                "changed": 1 + len(callers), "modules": config.modules}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["changes"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 2 * data["changed"] + data["modules"]


def _limited_cases(rng: random.Random, function: Function, count: int) -> list[tuple[list[Any], Any]] | None:
    """``count`` calls of the changed ``function`` with the new parameter given, each limiting the input enough to
    change the result (its expected value from the changed text); the last one's limit is 0 (no items: a check
    ``if limit:`` takes 0 for None and uses them all)."""
    changed = function.compiled()
    draw = tpl.LEAF_BY_KEY[function.leaf().key].draw
    cases: list[tuple[list[Any], Any]] = []
    for _ in range(40 * count):
        if len(cases) == count:
            break
        args = draw(rng)
        if len(args[0]) < 2:
            continue
        limit = rng.randrange(1, len(args[0])) if len(cases) < count - 1 else 0
        expected = changed(*tpl.copied(args), limit)
        if expected != changed(*tpl.copied(args)):
            cases.append(([*args, limit], expected))
    return cases if len(cases) == count else None
