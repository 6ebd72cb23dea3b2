"""Move a function to a new module under a new name, updating every use, without changing behaviour.

The repository is a package of modules of small working functions; some call a function ``F`` of module
``A`` (from ``A`` itself or from later modules, importing it). The request: move ``F`` into a new module
``<package>/<new>.py``, renamed ``G``, and update every import and call in the package, so that ``F`` no
longer exists anywhere in the package and everything works as before. The visible tests already use ``G``
from the new module (they fail until the move is done) and test the callers (they pass now and must go on
passing); the tests are read-only. Names of callers contain ``F`` as a part (``checked_F``): a careless
global replace renames them too and breaks their tests.

Judged on the final repository (:mod:`palaestra.envs.repo.common`): no package file (tests aside) mentions
``F`` as a whole identifier (an alias ``G as F`` or ``F = G`` keeps the old name and fails), and hidden tests
pass: ``G`` from the new module on more inputs, the callers and the other functions. Levels grow the
callers, the modules and the other functions; the difficulty is two per caller plus the modules plus a
tenth of the package's lines.
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
    package_lines,
)


@register
class RefactorPreserving(RepoTask):
    id = "repo/refactor_preserving"
    family = "repo"
    description = "Move a function to a new module under a new name, updating every import and call, behaviour kept."
    tags = ("repo", "multi-turn", "tools", "code", "refactoring", "agentic")

    @dataclass(frozen=True)
    class Config:
        modules: int
        callers: int
        distractors: int
        budget: int

    presets = (
        Config(2, 1, 1, 8),
        Config(3, 2, 1, 10),
        Config(3, 3, 2, 12),
        Config(4, 4, 2, 14),
        Config(5, 5, 3, 16),
    )
    growth = Growth(steps={"modules": 1, "callers": 1, "distractors": 1, "budget": 2},
                    limits={"modules": 12, "callers": 10, "distractors": 8, "budget": 40})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a repository to refactor", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, forge = new_repository(rng, config.modules)
        taken: set[str] = set()
        leaf = rng.choice(tpl.LEAVES)
        position = rng.randrange(config.modules)
        moved = repository.add_leaf(rng, taken, leaf, repository.modules[position])
        new_name = name_for(rng, taken, tuple(f"{prefix}_{moved.name}" for prefix in ("compute", "get", "make"))
                            + tuple(f"{moved.name}_{suffix}" for suffix in ("v2", "impl", "core")))
        tested: list[tuple[Function, list[tuple[list[Any], Any]]]] = []
        hidden: list[list[Any]] = []
        callers = []
        for _ in range(config.callers):
            wrapper = rng.choice(tpl.WRAPPERS)
            callers.append(repository.add(Function(
                name_for(rng, taken, tuple(f"{prefix}_{moved.name}" for prefix in wrapper.names)),
                repository.modules[rng.randint(position, config.modules - 1)], "wrapper", wrapper.key, leaf.params,
                inner=moved)))
        others = [other for other in tpl.LEAVES if other is not leaf]
        distractors = [repository.add_leaf(rng, taken, other)
                       for other in (rng.choice(others) for _ in range(config.distractors))]
        for function in [*callers, *distractors]:
            cases = draw_cases(rng, function, 3, False)
            if cases is None:
                return None
            tested.append((function, cases[:2]))
            hidden += repository.cases_for(function, cases)
        initial = repository.files([])
        old_name, old_module = moved.name, moved.module
        module = forge.word(2).lower()
        moved.name, moved.module = new_name, module
        repository.modules.append(module)
        cases = draw_cases(rng, moved, 5, False)
        if cases is None:
            return None
        tested.append((moved, cases[:2]))
        hidden += repository.cases_for(moved, cases)
        rng.shuffle(tested)
        target = repository.files(tested)
        files = {**initial, **{path: text for path, text in target.items() if path.startswith("tests/")}}
        prompt = (
            f"{intro(repository.package)} "
            f"Refactor it: move the function `{old_name}` out of {repository.path(old_module)} into a new "
            f"module {repository.path(module)}, renamed `{new_name}`, and update every import and call of it in the "
            f"package, so that the name `{old_name}` no longer appears anywhere in the package (no alias either) "
            "and everything behaves as before. The test files are read-only (some already use the new name); "
            "hidden tests check the package's functions.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        changes = changes_between(files, target)
        data = {"files": files, "hidden": hidden, "budget": config.budget, "changes": changes, "old": old_name,
                "callers": config.callers, "modules": config.modules}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def check_files(self, problem: Problem, files: Any) -> str | None:
        hidden = hidden_code(files)  # a name hidden in a string escapes the check of the text
        if hidden is not None:
            return hidden
        old = problem.data["old"]
        still = sorted(path for path, text in files.items() if not path.startswith("tests/") and mentions(text, old))
        if still:
            return f"the old name {old!r} is still used in {', '.join(still[:4])}"
        return None

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["changes"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 2 * data["callers"] + data["modules"] + package_lines(data["files"]) / 10
