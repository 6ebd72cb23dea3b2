"""The policy checks of the kit (constant answers, hedges, declared heuristics) fail toy envs built with each defect."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from palaestra import kit
from palaestra.core import Problem, Task, Verdict, register, registry
from palaestra.kit import policies

SETTINGS = kit.Settings.ci()


@dataclass(frozen=True)
class Cfg:
    size: int


class SplitOrImpossible(Task):
    """Give a number below ``n`` that divides ``n`` and is neither 1 nor ``n``, or ``impossible`` when ``n`` is prime.

    Primes are the certificate-free side here, drawn for a fifth of the problems; a composite has no
    factor below 50, so no constant divisor pays."""

    id = "kitpolicy/divisor"
    family = "kitpolicy"
    description = "Give a proper divisor, or say the number is prime."
    certificate_free = ("impossible",)
    prime_share = 0.2
    Config = Cfg

    def config(self, level: int) -> Cfg:
        return Cfg(10 ** (level + 4))

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        prime = rng.random() < self.prime_share
        while True:
            n = rng.randrange(config.size // 10, config.size) | 1  # odd: "2" is never a divisor
            if _smallest_factor(n) == n if prime else 50 < _smallest_factor(n) < n:
                break
        answer = "impossible" if prime else str(_smallest_factor(n))
        return Problem(prompt=f"Give a proper divisor of {n}, or answer impossible.", answer=answer, data={"n": n})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = problem.data["n"]
        text = answer.strip().rstrip(".").lower()
        if text == "impossible":
            return Verdict.judge(_smallest_factor(n) == n)
        if not text.isdigit() or len(text) > 12:
            return Verdict.unparsed("expected a number or impossible")
        return Verdict.judge(1 < int(text) < n and n % int(text) == 0)

    def difficulty(self, problem: Problem) -> float:
        return len(str(problem.data["n"]))


def _smallest_factor(n: int) -> int:
    return next((d for d in range(2, int(n**0.5) + 1) if n % d == 0), n)


class HalfImpossible(SplitOrImpossible):
    """The certificate-free side is half the problems: a constant ``impossible`` earns about 0.5."""

    id = "kitpolicy/half_impossible"
    prime_share = 0.5


class AcceptsHedges(SplitOrImpossible):
    """A number with ``impossible`` beside it is read as the number (the side that is right wins)."""

    id = "kitpolicy/accepts_hedges"

    def verify(self, problem: Problem, answer: str) -> Verdict:
        words = answer.replace(".", " ").replace("(", " ").replace(")", " ").replace(";", " ").lower().split()
        n = problem.data["n"]
        if "impossible" in words and _smallest_factor(n) == n:
            return Verdict.right()
        numbers = [int(w) for w in words if w.isdigit() and len(w) < 12]
        return Verdict.judge(any(1 < d < n and n % d == 0 for d in numbers))


class GreedyWins(SplitOrImpossible):
    """Declares trial division as a cheap heuristic: it solves every problem."""

    id = "kitpolicy/greedy_wins"

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def trial_division(problem: Problem) -> str:
            factor = _smallest_factor(problem.data["n"])
            return "impossible" if factor == problem.data["n"] else str(factor)

        return {"trial division": trial_division}


class GreedyLoses(SplitOrImpossible):
    """Declares a heuristic that only ever tries 2: it fails most problems (odd numbers)."""

    id = "kitpolicy/greedy_loses"

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        return {"try two": lambda problem: "2"}


class OftenZero(Task):
    """Subtract two numbers; a third of the pairs are equal, so ``0`` answers a third of the problems and every
    other answer is new: one recurring answer among unique ones is a constant to learn, not a closed answer set."""

    id = "kitpolicy/often_zero"
    family = "kitpolicy"
    description = "Subtract two numbers (a third of them equal)."
    Config = Cfg

    def config(self, level: int) -> Cfg:
        return Cfg(10 ** (level + 6))

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        a = rng.randrange(config.size)
        b = a if rng.random() < 0.35 else rng.randrange(config.size)
        return Problem(prompt=f"What is {a} - {b}?", answer=str(a - b), data={"a": a, "b": b})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        text = answer.strip().rstrip(".")
        if not text.lstrip("-").isdigit() or len(text) > 12:
            return Verdict.unparsed("expected an integer")
        return Verdict.judge(int(text) == problem.data["a"] - problem.data["b"])

    def difficulty(self, problem: Problem) -> float:
        return len(str(problem.data["a"]))


class FourWays(Task):
    """Which of four residues is ``n`` mod 4? A closed set of four answers at every level: a constant earns the
    chance of 0.25 below the top level, but the top level must pay no constant (it is a small answer space
    where the hardest problems are a coin with four sides)."""

    id = "kitpolicy/four_ways"
    family = "kitpolicy"
    description = "Give a number modulo 4."
    Config = Cfg

    def config(self, level: int) -> Cfg:
        return Cfg(10 ** (level + 6))

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        return Problem(prompt=f"What is {n} mod 4?", answer=str(n % 4), data={"n": n})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        text = answer.strip().rstrip(".")
        if text not in ("0", "1", "2", "3"):
            return Verdict.unparsed("expected 0, 1, 2 or 3")
        return Verdict.judge(int(text) == problem.data["n"] % 4)

    def difficulty(self, problem: Problem) -> float:
        return len(str(problem.data["n"]))


BROKEN = {HalfImpossible: "constant_policies", AcceptsHedges: "hedges", GreedyWins: "heuristic_baselines",
          OftenZero: "constant_policies", FourWays: "constant_policies"}
GOOD = [SplitOrImpossible, GreedyLoses]


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    for cls in [*GOOD, *BROKEN]:
        register(cls)
    yield
    for cls in [*GOOD, *BROKEN]:
        registry.remove(cls.id)


@pytest.mark.parametrize("cls", GOOD, ids=[c.id for c in GOOD])
def test_a_sound_env_passes_the_policy_checks(cls: type[Task]) -> None:
    results = kit.run_checks(cls.id, SETTINGS, checks=list(policies.CHECKS))
    assert [r for r in results if not r.ok] == []


def test_the_heuristic_scores_are_reported_per_level() -> None:
    detail = kit.run_check(GreedyLoses.id, "heuristic_baselines", SETTINGS).detail
    assert detail.startswith("try two: L0 ") and "L4" in detail


@pytest.mark.parametrize("cls, check", list(BROKEN.items()), ids=[c.id for c in BROKEN])
def test_a_broken_env_fails_its_policy_check(cls: type[Task], check: str) -> None:
    result = kit.run_check(cls.id, check, SETTINGS)
    assert not result.ok, result.detail


def test_the_binomial_bound_tolerates_noise_but_not_an_excess() -> None:
    assert not policies.above(6, 16, 0.25)  # 0.375 observed against a 0.25 bound: noise at this size
    assert policies.above(40, 80, 0.25)  # half of 80 against 0.25: a real excess
    assert policies.above(1, 50, 0.0) and not policies.above(0, 50, 0.0)


def test_hedges_pair_each_side_with_the_other() -> None:
    hedges = policies.hedges_for("0 1 2", "acyclic")
    assert "0 1 2. Acyclic." in hedges and "acyclic (0 1 2)" in hedges and "0 1 2 or acyclic" in hedges


def test_chance_is_taken_over_the_problems_with_closed_set_answers() -> None:
    from collections import Counter

    from palaestra.kit.policies import _chance

    # nine in ten problems ask yes/no, balanced; the rest have answers of their own
    mixed = Counter({"yes": 45, "no": 45, **{f"set {i}": 1 for i in range(10)}})
    assert _chance(mixed, 100) == 0.45
    assert _chance(Counter({"yes": 70, "no": 30}), 100) == 0.5  # a skewed yes/no: 'yes' (0.70) stays above 0.60
    counts = Counter({"1": 33, "2": 20, "3": 12, "4": 9, "5": 8, "6": 6, "7": 5, "8": 4, "9": 3})
    assert _chance(counts, 100) == pytest.approx(1 / 9)  # "1" scoring 0.33 is not chance
    assert _chance(Counter({f"x{i}": 1 for i in range(40)}), 40) == 0.0
    # one answer recurring among unique ones ($0.00 for a third) is no closed set: no chance to allow for
    assert _chance(Counter({"$0.00": 32, **{f"${i}.50": 1 for i in range(68)}}), 100) == 0.0


def test_balance_is_not_asked_of_envs_whose_answers_are_programs() -> None:
    result = kit.run_check("code/prolog_queries", "balance", kit.Settings.ci())
    assert result.ok and "answers are programs" in result.detail
