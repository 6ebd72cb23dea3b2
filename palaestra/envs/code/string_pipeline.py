"""Implement a function from a generated pipeline of string transformations described in words.

Steps such as "remove every vowel", "shift every lowercase letter 3 places forward",
"replace every run of identical characters by the character and the run's length" or
"reverse each word" are chained, optionally ending in a reduction to a number (count of a
character, distinct characters, position of a character). Levels add steps (two to six, each
doing real work: leaving any one out changes some result), word-level operations and longer
inputs. Expected outputs come from a trusted in-process implementation.

Generation speed: about 340 problems/s at level 4 on this 2-core machine: each draw runs the random
pipeline in-process on all test inputs, then proves the tests pin it down: leaving out any one step, or
moving any constant by one, must change some test's result, and about 3 draws in 4 are redrawn because a
step or constant is not pinned or the results are too uniform. The proof is what makes the hidden tests
reject off-by-one solutions, so it stays.

Version 4: half the random hidden strings hold a letter from u to z, and a pipeline with a shift is redrawn
unless a shift without the wrap from z to a fails some test: the strings held only a to j, so that slip passed
0.50-0.86 of the pipelines with a shift (level 0 to 4); now 0.00. Such pipelines got about a quarter rarer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.code import _pipelines as pl
from palaestra.envs.code.common import FunctionTask, dedupe_inputs, function_problem, varied

EDGE_INPUTS = 5  # string_inputs starts with its edge cases (empty, one letter, runs, the alphabet, words)


def with_late_letters(rng: random.Random, inputs: list[list[Any]]) -> list[list[Any]]:
    """The inputs with a letter from the alphabet's end in some random strings: the strings hold only a to j
    otherwise, on which a shift that forgets to wrap from z to a is right for shifts below 17."""
    out = []
    for i, (s,) in enumerate(inputs):
        if i >= EDGE_INPUTS and s.strip() and rng.random() < 0.5:
            letters = [j for j, c in enumerate(s) if c != " "]
            at = rng.choice(letters)
            s = s[:at] + rng.choice("uvwxyz") + s[at + 1:]
        out.append([s])
    return dedupe_inputs(out)


def every_shift_wraps(pipeline: list[dict[str, Any]], tests: list[dict[str, Any]]) -> bool:
    """Whether a shift without the wrap from z to a (chr(ord(c) + k)) fails some test, for each shift step."""
    def run_without_wrap(shift: int, s: str) -> Any:
        for i, step in enumerate(pipeline):
            if i == shift:
                s = "".join(chr(ord(c) + step["k"]) if "a" <= c <= "z" else c for c in s)
            else:
                s = pl.apply_pipeline([step], s, pl.STRINGS)
        return s

    return all(any(run_without_wrap(i, t["args"][0]) != t["expected"] for t in tests)
               for i, step in enumerate(pipeline) if step["op"] == "caesar")


@register
class StringPipeline(FunctionTask):
    id = "code/string_pipeline"
    description = "Write a function applying a generated pipeline of string transformations."
    tags = ("code", "programming", "strings")
    version = 4

    @dataclass(frozen=True)
    class Config:
        steps: int
        groups: tuple[str, ...]
        reduce_chance: float
        max_len: int
        words: bool  # inputs are words separated by single spaces (word operations allowed)
        tests: int

    def config(self, level: int) -> Config:
        c = self.Config
        basic = ("filter", "map", "order")
        return [
            c(steps=2, groups=basic, reduce_chance=0.4, max_len=8, words=False, tests=10),
            c(steps=3, groups=basic, reduce_chance=0.3, max_len=12, words=False, tests=12),
            c(steps=4, groups=basic + ("words",), reduce_chance=0.4, max_len=16, words=True, tests=12),
            c(steps=5, groups=basic + ("words",), reduce_chance=0.5, max_len=24, words=True, tests=14),
            c(steps=6, groups=basic + ("words",), reduce_chance=0.5, max_len=32, words=True, tests=16),
        ][level]
    # Capped at level 11's values (version 3; level 13's before): at level 13's, generation took 0.8 s of CPU on
    # average and up to 3.4 s at 12 seeds, past the kit's 2 s bound; the difficulty saturates from level 11.
    growth = Growth(limits={"steps": 13, "max_len": 88, "tests": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def useful(tests: list[dict[str, Any]]) -> bool:  # varied, and no result too long to show
            return varied(tests, at_least=4) and all(len(str(t["expected"])) <= 2000 for t in tests)

        pipeline, tests = retry(lambda: pl.pinned_pipeline(
            rng, pl.STRINGS, config.steps, config.groups, config.reduce_chance,
            lambda: with_late_letters(rng, pl.string_inputs(rng, config.tests, config.max_len, config.words)), useful),
            accept=lambda drawn: every_shift_wraps(*drawn),
            what="a pipeline pinned down by its tests, with varied results")
        kind = "lowercase words separated by single spaces" if config.words else "lowercase letters"
        text = (f"Write a Python function `solve(s)` that takes a string `s` (of {kind}) and applies these steps "
                f"in order:\n{pl.describe_pipeline(pipeline, pl.STRINGS)}")
        return function_problem(function="solve", params="s", task_text=text, tests=tests,
                                reference_source=pl.render_pipeline(pipeline, pl.STRINGS), examples=2,
                                extra={"spec": pipeline})

    def difficulty(self, problem: Problem) -> float:
        """The number of steps (the final reduction included): each one does real work; plus a tenth of the
        characters of their parameters (the sets, separators and counts each step uses)."""
        spec = problem.data["spec"]
        return len(spec) + sum(len(str(v)) for step in spec for k, v in step.items() if k != "op") / 10
