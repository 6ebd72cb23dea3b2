"""Fix the injected bugs of the data-structure classes of a generated Python repository, with repository tools.

The package holds small stateful classes (a bounded stack, a queue dropping its oldest items, an LRU cache, a
multiset counter, a range tracker...) and some functions, spread over modules, with visible tests that run a
scenario of method calls on a new object and compare the list of results. One or more classes carry an
injected bug in one method (a boundary off by one, the wrong end of a list, a refresh forgotten, the wrong
field); each bugged class has a failing visible scenario, and the failure shows only in the results of a
sequence of calls, not of one. The agent reads the classes, fixes the methods with exact edits (tests
read-only), runs the tests and answers ``submit``; the prompt never says where the bugs are.

Judged by hidden tests on the final repository (:mod:`palaestra.envs.repo.common`): more scenarios on each
class (scenarios on which each bug changes the results, scenarios on which each other known fault of the
class's template shows, and random ones), and the functions' cases. In version 1 a "fix" trading the
injected bug for the template's other one passed 0.12-0.25 of levels 0, 2 and 3 (a cache whose get stops
refreshing, 0.67); now 0. Levels grow the bugged classes, the correct ones and the modules; the difficulty is
three per bug plus the classes plus the modules plus a tenth of the package's lines.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.repo import _templates as tpl
from palaestra.envs.repo._classes import CLASSES, Scenario, class_text, run_scenario
from palaestra.envs.repo.common import (
    SUBMIT,
    RepoTask,
    draw_cases,
    edit_calls,
    name_for,
    new_repository,
    package_lines,
)


@register
class DataStructureBug(RepoTask):
    id = "repo/data_structure_bug"
    family = "repo"
    description = "Fix the injected bugs in the stateful data-structure classes of a generated Python repository."
    tags = ("repo", "multi-turn", "tools", "code", "debugging", "agentic")
    version = 2  # v2: hidden scenarios that show each other known fault of a class's template
    distinct_from = {"repo/bug_fix": "stateful classes: a bug shows only across a sequence of method calls (the "
                                     "state an object carries between calls), never in one pure function's result"}

    @dataclass(frozen=True)
    class Config:
        modules: int
        bugs: int
        classes: int  # correct classes besides the bugged ones
        functions: int
        budget: int

    presets = (
        Config(1, 1, 0, 1, 6),
        Config(2, 1, 1, 1, 8),
        Config(2, 2, 1, 2, 10),
        Config(3, 2, 2, 2, 12),
        Config(4, 3, 2, 3, 14),
    )
    growth = Growth(steps={"modules": 1, "bugs": 1, "classes": 1, "functions": 1, "budget": 2},
                    limits={"modules": 10, "bugs": 4, "classes": 5, "functions": 8, "budget": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a repository whose class bugs fail tests", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, _ = new_repository(rng, config.modules)
        package = repository.package
        taken: set[str] = set()
        bugged = rng.sample(CLASSES, config.bugs)
        correct = [template for template in CLASSES if template not in bugged]  # no correct twin of a bugged one
        classes = [rng.choice(correct) for _ in range(config.classes)]
        members: dict[str, list[str]] = {module: [] for module in repository.modules}
        tests: dict[str, str] = {}
        hidden: list[list[Any]] = []
        bugs: list[list[str]] = []
        for index, template in enumerate([*bugged, *classes]):
            buggy = index < len(bugged)
            name = name_for(rng, taken, template.names)
            module = rng.choice(repository.modules)
            bug = rng.randrange(len(template.bugs)) if buggy else None
            members[module].append(class_text(template, name, bug))
            scenarios = _scenarios(rng, template, bug, 4 if buggy else 0)
            if scenarios is None:
                return None
            # Scenarios on which each other known fault of the template shows too: a "fix" trading the injected
            # bug for another one (a cache that stops refreshing on get) fails.
            guards: list[Scenario] = []
            for other in range(len(template.bugs)):
                found = [] if other == bug else _scenarios(rng, template, other, 2)
                if found is None:
                    return None
                guards += found
            plain = [template.draw(rng) for _ in range(2)]
            visible = [scenarios[0], plain[0]] if buggy else plain
            tests[f"tests/test_{name.lower()}.py"] = _test_text(package, module, name, template, visible)
            hidden += [[f"{package}.{module}", name, [s], run_scenario(template, s)]
                       for s in scenarios + guards + plain]
            if buggy:
                bugs.append([repository.path(module), class_text(template, name, bug), class_text(template, name)])
        for leaf in (rng.choice(tpl.LEAVES) for _ in range(config.functions)):
            function = repository.add_leaf(rng, taken, leaf)
            cases = draw_cases(rng, function, 2, False)
            if cases is None:
                return None
            tests[f"tests/test_{function.name}.py"] = repository.test_text(function, cases[:1])
            hidden += repository.cases_for(function, cases)
        files = {f"{package}/__init__.py": f'"""The {package} package."""\n'}
        for module in repository.modules:
            texts = members[module] + [f.text() for f in repository.functions if f.module == module]
            body = "\n\n".join(texts)
            files[repository.path(module)] = f'"""{module.capitalize()} helpers."""\n' + (f"\n\n{body}" if body else "")
        files.update(tests)
        prompt = (
            f"The package {package}/ of this Python repository implements small stateful data structures as "
            "classes (and a few helper functions); its tests in tests/ create an object, call a sequence of its "
            "methods and compare the list of results. Some of these scenarios fail: a method mishandles the "
            "object's state. Repair the classes so that every sequence of method calls gives the results the "
            "tests expect of such a structure, not only the tested sequences. The tests are read-only; hidden "
            "tests replay other sequences.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        data = {"files": files, "hidden": hidden, "budget": config.budget, "bugs": bugs,
                "classes": config.bugs + config.classes, "modules": config.modules}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["bugs"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 3 * len(data["bugs"]) + data["classes"] + data["modules"] + package_lines(data["files"]) / 10


def _scenarios(rng: random.Random, template: Any, bug: int | None, count: int) -> list[Scenario] | None:
    """``count`` scenarios on which the bug changes the results (None when too few are found)."""
    found: list[Scenario] = []
    for _ in range(40 * count):
        if len(found) == count:
            break
        scenario = template.draw(rng)
        if run_scenario(template, scenario, bug) != run_scenario(template, scenario):
            found.append(scenario)
    return found if len(found) == count else None


def _test_text(package: str, module: str, name: str, template: Any, scenarios: list[Scenario]) -> str:
    lines = [f"from {package}.{module} import {name}", ""]
    for number, scenario in enumerate(scenarios, start=1):
        calls = ", ".join(f"subject.{method}({', '.join(repr(a) for a in args)})"
                          for method, args in scenario["__ops__"])
        lines += ["", f"def test_{name.lower()}_{number}():",
                  f"    subject = {name}({', '.join(repr(a) for a in scenario['init'])})",
                  f"    results = [{calls}]",
                  f"    assert results == {run_scenario(template, scenario)!r}, f\"got {{results!r}}\"", ""]
    return "\n".join(lines)
