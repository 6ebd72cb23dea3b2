"""The distinct check's second half: no one reference answer answers more of a level's problems than a constant may
score. The constant check judges its constants on CI's 16 problems a level, too few to tell a fifth from its 0.10
bound; the distinct check counts the reference answers of the 100 problems a level it draws anyway."""

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
    fives: float  # the share of problems drawn so that the answer is 5


class CountOrFive(Task):
    """How many multiples of ``k`` lie in ``1..n``? At levels 0-1 a quarter of the problems are drawn so that the
    count is 5 (``n`` between ``5k`` and ``6k - 1``), the rest from a wide range: "5" is a constant to learn."""

    id = "kitcommon/count_or_five"
    family = "kitcommon"
    description = "Count the multiples of k up to n."
    Config = Cfg

    def config(self, level: int) -> Cfg:
        return Cfg(10 ** (level + 4), self.fives if level < 2 else 0.0)

    fives = 0.25

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        k = rng.randrange(2, 30)
        n = rng.randrange(5 * k, 6 * k) if rng.random() < config.fives else rng.randrange(k, config.size)
        return Problem(prompt=f"How many multiples of {k} lie between 1 and {n}?", answer=str(n // k),
                       data={"k": k, "n": n})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        text = answer.strip().rstrip(".")
        if not text.isdigit() or len(text) > 12:
            return Verdict.unparsed("expected a whole number")
        return Verdict.judge(int(text) == problem.data["n"] // problem.data["k"])

    def difficulty(self, problem: Problem) -> float:
        return len(str(problem.data["n"]))


class CountWide(CountOrFive):
    """The same counts without the drawn fives: no answer recurs often."""

    id = "kitcommon/count_wide"
    fives = 0.0


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    for cls in (CountOrFive, CountWide):
        register(cls)
    yield
    for cls in (CountOrFive, CountWide):
        registry.remove(cls.id)


def test_a_constant_answering_a_quarter_of_two_levels_passes_the_judged_constant_check_at_ci_size() -> None:
    # the gap this check closes: 16 problems a level do not tell 0.25 from the 0.10 bound
    assert kit.run_check(CountOrFive.id, "constant_policies", SETTINGS).ok


def test_the_distinct_check_fails_it_on_the_larger_sample() -> None:
    result = kit.run_check(CountOrFive.id, "distinct", SETTINGS)
    assert not result.ok
    assert "'5'" in result.detail and "not distinct answers" in result.detail


def test_answers_that_do_not_recur_pass_and_report_their_commonest_share() -> None:
    result = kit.run_check(CountWide.id, "distinct", SETTINGS)
    assert result.ok, result.detail
    assert "commonest answer" in result.detail


def test_a_recurring_reference_answer_that_pays_nothing_as_a_constant_passes() -> None:
    # a multi-turn env's answer may pay only after the right tool calls: a count above the bound is judged
    class FiveNeedsWork(CountOrFive):
        id = "kitcommon/five_needs_work"

        def verify(self, problem: Problem, answer: str) -> Verdict:
            return Verdict.judge(answer.strip() == f"{problem.data['k']}:{problem.answer}")

    register(FiveNeedsWork)
    try:
        result = kit.run_check(FiveNeedsWork.id, "distinct", SETTINGS)
        assert result.ok, result.detail
        assert "'5' 0.00" in result.detail
    finally:
        registry.remove(FiveNeedsWork.id)
