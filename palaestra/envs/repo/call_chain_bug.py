"""Fix a bug several calls away from the failing test, in a generated Python repository, with repository tools.

The repository's tested functions are the tops of call chains across modules: each calls a function of an
earlier module (validating, copying or labelling its input or result), down to a leaf that computes (a
window of sums, a merge, a count...). One leaf carries an injected bug (an off-by-one, a wrong operator, a
wrong field, swapped arguments); the failing visible test calls the top of its chain, ``depth`` calls above
it. The agent follows the imports down (list, read, search files), fixes the leaf with an exact
search/replace edit (the tests are read-only), runs the tests and answers ``submit``. Misleading names
(a function named for what another one does) grow with the level; the prompt never says where the bug is.

Judged by hidden tests on the final repository: the visible cases and more inputs on which the bug changes
the result, at the top of the chain and at the bugged leaf itself, so patching a caller (correcting the
wrapper's output) fails; run in the sandbox, compared in the trusted parent (:mod:`palaestra.envs.repo.common`).
Levels grow the chain's depth, the modules, the distractor chains and the misleading names; the difficulty
is three per call of the chain plus the modules plus a twentieth of the package's lines plus the misleading
names.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.repo.common import SUBMIT, RepoTask, bug_data, bug_repository, edit_calls, intro, package_lines


@register
class CallChainBug(RepoTask):
    id = "repo/call_chain_bug"
    family = "repo"
    description = "Trace a failing test down a chain of calls across modules to an injected bug and fix it there."
    tags = ("repo", "multi-turn", "tools", "code", "debugging", "agentic")

    @dataclass(frozen=True)
    class Config:
        modules: int
        depth: int  # calls between the failing test's function and the bug
        distractors: int
        misleading: float
        budget: int

    presets = (
        Config(2, 1, 1, 0.0, 8),
        Config(3, 2, 1, 0.0, 10),
        Config(4, 3, 2, 0.2, 12),
        Config(5, 4, 2, 0.4, 14),
        Config(6, 5, 3, 0.6, 16),
    )
    growth = Growth(steps={"modules": 1, "depth": 1, "distractors": 1, "budget": 2},
                    limits={"modules": 14, "depth": 10, "distractors": 8, "budget": 40})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        found = retry(lambda: bug_repository(rng, modules=config.modules, bugs=1, depth=config.depth,
                                             distractors=config.distractors, misleading=config.misleading),
                      what="a repository whose bug fails a test", attempts=40)
        package = found.repository.package
        prompt = (
            f"{intro(package)} "
            "A visible test fails. Its function calls other functions of the package, which call others; "
            "the bug may be in any of them, and names can mislead. Find the bug and fix it where it is, so that "
            "every function of the package does what it should for any input (hidden tests call the package's "
            "functions directly, on other inputs). The test files are read-only.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        data = {"files": found.files, "hidden": found.hidden, "budget": config.budget, "bugs": bug_data(found),
                "depth": config.depth, "modules": config.modules, "misleading": found.misleading}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["bugs"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 3 * data["depth"] + data["modules"] + package_lines(data["files"]) / 20 + data["misleading"]
