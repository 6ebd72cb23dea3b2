"""Ideal and combined gas law problems with unit conversions, computed exactly.

A sample of a named gas starts in a state given by three of pressure, volume, temperature and amount (moles,
or grams at higher levels, with the atomic weights stated); at higher levels it then goes through a chain of
changes, each holding one quantity constant and setting another (``heated to 80 °C at constant pressure``).
The question asks one quantity of the last state in a stated unit. Every constant is stated in the prompt:
R = 8.314 L·kPa/(mol·K), 1 atm = 101.325 kPa = 760 mmHg, T(K) = T(°C) + 273.15, so the answer is an exact
rational; an answer within the tolerance the prompt states (0.5%; for a temperature 1 degree, since a relative
tolerance means nothing in °C near zero) is accepted, applied exactly, in the asked unit (the unit may be left
off). The quantity asked is the one the last step determines, never one printed in the prompt.

Difficulty: the given quantities, the changes, and the unit conversions the problem needs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.chemistry.common import elements, molar_mass, parse_formula
from palaestra.verifiers.numeric import Tolerance, format_decimal, read_approx

EXAMPLE = "12.3"  # a fixed placeholder of the right shape (the unit named in the question): not the answer
TOLERANCE = Tolerance(relative="0.005")
TEMPERATURE_TOLERANCE = Tolerance(absolute=1)  # a relative one means nothing in °C near zero
R = Fraction("8.314")  # L·kPa/(mol·K)
GASES = ("O2", "N2", "CO2", "CH4", "NH3", "He", "Ar", "H2", "Cl2", "SO2", "NO2", "C3H8", "Ne", "C2H6", "CO")

# unit -> (quantity, factor to the base unit kPa / L / K / mol; temperatures in °C are offset, handled apart)
UNITS: dict[str, tuple[str, Fraction]] = {
    "kPa": ("P", Fraction(1)), "atm": ("P", Fraction("101.325")), "mmHg": ("P", Fraction("101.325") / 760),
    "L": ("V", Fraction(1)), "mL": ("V", Fraction(1, 1000)),
    "K": ("T", Fraction(1)), "°C": ("T", Fraction(1)),
    "mol": ("n", Fraction(1)), "g": ("n", Fraction(1)),
}
SPELLINGS = {
    "kPa": ("kPa", "kilopascal", "kilopascals"), "atm": ("atm", "atmosphere", "atmospheres"),
    "mmHg": ("mmHg", "mm Hg", "torr", "Torr"), "L": ("L", "l", "liter", "liters", "litre", "litres"),
    "mL": ("mL", "ml", "milliliter", "milliliters", "millilitre", "millilitres"), "K": ("K", "kelvin", "kelvins"),
    "°C": ("°C", "℃", "degrees C", "degrees Celsius", "C", "deg C"), "mol": ("mol", "mole", "moles"),
    "g": ("g", "gram", "grams"),
}


# Units never printed but read in an answer (a pressure in Pa or bar, a volume in dm³, cm³ or m³), each with its
# factor to the quantity's base unit (kPa, L), as a careful grader converts them.
READ_ALSO: dict[str, dict[str, Fraction]] = {
    "P": {"Pa": Fraction(1, 1000), "pascal": Fraction(1, 1000), "pascals": Fraction(1, 1000), "bar": Fraction(100),
          "MPa": Fraction(1000)},
    "V": {"dm^3": Fraction(1), "cm^3": Fraction(1, 1000), "m^3": Fraction(1000)},
}
OTHER_TEMPERATURE = {"°C": ("K", Fraction("273.15")), "K": ("°C", Fraction("-273.15"))}  # unit, what to subtract


def unit_factors(unit: str) -> dict[str, Fraction] | tuple[str, ...]:
    """Spellings of the asked unit, and for a pressure or a volume of the other units of that quantity, each with
    its factor to the asked unit ("21.5 L" where mL is asked is 21500 mL), and for a mass kg and mg. Temperatures (an
    offset, not a factor: :meth:`GasLaws.verify` reads the other scale) and amounts in mol (grams need the molar mass)
    are read in the asked unit only."""
    quantity, size = UNITS[unit]
    if unit == "g":  # a mass in kg or mg converts by a factor, as a pressure or a volume does
        return {**{spelling: Fraction(1) for spelling in SPELLINGS["g"]}, "kg": Fraction(1000), "mg": Fraction(1, 1000)}
    if quantity not in ("P", "V"):
        return SPELLINGS[unit]
    factors = {spelling: other_size / size for other, (other_quantity, other_size) in UNITS.items()
               if other_quantity == quantity for spelling in SPELLINGS[other]}
    return {**{spelling: other_size / size for spelling, other_size in READ_ALSO[quantity].items()}, **factors}


NAMES = {"P": "pressure", "V": "volume", "T": "temperature", "n": "amount"}
BASE = {"P": "kPa", "V": "L", "T": "K", "n": "mol"}


def _to_base(value: Fraction, unit: str, grams_per_mole: Fraction) -> Fraction:
    if unit == "°C":
        return value + Fraction("273.15")
    if unit == "g":
        return value / grams_per_mole
    return value * UNITS[unit][1]


def _from_base(value: Fraction, unit: str, grams_per_mole: Fraction) -> Fraction:
    if unit == "°C":
        return value - Fraction("273.15")
    if unit == "g":
        return value * grams_per_mole
    return value / UNITS[unit][1]


@register
class GasLaws(Task):
    id = "chemistry/gas_laws"
    family = "chemistry"
    description = "Ideal and combined gas law with unit conversions, through a chain of changes (0.5% tolerance)."
    tags = ("chemistry", "science", "math", "physics")

    @dataclass(frozen=True)
    class Config:
        changes: int  # changes of state after the first
        conversions: bool  # whether quantities come in non-base units (atm, mmHg, mL, °C, grams)

    presets = (Config(0, False), Config(0, True), Config(1, True), Config(2, True), Config(3, True))
    growth = Growth(steps={"changes": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        gas = rng.choice(GASES)
        grams_per_mole = molar_mass(parse_formula(gas) or {})

        def unit_for(quantity: str) -> str:
            if not config.conversions:
                return BASE[quantity]
            return rng.choice([u for u, (q, _) in UNITS.items() if q == quantity])

        def draw(quantity: str) -> tuple[Fraction, str]:
            """A printed value (exact decimal) in a drawn unit and its base value."""
            unit = unit_for(quantity)
            printed = {"P": Fraction(rng.randint(500, 3000), 10), "V": Fraction(rng.randint(10, 500), 10),
                       "T": Fraction(rng.randint(2500, 4500), 10), "n": Fraction(rng.randint(5, 400), 100)}[quantity]
            if unit != BASE[quantity]:  # print a plausible value in the drawn unit, rounded to a decimal
                printed = Fraction(round(_from_base(printed, unit, grams_per_mole) * 100), 100)
            return printed, unit

        state: dict[str, Fraction] = {}
        lines: list[str] = []
        conversions = 0
        known = rng.sample(["P", "V", "T", "n"], 3)
        for quantity in known:
            value, unit = draw(quantity)
            state[quantity] = _to_base(value, unit, grams_per_mole)
            conversions += unit != BASE[quantity]
            lines.append(f"{'mass' if unit == 'g' else NAMES[quantity]} {format_decimal(value)} {unit}")
        missing = next(q for q in "PVTn" if q not in state)
        others = {"P": state.get("P"), "V": state.get("V"), "T": state.get("T"), "n": state.get("n")}
        if missing == "P":
            state["P"] = others["n"] * R * others["T"] / others["V"]  # type: ignore[operator]
        elif missing == "V":
            state["V"] = others["n"] * R * others["T"] / others["P"]  # type: ignore[operator]
        elif missing == "T":
            state["T"] = others["P"] * others["V"] / (others["n"] * R)  # type: ignore[operator]
        else:
            state["n"] = others["P"] * others["V"] / (R * others["T"])  # type: ignore[operator]
        text = f"A sample of {gas} gas has " + ", ".join(lines) + "."
        steps = []
        follows = missing
        previous = ""
        for _ in range(config.changes):
            changed = rng.choice([q for q in "PVT" if q != previous])  # never the same quantity twice in a row
            held = rng.choice([q for q in "PVT" if q != changed])
            previous, follows = changed, next(q for q in "PVT" if q not in (held, changed))
            value, unit = draw(changed)
            conversions += unit != BASE[changed]
            state[changed] = _to_base(value, unit, grams_per_mole)
            # P V / T is constant for a fixed amount: the third quantity follows
            if follows == "P":
                state["P"] = state["n"] * R * state["T"] / state["V"]
            elif follows == "V":
                state["V"] = state["n"] * R * state["T"] / state["P"]
            else:
                state["T"] = state["P"] * state["V"] / (state["n"] * R)
            steps.append(f"its {NAMES[changed]} is changed to {format_decimal(value)} {unit} at constant "
                         f"{NAMES[held]}")
        if steps:
            text += " Then, in turn, " + "; then ".join(steps) + " (the amount of gas stays fixed)."
        asked = follows  # the quantity the last step determines (the unknown when nothing changes)
        asked_unit = unit_for(asked)
        conversions += asked_unit != BASE[asked]
        exact = _from_base(state[asked], asked_unit, grams_per_mole)
        what = "mass" if asked_unit == "g" else NAMES[asked]
        table = elements()
        weights = ""
        if "g" in text or asked_unit == "g":
            symbols = sorted(parse_formula(gas) or {}, key=lambda s: table[s].number)
            weights = " Atomic weights (g/mol): " + ", ".join(f"{s} {table[s].weight_text}" for s in symbols) + "."
        when = "at the end" if steps else ""
        accepted = "within 1 degree" if asked == "T" else "within 0.5%"
        prompt = (
            f"{text}\n\nTreat it as an ideal gas with R = 8.314 L·kPa/(mol·K); 1 atm = 101.325 kPa = 760 mmHg; "
            f"T(K) = T(°C) + 273.15.{weights}\n\nWhat is its {what}{' ' + when if when else ''}, in {asked_unit}? "
            f"An answer {accepted} of the exact value is accepted. Answer with the number in {asked_unit}, for "
            f"example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=f"{float(exact):.6g}",
                       data={"unit": asked_unit, "exact": [exact.numerator, exact.denominator],
                             "changes": len(steps), "conversions": conversions, "gas": gas})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        unit = problem.data["unit"]
        readable = isinstance(answer, str) and len(answer) <= 200
        value = read_approx(answer, units=unit_factors(unit), sentence=True) if readable else None
        if value is None and readable and unit in OTHER_TEMPERATURE:  # "296.15 K" where °C is asked, and back
            other, offset = OTHER_TEMPERATURE[unit]
            value = read_approx(answer, units=SPELLINGS[other], unit_required=True, sentence=True)
            value = None if value is None else value - offset
        if value is None:
            return Verdict.unparsed(f"expected one number in {unit}, such as {EXAMPLE} {unit}")
        exact = Fraction(*problem.data["exact"])
        tolerance = TEMPERATURE_TOLERANCE if unit in ("K", "°C") else TOLERANCE
        if tolerance.accepts(value, exact):
            return Verdict.right()
        return Verdict.wrong(f"not within {'1 degree' if unit in ('K', '°C') else '0.5%'} of the exact value in {unit}")

    def difficulty(self, problem: Problem) -> float:
        """Given quantities, changes of state, and unit conversions needed."""
        return float(3 + 2 * problem.data["changes"] + problem.data["conversions"])

    def spellings(self, problem: Problem) -> list[str]:
        exact = Fraction(*problem.data["exact"])
        unit = problem.data["unit"]
        four = f"{float(exact):.4g}"
        return [*super().spellings(problem), f"{problem.answer} {unit}", f"{four} {SPELLINGS[unit][-1]}",
                f"\\boxed{{{four}}}", f"Answer: {four} {unit}.", f"≈ {four}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        exact = Fraction(*problem.data["exact"])
        unit = problem.data["unit"]
        if unit in ("K", "°C"):
            wrong = [exact + 3, exact - 2, exact + 273, exact * 2 if abs(exact) > 2 else exact + 10]
        else:
            wrong = [exact * Fraction(101, 100), exact * 2, exact / 2, exact * 10]
        other_unit = next(u for u in SPELLINGS if u != unit and UNITS[u][0] != UNITS[unit][0])
        return [f"{float(w):.6g}" for w in wrong] + [f"{float(exact):.6g} {other_unit}",
                                                     f"{float(exact):.6g} or {float(exact * 2):.6g}"]
