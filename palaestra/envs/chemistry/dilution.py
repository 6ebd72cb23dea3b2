"""Dilution and mixing of solutions: C1V1 = C2V2 through a chain of operations, computed exactly.

A solution of a named solute starts at a stated concentration and volume and goes through a chain of
operations: adding water, mixing in a volume of another solution of the same solute, or taking an aliquot and
diluting it to a new volume. Volumes are stated to be additive. Level 0 asks the stock volume that a single
dilution needs; later levels ask the final concentration, in mol/L or mmol/L, and at higher levels give the
stock as grams per litre (atomic weights stated) so the molar mass enters. The exact answer is a rational;
an answer within the relative tolerance the prompt states (0.5%) is accepted, applied exactly.

Difficulty: the operations plus the unit conversions the problem needs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.chemistry.common import elements, molar_mass, parse_formula, without_quantity_name
from palaestra.verifiers.numeric import Tolerance, format_decimal, read_approx

EXAMPLE = "12.3"  # a fixed placeholder of the right shape (unit named in the question): never the answer
TOLERANCE = Tolerance(relative="0.005")
SOLUTES = ("NaCl", "HCl", "KNO3", "CuSO4", "C6H12O6", "NaOH", "H2SO4", "KMnO4", "AgNO3", "KCl", "MgCl2",
           "Na2CO3", "CaCl2", "NH4Cl", "KI", "NaHCO3", "HNO3", "BaCl2", "FeCl3", "K2Cr2O7")
SPELLINGS = {"mol/L": ("mol/L", "M", "mol L^-1", "mol/l", "molar", "mol per litre", "mol per liter", "mol dm^-3",
                       "mol/dm^3"),
             "mmol/L": ("mmol/L", "mM", "mmol L^-1", "mmol/l", "millimolar", "mmol dm^-3", "mmol/dm^3"),
             "mL": ("mL", "ml", "milliliters", "millilitres", "cm^3"),
             "L": ("L", "l", "liters", "litres", "liter", "litre", "dm^3")}  # never asked: read where mL is
# Each unit's quantity and size, so a right value in another unit of the asked quantity is read and converted
# ("1.914 mol/L" where mmol/L is asked is 1914 mmol/L; "0.25 L" where mL is asked is 250 mL).
SIZES = {"mol/L": ("concentration", Fraction(1000)), "mmol/L": ("concentration", Fraction(1)),
         "mL": ("volume", Fraction(1)), "L": ("volume", Fraction(1000))}


def unit_factors(unit: str) -> dict[str, Fraction]:
    """Spellings of every unit of the asked quantity, each with its factor to the asked unit."""
    quantity, size = SIZES[unit]
    return {spelling: other_size / size for other, (other_quantity, other_size) in SIZES.items()
            if other_quantity == quantity for spelling in SPELLINGS[other]}


@register
class Dilution(Task):
    id = "chemistry/dilution"
    family = "chemistry"
    description = "Concentration after a chain of dilutions and mixings (C1V1 = C2V2; 0.5% tolerance)."
    tags = ("chemistry", "science", "math")

    @dataclass(frozen=True)
    class Config:
        operations: int  # operations after the stock is made (0: one dilution, solve for the stock volume)
        conversions: bool  # whether the stock is given in g/L and the answer may be asked in mmol/L

    presets = (Config(0, False), Config(1, True), Config(2, True), Config(3, True), Config(4, True))
    growth = Growth(steps={"operations": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        solute = rng.choice(SOLUTES)
        grams_per_mole = molar_mass(parse_formula(solute) or {})
        conversions = 0
        if config.operations == 0:
            stock = Fraction(rng.randint(5, 200), 10)
            target = stock / rng.randint(3, 40) * Fraction(rng.randint(80, 120), 100)
            target = Fraction(round(target * 1000), 1000) or Fraction(1, 1000)
            volume = Fraction(rng.randint(5, 100) * 10)
            exact = target * volume / stock
            text = (f"A stock solution of {solute} is {format_decimal(stock)} mol/L. What volume of the stock, in mL, "
                    f"must be diluted with water to make {format_decimal(volume)} mL of {format_decimal(target)} "
                    f"mol/L {solute}?")
            unit, operations = "mL", 0
        else:
            concentration = Fraction(rng.randint(5, 300), 100)  # mol/L
            volume = Fraction(rng.randint(10, 500))  # mL
            if config.conversions and rng.random() < 0.5:
                grams = Fraction(round(concentration * grams_per_mole * 10), 10)
                concentration = grams / grams_per_mole
                stock_text = f"{format_decimal(grams)} g/L"
                conversions += 1
            else:
                stock_text = f"{format_decimal(concentration)} mol/L"
            moles = concentration * volume / 1000
            start_volume = volume
            steps: list[str] = []
            for _ in range(config.operations):
                kind = rng.choice(["water", "mix", "aliquot"])
                if kind == "water":
                    added = Fraction(rng.randint(10, 500))
                    volume += added
                    steps.append(f"{format_decimal(added)} mL of water is added")
                elif kind == "mix":
                    added = Fraction(rng.randint(10, 300))
                    other = Fraction(rng.randint(5, 300), 100)
                    moles += other * added / 1000
                    volume += added
                    steps.append(f"{format_decimal(added)} mL of {format_decimal(other)} mol/L {solute} is mixed in")
                else:
                    taken = Fraction(rng.randint(1, max(1, int(volume) // 10)) * 5)
                    taken = min(taken, volume)
                    moles = moles * taken / volume
                    volume = Fraction(rng.randint(int(taken) // 5 + 2, int(taken) // 5 + 100) * 5)
                    steps.append(f"{format_decimal(taken)} mL of the solution is taken and diluted with water to "
                                 f"{format_decimal(volume)} mL")
            unit = rng.choice(["mol/L", "mmol/L"]) if config.conversions else "mol/L"
            conversions += unit == "mmol/L"
            exact = moles / volume * 1000 * (1000 if unit == "mmol/L" else 1)
            text = (f"You have {format_decimal(start_volume)} mL of a {stock_text} solution of {solute}. Then, in "
                    f"turn: " + "; then ".join(steps) + ".")
            operations = len(steps)
            text += f" What is the final concentration of {solute}, in {unit}?"
        weights = ""
        if "g/L" in text:
            table = elements()
            symbols = sorted(parse_formula(solute) or {}, key=lambda s: table[s].number)
            weights = "\n\nAtomic weights (g/mol): " + ", ".join(f"{s} {table[s].weight_text}" for s in symbols) + "."
        prompt = (
            f"{text}{weights}\n\nVolumes add when solutions and water are combined. An answer within 0.5% of the "
            f"exact value is accepted. Answer with the number in {unit}, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=f"{float(exact):.6g}",
                       data={"unit": unit, "exact": [exact.numerator, exact.denominator], "operations": operations,
                             "conversions": conversions, "solute": solute})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        unit = problem.data["unit"]
        readable = isinstance(answer, str) and len(answer) <= 200
        value = read_approx(answer, units=unit_factors(unit), sentence=True) if readable else None
        if value is None and readable and SIZES[unit][0] == "concentration":
            # the concentration named with its solute: "[BaCl2] = 0.888 mol/L", "c(BaCl2) = 0.888 M", "The final
            # concentration of BaCl2 is 0.888 mol/L"
            solute = parse_formula(problem.data["solute"]) or {}
            named = without_quantity_name(answer, "c", ("final concentration", "concentration", "molarity"), solute,
                                          bracketed=True)
            value = read_approx(named, units=unit_factors(unit)) if named != answer else None
        if value is None:
            return Verdict.unparsed(f"expected one number in {unit}, such as {EXAMPLE}")
        if TOLERANCE.accepts(value, Fraction(*problem.data["exact"])):
            return Verdict.right()
        return Verdict.wrong(f"not within 0.5% of the exact value in {unit}")

    def difficulty(self, problem: Problem) -> float:
        """The dilution, the operations after it, and unit conversions."""
        return float(1 + 2 * problem.data["operations"] + problem.data["conversions"])

    def spellings(self, problem: Problem) -> list[str]:
        exact = Fraction(*problem.data["exact"])
        unit = problem.data["unit"]
        four = f"{float(exact):.4g}"
        return [*super().spellings(problem), f"{problem.answer} {unit}", f"{four} {SPELLINGS[unit][1]}",
                f"\\boxed{{{four}}}", f"Answer: {four} {unit}.", f"≈ {four}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        exact = Fraction(*problem.data["exact"])
        wrong = [exact * Fraction(101, 100), exact * 2, exact / 2, exact * 1000]
        return [f"{float(w):.6g}" for w in wrong] + [f"{float(exact):.6g} or {float(exact * 2):.6g}"]
