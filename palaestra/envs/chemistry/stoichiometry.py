"""Mass of a product formed from a given mass of one reactant, through a balanced equation.

The reaction is generated as in ``chemistry/balance_equation`` (double displacement, neutralisation,
combustion, synthesis, metals in oxidising acids) and shown already balanced; the prompt gives a mass of one
reactant (the other reactants in excess) and the atomic weights of every element involved, and asks for the
mass of one product. The exact answer is the rational m / M_reactant * (c_product / c_reactant) *
M_product; an answer within the relative tolerance the prompt states (0.5%, so rounding the molar masses to
two decimals stays right) is accepted, applied exactly with :class:`palaestra.verifiers.numeric.Tolerance`.

Version 2: the given reactant and the wanted product are drawn among the pairs whose coefficients differ by more
than 1% (twice the tolerance), the reaction redrawn when there is none, so ignoring the coefficients (a 1 : 1 mole
ratio) or turning their ratio upside down is never accepted; the 1 : 1 ratio answered 0.33, 0.33, 0.20, 0.15 and
0.03 of levels 0 to 4 before.

Difficulty: the atoms of the equation's species (the equation to read), the binary digits of the two
coefficients used, and the significant digits of the given mass.
"""

from __future__ import annotations

import random
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.chemistry.common import (
    ReactionConfig,
    draw_reaction,
    elements,
    equation_text,
    molar_mass,
    parse_formula,
    without_quantity_name,
)
from palaestra.verifiers.numeric import Tolerance, format_decimal, read_approx

EXAMPLE = "12.3 g"  # a fixed placeholder of the right shape: never derived from the answer
TOLERANCE = Tolerance(relative="0.005")
UNITS = {"g": 1, "gram": 1, "grams": 1, "kg": 1000, "mg": Fraction(1, 1000)}



@register
class Stoichiometry(Task):
    id = "chemistry/stoichiometry"
    family = "chemistry"
    description = "Grams of a product from grams of one reactant through a balanced equation (0.5% tolerance)."
    tags = ("chemistry", "science", "math")
    version = 2  # v2: the given and the wanted species' coefficients always differ (the 1 : 1 ratio is wrong)

    Config = ReactionConfig

    presets = (Config(3, 4, False, 12, False, 2), Config(3, 8, False, 12, True, 3), Config(3, 16, True, 6, True, 3),
               Config(4, 26, True, 3, True, 4), Config(4, 34, True, 2, True, 4))
    growth = Growth(steps={"carbons": 8, "salts": -2, "digits": 1}, limits={"salts": 0, "digits": 8})

    def generate(self, rng: random.Random, config: ReactionConfig) -> Problem:
        def draw() -> tuple[list[str], list[str], str, list[int], int, int] | None:
            reactants, products, kind, coefficients = draw_reaction(rng, config)
            # v2: the coefficients must matter: a given and a wanted species whose coefficients differ by more than
            # 1% (twice the tolerance), so the 1 : 1 mole ratio (or the ratio upside down) is never accepted
            pairs = [(g, w) for g in range(len(reactants)) for w in range(len(products))
                     if abs(Fraction(coefficients[len(reactants) + w], coefficients[g]) - 1) > Fraction(1, 100)]
            return (reactants, products, kind, coefficients, *rng.choice(pairs)) if pairs else None

        reactants, products, kind, coefficients, given, wanted = retry(draw, what="a reaction with unequal coefficients")
        mantissa = rng.randint(10 ** (config.digits - 1), 10**config.digits - 1)
        mass = Fraction(mantissa, 10 ** (config.digits - rng.randint(0, 2)))  # 1.2 g to 999 g or so
        table = elements()
        symbols = {s for f in (reactants[given], products[wanted]) for s in (parse_formula(f) or {})}
        weights = ", ".join(f"{s} {table[s].weight_text}" for s in sorted(symbols, key=lambda s: table[s].number))
        m_given = molar_mass(parse_formula(reactants[given]) or {})
        m_wanted = molar_mass(parse_formula(products[wanted]) or {})
        exact = mass / m_given * Fraction(coefficients[len(reactants) + wanted], coefficients[given]) * m_wanted
        prompt = (
            f"For the balanced reaction\n\n{equation_text(reactants, products, coefficients)}\n\n"
            f"{format_decimal(mass)} g of {reactants[given]} reacts completely (everything else in excess). "
            f"How many grams of {products[wanted]} form?\n\nUse these atomic weights (g/mol): {weights}.\n\n"
            f"An answer within 0.5% of the exact value from these weights is accepted. Answer with the mass in "
            f"grams, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=f"{float(exact):.6g}",
                       data={"reactants": reactants, "products": products, "coefficients": coefficients,
                             "given": given, "wanted": wanted, "mass": format_decimal(mass),
                             "exact": [exact.numerator, exact.denominator], "kind": kind})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_approx(answer, units=UNITS, sentence=True) if isinstance(answer, str) and len(answer) <= 200 else None
        if value is None and isinstance(answer, str) and len(answer) <= 200:
            # the product named: "m(CO2) = 4.4 g", "The mass of CO2 formed is 4.4 g", "4.4 g of CO2"
            product = problem.data["products"][problem.data["wanted"]]
            named = without_quantity_name(answer, "m", ("mass",), parse_formula(product) or {})
            units = {**UNITS, **{f"{unit} of {product}": factor for unit, factor in UNITS.items()},
                     **{f"{unit} {product}": factor for unit, factor in UNITS.items()}}
            value = read_approx(named, units=units)
        if value is None:
            return Verdict.unparsed(f"expected one mass in grams, such as {EXAMPLE}")
        exact = Fraction(*problem.data["exact"])
        if TOLERANCE.accepts(value, exact):
            return Verdict.right()
        return Verdict.wrong(f"{format_decimal(value) if value.denominator < 10**12 else float(value)} g is not "
                             f"within 0.5% of the mass formed")

    def difficulty(self, problem: Problem) -> float:
        """Atoms of the equation's species, binary digits of the two coefficients used, digits of the given mass."""
        data = problem.data
        n = len(data["reactants"])
        atoms = sum(sum((parse_formula(f) or {}).values()) for f in [*data["reactants"], *data["products"]])
        bits = data["coefficients"][data["given"]].bit_length() + data["coefficients"][n + data["wanted"]].bit_length()
        return float(atoms + bits + sum(ch.isdigit() for ch in data["mass"].lstrip("0.")))

    def spellings(self, problem: Problem) -> list[str]:
        exact = Fraction(*problem.data["exact"])
        three = f"{float(exact):.3g}"
        return [*super().spellings(problem), f"{problem.answer} g", f"{three} g", f"\\boxed{{{three}}}",
                f"Answer: {three} grams.", f"≈ {three} g", f"{float(exact) / 1000:.6g} kg", f"m = {three} g"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        exact = Fraction(*data["exact"])
        n = len(data["reactants"])
        ratio = Fraction(data["coefficients"][n + data["wanted"]], data["coefficients"][data["given"]])
        wrong = [exact * Fraction(101, 100), exact / 2, exact * 2, exact * 1000]
        if ratio != 1:
            wrong.append(exact / ratio)  # the coefficients ignored
        return [f"{float(w):.6g}" for w in wrong] + [f"{float(exact):.6g} or {float(exact * 2):.6g}",
                                                     f"{float(exact):.6g} mg"]
