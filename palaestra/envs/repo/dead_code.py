"""Remove the dead code of a generated Python repository: every function nothing reachable from the tests uses.

The package's functions are used by the visible tests directly or through calls across modules (a tested
function calls one of an earlier module, and so on). Others are dead: a function nothing calls, a function
that calls live ones but is itself never called, a chain of dead functions calling each other (a function
called only by dead ones is dead too). The request: delete every dead function, and every import of one,
keeping every live function working in its module. The agent reads the code, follows the calls, deletes
with exact edits (the tests are read-only), runs the tests and answers ``submit``.

Judged on the final repository (:mod:`palaestra.envs.repo.common`): no package module mentions a dead
function's name as a whole identifier, and hidden tests call every live function (the tested ones and
those they call, directly), so deleting a live one fails. Levels grow the dead functions, the dead chains'
length, the live chains and the modules; the difficulty is two per dead function plus one per live one plus
the modules.
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
    hidden_code,
    intro,
    mentions,
    name_for,
    new_repository,
)


@register
class DeadCode(RepoTask):
    id = "repo/dead_code"
    family = "repo"
    description = "Delete every function of a generated Python repository that nothing reachable from its tests uses."
    tags = ("repo", "multi-turn", "tools", "code", "refactoring", "agentic")

    @dataclass(frozen=True)
    class Config:
        modules: int
        live: int  # tested chains
        depth: int  # calls in a live chain (at most)
        dead: int  # dead functions
        budget: int

    presets = (
        Config(2, 1, 1, 1, 8),
        Config(2, 2, 1, 2, 10),
        Config(3, 2, 2, 3, 12),
        Config(4, 3, 2, 4, 14),
        Config(5, 3, 3, 5, 16),
    )
    growth = Growth(steps={"modules": 1, "live": 1, "depth": 1, "dead": 1, "budget": 2},
                    limits={"modules": 10, "live": 6, "depth": 5, "dead": 12, "budget": 40})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a repository with dead code", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, _ = new_repository(rng, config.modules)
        taken: set[str] = set()
        live: list[Function] = []
        tested: list[tuple[Function, list[tuple[list[Any], Any]]]] = []
        hidden: list[list[Any]] = []
        for leaf in rng.sample(tpl.LEAVES, config.live):
            position = rng.randrange(config.modules)
            function = repository.add_leaf(rng, taken, leaf, repository.modules[position])
            live.append(function)
            for _ in range(rng.randint(0, config.depth)):
                wrapper = rng.choice(tpl.WRAPPERS)
                position = rng.randint(position, config.modules - 1)
                function = repository.add(Function(
                    name_for(rng, taken, tuple(f"{p}_{function.leaf().name}" for p in wrapper.names)),
                    repository.modules[position], "wrapper", wrapper.key, leaf.params, inner=function))
                live.append(function)
            cases = draw_cases(rng, function, 2, False)
            if cases is None:
                return None
            tested.append((function, cases))
        dead: list[Function] = []
        while len(dead) < config.dead:
            kind = rng.choice(("leaf", "caller", "chain"))
            if kind == "caller" or (kind == "chain" and dead and len(dead) + 1 <= config.dead):
                # A dead wrapper around a live function, or around a dead one (a dead chain).
                inner = rng.choice(live if kind == "caller" or not dead else dead)
                wrapper = rng.choice(tpl.WRAPPERS)
                start = repository.modules.index(inner.module)
                dead.append(repository.add(Function(
                    name_for(rng, taken, tuple(f"{p}_{inner.leaf().name}" for p in wrapper.names)),
                    repository.modules[rng.randint(start, config.modules - 1)], "wrapper", wrapper.key, inner.params,
                    inner=inner)))
            else:
                leaf = rng.choice(tpl.LEAVES)
                dead.append(repository.add_leaf(rng, taken, leaf))
        for function in live:
            cases = draw_cases(rng, function, 2, False)
            if cases is None:
                return None
            hidden += repository.cases_for(function, cases)
        rng.shuffle(tested)
        files = repository.files(tested)
        target = repository.files(tested, omit=frozenset(f.name for f in dead))
        prompt = (
            f"{intro(repository.package)} "
            "Remove its dead code: delete every function of the package that the tests do not use, "
            "directly or through other functions (a function used only by dead functions is dead too), and "
            "every import of a deleted function. Keep every other function working where it is. The test files "
            "are read-only; hidden tests call the functions that must stay.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        changes = changes_between(files, target)
        data = {"files": files, "hidden": hidden, "budget": config.budget, "changes": changes,
                "dead": [f.name for f in dead], "live": len(live), "modules": config.modules}
        problem = Problem(prompt=prompt, answer=SUBMIT, data=data)
        if self.check_files(problem, target) is not None:  # a dead name inside a live one's text: redraw
            return None
        return problem

    def check_files(self, problem: Problem, files: Any) -> str | None:
        hidden = hidden_code(files)  # a name hidden in a string escapes the check of the text
        if hidden is not None:
            return hidden
        kept = sorted(name for name in problem.data["dead"]
                      if any(mentions(text, name) for path, text in files.items() if not path.startswith("tests/")))
        if kept:
            return f"{len(kept)} dead function(s) still in the package"
        return None

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["changes"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 2 * len(data["dead"]) + data["live"] + data["modules"]
