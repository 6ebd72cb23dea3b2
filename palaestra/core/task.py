"""Procedural problem sources and single-turn tasks.

A :class:`Task` is one procedural single-turn environment: a frozen ``Config``
dataclass, a difficulty schedule ``config(level)``, a generator
``generate(rng, config)``, a verifier ``verify(problem, answer)`` and a declared
difficulty measure ``difficulty(problem)``.

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
            return Problem(prompt=f"What is {a} + {b}?", answer=str(a + b), data={"a": a, "b": b})

        def verify(self, problem, answer):
            return Verdict.judge(answer.strip() == str(problem.data["a"] + problem.data["b"]))

        def difficulty(self, problem):
            return len(str(problem.data["a"] + problem.data["b"]))
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any, ClassVar

from palaestra.core import extract as extraction
from palaestra.core.problem import Problem, Verdict
from palaestra.core.seeding import problem_rng

MAX_ANSWER_CHARS = 20_000
_NUMBER = re.compile(r"-?\d+")


class ProblemSource:
    """What every environment shares: identity, version, difficulty levels and a seeded generator.

    Class attributes an author sets: ``id`` (``family/name``), ``family``,
    ``description`` (one line), ``tags``, ``version`` (bump it whenever what any
    ``(id, level, seed)`` produces changes), ``num_levels`` (at least 5),
    ``answer_format`` (default extractor) and ``multiline`` (True when answers span
    several lines, which rules out the ``last_line`` format).
    """

    id: ClassVar[str]
    family: ClassVar[str]
    description: ClassVar[str] = ""
    tags: ClassVar[tuple[str, ...]] = ()
    version: ClassVar[int] = 1
    turns: ClassVar[str] = "single"
    num_levels: ClassVar[int] = 5
    answer_format: ClassVar[str] = "tag"  # how answers are extracted; its instruction ends every prompt
    multiline: ClassVar[bool] = False
    Config: ClassVar[type]

    def __init__(self, answer_format: str | None = None) -> None:
        if answer_format is not None:
            self.answer_format = extraction.check_format(answer_format, self.multiline, self.id)

    @classmethod
    def versioned_id(cls) -> str:
        return f"{cls.id}-v{cls.version}"

    def config(self, level: int) -> Any:
        """The generation parameters for difficulty ``level`` (0 = easiest)."""
        raise NotImplementedError

    def levels(self) -> int:
        return self.num_levels

    def generate(self, rng: random.Random, config: Any) -> Problem:
        """Make one problem from a private RNG; identity fields are filled in by :meth:`sample`."""
        raise NotImplementedError

    def difficulty(self, problem: Problem) -> float:
        """The declared difficulty measure of a problem (solver effort, size, plan length, steps).

        Its mean over seeds must grow from each level to the next (the kit checks it).
        """
        raise NotImplementedError(f"{type(self).__name__} declares no difficulty measure")

    def space_size(self, level: int) -> int | None:
        """The exact number of distinct problems at ``level`` when it is small and finite, else None.

        The kit then checks coverage against it instead of asking for 95% distinct problems.
        """
        return None

    def format_instruction(self) -> str:
        """How to write the answer; ends every prompt."""
        return extraction.INSTRUCTIONS[self.answer_format]

    def format_answer(self, answer: str) -> str:
        """A full response carrying ``answer`` in this source's answer format."""
        return extraction.wrap(answer, self.answer_format)

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
        return Problem(self.id, level, seed, prompt, made.answer, made.data, self.version, self.answer_format)


class Task(ProblemSource):
    """A single-turn environment: one prompt, one answer, one verdict.

    ``answer_format`` names the extractor (``tag``, ``boxed``, ``last_line``,
    ``raw``) used to find the final answer in a response; the matching
    instruction is appended to every prompt. Keyword arguments a task's
    ``__init__`` accepts (e.g. ``partial_credit``) are reachable through
    ``palaestra.make(id, **kwargs)``.
    """

    max_answer_chars: ClassVar[int] = MAX_ANSWER_CHARS

    def verify(self, problem: Problem, answer: str) -> Verdict:
        """Judge an extracted answer. Must never raise and must return in bounded time."""
        raise NotImplementedError

    def check(self, problem: Problem, response: str) -> Verdict:
        """Extract the answer from a full response the way ``problem`` says, and verify it. Never raises."""
        answer = extraction.extract(response, problem.answer_format)
        if answer is None:
            return Verdict.unparsed(extraction.MISSING[problem.answer_format])
        if len(answer) > self.max_answer_chars:
            return Verdict.unparsed(f"answer longer than {self.max_answer_chars} characters")
        try:
            return self.verify(problem, answer)
        except Exception as exc:  # a verifier bug must not crash a training run, nor count as a wrong answer
            return Verdict.failed(f"verifier raised {type(exc).__name__}: {str(exc)[:200]}")

    def spellings(self, problem: Problem) -> list[str]:
        """Other spellings of the reference answer that a careful grader accepts; the kit asserts they are.

        Each is what a model writes inside its answer block (the kit wraps it in the
        answer format and judges it through extraction, as ``score`` does). The default
        adds surrounding whitespace; tasks add their own notations (another order, a
        fraction for a decimal, a set written with braces...).
        """
        gold = problem.answer or ""
        return [f"  {gold}\n"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """Near misses that are certainly wrong for ``problem``; the kit asserts they are rejected.

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

    # --- cheap baseline policies (reward integrity, issue 21) -----------------------------------------------

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Cheap textbook policies for this task (greedy rules, nearest neighbour, ...), by name.

        Each maps a problem to a bare answer (what goes inside the answer block). The kit prints
        each one's score per level and fails the env when one solves half the problems at the top
        level: hard levels must hold instances on which the textbook rule is not enough.
        """
        return {}
