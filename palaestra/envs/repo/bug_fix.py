"""Fix the injected bugs of a generated Python repository whose visible tests fail, using repository tools.

The repository is a package of a few modules of small functions (windows and chunks of lists, counting,
merging sorted lists, parsing ``key=value`` settings...) and a ``tests/`` folder with two visible tests per
tested function. One or more functions carry an injected bug (an off-by-one, a wrong operator, a wrong
field, swapped arguments); each bugged function's visible tests include one that fails. The agent lists,
reads and searches the files, edits them (exact search/replace; the tests are read-only), runs the visible
tests, and answers ``submit``. The prompt never says where the bugs are nor how many there are.

Judged by hidden tests on the final repository: the visible cases, more inputs on which each bug changes the
result (at the tested function, and at the bugged function itself), run in the sandbox and compared in the
trusted parent (:mod:`palaestra.envs.repo.common`). Any correct fix passes, however it is written; a fix that
special-cases the visible inputs, or patches a caller instead of the bugged function, fails. Levels grow
the modules, the bugs, the correct distractor functions and the share of misleading names; the difficulty
is the modules plus three per bug plus a tenth of the package's lines plus the misleading names.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.repo.common import SUBMIT, RepoTask, bug_data, bug_repository, edit_calls, intro, package_lines


@register
class BugFix(RepoTask):
    id = "repo/bug_fix"
    family = "repo"
    description = "Find and fix the injected bugs of a generated Python repository whose tests fail, with file tools."
    tags = ("repo", "multi-turn", "tools", "code", "debugging", "agentic")

    @dataclass(frozen=True)
    class Config:
        modules: int
        bugs: int
        distractors: int
        misleading: float
        budget: int

    presets = (
        Config(2, 1, 1, 0.0, 8),
        Config(3, 1, 2, 0.0, 10),
        Config(3, 2, 2, 0.0, 12),
        Config(4, 2, 3, 0.3, 14),
        Config(5, 3, 3, 0.5, 18),
    )
    growth = Growth(steps={"modules": 1, "bugs": 1, "distractors": 2, "budget": 3},
                    limits={"modules": 12, "bugs": 4, "distractors": 16, "budget": 42})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        found = retry(lambda: bug_repository(rng, modules=config.modules, bugs=config.bugs, depth=0,
                                             distractors=config.distractors, misleading=config.misleading),
                      what="a repository whose bugs fail tests", attempts=40)
        package = found.repository.package
        prompt = (
            f"{intro(package)} "
            "Some of the tests fail because the package's code has bugs. Find and fix the bugs in the "
            "package's code so that every function does what its tests expect, for any input, not only the "
            "tested ones. The test files are read-only. Hidden tests check the same functions on other inputs.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        data = {"files": found.files, "hidden": found.hidden, "budget": config.budget,
                "bugs": bug_data(found),
                "modules": config.modules, "misleading": found.misleading}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["bugs"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return data["modules"] + 3 * len(data["bugs"]) + package_lines(data["files"]) / 10 + data["misleading"]
