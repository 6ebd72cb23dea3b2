"""Implement a function from a generated pipeline of string transformations described in words.

Steps such as "remove every vowel", "shift every lowercase letter 3 places forward",
"replace every run of identical characters by the character and the run's length" or
"reverse each word" are chained, optionally ending in a reduction to a number (count of a
character, distinct characters, position of a character). Levels add steps, word-level
operations and longer inputs. Expected outputs come from a trusted in-process implementation.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, register
from palaestra.envs.code import pipelines as pl
from palaestra.envs.code.common import FunctionTask, function_problem, function_tests, varied


@register
class StringPipeline(FunctionTask):
    id = "code/string_pipeline"
    description = "Write a function applying a generated pipeline of string transformations."
    tags = ("code", "programming", "strings")

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
            c(steps=1, groups=basic, reduce_chance=0.3, max_len=8, words=False, tests=10),
            c(steps=2, groups=basic, reduce_chance=0.3, max_len=12, words=False, tests=12),
            c(steps=3, groups=basic + ("words",), reduce_chance=0.4, max_len=16, words=True, tests=12),
            c(steps=4, groups=basic + ("words",), reduce_chance=0.5, max_len=24, words=True, tests=14),
            c(steps=5, groups=basic + ("words",), reduce_chance=0.5, max_len=32, words=True, tests=16),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        while True:
            pipeline = pl.string_pipeline(rng, config.steps, config.groups, config.reduce_chance)
            inputs = pl.string_inputs(rng, config.tests, config.max_len, config.words)
            tests = function_tests(
                lambda s, p=pipeline: pl.apply_pipeline(p, s, pl.STRING_OPS, pl.STRING_REDUCERS), inputs)
            if varied(tests, at_least=4) and all(len(str(t["expected"])) <= 2000 for t in tests):
                break
        steps = pl.describe_pipeline(pipeline, pl.STRING_OPS, pl.STRING_REDUCERS, "Return the resulting string.")
        kind = "lowercase words separated by single spaces" if config.words else "lowercase letters"
        text = (
            f"Write a Python function `solve(s)` that takes a string `s` (of {kind}) and applies these steps "
            f"in order:\n{steps}"
        )
        source = pl.render_pipeline(pipeline, pl.STRING_OPS, pl.STRING_REDUCERS, "solve", "s")
        return function_problem(function="solve", params="s", task_text=text, tests=tests,
                                reference_source=source, examples=2, extra={"spec": pipeline})
