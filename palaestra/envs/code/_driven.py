"""Shared machinery of the single-language code envs judged through a trusted driver (Lua, Go, Prolog, awk, sed).

Each such env draws a specification and hidden tests, computes every expected output line **in-process** from
a trusted Python reference, and renders (a) the reference program in the env's language (the gold answer) and
(b) our driver program, which loads the candidate (``solution.<ext>`` next to it, see
:data:`palaestra.verifiers.polyglot.CANDIDATE_FILES`) and prints one line per hidden test. One sandbox job judges
every test (:func:`palaestra.verifiers.polyglot.check_program`); expected lines never enter the sandbox.

Near misses (``corruptions``) are the reference program rendered for **other parameters** of the same
specification (a different separator, bound, error priority...), kept only when the Python reference shows
that those parameters change some hidden test's expected line: a mutated program that is certainly wrong.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from palaestra.core import Problem
from palaestra.envs.code._polyglot import PolyglotTask
from palaestra.envs.code.templates import ProgramTexts
from palaestra.verifiers import polyglot
from palaestra.verifiers.polyglot import Budget, Program, Report, fence


class DrivenTask(PolyglotTask):
    """A single-language :class:`PolyglotTask` judged by our driver on ``problem.data["expected"]`` lines.

    Subclasses set ``languages`` (one language) and implement :meth:`driver`, :meth:`reference` (the gold
    program for a problem's ``data``) and :meth:`mutants` (certainly wrong programs)."""

    cpu_seconds: ClassVar[float] = 2.0

    def driver(self, data: dict[str, Any]) -> str:
        raise NotImplementedError

    def reference(self, data: dict[str, Any]) -> str:
        raise NotImplementedError

    def mutants(self, problem: Problem, rng: random.Random) -> list[str]:
        return []

    def stdin(self, data: dict[str, Any]) -> str:
        return ""

    def sources(self, problem: Problem) -> dict[str, str]:
        return {problem.data["gold"]: self.reference(problem.data)}

    def judge(self, problem: Problem, program: Program) -> Report:
        data = problem.data
        return polyglot.check_program(program, self.stdin(data), data["expected"], driver=self.driver(data),
                                      budget=Budget(cpu_seconds=self.cpu_seconds))

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """The gold program cut short, and the mutated references of :meth:`mutants`."""
        return [*super().corruptions(problem, rng), *(fence((problem.data["gold"], m)) for m in self.mutants(problem, rng))]


def other_params(
    rng: random.Random,
    params: dict[str, Any],
    fresh: Callable[[random.Random], dict[str, Any]],
    outputs: Callable[[dict[str, Any]], Any],
    expected: Any,
    attempts: int = 30,
) -> dict[str, Any] | None:
    """Parameters equal to ``params`` but for one key redrawn from ``fresh`` whose ``outputs`` differ from
    ``expected`` on some hidden test (so their reference program is certainly wrong), or None."""
    keys = sorted(params)
    for _ in range(attempts if keys else 0):
        key = rng.choice(keys)
        changed = {**params, key: fresh(rng)[key]}
        try:
            differs = changed != params and outputs(changed) != expected
        except (ValueError, KeyError, IndexError):  # parameters the hidden tests cannot be read with: no certainty
            continue
        if differs:
            return changed
    return None


def marked_blocks(outputs: Sequence[Sequence[str]], marker: str) -> tuple[list[str], list[str]]:
    """The expected lines and their names when a driver prints each test's output followed by ``marker``
    (a test with no output prints one empty line, as ``printf '%s\\n' "$(...)"`` does)."""
    expected, names = [], []
    for i, lines in enumerate(outputs, 1):
        block = [line.rstrip() for line in lines] or [""]
        expected += [*block, marker]
        names += [f"test {i}, line {j}" for j in range(1, len(block) + 1)] + [f"test {i}, end of output"]
    return expected, names


def judge_each_input(program: Program, code: ProgramTexts, inputs: Sequence[str], outputs: Sequence[Sequence[str]],
                     marker: str, cpu_seconds: float) -> Report:
    """Run ``program`` on every hidden input in one sandbox job and compare its output with ``outputs``.

    The driver repeats the env's ``driver.test`` template (``code``) once per input: it feeds the input
    (``{text}``) to the candidate on stdin and prints the candidate's output, then ``marker``, so that each
    test's lines are judged as a block (see :func:`marked_blocks`)."""
    driver = "".join(code("driver.test", text=text, marker=marker) for text in inputs)
    expected, names = marked_blocks(outputs, marker)
    return polyglot.check_program(program, "", expected, driver=driver, names=names,
                                  budget=Budget(cpu_seconds=cpu_seconds))
