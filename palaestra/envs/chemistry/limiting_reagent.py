"""Limiting reagent and the mass of product it allows, from given masses of both reactants.

The reaction is generated as in ``chemistry/balance_equation`` and shown balanced; the prompt gives masses of
both reactants and the atomic weights of every element involved. The answer names the limiting reactant and
the grams of one product formed when it is used up: ``<formula>; <mass> g`` (either order). The limiting side
is drawn first (each reactant limits half the time) and the masses are set so the two reactants' extents
(moles over coefficient) differ by a factor of 1.25 to 3, so the verdict is never a near tie. The mass is
right within the relative tolerance the prompt states (0.5%), applied exactly; naming the excess reactant, or
the mass the excess reactant would give, is wrong. The reactant may be named in a sentence (v3: ``The limiting
reagent is KI; 23.1 g``, refused on every problem in v2).

Difficulty: the atoms of the equation's species, the binary digits of the coefficients, and the significant
digits of the two given masses.

Version 2: the smaller mass and the fewer moles (coefficients ignored) both point at the limiting reactant in
half the problems and both at the excess one in the other half (the masses are redrawn, and where the reaction's
coefficients cannot make them point at the excess one, the reaction): in v1 "the smaller mass is limiting" with
the rest of the calculation right answered 0.73, 0.75 and 0.60 of levels 0, 2 and 4, and "the fewer moles"
0.75, 0.62 and 0.55. Each now answers one half, the chance of the two-way choice (either rule, or its
opposite, is right as often as wrong); they are not declared as heuristics, whose bar at the top level is that
half.

Generation speed: about 650 problems/s at level 0 (1,400 at level 4): where the two rules must point at the
excess reactant, small equations with equal coefficients cannot make them, and reactions are redrawn.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.chemistry.common import (
    ReactionConfig,
    draw_reaction,
    elements,
    equation_text,
    molar_mass,
    parse_formula,
)
from palaestra.verifiers.normalize import read_answer, strip_wrappers
from palaestra.verifiers.numeric import Tolerance, format_decimal, read_approx

EXAMPLE = "Xe; 12.3 g"  # a fixed placeholder of the right shape: never derived from the answer
TOLERANCE = Tolerance(relative="0.005")
MASS_DRAWS = 20  # masses tried per drawn reaction before another reaction is drawn
UNITS = {"g": 1, "gram": 1, "grams": 1, "kg": 1000, "mg": Fraction(1, 1000)}
SEPARATOR = re.compile(r"\s*(?:;|,|\n|\band\b)\s*")
PRODUCT_NAMED = re.compile(r"(.*?\S)\s+(?:of\s+)?([A-Za-z0-9()\u2080-\u2089]{1,40})")  # "4.13 g of CO2"
LIMITING_WORDS = ("is the limiting reagent", "is the limiting reactant", "is limiting", "(limiting)", "limits")



def _read_reagent(text: str) -> dict[str, int] | None:
    s = strip_wrappers(text).strip()
    lowered = s.lower()
    for prefix in ("the limiting reagent is ", "the limiting reactant is ", "limiting reagent:", "limiting reactant:",
                   "limiting:"):
        if lowered.startswith(prefix):
            s = s[len(prefix):].strip()
    for words in LIMITING_WORDS:
        if s.lower().endswith(words):
            s = s[: -len(words)].strip()
    return parse_formula(s)


@register
class LimitingReagent(Task):
    id = "chemistry/limiting_reagent"
    family = "chemistry"
    description = "Which reactant limits a reaction and the grams of product formed (0.5% tolerance)."
    tags = ("chemistry", "science", "math")
    version = 3  # v3: "The limiting reagent is X; m g" read (v2 refused the naming sentence)

    Config = ReactionConfig

    presets = (Config(3, 4, False, 12, False, 2), Config(3, 8, False, 12, True, 3), Config(3, 16, True, 6, True, 3),
               Config(4, 26, True, 3, True, 4), Config(4, 34, True, 2, True, 4))
    growth = Growth(steps={"carbons": 8, "salts": -2, "digits": 1}, limits={"salts": 0, "digits": 8})

    def generate(self, rng: random.Random, config: ReactionConfig) -> Problem:
        # the smaller mass and the fewer moles (coefficients ignored) both point at the limiting reactant in half
        # the problems and both at the excess one in the other half (v1: 0.60-0.75 and 0.55-0.75 by level)
        slips_right = rng.random() < 0.5

        def draw() -> tuple[list[str], list[str], str, list[int], int, list[Fraction]] | None:
            reactants, products, kind, coefficients = draw_reaction(rng, config)
            masses_per_mole = [molar_mass(parse_formula(f) or {}) for f in reactants]
            for _ in range(MASS_DRAWS):
                limiting, masses = self._masses(rng, config, coefficients, masses_per_mole)
                excess = 1 - limiting
                smaller_mass = masses[limiting] < masses[excess]
                fewer_moles = masses[limiting] / masses_per_mole[limiting] < masses[excess] / masses_per_mole[excess]
                if masses[0] != masses[1] and smaller_mass == fewer_moles == slips_right:
                    return reactants, products, kind, coefficients, limiting, masses
            return None

        reactants, products, kind, coefficients, limiting, masses = retry(
            draw, attempts=200, what="a reaction whose masses and moles point the chosen way")
        excess = 1 - limiting
        wanted = rng.randrange(len(products))
        masses_per_mole = [molar_mass(parse_formula(f) or {}) for f in reactants]
        extents = [masses[i] / masses_per_mole[i] / coefficients[i] for i in range(2)]
        assert extents[excess] > extents[limiting] * Fraction(6, 5)
        product_mass = molar_mass(parse_formula(products[wanted]) or {})
        exact = extents[limiting] * coefficients[2 + wanted] * product_mass
        wrong_side = extents[excess] * coefficients[2 + wanted] * product_mass
        table = elements()
        symbols = {s for f in (*reactants, products[wanted]) for s in (parse_formula(f) or {})}
        weights = ", ".join(f"{s} {table[s].weight_text}" for s in sorted(symbols, key=lambda s: table[s].number))
        prompt = (
            f"For the balanced reaction\n\n{equation_text(reactants, products, coefficients)}\n\n"
            f"a vessel holds {format_decimal(masses[0])} g of {reactants[0]} and {format_decimal(masses[1])} g of "
            f"{reactants[1]}. Which reactant is limiting, and how many grams of {products[wanted]} form when it "
            f"is used up?\n\nUse these atomic weights (g/mol): {weights}.\n\n"
            f"The mass is accepted within 0.5% of the exact value from these weights. Answer with the limiting "
            f"reactant's formula and the mass, separated by a semicolon, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=f"{reactants[limiting]}; {float(exact):.6g} g",
                       data={"reactants": reactants, "products": products, "coefficients": coefficients,
                             "masses": [format_decimal(m) for m in masses], "limiting": limiting, "wanted": wanted,
                             "exact": [exact.numerator, exact.denominator],
                             "excess_mass": [wrong_side.numerator, wrong_side.denominator], "kind": kind})

    @staticmethod
    def _masses(rng: random.Random, config: ReactionConfig, coefficients: list[int],
                masses_per_mole: list[Fraction]) -> tuple[int, list[Fraction]]:
        """The limiting side (either, evenly) and masses whose extents differ by a factor of 1.25 to 3."""
        limiting = rng.randrange(2)
        scale = 10 ** (config.digits - 1)
        mass_limiting = Fraction(rng.randint(scale, 10 * scale - 1), scale) * 10 ** rng.randint(0, 1)
        extent = mass_limiting / masses_per_mole[limiting] / coefficients[limiting]
        factor = Fraction(rng.randint(125, 300), 100)
        excess = 1 - limiting
        raw = extent * factor * coefficients[excess] * masses_per_mole[excess]
        mass_excess = _significant(raw, config.digits)
        return limiting, [mass_limiting, mass_excess] if limiting == 0 else [mass_excess, mass_limiting]

    def _read(self, answer: str, product: str) -> tuple[dict[str, int], Fraction] | None:
        if not isinstance(answer, str) or len(answer) > 300:
            return None
        wanted = parse_formula(product)

        def read_mass(text: str) -> Fraction | None:
            """The mass, also with the product it is of named after it ("4.13 g CO2", "4.13 g of CO2")."""
            mass = read_approx(text, units=UNITS)
            named = PRODUCT_NAMED.fullmatch(text.strip()) if mass is None else None
            if named is not None and parse_formula(named.group(2)) == wanted:
                mass = read_approx(named.group(1), units=UNITS, unit_required=True)
            return mass

        def read(text: str) -> tuple[dict[str, int], Fraction] | None:
            parts = [p for p in SEPARATOR.split(text.strip()) if p]
            if len(parts) != 2:
                return None
            for first, second in (parts, parts[::-1]):
                reagent, mass = _read_reagent(first), read_mass(second)
                if reagent is not None and mass is not None:
                    return reagent, mass
            return None

        return read_answer(answer, read)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = self._read(answer, problem.data["products"][problem.data["wanted"]])
        if written is None:
            return Verdict.unparsed(f"expected the limiting reactant and a mass in grams, such as {EXAMPLE}")
        reagent, mass = written
        data = problem.data
        reactants = [parse_formula(f) for f in data["reactants"]]
        if reagent not in reactants:
            return Verdict.wrong("the first part must be one of the two reactants")
        if reactants.index(reagent) != data["limiting"]:
            return Verdict.wrong(f"{data['reactants'][1 - data['limiting']]} is in excess, not limiting")
        if not TOLERANCE.accepts(mass, Fraction(*data["exact"])):
            return Verdict.wrong("the limiting reactant is right, but the mass is not within 0.5% of the mass formed")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Atoms of the equation's species, binary digits of the coefficients, digits of the two masses."""
        data = problem.data
        atoms = sum(sum((parse_formula(f) or {}).values()) for f in [*data["reactants"], *data["products"]])
        bits = sum(c.bit_length() for c in data["coefficients"])
        return float(atoms + bits + sum(ch.isdigit() for m in data["masses"] for ch in m.lstrip("0.")))

    def spellings(self, problem: Problem) -> list[str]:
        data = problem.data
        formula = data["reactants"][data["limiting"]]
        three = f"{float(Fraction(*data['exact'])):.3g}"
        return [*super().spellings(problem), f"{three} g; {formula}", f"{formula}, {three} grams",
                f"{formula} is the limiting reagent; {three} g", f"\\boxed{{{formula}; {three} g}}",
                f"Answer: {formula}; {three} g.", f"limiting: {formula}\n{three} g"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        formula, other = data["reactants"][data["limiting"]], data["reactants"][1 - data["limiting"]]
        exact, excess = Fraction(*data["exact"]), Fraction(*data["excess_mass"])
        return [f"{other}; {float(excess):.6g} g", f"{other}; {float(exact):.6g} g",
                f"{formula}; {float(excess):.6g} g", f"{formula}; {float(exact * 2):.6g} g", formula,
                f"{formula} or {other}; {float(exact):.6g} g"]


def _significant(value: Fraction, digits: int) -> Fraction:
    """``value`` rounded to ``digits`` significant digits (value > 0)."""
    exponent = len(str(int(value))) - digits if value >= 1 else -digits
    for _ in range(40):  # masses here are above 1e-6 g: a few steps at most
        if value >= Fraction(10) ** (exponent + digits - 1):
            break
        exponent -= 1
    unit = Fraction(10) ** exponent
    return round(value / unit) * unit
