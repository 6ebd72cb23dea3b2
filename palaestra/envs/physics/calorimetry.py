"""Calorimetry: the equilibrium temperature of bodies mixed in an insulated container, with melting ice.

Bodies of water and metals (given masses, temperatures and specific heats) are put together in an
insulated container of negligible heat capacity and reach one temperature. From level 2 on one body
is ice below 0 °C, which warms, melts (latent heat 336,000 J/kg) and may warm further as water; then
the question asks both the final temperature and the mass of ice left. The reference is the energy
balance solved exactly (fractions): with E the heat the other bodies give off in cooling to 0 °C
minus the heat the ice takes to warm to 0 °C, all the ice melts when E exceeds the latent heat of
all of it (the final temperature is then above 0 °C), and otherwise the mixture stays at 0 °C with
E / L of the ice melted. Draws that would freeze water are redrawn, and half the ice problems end
fully melted, half at 0 °C with ice left, so neither answer shape pays as a constant.

Answers: ``T = 235/9 °C`` (levels 0-1), ``T = 0 °C, ice = 125/2 g`` (levels 2+), exact, in any
exact spelling with or without units (grams or kilograms for the ice).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.physics.common import decimal_text, fraction_text, read_quantities, read_quantity

SPECIFIC_HEAT = {"water": 4200, "copper": 390, "aluminium": 900, "iron": 450, "lead": 130, "glass": 840,
                 "brass": 380}
ICE_HEAT = 2100  # J/(kg K)
LATENT_HEAT = 336_000  # J/kg
CELSIUS = {"°C": 1, "C": 1, "degrees Celsius": 1, "degrees C": 1, "deg C": 1, "degC": 1, "degrees": 1}
GRAMS = {"g": 1, "grams": 1, "kg": 1000}

Body = tuple[str, int, int]  # material, mass in g, temperature in °C


@register
class Calorimetry(Task):
    id = "physics/calorimetry"
    family = "physics"
    description = "Equilibrium temperature of mixed bodies (and the ice left when ice melts), exactly."
    tags = ("physics", "thermodynamics", "math")
    version = 2  # levels 5 and up: lukewarm added bodies

    @dataclass(frozen=True)
    class Config:
        bodies: int
        ice: bool

    presets = (
        Config(bodies=2, ice=False),
        Config(bodies=3, ice=False),
        Config(bodies=2, ice=True),
        Config(bodies=3, ice=True),
        Config(bodies=4, ice=True),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"bodies": 1}, limits={"bodies": 11})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        melts_fully = rng.random() < 0.5

        def draw() -> list[Body]:
            bodies: list[Body] = [("water", rng.randrange(50, 1001, 10), rng.randint(1, 90))]
            if config.ice:
                bodies.append(("ice", rng.randrange(10, 501, 5), -rng.randint(1, 30)))
            while len(bodies) < config.bodies:  # bounded: one body per pass
                material = rng.choice([m for m in SPECIFIC_HEAT if m != "water"] + ["water"])
                # Past the presets' four bodies the added ones are lukewarm: with more hot bodies the ice always
                # melted, and a mixture that keeps some could not be drawn (levels 5 and up).
                hot = 40 if len(bodies) >= 4 else 100 if material == "water" else 400
                bodies.append((material, rng.randrange(20, 1001, 10), rng.randint(1, hot)))
            rng.shuffle(bodies)
            return bodies

        def fits(bodies: list[Body]) -> bool:
            outcome = equilibrium(bodies)
            return outcome is not None and (not config.ice or (outcome[1] == 0) == melts_fully)

        bodies = retry(draw, fits, what="a mixture that freezes no water")
        outcome = equilibrium(bodies)
        assert outcome is not None
        temperature, ice_left = outcome
        rows = []
        for material, mass, celsius in bodies:
            heat = ICE_HEAT if material == "ice" else SPECIFIC_HEAT[material]
            rows.append(f"  {mass} g of {material} at {celsius} °C (specific heat {heat} J/(kg·K))")
        ask = ("What is the final temperature T, in °C? Give the exact value (a fraction if needed), e.g. T = 37/3 °C."
               if not config.ice else
               f"Take the latent heat of fusion of ice as {LATENT_HEAT} J/kg. What is the final temperature T, in °C, "
               "and the mass of ice left, in grams (0 if all of it melts)? Give exact values (fractions if needed), "
               "e.g. T = 37/3 °C, ice = 0 g.")
        prompt = ("These bodies are put together in an insulated container whose own heat capacity is negligible, and "
                  "they exchange heat until they reach one common temperature:\n" + "\n".join(rows) + f"\n\n{ask}")
        answer = f"T = {fraction_text(temperature)} °C"
        if config.ice:
            answer += f", ice = {fraction_text(ice_left)} g"
        return Problem(prompt=prompt, answer=answer, data={
            "bodies": [list(b) for b in bodies], "T": fraction_text(temperature),
            "ice": fraction_text(ice_left) if config.ice else None,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        expected_t = Fraction(problem.data["T"])
        if problem.data["ice"] is None:
            value = read_quantity(answer, CELSIUS)
            if value is None:
                return Verdict.unparsed("expected the exact temperature in °C")
            return Verdict.judge(value == expected_t, "wrong temperature")
        values = read_quantities(answer, {"T": CELSIUS, "ice": GRAMS})
        if values is None:
            return Verdict.unparsed("expected T = <temperature in °C>, ice = <mass left in g>, exact values")
        if values["T"] != expected_t:
            return Verdict.wrong("wrong temperature")
        return Verdict.judge(values["ice"] == Fraction(problem.data["ice"]), "wrong mass of ice left")

    def difficulty(self, problem: Problem) -> float:
        """Bodies in the balance, plus 2 with ice (warming, melting) and 1 more when the mixture stops at 0 °C
        (the case split), plus a tenth of the answer's digits."""
        data = problem.data
        ice = data["ice"] is not None
        digits = sum(c.isdigit() for c in data["T"] + (data["ice"] or ""))
        return len(data["bodies"]) + 2 * ice + (ice and data["ice"] != "0") + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        t = problem.data["T"]
        ice = problem.data["ice"]
        decimal_t = decimal_text(Fraction(t))
        if ice is None:
            out = [*super().spellings(problem), t, f"{t} °C", f"T = {t} degrees Celsius"]
            return out + ([f"{decimal_t} °C"] if decimal_t else [])
        kilograms = fraction_text(Fraction(ice) / 1000)
        return [*super().spellings(problem), f"ice = {ice} g, T = {t} °C", f"T = {t}, ice = {ice}",
                f"T = {t} °C\nice = {kilograms} kg", f"\\boxed{{T = {t} °C, ice = {ice} g}}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        t = Fraction(problem.data["T"])
        ice = problem.data["ice"]
        if ice is None:
            wrong = [fraction_text(t + 1), fraction_text(t * 2), f"{fraction_text(t)} or {fraction_text(t + 1)}",
                     f"{fraction_text(t + 273)} °C"]
            if decimal_text(t) is None:
                wrong.append(f"{float(t):.2f}")
            return wrong
        left = Fraction(ice)
        return [f"T = {fraction_text(t + 1)} °C, ice = {ice} g", f"T = {fraction_text(t)} °C, ice = {fraction_text(left + 5)} g",
                f"T = {fraction_text(t)} °C", f"T = {fraction_text(t)} °C, ice = {ice} kg" if left else
                f"T = {fraction_text(t)} °C, ice = 10 g"]


def equilibrium(bodies: list[Body]) -> tuple[Fraction, Fraction] | None:
    """(final temperature in °C, grams of ice left), or None when some water would freeze."""
    ice = [(mass, celsius) for material, mass, celsius in bodies if material == "ice"]
    others = [(mass * SPECIFIC_HEAT[material], celsius) for material, mass, celsius in bodies if material != "ice"]
    # energies in J·1000 (grams times J/(kg K)); the reference state is everything at 0 °C, ice still solid
    surplus = sum((Fraction(capacity * celsius) for capacity, celsius in others), Fraction(0)) + \
        sum((Fraction(mass * ICE_HEAT * celsius) for mass, celsius in ice), Fraction(0))
    if surplus < 0:
        return None
    ice_mass = sum(mass for mass, _ in ice)
    melt_all = ice_mass * LATENT_HEAT
    if surplus >= melt_all:
        capacity = sum(c for c, _ in others) + ice_mass * SPECIFIC_HEAT["water"]
        return (surplus - melt_all) / capacity, Fraction(0)
    return Fraction(0), ice_mass - surplus / LATENT_HEAT
