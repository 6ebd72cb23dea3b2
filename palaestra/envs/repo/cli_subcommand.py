"""Wire new subcommands into the command-line module of a generated Python repository.

The package has modules of functions and a module ``cli.py`` whose ``main(argv)`` dispatches a subcommand
(``argv[0]``) to one of them through a table, parsing the other arguments from text (a comma-separated
list of integers, a comma-separated list of words, an integer, a text) and returning the result as JSON
(``json.dumps``), or a usage line naming the subcommands in alphabetical order for an unknown one. The
request: add one or more subcommands, each running a named function of another module on its arguments in
the function's order. The agent reads ``cli.py`` and the functions, adds imports and table entries with
exact edits (tests read-only), runs the tests (the new subcommands' tests fail until they exist) and
answers ``submit``.

Judged by hidden tests on the final repository (:mod:`palaestra.envs.repo.common`): ``main`` on each new
subcommand with other arguments (negative and several-digit integers included: reading them as words passes
no more; an empty list for every subcommand whose first argument is a list: in version 1 the merges, weighted
totals and word lists had none, and a parser keeping the empty part of "" passed 1.0 of the problems with a
new word list and 0.08-0.11 of those with integer lists; now 0), on the old subcommands, and on an unknown one
(the usage line must name the new subcommands too). Levels grow the new subcommands, the existing ones and the
modules; the difficulty is three per new subcommand plus their arguments plus the existing ones plus the
modules plus a twentieth of the package's lines.
"""

from __future__ import annotations

import json
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
    edit_calls,
    intro,
    new_repository,
    package_lines,
)

PARSERS = {"ints": "_ints", "words": "_words", "int": "int", "text": "str"}
KIND_TEXT = {"ints": "a comma-separated list of integers", "words": "a comma-separated list of words",
             "int": "an integer", "text": "a text"}
VERBS = ("sum", "show", "calc", "run", "list", "count", "make", "find", "check", "scan", "merge", "split")

CLI_HEAD = '''"""Command-line entry point: main(argv) runs a subcommand and returns its result as JSON."""

import json

{imports}


def _ints(text):
    return [int(part) for part in text.split(",") if part]


def _words(text):
    return [part for part in text.split(",") if part]


COMMANDS = {{
{entries}
}}


def main(argv):
    if not argv or argv[0] not in COMMANDS:
        return "usage: " + " | ".join(sorted(COMMANDS))
    return json.dumps(COMMANDS[argv[0]](argv[1:]))
'''


def sorted_if_merge(key: str, args: list[Any]) -> list[Any]:
    """A merge's inputs stay sorted (the scaling keeps their order, but say so)."""
    return [sorted(a) for a in args] if key == "merge" else args


def kinds_of(args: list[Any]) -> list[str]:
    """The text kind of each argument of a leaf's draw."""
    return ["int" if isinstance(a, int) else "text" if isinstance(a, str)
            else "words" if a and isinstance(a[0], str) else "ints" for a in args]


def as_text(value: Any, kind: str) -> str:
    return ",".join(str(v) for v in value) if kind in ("ints", "words") else str(value)


@register
class CliSubcommand(RepoTask):
    id = "repo/cli_subcommand"
    family = "repo"
    description = "Add subcommands to the command-line dispatcher of a generated Python repository."
    tags = ("repo", "multi-turn", "tools", "code", "cli", "agentic")
    version = 2  # v2: an empty list for every subcommand whose first argument is a list

    @dataclass(frozen=True)
    class Config:
        modules: int
        new: int  # subcommands to add
        existing: int
        budget: int

    presets = (
        Config(1, 1, 1, 6),
        Config(2, 1, 2, 8),
        Config(2, 2, 2, 10),
        Config(3, 2, 3, 12),
        Config(4, 3, 3, 14),
    )
    growth = Growth(steps={"modules": 1, "new": 1, "existing": 1, "budget": 2},
                    limits={"modules": 10, "new": 5, "existing": 6, "budget": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a command-line repository", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, _ = new_repository(rng, config.modules)
        taken: set[str] = set()
        leaves = rng.sample(tpl.LEAVES, config.new + config.existing)
        verbs = rng.sample(VERBS, len(leaves))
        commands: list[tuple[str, Function, list[str]]] = []
        for leaf, verb in zip(leaves, verbs):
            function = repository.add_leaf(rng, taken, leaf)
            commands.append((f"{verb}-{function.name.split('_')[0]}", function, kinds_of(leaf.draw(rng))))
        new, old = commands[:config.new], commands[config.new:]
        files = {**repository.files([]), f"{repository.package}/cli.py": self._cli(repository, old)}
        target = {**files, f"{repository.package}/cli.py": self._cli(repository, commands)}
        module = f"{repository.package}.cli"
        hidden: list[list[Any]] = []
        tests = []
        for index, (command, function, kinds) in enumerate(commands):
            draws = [tpl.LEAF_BY_KEY[function.key].draw(rng) for _ in range(3)]
            if kinds[0] in ("ints", "words"):
                # An empty list (both of a weighted total's, which have one length): a parser that keeps the empty
                # part of "" ("".split(",") is [""]) fails.
                draws.append([[], *([[]] if function.key == "weighted_total" else draws[0][1:])])
            # Negative and several-digit integers: reading them as words (text order) no longer passes.
            spread = [[v * 13 - 20 for v in a] if k == "ints" else a for a, k in zip(draws[1], kinds)]
            draws.append(sorted_if_merge(function.key, spread))
            cases = [[[command, *[as_text(a, k) for a, k in zip(args, kinds)]],
                      json.dumps(function.behaviour()(*tpl.copied(args)))] for args in draws]
            if any(k == "words" and any("," in w for w in a) for args in draws for a, k in zip(args, kinds)):
                return None
            hidden += [[module, "main", [argv], expected] for argv, expected in cases]
            tests.append((f"test_{command.replace('-', '_')}", cases[0]))
        usage = "usage: " + " | ".join(sorted(c for c, _, _ in commands))
        hidden.append([module, "main", [["help-me"]], usage])
        test_text = [f"from {module} import main", ""]
        for name, (argv, expected) in tests:
            test_text += ["", f"def {name}():", f"    result = main({argv!r})",
                          f"    assert result == {expected!r}, f\"got {{result!r}}\"", ""]
        files["tests/test_cli.py"] = target["tests/test_cli.py"] = "\n".join(test_text)
        requests = "\n".join(
            f"- `{command}`: runs `{function.name}` from {repository.path(function.module)} on its arguments, "
            "in order: " + ", ".join(KIND_TEXT[k] for k in kinds) + "."
            for command, function, kinds in new)
        prompt = (
            f"{intro(repository.package)} "
            f"Its module {repository.package}/cli.py has main(argv), which runs a subcommand. Add these "
            f"subcommands, parsing their arguments as the existing ones do and returning the result as JSON:\n"
            f"{requests}\n"
            "The test files are read-only; hidden tests call main() with the new and the old subcommands.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        path = f"{repository.package}/cli.py"
        data = {"files": files, "hidden": hidden, "budget": config.budget,
                "changes": [[path, files[path], target[path]]], "new": config.new, "existing": config.existing,
                "arguments": sum(len(kinds) for _, _, kinds in new), "modules": config.modules}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def _cli(self, repository: Any, commands: list[tuple[str, Function, list[str]]]) -> str:
        imports = "\n".join(sorted(f"from {repository.dotted(f.module)} import {f.name}" for _, f, _ in commands))
        entries = "\n".join(
            f"    {command!r}: lambda args: {f.name}("
            + ", ".join(f"{PARSERS[k]}(args[{i}])" for i, k in enumerate(kinds)) + "),"
            for command, f, kinds in commands)
        return CLI_HEAD.format(imports=imports, entries=entries)

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["changes"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 3 * data["new"] + data["arguments"] + data["existing"] + data["modules"] + package_lines(data["files"]) / 20
