"""Molar mass of a generated formula, from atomic weights stated in the prompt.

Formulas are salts of the textbook ion tables (with bracketed polyatomic ions, ``Ca3(PO4)2``), their hydrates
(``CuSO4·5H2O``) and generated organic molecular formulas (C, H and heteroatoms N, O, S, P, halogens, with a
hydrogen count that a real structure can have). The prompt
lists the atomic weight of every element in the formula (the shipped table's standard weights, three decimals),
so the exact molar mass is the sum of those weights times the atom counts, a terminating decimal.

The answer is a number in g/mol (the unit optional); it is right when within the tolerance the prompt states
(0.01 g/mol) of the exact value, applied exactly with :class:`palaestra.verifiers.numeric.Tolerance`.

Difficulty: the atoms and elements of the formula plus its bracketed groups (each one a multiplication to do).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.chemistry.common import (
    HETEROATOMS,
    elements,
    molar_mass,
    organic_formula,
    parse_formula,
    salt_formula,
    without_quantity_name,
)
from palaestra.verifiers.numeric import Tolerance, format_decimal, read_approx

EXAMPLE = "123.45 g/mol"  # a fixed placeholder of the right shape: never derived from the answer
TOLERANCE = Tolerance(absolute="0.01")
UNITS = {**dict.fromkeys(("g/mol", "g mol^-1", "g·mol^-1", "g/mole", "grams per mole", "gram per mole", "grams/mol",
                          "g per mol"), 1),
         **dict.fromkeys(("kg/mol", "kg mol^-1", "kilograms per mole"), 1000)}  # the SI unit: 0.018015 kg/mol
@register
class MolarMass(Task):
    id = "chemistry/molar_mass"
    family = "chemistry"
    description = "Molar mass in g/mol of a generated formula (salts, hydrates, organics) from stated weights."
    tags = ("chemistry", "science", "math")

    @dataclass(frozen=True)
    class Config:
        carbons: int  # the largest organic carbon count
        heteroatoms: int  # the most kinds of heteroatom in an organic formula
        water: int  # the most waters of crystallisation (0: no hydrates)
        salts: int  # the weight of salts and hydrates against organic formulas (6)

    presets = (Config(10, 4, 0, 1), Config(16, 4, 0, 1), Config(22, 4, 8, 2), Config(30, 5, 12, 2),
               Config(38, 5, 12, 1))
    growth = Growth(steps={"carbons": 8, "heteroatoms": 1, "salts": -1},
                    limits={"heteroatoms": len(HETEROATOMS), "salts": 0})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        # Salts do not grow: their share is small (few distinct salts) and shrinks while the organics grow.
        kinds = ["organic"] * 6 + ["salt"] * config.salts + (["hydrate"] * config.salts if config.water else [])
        kind = rng.choice(kinds)
        if kind == "organic":
            formula = organic_formula(rng, config.carbons, config.heteroatoms)
        elif kind == "salt":
            formula = salt_formula(rng)
        else:
            formula = f"{salt_formula(rng)}·{rng.randint(1, config.water)}H2O"
        composition = parse_formula(formula)
        assert composition is not None, formula
        table = elements()
        weights = ", ".join(f"{symbol} {table[symbol].weight_text}" for symbol in
                            sorted(composition, key=lambda s: table[s].number))
        mass = molar_mass(composition)
        prompt = (
            f"What is the molar mass of {formula}?\n\n"
            f"Use these atomic weights (g/mol): {weights}.\n\n"
            f"Give the molar mass in g/mol; an answer within {format_decimal(Fraction(TOLERANCE.absolute))} g/mol of "
            f"the exact value from these weights is accepted. Answer with the number, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=format_decimal(mass),
                       data={"formula": formula, "mass": format_decimal(mass), "kind": kind})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_approx(answer, units=UNITS, sentence=True) if isinstance(answer, str) and len(answer) <= 200 else None
        if value is None and isinstance(answer, str) and len(answer) <= 200:  # "M(CO2) = 44.01 g/mol", a sentence
            composition = parse_formula(problem.data["formula"]) or {}
            named = without_quantity_name(answer, "M", ("molar mass", "molecular weight", "formula mass"), composition)
            value = read_approx(named, units=UNITS) if named != answer else None
        if value is None:
            return Verdict.unparsed(f"expected one number in g/mol, such as {EXAMPLE}")
        exact = Fraction(problem.data["mass"])
        if TOLERANCE.accepts(value, exact):
            return Verdict.right()
        return Verdict.wrong(f"{format_decimal(value)} g/mol is not within 0.01 g/mol of the molar mass")

    def difficulty(self, problem: Problem) -> float:
        """Atoms and elements of the formula plus its bracketed groups and hydrate part."""
        formula = problem.data["formula"]
        composition = parse_formula(formula) or {}
        return float(sum(composition.values()) + 2 * len(composition) + 2 * formula.count("(") + 2 * formula.count("·"))

    def spellings(self, problem: Problem) -> list[str]:
        exact = Fraction(problem.data["mass"])
        rounded = f"{float(round(exact, 2)):.2f}"
        return [*super().spellings(problem), f"{problem.answer} g/mol", f"{rounded} g/mol", f"\\boxed{{{rounded}}}",
                f"Answer: {problem.answer} g/mol.", f"M = {rounded} g mol^-1", f"≈ {rounded}", f"{rounded} grams per mole"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        exact = Fraction(problem.data["mass"])
        hydrogen = elements()["H"].weight
        return [format_decimal(exact + hydrogen), format_decimal(exact - Fraction(2, 100)), format_decimal(2 * exact),
                format_decimal(exact + Fraction(15999, 1000)), f"{format_decimal(exact)} or {format_decimal(2 * exact)}",
                f"{format_decimal(exact)} kg/mol"]
