"""Procedural problem sources and single-turn tasks.

A :class:`Task` is one procedural single-turn environment: a frozen ``Config``
dataclass, a difficulty schedule ``config(level)``, a generator
``generate(rng, config)`` and a verifier ``verify(problem, answer)``.

Example::

    from dataclasses import dataclass
    from palaestra.core import Problem, Task, Verdict, register

    @register
    class Add(Task):
        id = "demo/add"
        family = "demo"
        description = "Add two integers."

        @dataclass(frozen=True)
        class Config:
            digits: int

        def config(self, level):
            return self.Config(digits=level + 1)

        def generate(self, rng, config):
            a, b = (rng.randrange(10 ** config.digits) for _ in range(2))
            return Problem(prompt=f"What is {a} + {b}?", answer=str(a + b), data={"sum": a + b})

        def verify(self, problem, answer):
            return Verdict.judge(answer.strip() == str(problem.data["sum"]))
"""

from __future__ import annotations

import random
import re
from typing import Any, ClassVar

from palaestra.core.problem import Problem, Verdict
from palaestra.core.seeding import problem_rng
from palaestra.verifiers import extract as extraction

MAX_ANSWER_CHARS = 20_000
_NUMBER = re.compile(r"-?\d+")


class ProblemSource:
    """What every environment shares: identity, difficulty levels and a seeded generator."""

    id: ClassVar[str]
    family: ClassVar[str]
    description: ClassVar[str] = ""
    tags: ClassVar[tuple[str, ...]] = ()
    turns: ClassVar[str] = "single"
    num_levels: ClassVar[int] = 5
    answer_format: ClassVar[str] = "tag"  # how answers are extracted; its instruction ends every prompt
    Config: ClassVar[type]

    def config(self, level: int) -> Any:
        """The generation parameters for difficulty ``level`` (0 = easiest)."""
        raise NotImplementedError

    def levels(self) -> int:
        return self.num_levels

    def generate(self, rng: random.Random, config: Any) -> Problem:
        """Make one problem from a private RNG; identity fields are filled in by :meth:`sample`."""
        raise NotImplementedError

    def format_instruction(self) -> str:
        """How to write the answer; ends every prompt."""
        return extraction.INSTRUCTIONS[self.answer_format]

    def level_config(self, level: int) -> Any:
        """``config(level)`` after checking the level, computed once per level and instance."""
        if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level < self.levels():
            raise ValueError(f"{self.id}: level must be an int in [0, {self.levels() - 1}], got {level!r}")
        cache = self.__dict__.setdefault("_configs", {})
        if level not in cache:
            cache[level] = self.config(level)
        return cache[level]

    def sample(self, level: int = 0, seed: int = 0) -> Problem:
        """The problem identified by ``(self.id, level, seed)``; the same in every process."""
        config = self.level_config(level)
        made = self.generate(problem_rng(self.id, level, seed), config)
        prompt = f"{made.prompt}\n\n{self.format_instruction()}"
        return Problem(self.id, level, seed, prompt, made.answer, made.data)


class Task(ProblemSource):
    """A single-turn environment: one prompt, one answer, one verdict.

    ``answer_format`` names the extractor (``tag``, ``boxed``, ``last_line``,
    ``raw``) used to find the final answer in a response; the matching
    instruction is appended to every prompt.
    """

    max_answer_chars: ClassVar[int] = MAX_ANSWER_CHARS

    def __init__(self, answer_format: str | None = None) -> None:
        if answer_format is not None:
            self.answer_format = extraction.check_format(answer_format)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        """Judge an extracted answer. Must never raise and must return in bounded time."""
        raise NotImplementedError

    def format_answer(self, answer: str) -> str:
        """A full response carrying ``answer`` in this task's answer format."""
        return extraction.wrap(answer, self.answer_format)

    def check(self, problem: Problem, response: str) -> Verdict:
        """Extract the answer from a full response and verify it. Never raises."""
        answer = extraction.extract(response, self.answer_format)
        if answer is None:
            return Verdict.unparsed(f"no answer found (expected {self.answer_format} format)")
        if len(answer) > self.max_answer_chars:
            return Verdict.unparsed(f"answer longer than {self.max_answer_chars} characters")
        try:
            return self.verify(problem, answer)
        except Exception as exc:  # a verifier bug must not crash a training run
            return Verdict.unparsed(f"verifier error: {type(exc).__name__}")

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """Answers that are certainly wrong for ``problem``; the contract kit asserts they are rejected.

        The default nudges the first integer of the reference answer and keeps only
        its first half. Tasks with many valid answers override this when those
        edits could produce another valid answer.
        """
        gold = problem.answer or ""
        wrong = []
        match = _NUMBER.search(gold)
        if match:
            nudged = str(int(match.group()) + rng.choice([-2, -1, 1, 2]))
            wrong.append(gold[: match.start()] + nudged + gold[match.end() :])
        if len(gold) > 1:
            wrong.append(gold[: len(gold) // 2])
        return [w for w in wrong if w.strip() != gold.strip()]
