"""Break the circular imports of a generated Python repository, keeping every function where it is.

The package's modules import functions from one another at the top (a function of a later module calls
one of an earlier module). Someone added a call the other way: a function of an early module now calls a
function of a later one, importing it at the top, which closes a cycle of imports (two modules importing
each other, or a longer ring); importing any module of the cycle fails (``ImportError``: a partially
initialised module), and so do the tests of everything that imports it. From level 2 there are several
cycles. The request: make every module importable again, with every function still importable from its
module and behaving as before. The agent may import inside the function, import the module instead of the
name, or move code: any fix that keeps the functions where the tests and callers find them passes.

Judged by hidden tests on the final repository (:mod:`palaestra.envs.repo.common`): every function of the
package, called from its own module (so deleting the new call or moving a function away fails). Levels grow
the cycles, their length and the modules; the difficulty is three per cycle plus two per module in a cycle
plus the modules plus a twentieth of the package's lines.
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
    package_lines,
)


@register
class CircularImport(RepoTask):
    id = "repo/circular_import"
    family = "repo"
    description = "Break the circular imports of a generated Python repository, keeping every function where it is."
    tags = ("repo", "multi-turn", "tools", "code", "debugging", "agentic")

    @dataclass(frozen=True)
    class Config:
        modules: int
        cycles: int
        length: int  # modules in a cycle (sometimes one fewer)
        others: int  # functions outside the cycles
        budget: int

    presets = (
        Config(2, 1, 2, 1, 8),
        Config(3, 1, 3, 1, 10),
        Config(4, 2, 3, 2, 12),
        Config(5, 2, 4, 2, 14),
        Config(6, 3, 4, 3, 16),
    )
    growth = Growth(steps={"modules": 1, "cycles": 1, "length": 1, "others": 1, "budget": 2},
                    limits={"modules": 16, "cycles": 8, "length": 8, "others": 10, "budget": 40})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a repository with import cycles", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, _ = new_repository(rng, config.modules)
        taken: set[str] = set()
        functions: list[Function] = []
        back: list[Function] = []  # the calls that close a cycle
        leaves = [leaf for _ in range(config.cycles) for leaf in rng.sample(tpl.LEAVES, 2)]
        in_cycles = 0
        for number in range(config.cycles):
            longest = min(config.length, config.modules)
            length = longest - (longest > 2 and rng.random() < 0.3)
            in_cycles += length
            ring = sorted(rng.sample(range(config.modules), length))
            # A chain up the ring (each function calls the previous one, a module earlier) ...
            leaf = leaves[2 * number]
            function = repository.add_leaf(rng, taken, leaf, repository.modules[ring[0]])
            functions.append(function)
            for position in ring[1:]:
                wrapper = rng.choice(tpl.WRAPPERS)
                function = repository.add(Function(
                    name_for(rng, taken, tuple(f"{p}_{leaf.names[0]}" for p in wrapper.names)),
                    repository.modules[position], "wrapper", wrapper.key, leaf.params, inner=function))
                functions.append(function)
            # ... and a call back down: a function of the ring's first module calls one of its last.
            other = leaves[2 * number + 1]
            target = repository.add_leaf(rng, taken, other, repository.modules[ring[-1]])
            wrapper = rng.choice(tpl.WRAPPERS)
            closing = repository.add(Function(
                name_for(rng, taken, tuple(f"{p}_{target.name}" for p in wrapper.names)),
                repository.modules[ring[0]], "wrapper", wrapper.key, other.params, inner=target))
            functions += [target, closing]
            back.append(closing)
        for leaf in (rng.choice(tpl.LEAVES) for _ in range(config.others)):
            functions.append(repository.add_leaf(rng, taken, leaf))
        tested: list[tuple[Function, list[tuple[list[Any], Any]]]] = []
        hidden: list[list[Any]] = []
        for function in functions:
            cases = draw_cases(rng, function, 3, False)
            if cases is None:
                return None
            if function.kind == "wrapper" or function in functions[-config.others:]:
                tested.append((function, cases[:1]))
            hidden += repository.cases_for(function, cases)
        rng.shuffle(tested)
        files = repository.files(tested)
        for closing in back:  # the fix: import inside the function that closes the cycle
            assert closing.inner is not None
            closing.local_import = repository.dotted(closing.inner.module)
        target_files = repository.files(tested)
        prompt = (
            f"{intro(repository.package)} "
            "Some of its modules can no longer be imported because of circular imports, so many tests "
            "fail. Fix the package so that every module can be imported, every function can still be imported "
            "from the module it is in now, and everything behaves as before. The test files are read-only; hidden "
            "tests call every function of the package from its module.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        changes = changes_between(files, target_files)
        data = {"files": files, "hidden": hidden, "budget": config.budget, "changes": changes,
                "cycles": config.cycles, "in_cycles": in_cycles, "modules": config.modules}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["changes"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 3 * data["cycles"] + 2 * data["in_cycles"] + data["modules"] + package_lines(data["files"]) / 20
