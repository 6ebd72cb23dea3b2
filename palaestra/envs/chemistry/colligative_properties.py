"""Colligative properties: freezing-point depression, boiling-point elevation and osmotic pressure, exactly.

A solution is made by dissolving stated masses of one or more solutes (named by formula; atomic weights
stated) in a stated mass of a solvent whose constants are given (Kf, Kb, normal freezing and boiling points).
Each solute carries an ideal van 't Hoff factor i (complete dissociation of the salts, stated in the prompt,
so the factor is part of the skill: NaCl gives 2, CaCl2 3, glucose 1). Questions:

- freezing: the freezing point of the solution, ΔTf = Kf · Σ i·m (molality m = moles / kg of solvent);
- boiling: the boiling point of the solution, ΔTb = Kb · Σ i·m;
- osmotic: the osmotic pressure Π = (Σ i·n / V) · R · T in atm of an aqueous solution of stated volume
  (R = 0.08206 L·atm/(mol·K), T = t + 273.15);
- molar_mass (the inverse, top levels): the molar mass of an unknown non-electrolyte from the measured
  freezing point of its solution (the other solutes' contributions subtracted).

Every reference is an exact rational from the stated data; temperatures are accepted within 0.02 °C (the
change is always at least 0.3 °C, so the pure solvent's point never passes), pressures and molar masses
within 0.5%, as the prompt states. Units as asked (°C, atm, g/mol); the feedback says when an answer is the
pure solvent's point or ignores the van 't Hoff factors.

Version 2: from level 1 (where salts are drawn) three problems in four are in water with a salt among the
solutes (osmotic ones all are); v1 drew the solvent uniformly and the salts only in water, so ignoring the van
't Hoff factors answered 0.66 of level 4 (and 0.66 of level 2); it is declared as a heuristic.

Difficulty: the solutes, the dissociating ones, and the question's weight (the inverse question heaviest).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.chemistry.common import elements, molar_mass, parse_formula
from palaestra.verifiers.numeric import Tolerance, format_decimal, read_approx

EXAMPLE = "12.3"  # a fixed placeholder of the right shape: never the answer
TEMPERATURE_TOLERANCE = Tolerance(absolute="0.02")
RELATIVE_TOLERANCE = Tolerance(relative="0.005")
GAS_CONSTANT = Fraction("0.08206")  # L·atm/(mol·K)
# Solvents: name, Kf and Kb (°C·kg/mol), normal freezing and boiling points (°C), as textbooks tabulate them.
SOLVENTS = (
    ("water", Fraction("1.86"), Fraction("0.512"), Fraction(0), Fraction(100)),
    ("benzene", Fraction("5.12"), Fraction("2.53"), Fraction("5.5"), Fraction("80.1")),
    ("cyclohexane", Fraction("20.2"), Fraction("2.79"), Fraction("6.5"), Fraction("80.7")),
    ("acetic acid", Fraction("3.90"), Fraction("3.07"), Fraction("16.6"), Fraction("117.9")),
    ("camphor", Fraction("37.7"), Fraction("5.95"), Fraction("179.8"), Fraction("207.4")),
)
# Solutes and their ideal van 't Hoff factors; the salts only in water.
NONELECTROLYTES = (("C6H12O6", 1), ("C12H22O11", 1), ("CO(NH2)2", 1), ("C3H8O3", 1), ("C2H6O2", 1),
                   ("C10H8", 1), ("C6H5COOH", 1), ("C14H10", 1))
SALTS = (("NaCl", 2), ("KCl", 2), ("KBr", 2), ("NaNO3", 2), ("CaCl2", 3), ("MgCl2", 3), ("Na2SO4", 3),
         ("K2SO4", 3), ("AlCl3", 4), ("FeCl3", 4), ("K3PO4", 4), ("MgSO4", 2), ("LiCl", 2), ("BaCl2", 3))
SALT_SHARE = 0.75  # problems in water with a salt, where salts are drawn (osmotic ones always are)
QUESTION_WEIGHT = {"freezing": 1, "boiling": 1, "osmotic": 2, "molar_mass": 3}
UNITS = {"temperature": ("°C", "° C", "℃", "degrees C", "degrees Celsius", "deg C", "C"),
         "atm": ("atm", "atmospheres", "atmosphere"),
         "g/mol": ("g/mol", "g mol^-1", "grams per mole", "g·mol⁻¹")}
# A right value in another unit of the asked quantity is read and converted, as a careful grader converts it: a pressure
# in kPa, Pa, mmHg or torr, a molar mass in kg/mol, a temperature in kelvins (an offset: see verify).
OTHER_UNITS: dict[str, dict[str, Fraction]] = {
    "atm": {"kPa": 1 / Fraction("101.325"), "Pa": 1 / Fraction(101325), "mmHg": Fraction(1, 760),
            "mm Hg": Fraction(1, 760), "torr": Fraction(1, 760), "Torr": Fraction(1, 760)},
    "g/mol": {"kg/mol": Fraction(1000), "kg mol^-1": Fraction(1000)},
}
KELVINS = ("K", "kelvin", "kelvins")


@register
class ColligativeProperties(Task):
    id = "chemistry/colligative_properties"
    family = "chemistry"
    description = ("Freezing and boiling points and osmotic pressure of solutions with van 't Hoff factors, and a "
                   "molar mass from a freezing point (stated tolerance).")
    tags = ("chemistry", "science", "math")
    version = 2

    @dataclass(frozen=True)
    class Config:
        solutes: int  # solutes dissolved together
        salts: bool  # whether dissociating salts are drawn (water only)
        inverse: bool  # whether the molar-mass question is drawn

    presets = (Config(1, False, False), Config(1, True, False), Config(2, True, False), Config(2, True, True),
               Config(3, True, True))
    growth = Growth(steps={"solutes": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), lambda p: p is not None, attempts=50,
                     what="a solution with a visible change")

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        kinds = ["freezing", "boiling"] + (["osmotic"] if config.salts else []) + (
            ["molar_mass", "molar_mass"] if config.inverse else [])
        kind = rng.choice(kinds)
        # where salts are drawn, three problems in four are in water with a salt among the solutes, so ignoring the
        # van 't Hoff factors fails them (v1 drew water one time in five: that slip answered 0.66 of level 4)
        with_salt = config.salts and (kind == "osmotic" or rng.random() < SALT_SHARE)
        solvent = SOLVENTS[0] if with_salt else rng.choice(SOLVENTS)
        pool = list(NONELECTROLYTES) + (list(SALTS) if config.salts and solvent[0] == "water" else [])
        drawn = rng.sample(pool, min(config.solutes, len(pool)))
        if with_salt and all(factor == 1 for _, factor in drawn):
            drawn[rng.randrange(len(drawn))] = rng.choice(SALTS)
        solvent_grams = Fraction(rng.randint(10, 100) * 5)
        volume_ml = Fraction(rng.randint(10, 100) * 10)
        celsius = Fraction(rng.randint(0, 40))
        masses = [Fraction(rng.randint(5, 400), 10) for _ in drawn]
        particles = sum((mass / molar_mass(parse_formula(formula) or {}) * factor
                         for (formula, factor), mass in zip(drawn, masses, strict=True)), Fraction(0))
        name, kf, kb, freezing, boiling = solvent
        lines = [f"- {format_decimal(mass)} g of {formula}" for (formula, _), mass in zip(drawn, masses, strict=True)]
        unknown_grams = Fraction(rng.randint(20, 300), 10)
        unknown_molar = Fraction(rng.randint(60, 400))
        if kind == "molar_mass":
            particles_all = particles + unknown_grams / unknown_molar
            change = kf * particles_all * 1000 / solvent_grams
            measured = Fraction(round((freezing - change) * 1000), 1000)
            change = freezing - measured  # the stated measurement defines the exact reference
            exact = unknown_grams / (change * solvent_grams / 1000 / kf - particles)
            if exact <= 0 or change < Fraction(3, 10):
                return None
            lines.append(f"- {format_decimal(unknown_grams)} g of an unknown non-electrolyte X")
            question = (f"The solution freezes at {format_decimal(measured)} °C. What is the molar mass of X, in "
                        f"g/mol?")
            unit, tolerance = "g/mol", "within 0.5%"
        elif kind == "osmotic":
            exact = particles / (volume_ml / 1000) * GAS_CONSTANT * (celsius + Fraction("273.15"))
            change = exact
            question = (f"The solution's volume is {format_decimal(volume_ml)} mL. What is its osmotic pressure at "
                        f"{format_decimal(celsius)} °C, in atm? Use R = 0.08206 L·atm/(mol·K) and T = t + 273.15.")
            unit, tolerance = "atm", "within 0.5%"
        else:
            constant, point = (kf, freezing) if kind == "freezing" else (kb, boiling)
            change = constant * particles * 1000 / solvent_grams
            exact = point - change if kind == "freezing" else point + change
            question = f"What is the {'freezing' if kind == 'freezing' else 'boiling'} point of the solution, in °C?"
            unit, tolerance = "°C", "within 0.02 °C"
        if change < Fraction(3, 10) or change > 60 or (unit == "°C" and abs(exact) < 1):
            return None
        table = elements()
        symbols = sorted({s for formula, _ in drawn for s in parse_formula(formula) or {}}, key=lambda s: table[s].number)
        solvent_text = ("water" if kind == "osmotic" else f"{format_decimal(solvent_grams)} g of {name}")
        constants = (f"Constants of {name}: Kf = {format_decimal(kf)} °C·kg/mol, Kb = {format_decimal(kb)} °C·kg/mol, normal "
                     f"freezing point {format_decimal(freezing)} °C, normal boiling point {format_decimal(boiling)} °C.")
        prompt = (
            f"A solution is made by dissolving in {solvent_text}:\n" + "\n".join(lines) + "\n\n"
            f"{question}\n\n{'' if kind == 'osmotic' else constants + chr(10)}"
            f"Atomic weights (g/mol): " + ", ".join(f"{s} {table[s].weight_text}" for s in symbols) + ".\n"
            "The solutes are non-volatile; salts dissociate completely into their ions (ideal van 't Hoff factors) "
            "and the other solutes do not dissociate. Treat the solution as ideal.\n\n"
            f"An answer {tolerance} of the exact value is accepted. Answer with the number in {unit}, for example: "
            f"{EXAMPLE}"
        )
        ignoring = sum((mass / molar_mass(parse_formula(formula) or {})
                        for (formula, _), mass in zip(drawn, masses, strict=True)), Fraction(0))
        return Problem(prompt=prompt, answer=f"{float(exact):.6g}",
                       data={"kind": kind, "unit": unit, "exact": [exact.numerator, exact.denominator],
                             "pure": [int(0 if kind in ('osmotic', 'molar_mass') else
                                          (freezing if kind == 'freezing' else boiling) * 10), 10],
                             "factor_free": [ignoring.numerator, ignoring.denominator],
                             "particles": [particles.numerator, particles.denominator],
                             "solutes": len(drawn) + (kind == "molar_mass"),
                             "dissociating": sum(factor > 1 for _, factor in drawn),
                             "unknown": [unknown_grams.numerator, unknown_grams.denominator]})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def factor_free(problem: Problem) -> str:
            """Every solute counted once (no van 't Hoff factors), the rest of the calculation right."""
            data = problem.data
            exact, pure = Fraction(*data["exact"]), Fraction(*data["pure"])
            ratio = Fraction(*data["factor_free"]) / Fraction(*data["particles"])
            if data["kind"] == "molar_mass":
                grams = Fraction(*data["unknown"])
                value = grams / (grams / exact + Fraction(*data["particles"]) - Fraction(*data["factor_free"]))
            elif data["kind"] == "osmotic":
                value = exact * ratio
            else:
                value = pure + (exact - pure) * ratio
            return f"{float(value):.6g}"

        return {"no van 't Hoff factors": factor_free}

    def _tolerance(self, problem: Problem) -> Tolerance:
        return TEMPERATURE_TOLERANCE if problem.data["unit"] == "°C" else RELATIVE_TOLERANCE

    def verify(self, problem: Problem, answer: str) -> Verdict:
        unit = problem.data["unit"]
        readable = isinstance(answer, str) and len(answer) <= 200
        spellings = UNITS["temperature"] if unit == "°C" else {**OTHER_UNITS[unit], **dict.fromkeys(UNITS[unit], 1)}
        value = read_approx(answer, units=spellings, sentence=True) if readable else None
        if value is None and readable and unit == "°C":  # "394.1 K" for 120.95 °C
            kelvins = read_approx(answer, units=KELVINS, unit_required=True, sentence=True)
            value = None if kelvins is None else kelvins - Fraction("273.15")
        if value is None:
            return Verdict.unparsed(f"expected one number in {unit}, such as {EXAMPLE}")
        exact = Fraction(*problem.data["exact"])
        if self._tolerance(problem).accepts(value, exact):
            return Verdict.right()
        if unit == "°C" and value == Fraction(*problem.data["pure"]):
            return Verdict.wrong("that is the pure solvent's point; the solutes change it")
        particles, factor_free = Fraction(*problem.data["particles"]), Fraction(*problem.data["factor_free"])
        if problem.data["kind"] in ("freezing", "boiling", "osmotic") and particles != factor_free:
            pure = Fraction(*problem.data["pure"])
            without = pure + (exact - pure) * factor_free / particles
            if self._tolerance(problem).accepts(value, without):
                return Verdict.wrong("the salts' van 't Hoff factors are missing: each ion counts as a particle")
        return Verdict.wrong(f"not {'within 0.02 °C' if unit == '°C' else 'within 0.5%'} of the exact value")

    def difficulty(self, problem: Problem) -> float:
        """The solutes, the dissociating ones, and the question's weight."""
        data = problem.data
        return float(2 * data["solutes"] + data["dissociating"] + 2 * QUESTION_WEIGHT[data["kind"]])

    def spellings(self, problem: Problem) -> list[str]:
        exact = Fraction(*problem.data["exact"])
        unit = problem.data["unit"]
        three = f"{float(exact):.3f}" if unit == "°C" else f"{float(exact):.4g}"
        return [*super().spellings(problem), f"{problem.answer} {unit}", f"\\boxed{{{three}}}",
                f"Answer: {three} {unit}.", f"≈ {three}", f"{three}{'°C' if unit == '°C' else ' ' + unit}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        exact = Fraction(*problem.data["exact"])
        pure = Fraction(*problem.data["pure"])
        wrong = [exact * 2, exact / 2]
        if problem.data["unit"] == "°C":
            wrong += [pure, exact + Fraction(1, 10), 2 * pure - exact]  # the change added the wrong way
        else:
            wrong += [exact * Fraction(102, 100)]
        return [f"{float(w):.6g}" for w in wrong] + [f"{float(exact):.6g} or {float(exact * 2):.6g}"]
