"""Normalise weights written in mixed units (mg, g, kg, t, lb, oz, "2 lb 4 oz") to grams.

A shipping manifest lists parcels with weights as typed: metric units, pounds and ounces (1 lb =
453.59237 g exactly, 1 oz = 1/16 lb), compound ``2 lb 4 oz``, thousands separators (``1,250 g``) and
missing spaces (``0.75kg``). The answer gives every parcel's weight in grams rounded to 2 decimal places,
as ``id = grams`` pairs in any order; the verifier reads the pairs with the shared assignment reader and
accepts a value within 0.005 g of the exact weight (what rounding to 2 places allows, as the prompt says),
naming the first parcel that is off.

Version 2: from level 3 (messy weights) every manifest has a compound weight, so reading ``2 lb 4 oz`` as 2 lb
no longer pays (v1: 0.38 of level 3, 0.32 of level 4).

Difficulty: the parcels plus the imperial weights plus the compound weights plus the units in play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS, exact_text, keyed_text
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.normalize import markup_spellings
from palaestra.verifiers.numeric import Tolerance, format_decimal, read_approx

EXAMPLE = "Q98 = 1500, Q99 = 12.35"  # a fixed placeholder: never derived from the answer
GRAMS = {"mg": Fraction(1, 1000), "g": Fraction(1), "kg": Fraction(1000), "t": Fraction(1_000_000),
         "lb": Fraction(45359237, 100000), "oz": Fraction(45359237, 1600000)}
UNITS_BY_LEVEL = (("g", "kg", "mg"), ("g", "kg", "mg", "lb"), ("g", "kg", "mg", "lb", "oz", "t"))
TOLERANCE = Tolerance.decimals(2)
GRAM_UNITS = {"g": 1, "gram": 1, "grams": 1}  # the asked unit, in the spellings a grader accepts ("1500 grams")


def _amount_text(value: Fraction, separators: bool) -> str:
    text = format_decimal(value)
    whole, _, fraction = text.partition(".")
    if separators and len(whole) > 3:
        whole = f"{int(whole):,}"
    return whole + (f".{fraction}" if fraction else "")


def rounded(value: Fraction) -> str:
    """``value`` rounded half up to 2 decimal places, trailing zeros dropped (``1020.58``, ``1500``)."""
    hundredths = (value * 100 + Fraction(1, 2)) // 1
    return exact_text(Fraction(hundredths, 100))


@register
class UnitNormalize(Task):
    id = "data/unit_normalize"
    family = "data"
    description = "Convert parcel weights typed in mixed units (mg, g, kg, t, lb, oz, lb+oz) to grams."
    tags = ("data", "cleaning", "units")
    version = 2  # v2: a compound lb + oz weight in every messy manifest (ignoring its ounces paid 0.38 of level 3)

    @dataclass(frozen=True)
    class Config:
        parcels: int
        units: int  # index into UNITS_BY_LEVEL
        messy: bool  # compound lb+oz, thousands separators, missing spaces

    presets = (Config(3, 0, False), Config(5, 1, False), Config(7, 2, False), Config(10, 2, True),
               Config(14, 2, True))
    growth = Growth(steps={"parcels": 4})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        units = UNITS_BY_LEVEL[config.units]
        numbers = rng.sample(range(1, max(100, 4 * config.parcels)), config.parcels)
        parcels: list[dict[str, Any]] = []
        # with messy weights, one compound "2 lb 4 oz" at least (v1 drew them freely: ignoring a compound's
        # ounces answered 0.38 of level 3 and 0.32 of level 4)
        forced = rng.randrange(config.parcels) if config.messy else -1
        for index, number in enumerate(numbers):
            unit = "lb" if index == forced else rng.choice(units)
            compound = config.messy and unit == "lb" and (index == forced or rng.random() < 0.5)
            if unit in ("mg",):
                amount = Fraction(rng.randrange(50, 99999, 5))
            elif unit in ("g",):
                amount = Fraction(rng.randrange(5, 20000), rng.choice((1, 1, 10)))
            elif unit == "t":
                amount = Fraction(rng.randrange(1, 400), 100)
            elif unit == "oz":
                amount = Fraction(rng.randrange(1, 200), rng.choice((1, 2, 4)))
            else:
                amount = Fraction(rng.randrange(1, 9000), rng.choice((1, 10, 100)))
            if compound:
                pounds, ounces = rng.randint(1, 40), rng.randint(1, 15)
                grams = pounds * GRAMS["lb"] + ounces * GRAMS["oz"]
                typed = f"{pounds} lb {ounces} oz"
            else:
                grams = amount * GRAMS[unit]
                space = "" if config.messy and rng.random() < 0.3 else " "
                typed = f"{_amount_text(amount, config.messy)}{space}{unit}"
            parcels.append({"id": f"Q{number}", "item": rng.choice(WORDS["products"]), "typed": typed,
                            "grams": str(grams), "unit": unit, "compound": compound})
        table = "\n".join(f"{p['id']} | {p['item']} | {p['typed']}" for p in parcels)
        prompt = (
            f"A shipping manifest lists these parcels (id | item | weight as typed):\n\n{table}\n\n"
            "Convert every weight to grams. Use 1 kg = 1000 g, 1 mg = 0.001 g, 1 t = 1000 kg, 1 lb = 453.59237 g "
            "exactly and 1 oz = 1/16 lb; a comma inside a number separates thousands. Round each weight to 2 "
            "decimal places (a value within 0.005 g of the exact weight is accepted).\n\n"
            f"Answer with one id = grams pair per parcel, separated by commas, in any order, for example: {EXAMPLE}"
        )
        result = {p["id"]: rounded(Fraction(p["grams"])) for p in parcels}
        data = {"parcels": parcels, "result": result, "units": len({p["unit"] for p in parcels})}
        return Problem(prompt=prompt, answer=keyed_text(result), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        parcels = problem.data["parcels"]
        names = [p["id"] for p in parcels]
        given = read_values(answer, names, lambda text: read_approx(text, units=GRAM_UNITS), partial=True)
        if not given:
            return Verdict.unparsed(f"expected parcel = grams pairs such as {EXAMPLE}")
        for parcel in parcels:
            value = given.get(parcel["id"])
            if value is None:
                return Verdict.wrong(f"parcel {parcel['id']} is missing")
            if not TOLERANCE.accepts(value, Fraction(parcel["grams"])):
                return Verdict.wrong(f"the weight of parcel {parcel['id']} is off by more than 0.005 g")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Parcels + imperial weights + compound weights + units in play."""
        parcels = problem.data["parcels"]
        imperial = sum(1 for p in parcels if p["unit"] in ("lb", "oz"))
        return float(len(parcels) + imperial + sum(1 for p in parcels if p["compound"]) + problem.data["units"])

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        exact = {p["id"]: format_decimal(Fraction(p["grams"])) for p in problem.data["parcels"]}
        return [*markup_spellings(problem.answer or ""), keyed_text(dict(reversed(list(result.items()))), "\n"),
                ", ".join(f"{k}: {v} g" for k, v in result.items()), keyed_text(exact),
                ", ".join(f"{k} = {v} grams" for k, v in result.items())]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        result = problem.data["result"]
        victim = rng.choice(list(result))
        off = {**result, victim: exact_text(Fraction(result[victim]) + Fraction(1, 50))}
        kilograms = {k: exact_text(Fraction(v) / 1000) for k, v in result.items()}
        return [keyed_text(off), keyed_text({k: v for k, v in result.items() if k != victim}), keyed_text(kilograms)]
