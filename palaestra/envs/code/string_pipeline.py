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
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.code import _pipelines as pl
from palaestra.envs.code.common import FunctionTask, function_problem, varied


@register
class StringPipeline(FunctionTask):
    id = "code/string_pipeline"
    description = "Write a function applying a generated pipeline of string transformations."
    tags = ("code", "programming", "strings")
    version = 3

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
            lambda: pl.string_inputs(rng, config.tests, config.max_len, config.words), useful),
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
