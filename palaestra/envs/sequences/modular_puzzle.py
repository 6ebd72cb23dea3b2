"""Modular word puzzles: the smallest count that fits remainder conditions stated in words.

A basket of eggs, a troop of soldiers, a jar of coins: "counted in sevens, 3 are left over", "counted in
twelves, it is 5 short of a full group", "three times the number, shared among 8, leaves 4", "it is a multiple
of 6". The conditions are drawn from a hidden count x0, so they are consistent; from level 2 the moduli share
factors (the remainders must agree on the common factor, and the combined modulus is the lcm, not the
product), and from level 3 some conditions carry a coefficient (a·x ≡ b mod m, which fixes x only modulo
m / gcd(a, m)). Every condition must matter: dropping any one enlarges the combined modulus and changes the
answer (the smallest count fitting the other conditions is another).

Each condition holds exactly for x ≡ x0 modulo its effective modulus, so the counts that satisfy all of them
are x0 plus the multiples of the lcm L of the effective moduli; the question asks for the smallest positive
one or, from level 2, the smallest above a stated number, which is unique. A draw whose answer is a number the
conditions state (a remainder or a group size: "answer a stated remainder" scored 0.14 at level 0)
is drawn again. This is not the congruence-system
question of ``arithmetic/number_theory`` (x ≡ r mod m with coprime moduli, stated as congruences): here the
conditions are words to translate, moduli share factors and conditions carry coefficients.

Difficulty: the conditions, twice the digits of L, one per coefficient condition and per pair of moduli with a
common factor, and one for a stated lower bound.

Version 3: a larger combined modulus did not make a condition matter: the smallest count fitting the others was
often the answer too, so a solver that skipped one condition (always the second, say) answered 0.20 of level 1,
0.22 of level 2 and 0.25 of level 3; such draws are redrawn -> 0.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.numeric import read_integer

EXAMPLE = "1234"  # a fixed placeholder of the right shape: never derived from the answer
THINGS = (("eggs", "a basket"), ("coins", "a jar"), ("soldiers", "a troop"), ("marbles", "a bag"),
          ("beads", "a box"), ("stamps", "an album"), ("apples", "a crate"), ("books", "a library cart"))
MULTIPLIERS = {2: "twice", 3: "three times", 4: "four times", 5: "five times", 6: "six times", 7: "seven times"}


def _smallest_above(floor: int, x0: int, modulus: int) -> int:
    """The smallest x > floor with x ≡ x0 (mod modulus)."""
    return floor + 1 + (x0 - floor - 1) % modulus


def _condition(rng: random.Random, x0: int, m: int, coefficient: bool, things: str) -> tuple[str, int, int, int]:
    """A condition true of x0: its text, its coefficient, its modulus and its effective modulus."""
    if coefficient:
        a = rng.choice(sorted(MULTIPLIERS))
        b = a * x0 % m
        return (f"If the number of {things} were {MULTIPLIERS[a]} as large, sharing them equally among {m} people "
                f"would leave {b} over.", a, m, m // math.gcd(a, m))
    r = x0 % m
    style = rng.randrange(3)
    if r == 0:
        return f"The {things} can be split into groups of {m} with none left over.", 1, m, m
    if style == 0 or m - r > r:
        return f"Counted in groups of {m}, {r} {'is' if r == 1 else 'are'} left over.", 1, m, m
    return f"Counted in groups of {m}, the last group is {m - r} short of a full group.", 1, m, m


@register
class ModularPuzzle(Task):
    id = "sequences/modular_puzzle"
    family = "sequences"
    description = "Smallest count that fits remainder conditions in words (shared factors, coefficients)."
    tags = ("math", "number_theory", "word_problem")
    version = 3  # v3: skipping any one condition gives another answer (it answered up to 0.25 of level 3)

    @dataclass(frozen=True)
    class Config:
        conditions: int
        max_modulus: int
        shared: bool  # moduli drawn with common factors; the smallest count above a stated number is asked
        coefficients: bool  # conditions with a coefficient (a·x ≡ b mod m)

    presets = (Config(2, 12, False, False), Config(3, 15, False, False), Config(3, 24, True, False),
               Config(4, 30, True, True), Config(5, 40, True, True))
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"conditions": 1, "max_modulus": 10}, limits={"conditions": 10, "max_modulus": 90})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        things, container = rng.choice(THINGS)

        def draw() -> tuple[list[tuple[str, int, int, int]], int, int, int] | None:
            moduli = rng.sample(range(3, config.max_modulus + 1), config.conditions)
            if config.shared and all(math.gcd(a, b) == 1 for i, a in enumerate(moduli) for b in moduli[i + 1:]):
                return None
            effective_guess = math.lcm(*moduli)
            x0 = rng.randrange(effective_guess)
            conditions = [_condition(rng, x0, m, config.coefficients and rng.random() < 0.5, things)
                          for m in moduli]
            effective = [c[3] for c in conditions]
            lcm = math.lcm(*effective)
            if any(math.lcm(*(effective[:i] + effective[i + 1:])) == lcm for i in range(len(effective))):
                return None  # a condition that does not matter
            floor = rng.randrange(lcm, 3 * lcm) if config.shared else 0
            answer = _smallest_above(floor, x0, lcm)
            if any(_smallest_above(floor, x0, math.lcm(*(effective[:i] + effective[i + 1:]))) == answer
                   for i in range(len(effective))):
                return None  # the others alone give the same smallest count: skipping a condition answered 0.25
            if str(answer) in re.findall(r"\d+", " ".join(c[0] for c in conditions)):
                return None  # a count the conditions state (a remainder, a group size) is guessable off the prompt
            return conditions, lcm, floor, answer

        # At the cap (10 conditions) a draw has every condition matter about 1 time in 40-60: 300 draws failed at
        # 5 seeds in 400, 2,000 leave none. Only seeds that failed before get a problem they lacked.
        conditions, lcm, floor, answer = retry(draw, lambda d: d is not None, attempts=2_000,
                                               what="conditions that all matter")
        listing = "\n".join(f"- {c[0]}" for c in conditions)
        asked = (f"What is the smallest number of {things} there can be?" if floor == 0 else
                 f"There are more than {floor} {things}. What is the smallest number there can be?")
        prompt = (f"{container.capitalize()} holds some {things}. All of these are true:\n\n{listing}\n\n{asked} "
                  f"Give a whole number, for example: {EXAMPLE}")
        return Problem(prompt=prompt, answer=str(answer),
                       data={"conditions": [[a, m, e, a * answer % m] for _, a, m, e in conditions], "lcm": lcm,
                             "floor": floor,
                             "answer": answer})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > 200:
            return Verdict.unparsed("expected one whole number")
        things = tuple(t for t, _ in THINGS if f"holds some {t}." in problem.prompt)  # "77249 beads" names them
        found = read_integer(answer, units=things or None)
        if found is None:
            return Verdict.unparsed(f"expected one whole number, such as {EXAMPLE}")
        wanted = problem.data["answer"]
        if found == wanted:
            return Verdict.right()
        if found > wanted and (found - wanted) % problem.data["lcm"] == 0:
            return Verdict.wrong("that count fits every condition, but a smaller one does too")
        return Verdict.wrong("that count breaks at least one condition" if found > problem.data["floor"]
                             else "not above the stated number")

    def difficulty(self, problem: Problem) -> float:
        """Conditions, twice the digits of the combined modulus, coefficient conditions, pairs of moduli with a
        common factor, and one for a stated lower bound."""
        data = problem.data
        moduli = [c[1] for c in data["conditions"]]
        coefficient_conditions = sum(1 for c in data["conditions"] if c[0] > 1)
        shared = sum(1 for i, a in enumerate(moduli) for b in moduli[i + 1:] if math.gcd(a, b) > 1)
        return float(len(moduli) + 2 * len(str(data["lcm"])) + coefficient_conditions + shared
                     + (1 if data["floor"] else 0))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        things = [f"{gold} {t}" for t, _ in THINGS if f"holds some {t}." in problem.prompt]  # "77249 beads"
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"{gold}.", f"Answer: {gold}", f"x = {gold}", *things]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        wanted = problem.data["answer"]
        lcm = problem.data["lcm"]
        return [str(wanted + lcm), str(wanted + 1), str(max(wanted - 1, 0)), f"{wanted} or {wanted + lcm}"]
