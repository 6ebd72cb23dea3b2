"""Shared machinery of the Python-to-X translation envs (``code/python_to_lua``, ``code/python_to_go``,
``code/python_to_prolog``): a parameterised Python function, its translation judged on hidden tests.

Each env holds a few :class:`Template` s, each a small Python function with drawn constants whose faithful
translation into the target language needs one of the target's idioms (1-based tables, Go's truncating
``/`` and ``%`` and unordered maps, recursion instead of loops in Prolog). A template renders the Python
shown in the prompt, the reference translation (the gold answer) and, where there is one, the *naive*
translation a careless translator writes (a corruption the hidden tests must reject). Expected outputs come
from the Python shown, run in-process (our own generated source, never model text); the naive translation's
behaviour is mirrored by a second Python function, and the tests are redrawn until they tell the two apart.

The candidate is a file next to our trusted driver (:func:`palaestra.verifiers.polyglot.check_program`
with ``driver=``): the driver calls the function on every hidden test and prints one line per test, which
the parent compares with the expected lines. The driver's text is env-specific (``driver(name, tests)``).

The hidden tests are distinct (before, 16-40% of problems repeated a test, often the empty input, and showed it
twice as both examples): each env's version 2.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._polyglot import PolyglotTask, convention
from palaestra.envs.code._polyglot import Template as ProgramTemplate
from palaestra.envs.code.common import compiled_function
from palaestra.verifiers import polyglot
from palaestra.verifiers.polyglot import Budget, Program, Report, fence

ERROR = "error"  # what a driver prints for a test whose call raised


class Template(ProgramTemplate):
    """One kind of function to translate (the shared program template: its ``reference`` is the reference
    translation, the gold answer). ``params`` hold the drawn constants and the function's ``name``."""

    def python(self, p: dict[str, Any]) -> str:
        """The Python source shown in the prompt (it is also the trusted reference)."""
        raise NotImplementedError

    def naive_python(self, p: dict[str, Any]) -> str | None:
        """Python mirroring the naive translation's behaviour (raising where it fails), or None."""
        return None

    def naive_target(self, p: dict[str, Any]) -> str | None:
        return None

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        """The arguments of one test."""
        raise NotImplementedError


def call(source: str, name: str, args: list[Any]) -> Any:
    """``name(*args)`` as defined by **our own** generated Python ``source``, run in-process; ``ERROR`` when it raises."""
    try:
        return compiled_function(source, name)(*json.loads(json.dumps(args)))
    except (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError, RecursionError):
        return ERROR


@dataclass(frozen=True)
class TranslationConfig:
    """A level of a translation env: the highest template tier drawn from, the hidden tests, their longest input."""

    tier: int
    tests: int
    max_len: int


class TranslationTask(PolyglotTask):
    """A translation env over ``templates`` into ``target`` (a sandbox language); see the module docstring.
    Every target has the same levels (below)."""

    Config = TranslationConfig
    presets = (
        Config(tier=1, tests=8, max_len=5),
        Config(tier=1, tests=10, max_len=8),
        Config(tier=2, tests=12, max_len=10),
        Config(tier=2, tests=14, max_len=14),
        Config(tier=2, tests=16, max_len=20),
    )
    # past the presets: two more hidden tests and half as long again per level
    growth = Growth(steps={"tests": 2}, factors={"max_len": 1.5}, limits={"tests": 60, "max_len": 3000})

    target: ClassVar[str]
    templates: ClassVar[dict[str, Template]]
    signature_hint: ClassVar[str]  # how the prompt states the function's shape in the target (a format with {name})

    def render(self, value: Any) -> str:
        """One expected output line as the driver prints the value."""
        raise NotImplementedError

    def driver(self, name: str, tests: list[list[Any]]) -> str:
        raise NotImplementedError

    def file(self, code: str) -> str:
        """A template's translation as the whole file the answer holds (Go adds its package clause)."""
        return code

    def shape(self, name: str) -> str:
        """The example of the answer's shape (not the answer)."""
        raise NotImplementedError

    def generate(self, rng: random.Random, config: Any) -> Problem:
        pool = [t for t in self.templates.values() if t.tier <= config.tier]

        def draw() -> Problem | None:
            template = rng.choice(pool)
            p = template.params(rng)
            source = template.python(p)
            naive = template.naive_python(p)
            sizes: list[int] = []
            tests: list[list[Any]] = []
            seen: set[str] = set()
            for _ in range(config.tests * 8):  # distinct tests (a repeated one, often the empty input, tests nothing)
                if len(tests) == config.tests:
                    break
                size = rng.randint(0, config.max_len)
                args = template.case(rng, p, size)
                if json.dumps(args) not in seen:
                    seen.add(json.dumps(args))
                    sizes.append(size)
                    tests.append(args)
            if len(tests) < config.tests:
                return None
            results = [call(source, p["name"], args) for args in tests]
            if ERROR in results or len({json.dumps(r) for r in results}) < min(4, len(results)):
                return None
            if naive is not None and all(call(naive, p["name"], args) == r for args, r in zip(tests, results)):
                return None  # the hidden tests must reject the naive translation
            shortest = sorted(range(len(tests)), key=lambda i: (len(json.dumps(tests[i])), i))[:2]
            shown = "\n".join(f"{p['name']}({', '.join(json.dumps(a) for a in tests[i])}) == {json.dumps(results[i])}"
                              for i in sorted(shortest))
            language = polyglot.LANGUAGE_NAMES[self.target]
            prompt = (
                f"Translate this Python function into {language}, keeping exactly the same results for every "
                f"input:\n\n```python\n{source.rstrip()}\n```\n\nExamples (Python values):\n{shown}\n\n"
                f"{self.signature_hint.format(name=p['name'])} A hidden test driver calls it on many inputs and "
                "compares the results; do not write a main program or read input. "
                + convention([self.target], shape=self.shape(p["name"]))
            )
            data = {"template": template.name, "params": p, "tests": tests, "sizes": sizes,
                    "expected": [self.render(r) for r in results], "languages": [self.target], "gold": self.target}
            return Problem(prompt=prompt, answer=fence((self.target, self.file(template.reference(p)))), data=data)

        return retry(draw, attempts=200, what="tests with varied results that reject the naive translation")

    def sources(self, problem: Problem) -> dict[str, str]:
        template = self.templates[problem.data["template"]]
        return {self.target: self.file(template.reference(problem.data["params"]))}

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """The gold cut short, and the naive translation (the hidden tests are drawn to reject it)."""
        naive = self.templates[problem.data["template"]].naive_target(problem.data["params"])
        return [*super().corruptions(problem, rng), *([fence((self.target, self.file(naive)))] if naive else [])]

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["params"]["name"]

    def judge(self, problem: Problem, program: Program) -> Report:
        data = problem.data
        driver = self.driver(data["params"]["name"], data["tests"])
        return polyglot.check_program(program, "", data["expected"], driver=driver, budget=Budget(cpu_seconds=2.0))

    def difficulty(self, problem: Problem) -> float:
        """The template's tier plus log2 of the hidden tests' total size (list lengths, string lengths, or the
        digits' scale of a number: the size each test was drawn with)."""
        return self.templates[problem.data["template"]].tier + math.log2(1 + sum(problem.data["sizes"]))
