"""The kit is only a gate if it fails broken envs: each broken env here must fail its check."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from palaestra import kit
from palaestra.core import Problem, Task, Verdict, register, registry
from palaestra.verifiers.normalize import read_answer


@dataclass(frozen=True)
class Cfg:
    size: int


class Good(Task):
    id = "kitdemo/good"
    family = "kitdemo"
    description = "Double a number."
    Config = Cfg
    bounded = "a kit demo with five levels"

    def config(self, level: int) -> Cfg:
        return Cfg(10 ** (level + 5))

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        return Problem(prompt=f"Double {n}.", answer=str(2 * n), data={"n": n})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.judge(read_answer(answer, lambda s: s if s.isdigit() else None) == str(2 * problem.data["n"]))

    def difficulty(self, problem: Problem) -> float:
        digits = str(problem.data["n"])
        return len(digits) + sum(map(int, digits)) / 100  # the digits to double, and how large they are


class AcceptsAnything(Good):
    id = "kitdemo/accepts_anything"

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.right()


class Raises(Good):
    id = "kitdemo/raises"

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.judge(int(answer) == 2 * problem.data["n"])


class GlobalRandom(Good):
    id = "kitdemo/global_random"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = random.randrange(config.size)
        return Problem(prompt=f"Double {n}.", answer=str(2 * n), data={"n": n})


class TupleData(Good):
    id = "kitdemo/tuple_data"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        p = super().generate(rng, config)
        return Problem(prompt=p.prompt, answer=p.answer, data={"n": p.data["n"], "pair": (1, 2)})


class Unbalanced(Good):
    id = "kitdemo/unbalanced"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        yes = rng.random() < 0.9
        return Problem(prompt=f"Is {n} small? ({yes})", answer="yes" if yes else "no", data={"n": n, "yes": yes})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.judge(answer.strip() == ("yes" if problem.data["yes"] else "no"))


class FlatDifficulty(Good):
    id = "kitdemo/flat_difficulty"

    def difficulty(self, problem: Problem) -> float:
        return 1.0


class RejectsASpelling(Good):
    id = "kitdemo/rejects_a_spelling"

    def spellings(self, problem: Problem) -> list[str]:
        return [f"({problem.answer})"]  # declared right, but the reader takes digits only


class NoGrammar(Good):
    id = "kitdemo/no_grammar"

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.judge(answer.strip() == str(2 * problem.data["n"]))  # refuses "**Answer: 8**"


class SurfaceTell(Good):
    id = "kitdemo/surface_tell"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        yes = rng.random() < 0.5
        padding = "!" * (3 if yes else 1)  # the answer leaks through the prompt's punctuation
        return Problem(prompt=f"Is {n} small{padding}", answer="yes" if yes else "no", data={"n": n, "yes": yes})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.judge(answer.strip() == ("yes" if problem.data["yes"] else "no"))


class FewLevels(Good):
    id = "kitdemo/few_levels"
    num_levels = 3


class SameProblem(Good):
    id = "kitdemo/same_problem"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        return Problem(prompt="Double 4.", answer="8", data={"n": 4})


BROKEN = {
    AcceptsAnything: "wrong_rejected",
    Raises: "hostile",
    GlobalRandom: "determinism",
    TupleData: "json_round_trip",
    Unbalanced: "balance",
    FewLevels: "levels",
    SameProblem: "distinct",
    FlatDifficulty: "difficulty",
    RejectsASpelling: "spellings_accepted",
    NoGrammar: "spellings_accepted",
    SurfaceTell: "balance",
}


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    for cls in [Good, *BROKEN]:
        register(cls)
    yield
    for cls in [Good, *BROKEN]:
        registry.remove(cls.id)


def test_a_correct_env_passes_every_check() -> None:
    # A fresh process cannot see envs registered inside this test module, so that one check is left out.
    checks = [c for c in kit.CHECKS if c != "determinism_across_processes"]
    failed = [r for r in kit.run_checks(Good.id, checks=checks) if not r.ok]
    assert failed == []


@pytest.mark.parametrize("cls, check", list(BROKEN.items()), ids=[c.id for c in BROKEN])
def test_a_broken_env_fails_its_check(cls: type[Task], check: str) -> None:
    result = kit.run_check(cls.id, check)
    assert not result.ok, result.detail
