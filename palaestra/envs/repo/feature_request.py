"""Implement requested functions in a generated Python repository, from a written specification, with repository tools.

The repository is a package of modules of small working functions with passing tests. The request names
one or more new functions: the module each belongs in, its signature, and what it returns, in one exact
sentence (the sums of every window of ``size`` values, a sorted merge, the count above a limit...). Each
new function already has visible tests (they fail: the function does not exist yet); from level 2 an
existing function of a later module already calls one of them (its module fails to import until the
feature exists). The agent reads the code, adds the functions with edits (an empty ``old`` on a new path
creates a file; here the functions go into existing modules), runs the tests and answers ``submit``.

Judged by hidden tests on the final repository (:mod:`palaestra.envs.repo.common`): each new function on
more inputs and on its edge inputs (the empty ones, and fewer values than a window's size: in version 1 none
was tested, and implementations failing the edge the request states, ``max(values) - min(values)`` for "0 for
an empty list" or a sliding sum giving one sum for fewer values, passed 1.0 of their problems; now 0), called
from its module, the callers, and the existing functions' cases; any correct implementation passes. Levels grow the requested functions, the modules and the callers already wired;
the difficulty is three per requested function plus two per wired caller plus a tenth of the package's
lines.
"""

from __future__ import annotations

import random
from collections.abc import Callable
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
    package_lines,
)

# Edge inputs of each template, made from a draw of its arguments: the empty ones (the result each sentence
# implies: no sums, 0, no items, an empty dict...), and fewer values than a window's size.
EDGES: dict[str, Callable[[list[Any]], list[list[Any]]]] = {
    "window_sums": lambda a: [[[], a[1]], [a[0][:1], 2], [a[0][:2], 3]],
    "count_above": lambda a: [[[], a[1]]],
    "running_max": lambda a: [[[]]],
    "dedupe": lambda a: [[[]]],
    "clamp": lambda a: [[[], a[1], a[2]]],
    "weighted_total": lambda a: [[[], []]],
    "chunks": lambda a: [[[], a[1]]],
    "initials": lambda a: [[[]]],
    "parse_pairs": lambda a: [[""]],
    "merge": lambda a: [[[], a[1]], [a[0], []]],
    "spread": lambda a: [[[]]],
}


@register
class FeatureRequest(RepoTask):
    id = "repo/feature_request"
    family = "repo"
    description = "Implement requested functions, specified in one exact sentence each, in a generated Python repository."
    tags = ("repo", "multi-turn", "tools", "code", "agentic")
    version = 2  # v2: each new function on its edge inputs (empty ones, fewer values than a window)

    @dataclass(frozen=True)
    class Config:
        modules: int
        features: int
        existing: int  # working functions already there
        wired: int  # new functions an existing function already calls
        budget: int

    presets = (
        Config(2, 1, 1, 0, 6),
        Config(3, 1, 2, 0, 8),
        Config(3, 2, 2, 1, 10),
        Config(4, 2, 3, 1, 12),
        Config(5, 3, 3, 2, 14),
    )
    growth = Growth(steps={"modules": 1, "features": 1, "existing": 2, "wired": 1, "budget": 3},
                    limits={"modules": 12, "features": 6, "existing": 14, "wired": 4, "budget": 40})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a repository and a feature request", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, _ = new_repository(rng, config.modules)
        taken: set[str] = set()
        features = rng.sample(tpl.LEAVES, config.features)
        others = [leaf for leaf in tpl.LEAVES if leaf not in features]
        tested: list[tuple[Function, list[tuple[list[Any], Any]]]] = []
        hidden: list[list[Any]] = []
        for leaf in [rng.choice(others) for _ in range(config.existing)]:
            function = repository.add_leaf(rng, taken, leaf)
            cases = draw_cases(rng, function, 2, differing=False)
            if cases is None:
                return None
            tested.append((function, cases))
            hidden += repository.cases_for(function, cases)
        new: list[Function] = []
        for index, leaf in enumerate(features):
            # A wired feature lives in a module before the last, so that a later module can call it.
            position = rng.randrange(max(config.modules - 1, 1)) if index < config.wired else rng.randrange(
                config.modules)
            function = repository.add_leaf(rng, taken, leaf, repository.modules[position])
            new.append(function)
            visible, more = draw_cases(rng, function, 2, False), draw_cases(rng, function, 4, False)
            if visible is None or more is None:
                return None
            tested.append((function, visible))
            edges = [(args, function.behaviour()(*tpl.copied(args))) for args in EDGES[leaf.key](visible[0][0])]
            hidden += repository.cases_for(function, visible + more + edges)
            if index < config.wired:
                wrapper = rng.choice(tpl.WRAPPERS)
                caller = repository.add(Function(
                    name_for(rng, taken, tuple(f"{prefix}_{function.name}" for prefix in wrapper.names)),
                    repository.modules[rng.randint(position + 1, config.modules - 1)], "wrapper", wrapper.key,
                    leaf.params, inner=function))
                cases = draw_cases(rng, caller, 3, False)
                if cases is None:
                    return None
                tested.append((caller, cases[:1]))
                hidden += repository.cases_for(caller, cases)
        rng.shuffle(tested)
        omit = frozenset(f.name for f in new)
        files = repository.files(tested, omit=omit)
        target = repository.files(tested)
        requests = "\n".join(
            f"- in {repository.path(f.module)}: `{f.name}({f.params})`, returning "
            f"{tpl.LEAF_BY_KEY[f.key].doc}." for f in new)
        prompt = (
            f"{intro(repository.package)} "
            "Implement these new functions, each in the module named, with exactly this signature:\n"
            f"{requests}\n"
            "Some visible tests already use them. The test files are read-only; hidden tests check the new "
            "functions on other inputs, and the package's other functions too.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        changes = changes_between(files, target)
        data = {"files": files, "hidden": hidden, "budget": config.budget, "changes": changes,
                "features": len(new), "wired": config.wired}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["changes"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 3 * data["features"] + 2 * data["wired"] + package_lines(data["files"]) / 10
