"""The hostile check also judges the reference with its digits written as characters ``str.isdigit()`` accepts and
``int()`` refuses (``³``, ``①``): a reader that tests with one and converts with the other raised on "right ³" in
``spatial/mirror_paths`` and on five more envs' answers (round 3 session 29), and a verdict that failed to judge is
left out of training rather than scored 0."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from palaestra import kit
from palaestra.core import Problem, Task, Verdict, register, registry

SETTINGS = kit.Settings.ci()


@dataclass(frozen=True)
class Cfg:
    size: int


class Double(Task):
    """Double a number; the reader tests with ``isdecimal()``, which is what ``int()`` reads."""

    id = "kitodd/double"
    family = "kitodd"
    description = "Double a number."
    Config = Cfg

    def config(self, level: int) -> Cfg:
        return Cfg(10 ** (level + 3))

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(10, config.size)
        return Problem(prompt=f"What is twice {n}?", answer=str(2 * n), data={"n": n})

    def _read(self, text: str) -> bool:
        return text.isdecimal()

    def verify(self, problem: Problem, answer: str) -> Verdict:
        text = answer.strip()
        if not self._read(text) or len(text) > 12:
            return Verdict.unparsed("expected a whole number")
        return Verdict.judge(int(text) == 2 * problem.data["n"])

    def difficulty(self, problem: Problem) -> float:
        return len(str(problem.data["n"]))


class DoubleReadsIsdigit(Double):
    """The same, testing with ``isdigit()``: "²⁴" passes the test and int() raises."""

    id = "kitodd/double_isdigit"

    def _read(self, text: str) -> bool:
        return text.isdigit()


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    for cls in (Double, DoubleReadsIsdigit):
        register(cls)
    yield
    for cls in (Double, DoubleReadsIsdigit):
        registry.remove(cls.id)


def test_a_reader_that_converts_what_it_tested_passes_the_hostile_check() -> None:
    result = kit.run_check(Double.id, "hostile", SETTINGS)
    assert result.ok, result.detail


def test_a_reader_that_tests_with_isdigit_and_converts_with_int_fails_it() -> None:
    result = kit.run_check(DoubleReadsIsdigit.id, "hostile", SETTINGS)
    assert not result.ok
