"""The quality checks of the kit (issue 21) fail the defects they target, and pass the honest envs."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import pytest

from palaestra import kit
from palaestra.core import Problem, Task, Verdict, register, registry
from palaestra.envs.graphs.bridges import Bridges


@dataclass(frozen=True)
class Cfg:
    size: int


class Thirds(Task):
    """Exact thirds, computed exactly: passes every quality check."""

    id = "kitquality/thirds"
    family = "kitquality"
    description = "Divide a number by three, exactly."
    Config = Cfg

    def config(self, level: int) -> Cfg:
        return Cfg(10 ** (level + 3))

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(1, config.size)
        return Problem(prompt=f"What is {n} divided by three, as an exact fraction?", answer=self.third(n),
                       data={"n": n})

    def third(self, n: int) -> str:
        return str(Fraction(n, 3))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.judge(answer.strip() == self.third(problem.data["n"]))

    def difficulty(self, problem: Problem) -> float:
        digits = str(problem.data["n"])
        return len(digits) + sum(map(int, digits)) / 100  # the digits to divide, and how large they are


class FloatThirds(Thirds):
    """Divides in floats: the reference is a rounded binary fraction, so exact answers would score 0."""

    id = "kitquality/float_thirds"

    def third(self, n: int) -> str:
        return str(Fraction(n / 3))


class SizeAsDifficulty(Thirds):
    """The difficulty is the level's size setting: it grows, but says nothing of the drawn problem."""

    id = "kitquality/size_as_difficulty"

    def difficulty(self, problem: Problem) -> float:
        return float(self.level_config(problem.level).size)


class DeclaredConstantDifficulty(SizeAsDifficulty):
    id = "kitquality/declared_constant"
    constant_difficulty = "every drawn problem is one division of a number of the level's size"


class CopiedBridges(Bridges):
    """Another id for the same generator: a near duplicate of graphs/bridges."""

    id = "kitquality/copied_bridges"
    family = "kitquality"
    aliases = {}


class DeclaredDistinctBridges(CopiedBridges):
    id = "kitquality/declared_distinct"
    distinct_from = {"graphs/bridges": "a kit test's stand-in for an env that declares how it differs"}


ALL = [Thirds, FloatThirds, SizeAsDifficulty, DeclaredConstantDifficulty, CopiedBridges, DeclaredDistinctBridges]


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    for cls in ALL:
        register(cls)
    yield
    for cls in ALL:
        registry.remove(cls.id)


def _run(env_id: str, check: str) -> kit.CheckResult:
    return kit.run_check(env_id, check, kit.Settings.ci())


@pytest.mark.parametrize("check", ["exact_references", "difficulty_varies", "difficulty", "near_duplicates",
                                   "reference_accepted"])
def test_an_honest_env_passes(check: str) -> None:
    result = _run(Thirds.id, check)
    assert result.ok, result.detail


def test_float_references_fail_exact_references() -> None:
    assert _run(FloatThirds.id, "reference_accepted").ok  # the verifier agrees with its own float reference...
    result = _run(FloatThirds.id, "exact_references")
    assert not result.ok and "float" in result.detail  # ...but the reference is not exact


def test_a_difficulty_that_is_the_level_setting_fails_difficulty_varies() -> None:
    assert _run(SizeAsDifficulty.id, "difficulty").ok  # the growth check alone cannot see it
    result = _run(SizeAsDifficulty.id, "difficulty_varies")
    assert not result.ok and "level 1" in result.detail


def test_a_declared_constant_difficulty_is_exempt_with_its_reason() -> None:
    result = _run(DeclaredConstantDifficulty.id, "difficulty_varies")
    assert result.ok and "exempt" in result.detail


def test_a_copied_env_fails_near_duplicates_unless_it_says_why_it_differs() -> None:
    result = _run(CopiedBridges.id, "near_duplicates")
    assert not result.ok and "graphs/bridges" in result.detail
    assert _run(DeclaredDistinctBridges.id, "near_duplicates").ok


def test_near_duplicates_names_the_most_similar_env() -> None:
    # The registry's closest pair (0.58 in round 3's thirty-sixth session): a pair nearer the 0.35 threshold can drop
    # under it when either env's first problems change (text_to_sql and sql_statistics went 0.40 -> 0.23 when
    # sql_statistics v3 drew other databases for seeds 0 and 1).
    result = _run("games/hex_minesweeper", "near_duplicates")
    assert result.ok and "games/minesweeper" in result.detail and "declared distinct" in result.detail, result.detail


def test_hostile_answers_skip_only_spellings_of_a_numeric_reference() -> None:
    def problem(answer: object) -> Problem:
        return Problem(env_id="x/y", level=0, seed=1, prompt="?", answer=answer)

    assert kit._spells_reference("-0", problem("$0.00"))  # a right answer, not a hostile one
    assert kit._spells_reference("-0", problem(0))
    assert not kit._spells_reference("-0", problem("$75.00"))
    assert not kit._spells_reference("NaN", problem("nan x"))
    assert not kit._spells_reference("9" * 100_000, problem("9" * 100_000))  # long answers are always hostile
    assert not kit._spells_reference("-0", problem(None))
