"""Migrate a generated Python repository to a vendored library's new API: update every import and call site.

The package's first module is a vendored library (read-only) that was just upgraded; the prompt quotes its
changelog: functions were renamed (to a synonym), some also changed their parameters (the first moved to
the end: ``G(size, values)`` for ``F(values, size)``; or the parameters after the first became keyword-only:
``G(values, *, size)``). Functions in the package's other modules still import and call the old names, so
their modules no longer import and their visible tests fail. The agent finds every use (search), rewrites
the imports and the calls with exact edits (tests and library read-only), runs the tests and answers
``submit``. Swaps are drawn only where the two orders give different results on the tests (never for a
symmetric function such as a sorted merge or a dot product).

Judged on the final repository (:mod:`palaestra.envs.repo.common`): no package module mentions an old name as
a whole identifier (a shim re-creating the old API fails), and hidden tests pass: every caller on more
inputs and the package's other functions. Levels grow the changed functions, the kinds of change, the
callers and the modules; the difficulty is two per caller plus three per changed function plus two per
parameter change plus the modules.
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
    call,
    changes_between,
    draw_cases,
    hidden_code,
    intro,
    mentions,
    name_for,
    new_repository,
)

SWAPPABLE = ("window_sums", "count_above", "chunks", "clamp")  # the order of their parameters changes results


@register
class ApiMigration(RepoTask):
    id = "repo/api_migration"
    family = "repo"
    description = "Update every import and call in a generated Python repository to a vendored library's new API."
    tags = ("repo", "multi-turn", "tools", "code", "refactoring", "agentic")

    @dataclass(frozen=True)
    class Config:
        modules: int  # besides the library
        changed: int  # library functions whose API changed
        callers: int
        kinds: tuple[str, ...]
        distractors: int
        budget: int

    presets = (
        Config(1, 1, 1, ("rename",), 1, 8),
        Config(2, 1, 2, ("swap", "keyword"), 1, 10),
        Config(2, 2, 3, ("rename", "swap", "keyword"), 2, 12),
        Config(3, 2, 4, ("swap", "keyword"), 2, 14),
        Config(4, 3, 5, ("swap", "keyword"), 3, 16),
    )
    growth = Growth(steps={"modules": 1, "changed": 1, "callers": 1, "distractors": 1, "budget": 2},
                    limits={"modules": 10, "changed": 4, "callers": 12, "distractors": 6, "budget": 40})

    def read_only(self, problem: Problem, path: str) -> str | None:
        if path == problem.data["library"]:
            return "the vendored library is read-only"
        return super().read_only(problem, path)

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a repository to migrate", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, _ = new_repository(rng, config.modules + 1)
        library = repository.modules[0]
        repository.docstrings[library] = "A vendored library, version 2.0 (do not edit: upgrades replace this file)."
        taken: set[str] = set()
        changed: list[tuple[Function, str, str]] = []  # the library function, its old name, the kind of change
        leaves = rng.sample(tpl.LEAVES, config.changed)
        for leaf in leaves:
            kinds = [k for k in config.kinds if k == "rename" or (k == "swap" and leaf.key in SWAPPABLE)
                     or (k == "keyword" and "," in leaf.params)] or ["rename"]
            kind = rng.choice(kinds)
            old = name_for(rng, taken, leaf.names)
            new = name_for(rng, taken, leaf.names)
            params = [p.strip() for p in leaf.params.split(",")]
            signature = {"rename": None, "swap": ", ".join(params[1:] + params[:1]),
                         "keyword": ", ".join(params[:1] + ["*"] + params[1:])}[kind]
            function = repository.add(Function(old, library, "leaf", leaf.key, leaf.params, signature=signature))
            changed.append((function, new, kind))
        tested: list[tuple[Function, list[tuple[list[Any], Any]]]] = []
        hidden: list[list[Any]] = []
        callers: list[Function] = []
        for index in range(config.callers):
            function, _, _ = changed[index % len(changed)]
            wrapper = rng.choice(tpl.WRAPPERS)
            callers.append(repository.add(Function(
                name_for(rng, taken, tuple(f"{prefix}_{function.name}" for prefix in wrapper.names)),
                rng.choice(repository.modules[1:]), "wrapper", wrapper.key, function.params, inner=function)))
        others = [leaf for leaf in tpl.LEAVES if leaf not in leaves]
        distractors = [repository.add(Function(name_for(rng, taken, leaf.names), rng.choice(repository.modules[1:]),
                                               "leaf", leaf.key, leaf.params))
                       for leaf in (rng.choice(others) for _ in range(config.distractors))]
        for function in [*callers, *distractors]:
            cases = draw_cases(rng, function, 4, False)
            if cases is None:
                return None
            tested.append((function, cases[:2]))
            hidden += repository.cases_for(function, cases)
        rng.shuffle(tested)
        before = repository.files(tested)
        notes, olds = [], []
        for function, new, kind in changed:
            olds.append(function.name)
            old_call = f"{function.name}({function.params})"
            function.name = new
            notes.append(f"- `{old_call}` is now `{new}({function.signature or function.params})`"
                         + {"rename": " (renamed; same parameters).",
                            "swap": " (renamed; the first parameter moved to the end).",
                            "keyword": " (renamed; the parameters after the first are keyword-only)."}[kind])
        for caller in callers:
            assert caller.inner is not None
            params = [p.strip() for p in caller.params.split(",")]
            if caller.inner.signature is not None and "*" in caller.inner.signature:
                caller.call_args = ", ".join(params[:1] + [f"{p}={p}" for p in params[1:]])
            elif caller.inner.signature is not None:
                caller.call_args = ", ".join(params[1:] + params[:1])
        after = repository.files(tested)
        lib_path = repository.path(library)
        files = {**before, lib_path: after[lib_path]}
        prompt = (
            f"{intro(repository.package)} "
            f"The module {lib_path} is a vendored library, just upgraded to a new version (it is "
            "read-only). Its changelog:\n" + "\n".join(notes) + "\n"
            "Update the package's code to the new API, every import and every call, so that everything works as "
            "before; the old names must not remain anywhere in the package (no shim re-creating them). The test "
            "files are read-only; hidden tests check the package's functions.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        changes = changes_between(files, after)
        data = {"files": files, "hidden": hidden, "budget": config.budget, "changes": changes, "library": lib_path,
                "old": olds,
                "callers": config.callers, "modules": config.modules,
                "parameter_changes": sum(kind != "rename" for *_, kind in changed)}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def check_files(self, problem: Problem, files: Any) -> str | None:
        hidden = hidden_code(files)  # a name hidden in a string escapes the check of the text
        if hidden is not None:
            return hidden
        for old in problem.data["old"]:
            still = sorted(path for path, text in files.items()
                           if not path.startswith("tests/") and mentions(text, old))
            if still:
                return f"the old name {old!r} is still used in {', '.join(still[:4])}"
        return None

    def plan_calls(self, problem: Problem) -> list[str]:
        calls = [call("search", text=old) for old in problem.data["old"]]
        for path, before, after in problem.data["changes"]:
            calls.append(call("edit", path=path, old=before, new=after))
        return [*calls, call("run_tests")]

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return (2 * data["callers"] + 3 * len(data["old"]) + 2 * data["parameter_changes"] + data["modules"]
                + len(data["files"]) / 4)

