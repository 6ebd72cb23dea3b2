"""Fix the injected bugs of a generated JavaScript (Node) repository whose tests fail, with repository tools.

The repository is ``src/<module>.js`` files (CommonJS modules of small functions: windows and chunks of
arrays, counting, merging sorted arrays, clamping...) and ``tests/<name>.test.js`` files using Node's
``assert``. From level 1 the tested functions call others across modules (a chain of ``depth`` calls down
to the computation), and from level 2 a repository holds more than one bug. Each bug (an off-by-one, a
wrong operator, a wrong field, swapped arguments) fails a visible test. The agent lists, reads, searches
and edits the files (exact search/replace; the tests are read-only), runs the tests with Node in the
sandbox, and answers ``submit``; the prompt never says where the bugs are.

Judged by hidden tests on the final repository, in one Node job in the sandbox: each case calls an exported
function (the tested ones and the bugged ones themselves) and prints its JSON value; the values are compared
with the expected ones in this process (the expected values never enter the sandbox). The expected values
come from the Python templates that each JavaScript function mirrors bug for bug
(:mod:`palaestra.envs.repo._javascript`). Levels grow the bugs, the chain's depth, the modules and the
distractor functions; the difficulty is three per bug plus two per call of the chains plus the modules plus
a tenth of the package's lines.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.repo import _templates as tpl
from palaestra.envs.repo._javascript import JS_HIDDEN, JS_LEAVES, JS_RUNNER, JsRepository, camel
from palaestra.envs.repo.common import (
    SHOWN_FAILURES,
    SUBMIT,
    TEST_SECONDS,
    RepoTask,
    ToolResult,
    bug_repository,
    edit_calls,
    package_lines,
    run_tests_job,
)

JS_POOL = tuple(leaf for leaf in tpl.LEAVES if leaf.key in JS_LEAVES)


@register
class JsBugFix(RepoTask):
    id = "repo/js_bug_fix"
    family = "repo"
    description = "Find and fix the injected bugs of a generated JavaScript (Node) repository whose tests fail."
    tags = ("repo", "multi-turn", "tools", "code", "debugging", "javascript", "agentic")
    source_suffix: ClassVar[str] = ".js"
    toolchains: ClassVar[tuple[str, ...]] = ("javascript",)
    distinct_from = {"repo/bug_fix": "a JavaScript repository (Node, CommonJS modules, assert tests): another "
                                     "language's semantics, module system and test runner"}

    @dataclass(frozen=True)
    class Config:
        modules: int
        bugs: int
        depth: int
        distractors: int
        budget: int

    presets = (
        Config(2, 1, 0, 1, 8),
        Config(2, 1, 1, 1, 10),
        Config(3, 2, 1, 2, 12),
        Config(4, 2, 2, 2, 14),
        Config(5, 3, 2, 3, 18),
    )
    growth = Growth(steps={"modules": 1, "bugs": 1, "depth": 1, "distractors": 1, "budget": 3},
                    limits={"modules": 10, "bugs": 4, "depth": 6, "distractors": 5, "budget": 40})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        found = retry(lambda: bug_repository(rng, modules=config.modules, bugs=config.bugs, depth=config.depth,
                                             distractors=config.distractors, misleading=0.0, pool=JS_POOL),
                      what="a repository whose bugs fail tests", attempts=40)
        js = JsRepository(found.repository)
        files = js.files(found.tested)
        modules = {found.repository.dotted(m): js.path(m) for m in found.repository.modules}
        hidden = [[modules[module], camel(name), args, expected] for module, name, args, expected in found.hidden]
        bugs = [[js.path(f.module), js.function_text(f, True), js.function_text(f, False)] for f in found.bugged]
        prompt = (
            "You are working on a small JavaScript (Node.js, CommonJS) repository: its modules in src/ and its "
            "visible tests in tests/ (*.test.js, using Node's assert). Some of the tests fail because the "
            "modules have bugs. Find and fix the bugs in the modules so that every function does what its tests "
            "expect, for any input, not only the tested ones. The test files are read-only. Hidden tests check "
            "the modules' exported functions on other inputs.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        data = {"files": files, "hidden": hidden, "budget": config.budget, "bugs": bugs, "depth": config.depth,
                "modules": config.modules}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["bugs"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return (3 * len(data["bugs"]) + 2 * data["depth"] + data["modules"]
                + package_lines({p: t for p, t in data["files"].items() if p.startswith("src/")}) / 10)

    def run_visible(self, files: Mapping[str, str], cells: list[str]) -> ToolResult:
        from palaestra.sandbox import Limits

        limits = Limits(wall_seconds=TEST_SECONDS, cpu_seconds=TEST_SECONDS, output_bytes=1 << 15)
        return run_tests_job(JS_RUNNER.replace("__SHOWN__", str(SHOWN_FAILURES)), files, cells, limits,
                             language="javascript")

    def run_hidden(self, files: Mapping[str, str], cases: list[list[Any]]) -> Verdict:
        from palaestra import sandbox
        from palaestra.sandbox import Limits
        from palaestra.verifiers.code import json_equal

        token = secrets.token_hex(16)
        limits = Limits(wall_seconds=TEST_SECONDS, cpu_seconds=TEST_SECONDS, output_bytes=1 << 16)
        calls = [[path, name, args] for path, name, args, _ in cases]
        try:
            result = sandbox.run(JS_HIDDEN, language="javascript", stdin=token + "\n",
                                 files={**files, "cases.json": json.dumps(calls)}, limits=limits)
        except Exception as exc:  # the sandbox is unavailable: not the model's fault
            return Verdict.failed(f"the hidden tests could not run: {type(exc).__name__}: {str(exc)[:200]}")
        if result.error is not None:
            return Verdict.failed(f"the hidden tests could not run: {result.error[:200]}")
        prefix = token + " "
        line = next((ln for ln in reversed(result.stdout.splitlines()) if ln.startswith(prefix)), None)
        if line is None:
            return Verdict.wrong("the hidden tests could not run on the repository (no results came back)")
        try:
            results = json.loads(line[len(prefix):])
        except (ValueError, RecursionError):
            return Verdict.wrong("the hidden tests' output was unreadable")
        if not isinstance(results, list) or len(results) != len(cases):
            return Verdict.wrong("the hidden tests' output was malformed")
        failing = sum(not (isinstance(r, dict) and "value" in r and json_equal(r["value"], case[3]))
                      for r, case in zip(results, cases))
        if failing:
            return Verdict.wrong(f"{failing} of {len(cases)} hidden tests fail")
        return Verdict.right()
