"""Step a discrete population model forward exactly: exponential, logistic, or Lotka–Volterra.

- ``exponential``: N(t+1) = R·N(t).
- ``logistic``: N(t+1) = N(t) + r·N(t)·(1 − N(t)/K).
- ``predator_prey`` (a discrete Lotka–Volterra step): H(t+1) = H + a·H − b·H·P and P(t+1) = P + c·b·H·P − d·P;
  the question asks the predators after the stated steps (which needs the prey along the way).

The model, its rates and the starting sizes are stated, and so is the rounding rule: after every step each
population is rounded down to a whole number of individuals (the floor) before the next step, so the values
stay whole and short however many steps are asked, and the arithmetic within a step is exact (Fraction). The
answer is one whole number, unique, compared exactly; predator-prey draws where a population would die out are
redrawn, and so is every model where a misreading of the rounding rule (to nearest after every step, or no
rounding until the end, down or to nearest) gives the answer.

Version 2: ignoring the rule and rounding down only at the end was right on 0.40, 0.43, 0.55, 0.38 and 0.20 of
levels 0-4 (and rounding to nearest every step on up to 0.25); the redraws bring all three misreadings to 0.

Difficulty: the multiplications the drawn steps take, plus the digits of the answer.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.numeric import grade_number

EXAMPLE = "1234"  # a fixed placeholder of the right shape: never derived from the answer
MULTIPLICATIONS = {"exponential": 1, "logistic": 3, "predator_prey": 6}
RATES = tuple(Fraction(n, d) for d in (2, 4, 5, 10, 20) for n in range(1, d) if Fraction(n, d).denominator == d)
ROUNDING = ("After every step, round each population down to a whole number of individuals (drop any fraction) "
            "before computing the next step.")


def decimal(value: Fraction) -> str:
    """The exact terminating decimal of ``value`` (its denominator has only the prime factors 2 and 5)."""
    places = next(k for k in range(40) if (value * 10**k).denominator == 1)
    if not places:
        return str(value.numerator)
    sign, digits = ("-" if value < 0 else ""), str(abs(value * 10**places).numerator).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def trajectory(kind: str, rates: tuple[Any, ...], start: tuple[Any, ...], steps: int,
               settle: Callable[[Any], Any]) -> list[tuple[Any, ...]]:
    """The populations at every step of the model (the prey then the predators for ``predator_prey``), ``settle``
    applied to each after every step: the floor for the stated rule, or a misreading of it."""
    populations = [start]
    for _ in range(steps):
        now = populations[-1]
        if kind == "exponential":
            populations.append((settle(rates[0] * now[0]),))
        elif kind == "logistic":
            populations.append((settle(now[0] + rates[0] * now[0] * (1 - now[0] / rates[1])),))
        else:
            growth, attack, efficiency, death = rates
            prey, predators = now
            populations.append((settle(prey + growth * prey - attack * prey * predators),
                                settle(predators + efficiency * attack * prey * predators - death * predators)))
    return populations


def nearest(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


def unrounded(kind: str, rates: tuple[Fraction, ...], start: tuple[int, ...], steps: int) -> float:
    """The asked population with no rounding at all, in floats (exact fractions double their digits every step)."""
    return float(trajectory(kind, tuple(map(float, rates)), tuple(map(float, start)), steps, float)[-1][-1])


def misread(kind: str, rates: tuple[Fraction, ...], start: tuple[int, ...], steps: int) -> dict[str, int]:
    """The answers of the misreadings of the rounding rule."""
    real = unrounded(kind, rates, start, steps)
    return {"rounded to nearest every step": trajectory(kind, rates, start, steps, nearest)[-1][-1],
            "rounded down at the end only": math.floor(real), "rounded to nearest at the end only": round(real)}


@register
class PopulationGrowth(Task):
    id = "biology/population_growth"
    family = "biology"
    description = "Step an exponential, logistic or Lotka–Volterra population model forward exactly."
    tags = ("biology", "ecology", "arithmetic")
    version = 2  # v2: models redrawn until no misreading of the rounding rule gives the answer

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]  # models drawn from (MULTIPLICATIONS)
        steps: int  # time steps to take

    presets = (Config(("exponential",), 2), Config(("exponential", "logistic"), 2), Config(("logistic",), 2),
               Config(("logistic", "predator_prey"), 2), Config(("predator_prey",), 3))
    growth = Growth(steps={"steps": 1}, limits={"steps": 19})  # exact populations grow past the bounds beyond ~20 steps

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        steps = config.steps

        def draw() -> tuple[tuple[Fraction, ...], tuple[int, ...]]:
            if kind == "exponential":
                return (1 + rng.choice(RATES),), (rng.randint(10, 999),)
            if kind == "logistic":
                rate, capacity = rng.choice(RATES), rng.choice((100, 200, 400, 500, 1000, 2000))
                return (rate, Fraction(capacity)), (rng.randint(capacity // 20, capacity - 1),)
            return ((rng.choice(RATES[:8]), Fraction(1, rng.choice((100, 200, 500, 1000))), rng.choice(RATES),
                     rng.choice(RATES[:8])), (rng.randint(50, 500), rng.randint(5, 60)))

        def sound(drawn: tuple[tuple[Fraction, ...], tuple[int, ...]]) -> bool:
            # every population stays positive (predator-prey draws can die out), and no misreading of the rounding
            # rule lands on the answer (rounding down only at the end did on about half of levels 0-3), even
            # with float error at the end
            rates, start = drawn
            populations = trajectory(kind, rates, start, steps, math.floor)
            value = populations[-1][-1]
            real = unrounded(kind, rates, start, steps)
            return (min(min(now) for now in populations) > 0 and value not in misread(kind, rates, start, steps).values()
                    and not value - 1e-6 <= real < value + 1 + 1e-6)

        rates, start = retry(draw, sound, what="a model whose rounding rule matters")
        value = trajectory(kind, rates, start, steps, math.floor)[-1][-1]
        if kind == "exponential":
            model = f"N(t+1) = R·N(t) with R = {decimal(rates[0])}, starting from N(0) = {start[0]}."
            question = f"What is N({steps})?"
        elif kind == "logistic":
            model = (f"N(t+1) = N(t) + r·N(t)·(1 − N(t)/K) with growth rate r = {decimal(rates[0])} and carrying "
                     f"capacity K = {rates[1]}, starting from N(0) = {start[0]}.")
            question = f"What is N({steps})?"
        else:
            growth, attack, efficiency, death = (decimal(r) for r in rates)
            model = (f"prey H and predators P change each step by\nH(t+1) = H(t) + a·H(t) − b·H(t)·P(t)\n"
                     f"P(t+1) = P(t) + c·b·H(t)·P(t) − d·P(t)\nwith a = {growth}, b = {attack}, c = {efficiency}, "
                     f"d = {death}, starting from H(0) = {start[0]} and P(0) = {start[1]}.")
            question = f"What is P({steps}), the number of predators after {steps} steps?"
        prompt = (f"A discrete-time population model: {model}\n\n{ROUNDING}\n\n{question} Answer with one whole "
                  f"number, for example: {EXAMPLE}")
        return Problem(prompt=prompt, answer=str(value),
                       data={"kind": kind, "steps": steps, "value": value, "rates": [str(r) for r in rates],
                             "start": list(start)})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def rule(name: str) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                data = problem.data
                rates = tuple(Fraction(r) for r in data["rates"])
                return str(misread(data["kind"], rates, tuple(data["start"]), data["steps"])[name])

            return answer

        return {name: rule(name) for name in ("rounded to nearest every step", "rounded down at the end only",
                                              "rounded to nearest at the end only")}

    def verify(self, problem: Problem, answer: str) -> Verdict:
        verdict = grade_number(_without_asked_name(problem, answer), problem.data["value"],
                               units=["individuals", "predators"])
        if verdict is None:
            return Verdict.unparsed("expected one whole number, such as 1234")
        return Verdict.right() if verdict else Verdict.wrong("that is not the population after the stated steps")

    def difficulty(self, problem: Problem) -> float:
        """Multiplications of the drawn steps, plus the digits of the exact answer."""
        data = problem.data
        return float(MULTIPLICATIONS[data["kind"]] * data["steps"] + len((problem.answer or "").replace(".", "")))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        asked = _asked_name(problem)
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"Answer: {gold}.", f"{gold} individuals",
                f"{gold}.0", f"{asked} = {gold}", f"\\boxed{{{asked} = {gold}}}", f"Answer: {asked}={gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = problem.data["value"]
        asked = _asked_name(problem)
        return [str(value + 1), str(value * 2 + 1), f"{value}.5", f"{value} or {value + 1}",
                f"{asked} = {value + 1}", f"{asked} = {value} or {asked} = {value + 1}"]


def _asked_name(problem: Problem) -> str:
    """The quantity the question names: ``N(5)``, or ``P(3)`` for the predators."""
    return f"{'P' if problem.data['kind'] == 'predator_prey' else 'N'}({problem.data['steps']})"


def _without_asked_name(problem: Problem, answer: str) -> str:
    """The answer with one ``P(3) =`` naming the asked quantity taken out (``P(3) = 44``, ``\\boxed{P(3) = 44}``),
    as a careful grader reads it; the shared number reader takes a bare name (``x = 3``) but not a call."""
    if not isinstance(answer, str) or len(answer) > 1_000:
        return answer
    asked = _asked_name(problem)
    if answer.count(asked) != 1:
        return answer
    for spelling in (f"{asked} = ", f"{asked}= ", f"{asked} =", f"{asked}="):
        if spelling in answer:
            return answer.replace(spelling, "", 1)
    return answer
