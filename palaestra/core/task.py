"""Procedural problem sources and single-turn tasks.

A :class:`Task` is one procedural single-turn environment: a frozen ``Config``
dataclass, a difficulty schedule (``presets``: one ``Config`` per named level, and
optionally a ``growth`` rule for every level past them), a generator
``generate(rng, config)``, a verifier ``verify(problem, answer)`` and a declared
difficulty measure ``difficulty(problem)``.

Example::

    from dataclasses import dataclass
    from palaestra.core import Problem, Task, Verdict, register
    from palaestra.core.task import Growth

    @register
    class Add(Task):
        id = "demo/add"
        family = "demo"
        description = "Add two integers."

        @dataclass(frozen=True)
        class Config:
            digits: int

        presets = (Config(digits=1), Config(digits=2), Config(digits=3), Config(digits=4), Config(digits=5))
        growth = Growth()  # level 5 has 6 digits, level 6 has 7, ...: any level >= 0 is valid

        def generate(self, rng, config):
            a, b = (rng.randrange(10 ** config.digits) for _ in range(2))
            return Problem(prompt=f"What is {a} + {b}?", answer=str(a + b), data={"a": a, "b": b})

        def verify(self, problem, answer):
            return Verdict.judge(answer.strip() == str(problem.data["a"] + problem.data["b"]))

        def difficulty(self, problem):
            return len(str(problem.data["a"] + problem.data["b"]))
"""

from __future__ import annotations

import dataclasses
import inspect
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from palaestra.core import extract as extraction
from palaestra.core.problem import Problem, Verdict
from palaestra.core.seeding import problem_rng

MAX_ANSWER_CHARS = 20_000
_NUMBER = re.compile(r"-?\d+")


@dataclass(frozen=True)
class Growth:
    """The rule that computes the config of every level past an env's presets (the env is then unbounded).

    Level ``n + k`` (``n`` presets, ``k >= 0``) is the last preset with each growing field
    moved ``k + 1`` steps further. ``steps`` names a step per field; without it, every int
    field (and every tuple of ints, such as a ``(low, high)`` range, element by element)
    that grew over the presets keeps growing by its last rise, or by its mean rise over the
    presets when it did not rise at the last one; every other field (a shrinking hint count,
    a probability, a string, a category) keeps its last value. ``limits`` caps fields that
    cannot grow forever (a word list's length; a ``(low, high)`` range takes a limit per end);
    some other field must keep growing, or the difficulty stops growing (the kit checks levels
    0-9). A value that does not grow (the low end of a range) is never moved by a limit.

    ``factors`` multiplies a magnitude per level instead (``{"max_value": 10}``: one more
    digit per level).

    Example: presets with ``nodes`` 7, 10, 14, 20, 28 and ``Growth()`` give level 5 36
    nodes, level 6 44, ...; ``Growth(steps={"nodes": 10}, limits={"colours": 6})`` gives
    38, 48, ... and never more than 6 colours.
    """

    steps: Mapping[str, int | float] | None = None
    limits: Mapping[str, int | float | tuple[int, ...]] = field(default_factory=dict)  # a range: a limit per end
    factors: Mapping[str, int | float] = field(default_factory=dict)  # fields multiplied per level (magnitudes)

    def beyond(self, presets: Sequence[Any], past: int) -> Any:
        """The config ``past`` levels beyond the last of ``presets``."""
        last = presets[-1]
        names = {f.name for f in dataclasses.fields(last)}
        unknown = (set(self.steps or {}) | set(self.limits) | set(self.factors)) - names
        if unknown:
            raise ValueError(f"Growth names fields the Config does not have: {sorted(unknown)}")
        changes: dict[str, Any] = {}
        for name in names:
            history = [getattr(config, name) for config in presets]
            value = history[-1]
            if isinstance(value, tuple) and value and all(_is_int(v) for v in value) and self.steps is None:
                if all(isinstance(h, tuple) and len(h) == len(value) for h in history):
                    grown_range = tuple(self._grow(name, [h[i] for h in history], past, i) for i in range(len(value)))
                    if grown_range != value:
                        changes[name] = grown_range
            elif name in self.factors:
                scaled = value * self.factors[name] ** past
                scaled = int(round(scaled)) if _is_int(value) else scaled
                limit = self.limits.get(name)
                changes[name] = scaled if limit is None or isinstance(limit, tuple) else min(scaled, limit)
            elif _is_int(value) or (isinstance(value, float) and self.steps is not None):
                grown_value = self._grow(name, history, past)
                if grown_value != value:
                    changes[name] = grown_value
        return dataclasses.replace(last, **changes)

    def _grow(self, name: str, history: list[Any], past: int, element: int | None = None) -> Any:
        """``history``'s last value moved ``past + 1`` steps, within its limit (element ``element`` of a range)."""
        value = history[-1]
        if self.steps is not None:
            step = self.steps.get(name, 0)
        elif not all(_is_int(h) for h in history) or value <= history[0]:
            step = 0
        elif value > history[-2]:
            step = value - history[-2]
        else:
            step = -(-(value - history[0]) // (len(history) - 1))  # the mean rise, rounded up
        grown = value + step * past
        if _is_int(value):
            grown = int(round(grown))
        limit = self.limits.get(name)
        if isinstance(limit, tuple):  # a range capped end by end: {"lengths": (42, 46)}
            limit = limit[element] if element is not None and element < len(limit) else None
        if limit is not None and step:  # a value that does not move (the low end of a range) stays as it is
            grown = min(grown, limit) if step > 0 else max(grown, limit)
        return grown


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_OPTION_DEFAULTS: dict[type, dict[str, Any]] = {}


def option_defaults(cls: type) -> dict[str, Any]:
    """The keyword parameters of ``cls.__init__`` other than ``answer_format``, with their defaults (once per class)."""
    found = _OPTION_DEFAULTS.get(cls)
    if found is None:
        parameters = inspect.signature(cls.__init__).parameters.items()  # type: ignore[misc]
        found = _OPTION_DEFAULTS[cls] = {
            name: p.default for name, p in parameters
            if name not in ("self", "answer_format") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    return found


class ProblemSource:
    """What every environment shares: identity, version, difficulty levels and a seeded generator.

    Class attributes an author sets: ``id`` (``family/name``), ``family``,
    ``description`` (one line), ``tags``, ``version`` (bump it whenever what any
    ``(id, level, seed)`` produces changes), ``answer_format`` (default extractor) and
    ``multiline`` (True when answers span several lines, which rules out the
    ``last_line`` format).

    Levels. ``presets`` is a tuple of ``Config`` values, one per named level (at least 5;
    ``num_levels`` is set to their count). An env with a ``growth`` rule (a :class:`Growth`,
    or its own ``extrapolate(level)`` method) is *unbounded*: every level ``>= 0`` is valid,
    levels past the presets computed by the rule; ``levels()`` and ``num_levels`` still
    count the named presets (what listings show and what every level-by-level check walks),
    and ``unbounded`` is True. An env that cannot grow says why in ``bounded``. Example::

        @dataclass(frozen=True)
        class Config:
            nodes: int
            edges: int

        presets = (Config(7, 8), Config(10, 12), Config(14, 17), Config(20, 25), Config(28, 35))
        growth = Growth()  # level 5: Config(36, 45), level 6: Config(44, 55), ...

    and a fixed board instead::

        presets = (Config(distance=10), ...)
        bounded = "the 3x3 board has at most 31 moves to solve"

    Grading options. Keyword arguments of ``__init__`` other than ``answer_format`` (e.g.
    ``partial_credit``) are kept as attributes of the same name; every problem records
    those that differ from their defaults (``Problem.options``) so ``palaestra.score``
    grades it as the env that made it did. ``option_variants`` lists keyword sets the kit
    checks that equivalence under (``({"partial_credit": True},)``).
    """

    id: ClassVar[str]
    family: ClassVar[str]
    description: ClassVar[str] = ""
    tags: ClassVar[tuple[str, ...]] = ()
    version: ClassVar[int] = 1
    # An env that moved to another family derives its problems from its old id, so they stay the same ones.
    seed_id: ClassVar[str] = ""
    turns: ClassVar[str] = "single"
    num_levels: ClassVar[int] = 5  # named presets (set from ``presets``); unbounded envs take any level past them
    presets: ClassVar[tuple[Any, ...]] = ()
    growth: ClassVar[Growth | None] = None
    unbounded: ClassVar[bool] = False  # derived: a ``growth`` rule or an ``extrapolate`` method is declared
    bounded: ClassVar[str] = ""  # why an env stops at its presets
    option_variants: ClassVar[tuple[dict[str, Any], ...]] = ()
    answer_format: ClassVar[str] = "tag"  # how answers are extracted; its instruction ends every prompt
    multiline: ClassVar[bool] = False
    Config: ClassVar[type]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "presets" in cls.__dict__ and "num_levels" not in cls.__dict__:
            cls.num_levels = len(cls.presets)
        cls.unbounded = cls.growth is not None or cls.extrapolate is not ProblemSource.extrapolate

    def __init__(self, answer_format: str | None = None) -> None:
        if answer_format is not None:
            self.answer_format = extraction.check_format(answer_format, self.multiline, self.id)

    @classmethod
    def versioned_id(cls) -> str:
        return f"{cls.id}-v{cls.version}"

    def config(self, level: int) -> Any:
        """The generation parameters of the named level ``level`` (0 = easiest): its preset.

        An env whose named levels read better as code (built from module tables) overrides this
        for levels below ``num_levels``; levels past them always come from :meth:`extrapolate`.
        """
        if not self.presets:
            raise NotImplementedError(f"{type(self).__name__} declares no `presets`")
        return self.presets[level]

    def extrapolate(self, level: int) -> Any:
        """The config of a level past the presets: the ``growth`` rule applied to the last two presets.

        Overriding it (a rule a :class:`Growth` cannot say) also makes the env unbounded.
        """
        if self.growth is None:
            raise NotImplementedError(f"{type(self).__name__} is bounded: {self.bounded or 'no growth rule'}")
        last = self.num_levels - 1
        return self.growth.beyond([self.config(named) for named in range(self.num_levels)], level - last)

    def levels(self) -> int:
        """The number of named presets (levels ``0 .. levels() - 1``); unbounded envs also take any level past them."""
        return self.num_levels

    def options(self) -> dict[str, Any]:
        """The grading keyword arguments this instance was built with that differ from their defaults.

        Read from ``__init__``'s parameters (``answer_format`` aside: problems carry it on
        their own); a parameter whose default is None stands for the class attribute of
        the same name.
        """
        chosen = {}
        for name, default in option_defaults(type(self)).items():
            if default is None:
                default = getattr(type(self), name, None)
            value = getattr(self, name, default)
            if value != default:
                chosen[name] = value
        return chosen

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
        """The config of ``level`` after checking it (preset or rule), computed once per level and instance."""
        if not isinstance(level, int) or isinstance(level, bool) or level < 0:
            raise ValueError(f"{self.id}: level must be an int >= 0, got {level!r}")
        if level >= self.levels() and not self.unbounded:
            raise ValueError(f"{self.id}: level must be an int in [0, {self.levels() - 1}], got {level!r}"
                             + (f" ({self.bounded})" if self.bounded else ""))
        cache = self.__dict__.setdefault("_configs", {})
        if level not in cache:
            config = self.config(level) if level < self.levels() else self.extrapolate(level)
            if not isinstance(config, self.Config):
                raise TypeError(f"{self.id}: the config of level {level} is a {type(config).__name__}, "
                                f"not a {self.Config.__name__}")
            cache[level] = config
        return cache[level]

    def sample(self, level: int = 0, seed: int = 0) -> Problem:
        """The problem identified by ``(self.id, level, seed)``; the same in every process."""
        config = self.level_config(level)
        made = self.generate(problem_rng(self.seed_id or self.id, level, seed), config)
        prompt = f"{made.prompt}\n\n{self.format_instruction()}"
        return Problem(self.id, level, seed, prompt, made.answer, made.data, self.version, self.answer_format,
                       self.options())


class Task(ProblemSource):
    """A single-turn environment: one prompt, one answer, one verdict.

    ``answer_format`` names the extractor (``tag``, ``boxed``, ``last_line``,
    ``raw``) used to find the final answer in a response; the matching
    instruction is appended to every prompt. Keyword arguments a task's
    ``__init__`` accepts (e.g. ``partial_credit``) are reachable through
    ``palaestra.make(id, **kwargs)``.
    """

    max_answer_chars: ClassVar[int] = MAX_ANSWER_CHARS
    # The answer is text compared as written (a program's exact output, a test to run): the answer grammar's
    # wrappers and lead-ins are not looked through, so the kit does not try its common spellings on it.
    verbatim: ClassVar[bool] = False

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
