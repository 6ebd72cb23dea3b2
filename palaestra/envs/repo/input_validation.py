"""Make functions of a generated Python repository reject invalid input with ``ValueError``, behaviour kept.

The package's functions accept whatever they are given today: a window size of zero or less, a range whose
low end is above its high end, price and count lists of different lengths, unsorted lists to merge, an empty
list to take the maximum of, an empty word, a setting with an empty key... The request lists functions and,
for each, the exact condition on which it must raise ``ValueError`` (any message); on every other input it
must behave as before. Visible tests check one valid and one invalid input per function (the invalid ones
fail now); functions that call them across modules must let the error through (they do unless changed).
The agent adds the checks with exact edits (tests read-only), runs the tests and answers ``submit``.

Judged by hidden tests on the final repository (:mod:`palaestra.envs.repo.common`; a call that raises reports
the exception's kind, a ``ValueError`` subclass counting as ``ValueError``): valid inputs with their old
results (a check too broad fails them: an invalid input is never produced by the valid draws, and valid
ones sit on the boundary: one value, a one-letter word, repeated values or either side empty to merge, empty
lists and texts where only another condition is invalid, fewer values than the size, negative numbers), invalid
ones raising ``ValueError`` (an ``IndexError`` or a silent result fails), every way of being invalid among
them (a size of 0 and a negative one, either list too short, either side unsorted, the empty word or key at
the start, inside and at the end), on the functions and on their callers. Version 1 drew one way at random:
checks with a slip (``size < 0``, one direction of the lengths, one side of a merge, the text ``"; ="``,
``words[1] == ''``, ``len(values) < 2``, a strict order or a non-empty side for a merge) passed 0.27-0.40 of
the functions at levels 0-4 (some every one); now none. Version 2's valid inputs were all drawn alike (non-empty
lists of small non-negative numbers, positive limits and sizes no larger than the values): a check with an extra
clause (``not values or limit < 0``, ``size < 1 or not values``, ``low > high or not values``, the merge also
rejecting an empty right side, the empty text rejected, ``not words``) passed every such function at levels 0-4
(30 seeds a level), rejecting an empty part of a text 0.17-0.67; now the boundary holds those valid inputs too,
and none passes.
Levels grow the functions, their callers and the modules; the difficulty is three per function plus one per
caller plus the modules.
"""

from __future__ import annotations

import random
from collections.abc import Callable
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
)

RAISED = {"raised": "ValueError"}


Arguments = list[Any]
Make = Callable[[random.Random, Arguments], Arguments]


@dataclass(frozen=True)
class Rule:
    condition: str  # the prompt's wording
    check: str  # the oracle's check, a condition in the function's parameters
    invalid: tuple[Make, ...]  # each way valid arguments are made invalid: the hidden tests use every one
    boundary: tuple[Make, ...] = ()  # valid arguments on the boundary (a check too broad rejects them)


def _unsorted(rng: random.Random, values: list[int]) -> list[int]:
    values = sorted(values) if len(values) > 1 else [3, 9]
    if values[0] == values[-1]:
        values[-1] += 1
    return [values[-1], *values[1:-1], values[0]]


def _inserted(rng: random.Random, items: list[Any], item: Any, where: str) -> list[Any]:
    """``items`` with ``item`` at the start, at the end, or strictly inside (a check of one position misses)."""
    index = 0 if where == "start" else len(items) if where == "end" else rng.randint(1, max(len(items) - 1, 1))
    return [*items[:index], item, *items[index:]]


def _empty_word(where: str) -> Make:
    return lambda rng, a: [_inserted(rng, a[0], "", where)]


def _empty_key(where: str) -> Make:
    """The text with a part ``=N`` after 0-2 spaces, at ``where`` among its parts."""
    def make(rng: random.Random, a: Arguments) -> Arguments:
        parts = [part for part in a[0].split(";") if part]
        return [";".join(_inserted(rng, parts, " " * rng.randint(0, 2) + f"={rng.randint(0, 9)}", where))]
    return make


# v3: each rule's boundary also holds the valid inputs that the valid draws never make and a check with an
# extra clause rejects: empty lists (and an empty text) where only another condition is invalid, fewer values
# than a size, negative limits and values, a count of 0, a right side empty to merge, empty parts of a text.
RULES: dict[str, Rule] = {
    # v2: a size of 0 is always among the invalid inputs (a check `size < 0` passed 0.6-0.8 of the functions).
    "window_sums": Rule("`size` is less than 1", "size < 1",
                        (lambda rng, a: [a[0], 0], lambda rng, a: [a[0], -rng.randint(1, 3)]),
                        (lambda rng, a: [a[0], 1], lambda rng, a: [a[0][:2], rng.randint(3, 5)],
                         lambda rng, a: [[], a[1]])),
    "chunks": Rule("`size` is less than 1", "size < 1",
                   (lambda rng, a: [a[0], 0], lambda rng, a: [a[0], -rng.randint(1, 3)]),
                   (lambda rng, a: [a[0], 1], lambda rng, a: [a[0][:1], rng.randint(2, 5)],
                    lambda rng, a: [[], a[1]])),
    "clamp": Rule("`low` is greater than `high`", "low > high",
                  (lambda rng, a: [a[0], a[2] + rng.randint(1, 5), a[2]],),
                  (lambda rng, a: [a[0], a[1], a[1]], lambda rng, a: [[], -rng.randint(4, 9), a[2]])),
    # v2: both lists too short in turn (a check of one direction passed 0.14-0.5 of the functions).
    "weighted_total": Rule("`prices` and `counts` have different lengths", "len(prices) != len(counts)",
                           (lambda rng, a: [a[0], a[1][:-1]], lambda rng, a: [a[0][:-1], a[1]]),
                           (lambda rng, a: [a[0], [0, *a[1][1:]]], lambda rng, a: [[], []])),
    # v2: each side unsorted in turn (a check of one side passed 0.2); repeated values and an empty side are
    # valid (a strict or a non-empty check fails them).
    "merge": Rule("`left` or `right` is not sorted in non-decreasing order",
                  "any(a > b for a, b in zip(left, left[1:])) or any(a > b for a, b in zip(right, right[1:]))",
                  (lambda rng, a: [_unsorted(rng, a[0]), a[1]], lambda rng, a: [a[0], _unsorted(rng, a[1])]),
                  (lambda rng, a: [sorted(a[0] + a[0][-1:]), sorted(a[1][:1] + a[1])], lambda rng, a: [[], a[1]],
                   lambda rng, a: [a[0], []])),
    "running_max": Rule("`values` is empty", "not values", (lambda rng, a: [[]],),
                        (lambda rng, a: [a[0][:1]], lambda rng, a: [[value - 40 for value in a[0]]])),
    "spread": Rule("`values` is empty", "not values", (lambda rng, a: [[]],),
                   (lambda rng, a: [a[0][:1]], lambda rng, a: [[value - 50 for value in a[0]]])),
    "dedupe": Rule("`items` is empty", "not items", (lambda rng, a: [[]],), (lambda rng, a: [a[0][:1]],)),
    # v2: one value is valid (a check `len(values) < 2` passed every function). v3: so are negative values and a
    # negative limit (a check `not values or limit < 0` passed every function).
    "count_above": Rule("`values` is empty", "not values", (lambda rng, a: [[], a[1]],),
                        (lambda rng, a: [a[0][:1], a[1]],
                         lambda rng, a: [[value - 10 for value in a[0]], -rng.randint(1, 5)])),
    # v2: the empty word at the start, inside or at the end, and a one-letter word valid (a check of one position,
    # or of words shorter than 2, passed every function).
    "initials": Rule("one of the `words` is the empty string", "any(word == '' for word in words)",
                     tuple(_empty_word(where) for where in ("start", "inside", "end")),
                     (lambda rng, a: [_inserted(rng, a[0], rng.choice("abkmt"), "inside")], lambda rng, a: [[]])),
    # v2: the empty key at the start, inside or at the end, after 0-2 spaces (a check for the text "; =" passed
    # every function).
    "parse_pairs": Rule("a part of `text` has an empty key (nothing but spaces before its '=')",
                        "any(part and not part.partition('=')[0].strip() for part in text.split(';'))",
                        tuple(_empty_key(where) for where in ("start", "inside", "end")),
                        (lambda rng, a: [";" + a[0].rstrip(";") + ";;"], lambda rng, a: [""])),
}


@register
class InputValidation(RepoTask):
    id = "repo/input_validation"
    family = "repo"
    description = "Make named functions of a generated Python repository raise ValueError on stated invalid input."
    tags = ("repo", "multi-turn", "tools", "code", "agentic")
    version = 3  # v3: valid inputs that a check with an extra clause rejects (empty lists, negative limits...)

    @dataclass(frozen=True)
    class Config:
        modules: int
        functions: int
        callers: float  # the chance that a function has a caller in a later module
        budget: int

    presets = (
        Config(1, 1, 0.0, 6),
        Config(2, 2, 0.3, 8),
        Config(2, 3, 0.5, 10),
        Config(3, 4, 0.5, 12),
        Config(4, 5, 0.6, 14),
    )
    growth = Growth(steps={"modules": 1, "functions": 1, "budget": 2},
                    limits={"modules": 10, "functions": 11, "budget": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a repository to validate", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, _ = new_repository(rng, config.modules)
        taken: set[str] = set()
        hidden: list[list[Any]] = []
        requests, callers = [], 0
        checks: dict[str, str] = {}  # function name -> the condition it must reject
        tests: dict[str, str] = {}
        for leaf in rng.sample(tpl.LEAVES, config.functions):
            rule = RULES[leaf.key]
            position = rng.randrange(config.modules)
            function = repository.add_leaf(rng, taken, leaf, repository.modules[position])
            valid = draw_cases(rng, function, 3, False)
            if valid is None:
                return None
            # Every way of being invalid is among the three invalid inputs (in a drawn order: the visible test
            # shows one of them, and a caller's hidden case another).
            ways = rng.sample(rule.invalid, len(rule.invalid))
            bad = [ways[index % len(ways)](rng, tpl.copied(args)) for index, (args, _) in enumerate(valid)]
            edge = [make(rng, tpl.copied(valid[0][0])) for make in rule.boundary]
            edge_cases = [(args, function.behaviour()(*tpl.copied(args))) for args in edge]
            tests[f"tests/test_{function.name}.py"] = _test_text(repository, function, valid[0], bad[0])
            hidden += repository.cases_for(function, [*valid, *edge_cases, *[(b, RAISED) for b in bad]])
            requests.append(f"- `{function.name}` in {repository.path(function.module)}: raise ValueError when "
                            f"{rule.condition}.")
            checks[function.name] = rule.check
            if rng.random() < config.callers:
                wrapper = rng.choice(tpl.WRAPPERS)
                caller = repository.add(Function(
                    name_for(rng, taken, tuple(f"{p}_{function.name}" for p in wrapper.names)),
                    repository.modules[rng.randint(position, config.modules - 1)], "wrapper", wrapper.key,
                    leaf.params, inner=function))
                callers += 1
                cases = draw_cases(rng, caller, 1, False)
                if cases is None:
                    return None
                hidden += repository.cases_for(caller, [*cases, (bad[1], RAISED)])
        files = {**repository.files([]), **tests}
        for function in repository.functions:
            if function.name in checks:
                function.prelude = f"    if {checks[function.name]}:\n        raise ValueError(\"invalid input\")\n"
        target = {**repository.files([]), **tests}
        prompt = (
            f"{intro(repository.package)} "
            "Make these functions reject invalid input by raising ValueError (with any message), and "
            "behave exactly as before on every other input:\n" + "\n".join(requests) + "\n"
            "The test files are read-only; hidden tests call these functions, and the functions that call them, "
            "on valid and invalid inputs.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        changes = changes_between(files, target)
        data = {"files": files, "hidden": hidden, "budget": config.budget, "changes": changes,
                "functions": config.functions, "callers": callers, "modules": config.modules}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def plan_calls(self, problem: Problem) -> list[str]:
        return edit_calls(problem.data["changes"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 3 * data["functions"] + data["callers"] + data["modules"]


def _test_text(repository: Any, function: Function, valid: tuple[list[Any], Any], invalid: list[Any]) -> str:
    """A valid case with its result, and an invalid one that must raise ValueError."""
    name = function.name
    return "\n".join([
        f"from {repository.dotted(function.module)} import {name}", "", "",
        f"def test_{name}_valid_input():",
        f"    result = {name}({', '.join(repr(a) for a in valid[0])})",
        f"    assert result == {valid[1]!r}, f\"got {{result!r}}\"", "", "",
        f"def test_{name}_rejects_invalid_input():",
        "    try:",
        f"        result = {name}({', '.join(repr(a) for a in invalid)})",
        "    except ValueError:",
        "        return",
        "    raise AssertionError(f\"no ValueError (returned {result!r})\")", ""])
