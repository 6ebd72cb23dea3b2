"""Resolve the merge conflicts of a generated Python repository, keeping the changes of both branches.

A branch was merged into the current one and some functions conflict: the files hold git's conflict blocks
(``<<<<<<< HEAD`` / ``=======`` / ``>>>>>>> <branch>``) around both versions of a function, so those modules
no longer import and the tests fail. The prompt gives each side's commit messages. Two kinds of conflict:

- *rename vs fix*: the current branch renamed the function (and updated its callers and tests), the merged
  branch fixed a bug in it under the old name; the resolution is the new name with the fixed body;
- *fix vs fix*: the function had two bugs; each branch fixed one of them (a different line each); the
  resolution has both fixes.

Taking either side whole, or the conflict text as it is, fails. The agent reads the blocks, writes the merged
function with exact edits (tests read-only), runs the tests and answers ``submit``.

Judged on the final repository (:mod:`palaestra.envs.repo.common`): no conflict marker line is left and no
renamed function's old name remains, and hidden tests pass (each resolved function on inputs where each
bug shows, and its callers). Levels grow the conflicts, the share of fix-vs-fix ones, the modules and the
other functions; the difficulty is three per conflict plus two per fix-vs-fix one plus the modules.
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
    edit_calls,
    hidden_code,
    intro,
    mentions,
    name_for,
    new_repository,
)

MARKERS = ("<<<<<<< ", "=======", ">>>>>>> ")


def _independent_bugs(leaf: tpl.Leaf) -> bool:
    """Whether the leaf's two bugs touch different text (each can be fixed without the other)."""
    (old0, _), (old1, _) = leaf.bugs[:2]
    return old0 not in old1 and old1 not in old0 and leaf.source.replace(old0, "@", 1).count(old1) == 1


FIX_FIX_LEAVES = tuple(leaf for leaf in tpl.LEAVES if _independent_bugs(leaf))


@register
class MergeConflict(RepoTask):
    id = "repo/merge_conflict"
    family = "repo"
    description = "Resolve the merge conflicts of a generated Python repository, keeping both branches' changes."
    tags = ("repo", "multi-turn", "tools", "code", "git", "agentic")

    @dataclass(frozen=True)
    class Config:
        modules: int
        conflicts: int
        fix_fix: float  # the share of fix-vs-fix conflicts
        others: int
        budget: int

    presets = (
        Config(1, 1, 0.0, 1, 6),
        Config(2, 1, 0.5, 1, 8),
        Config(2, 2, 0.5, 2, 10),
        Config(3, 3, 0.5, 2, 12),
        Config(4, 4, 0.6, 3, 14),
    )
    growth = Growth(steps={"modules": 1, "conflicts": 1, "others": 1, "budget": 2},
                    limits={"modules": 10, "conflicts": 7, "others": 6, "budget": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a repository with merge conflicts", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, forge = new_repository(rng, config.modules)
        branch = f"fix-{forge.word(2).lower()}"
        taken: set[str] = set()
        tested: list[tuple[Function, list[tuple[list[Any], Any]]]] = []
        hidden: list[list[Any]] = []
        conflicts: list[tuple[Function, str, str, str | None]] = []  # function, ours, theirs, its old name
        ours_log, theirs_log = [], []
        leaves = rng.sample(tpl.LEAVES, config.conflicts)
        for leaf in leaves:
            fix_fix = leaf in FIX_FIX_LEAVES and rng.random() < config.fix_fix
            position = rng.randrange(config.modules)
            function = repository.add_leaf(rng, taken, leaf, repository.modules[position])
            if fix_fix:
                ours = tpl.leaf_text(leaf, function.name, 1)
                theirs = tpl.leaf_text(leaf, function.name, 0)
                ours_log.append(f"Fix a bug in {function.name}")
                theirs_log.append(f"Fix another bug in {function.name}")
                old = None
            else:
                old = name_for(rng, taken, leaf.names)
                bug = rng.randrange(len(leaf.bugs))
                ours = tpl.leaf_text(leaf, function.name, bug)
                theirs = tpl.leaf_text(leaf, old, None)
                ours_log.append(f"Rename {old} to {function.name} (callers and tests updated)")
                theirs_log.append(f"Fix a bug in {old}")
            conflicts.append((function, ours, theirs, old))
            # Cases on which each bug of the conflict shows: a side taken whole fails.
            bugs = (0, 1) if fix_fix else (bug,)
            for index in bugs:
                function.bug = index
                cases = draw_cases(rng, function, 2, differing=True)
                function.bug = None
                if cases is None:
                    return None
                hidden += repository.cases_for(function, cases)
            top = function
            if rng.random() < 0.6:  # a caller in a later module
                wrapper = rng.choice(tpl.WRAPPERS)
                top = repository.add(Function(
                    name_for(rng, taken, tuple(f"{p}_{function.name}" for p in wrapper.names)),
                    repository.modules[rng.randint(position, config.modules - 1)], "wrapper", wrapper.key,
                    leaf.params, inner=function))
            cases = draw_cases(rng, top, 3, False)
            if cases is None:
                return None
            tested.append((top, cases[:2]))
            hidden += repository.cases_for(top, cases)
        others = [leaf for leaf in tpl.LEAVES if leaf not in leaves]
        for leaf in (rng.choice(others) for _ in range(config.others)):
            function = repository.add_leaf(rng, taken, leaf)
            cases = draw_cases(rng, function, 2, False)
            if cases is None:
                return None
            tested.append((function, cases[:1]))
            hidden += repository.cases_for(function, cases)
        rng.shuffle(tested)
        target = repository.files(tested)
        files = dict(target)
        for function, ours, theirs, _ in conflicts:
            path = repository.path(function.module)
            block = f"<<<<<<< HEAD\n{ours}=======\n{theirs}>>>>>>> {branch}\n"
            files[path] = files[path].replace(function.text(), block)
        prompt = (
            f"{intro(repository.package)} "
            f"The branch {branch} was just merged into the current branch (HEAD), and the merge left "
            "conflicts in some files (git's conflict blocks). The current branch's commits since the two "
            "branches split:\n" + "\n".join(f"- {m}" for m in ours_log) + f"\nThe commits of {branch}:\n"
            + "\n".join(f"- {m}" for m in theirs_log) + "\n"
            "Resolve every conflict so that the result keeps the changes of both branches, with no conflict "
            "marker left. The test files are read-only; hidden tests check the package's functions.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        changes = changes_between(files, target)
        data = {"files": files, "hidden": hidden, "budget": config.budget, "changes": changes,
                "old": [old for *_, old in conflicts if old is not None], "conflicts": config.conflicts,
                "fix_fix": sum(old is None for *_, old in conflicts), "modules": config.modules}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def check_files(self, problem: Problem, files: Any) -> str | None:
        hidden = hidden_code(files)  # a name hidden in a string escapes the check of the text
        if hidden is not None:
            return hidden
        for path, text in sorted(files.items()):
            if any(line.startswith(MARKERS) for line in text.splitlines()):
                return f"a conflict marker is left in {path}"
        for old in problem.data["old"]:
            if any(mentions(text, old) for path, text in files.items() if not path.startswith("tests/")):
                return f"the old name {old!r} is still in the package"
        return None

    def plan_calls(self, problem: Problem) -> list[str]:
        return [call("search", text="<<<<<<<"), *edit_calls(problem.data["changes"])]

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 3 * data["conflicts"] + 2 * data["fix_fix"] + data["modules"]
