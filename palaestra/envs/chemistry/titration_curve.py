"""Points on a titration curve: the pH of a weak acid titrated by NaOH (or a weak base by HCl) at stated volumes.

A weak acid HA (or, from level 2 on, a weak base B) of stated Ka (Kb), concentration and volume is titrated
with a strong base (acid) of stated concentration; the prompt asks the pH after each of several stated
volumes of titrant, 25 °C, Kw = 1.0e-14, volumes additive. The skill is placing each point on the curve and
using the right calculation, which the prompt fixes so the reference is unique:

- no titrant yet: the weak acid's (base's) equilibrium solved exactly (the quadratic x² = K·(C − x)); 85% of
  the problems with such a point are drawn with an analyte and a concentration where the x ≪ C shortcut misses
  by more than the tolerance (version 2: it was within 0.01 on 80% of these points);
- before the equivalence point: Henderson–Hasselbalch with the moles left after the neutralisation
  (the half-equivalence point is one of these: pH = pKa);
- at the equivalence point: the conjugate base (acid) alone, [OH⁻] = √(Kb·C) with Kb = Kw/Ka (x ≪ C);
- past it: the excess strong base (acid) alone.

Every volume is an exact decimal (the concentrations are chosen so that the equivalence volume is one) and
the pH is computed to 40 digits with :mod:`decimal`; each answer is accepted within 0.01 pH units, as the
prompt states. Where one point is asked (level 0), its pH alone is read as its answer (``pH = 8.79``, ``The pH is
8.79.``; v3: refused on every level 0 problem in v2). The feedback names the first point that is off.

Difficulty: per point, the weight of its calculation (quadratic and equivalence heaviest), one more for a
base titration.
"""

from __future__ import annotations

import decimal
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.numeric import format_decimal, read_approx

TOLERANCE = Fraction(1, 100)
KW = Fraction(1, 10**14)
ACIDS = (("acetic acid", "1.8e-5"), ("formic acid", "1.8e-4"), ("benzoic acid", "6.3e-5"),
         ("hypochlorous acid", "3.0e-8"), ("nitrous acid", "4.5e-4"), ("propanoic acid", "1.3e-5"),
         ("lactic acid", "1.4e-4"), ("hydrofluoric acid", "6.8e-4"), ("butanoic acid", "1.5e-5"))
BASES = (("ammonia", "1.8e-5"), ("methylamine", "4.4e-4"), ("pyridine", "1.7e-9"), ("aniline", "4.3e-10"),
         ("ethylamine", "5.6e-4"), ("hydrazine", "1.3e-6"), ("trimethylamine", "6.4e-5"))
TITRANT_CONCENTRATIONS = ("0.05", "0.08", "0.1", "0.125", "0.16", "0.2", "0.25")  # numerators of 2s and 5s only
REGIONS = ("initial", "buffer", "buffer", "half", "equivalence", "excess", "excess")
QUADRATIC_SHARE = 0.85  # problems with an initial point drawn where the x << C shortcut misses by more than 0.01
REGION_WEIGHT = {"initial": 3, "buffer": 2, "half": 1, "equivalence": 3, "excess": 2}


def _decimal(value: Fraction) -> decimal.Decimal:
    return decimal.Decimal(value.numerator) / decimal.Decimal(value.denominator)


def p_of(value: Fraction | decimal.Decimal) -> decimal.Decimal:
    """−log10 of a positive value, to 40 significant digits."""
    with decimal.localcontext() as context:
        context.prec = 40
        number = value if isinstance(value, decimal.Decimal) else _decimal(value)
        return -number.log10()


def point_p(region: str, k: Fraction, analyte_moles: Fraction, titrant_moles: Fraction,
            total_ml: Fraction, concentration: Fraction) -> decimal.Decimal:
    """pH of an acid titration (pOH of a base titration) at one point, by the region's stated method;
    ``k`` is Ka (Kb), moles in mmol, the total volume in mL."""
    with decimal.localcontext() as context:
        context.prec = 40
        if region == "initial":  # x² + K·x − K·C = 0
            kd, cd = _decimal(k), _decimal(concentration)
            x = (-kd + (kd * kd + 4 * kd * cd).sqrt()) / 2
            return p_of(x)
        if region in ("buffer", "half"):
            return p_of(k) + p_of(Fraction(analyte_moles - titrant_moles, titrant_moles))
        if region == "equivalence":
            conjugate = Fraction(analyte_moles, total_ml)
            other = KW / k  # Kb of the conjugate base (Ka of the conjugate acid)
            hydroxide = (_decimal(other) * _decimal(conjugate)).sqrt()
            return 14 - p_of(hydroxide)
        excess = Fraction(titrant_moles - analyte_moles, total_ml)
        return 14 - p_of(excess)


def shortcut_misses(k: Fraction, concentration: Fraction) -> bool:
    """Whether the x << C shortcut (p = (pK + pC) / 2) misses the exact initial pH (pOH) by more than the tolerance."""
    exact = point_p("initial", k, Fraction(0), Fraction(0), Fraction(1), concentration)
    shortcut = (p_of(k) + p_of(concentration)) / 2
    return abs(exact - shortcut) > _decimal(TOLERANCE)


@register
class TitrationCurve(Task):
    id = "chemistry/titration_curve"
    family = "chemistry"
    description = "pH at stated volumes of a weak acid/strong base (weak base/strong acid) titration (±0.01)."
    tags = ("chemistry", "science", "math")
    version = 3  # v3: a one-point answer read as the bare pH ("pH = 8.79"); v2 refused it on every level 0 problem
    # v2: 85% of problems with an initial point use an analyte the x << C shortcut misses (80% passed)

    @dataclass(frozen=True)
    class Config:
        points: int
        bases: bool  # whether weak-base titrations are drawn

    presets = (Config(1, False), Config(2, False), Config(3, True), Config(4, True), Config(5, True))
    growth = Growth(steps={"points": 1}, limits={"points": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        base = config.bases and rng.random() < 0.5
        # The points first, as regions with their parameters (a buffer's fraction of the equivalence volume, an
        # excess in mL), each distinct; then the analyte, so a problem with an initial point can be drawn where the
        # x << C shortcut misses (QUADRATIC_SHARE of them: it was within 0.01 on 80% of the initial points).
        specs: list[tuple[str, int]] = []
        for _ in range(min(config.points, 16)):
            for _attempt in range(20):
                region = rng.choice(REGIONS)
                if region == "buffer":
                    spec = (region, rng.choice([f for f in range(1, 20) if f != 10]))
                elif region == "excess":
                    spec = (region, rng.randint(1, 40))
                else:
                    spec = (region, 0)
                if spec not in specs:
                    specs.append(spec)
                    break
        needs_quadratic = any(region == "initial" for region, _ in specs) and rng.random() < QUADRATIC_SHARE

        def draw_analyte() -> tuple[str, str, Fraction]:
            name, k_text = rng.choice(BASES if base else ACIDS)
            return name, k_text, Fraction(rng.randint(5, 30), 100)

        name, k_text, concentration = retry(
            draw_analyte, lambda a: not needs_quadratic or shortcut_misses(Fraction(a[1]), a[2]), attempts=500,
            what="a weak acid or base the x << C shortcut misses")
        k = Fraction(k_text)
        volume = Fraction(rng.randint(2, 10) * 5)
        titrant = Fraction(rng.choice(TITRANT_CONCENTRATIONS))
        analyte_moles = concentration * volume  # mmol
        equivalence = analyte_moles / titrant  # mL, an exact decimal
        points: list[dict[str, str]] = []
        for region, parameter in specs:
            added = {"initial": Fraction(0), "buffer": equivalence * parameter / 20, "half": equivalence / 2,
                     "equivalence": equivalence, "excess": equivalence + Fraction(parameter, 2)}[region]
            p = point_p(region, k, analyte_moles, added * titrant, volume + added, concentration)
            ph = 14 - p if base else p
            points.append({"added": format_decimal(added), "region": region, "ph": str(ph.quantize(
                decimal.Decimal("1e-12")))})
        points.sort(key=lambda point: Fraction(point["added"]))
        for index, point in enumerate(points, start=1):
            point["name"] = f"P{index}"
        analyte = f"{name} ({'Kb' if base else 'Ka'} = {k_text})"
        strong = "HCl" if base else "NaOH"
        listing = "\n".join(f"{p['name']}: after {p['added']} mL of {strong}" for p in points)
        example = ", ".join(f"{p['name']} = 14.5" for p in points)  # no drawn point reaches pH 14: never the answer
        prompt = (
            f"{format_decimal(volume)} mL of {format_decimal(concentration)} mol/L {analyte} is titrated with "
            f"{format_decimal(titrant)} mol/L {strong} at 25 °C (Kw = 1.0e-14; volumes add). What is the pH at each "
            f"point?\n{listing}\n\n"
            "Use these methods: with no titrant added, solve the weak "
            f"{'base' if base else 'acid'}'s equilibrium exactly (x² = K·(C − x)); before the equivalence point, "
            "the Henderson–Hasselbalch equation with the moles left after the neutralisation; at the equivalence "
            f"point, the conjugate {'acid' if base else 'base'} alone with "
            f"{'[H+] = √(Ka·C), Ka = Kw/Kb' if base else '[OH−] = √(Kb·C), Kb = Kw/Ka'}; past it, the excess "
            f"{strong} alone. Each pH within 0.01 of the exact value is accepted. Answer for example: {example}"
        )
        answer = ", ".join(f"{p['name']} = {float(Fraction(p['ph'])):.3f}" for p in points)
        return Problem(prompt=prompt, answer=answer, data={"points": points, "base": base})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        points = problem.data["points"]
        given = read_assignment(answer, [p["name"] for p in points], read_approx) \
            if isinstance(answer, str) else None
        if given is None and isinstance(answer, str) and len(answer) <= 2_000:
            # each point named as the pH it asks for or its value marked approximate ("pH(P1) = 4.72", "P1 ≈ 4.72"),
            # as the prompt's tolerance invites: plain replacements, then the same reader
            text = answer.replace("\\approx", "≈")
            for point in points:
                for spelled in (f"pH({point['name']})", f"pH ({point['name']})", f"pH at {point['name']}",
                                f"pH_{{{point['name']}}}"):
                    text = text.replace(spelled, point["name"])
                text = text.replace(f"{point['name']} ≈", f"{point['name']} =").replace(f"{point['name']}≈",
                                                                                      f"{point['name']}=")
            given = read_assignment(text, [p["name"] for p in points], read_approx) if text != answer else None
        if given is None and len(points) == 1 and isinstance(answer, str) and len(answer) <= 2_000:
            # one point asked: its pH alone names it ("8.79", "pH = 8.79", "The pH is 8.79.")
            alone = answer.strip()
            alone = alone[len("the ph is "):] if alone.lower().startswith("the ph is ") else alone
            value = read_approx(alone)
            given = None if value is None else {points[0]["name"]: value}
        if given is None:
            return Verdict.unparsed("expected a pH per point, such as P1 = 14.5")
        for point in points:
            if abs(given[point["name"]] - Fraction(point["ph"])) > TOLERANCE:
                return Verdict.wrong(f"the pH at {point['name']} is not within 0.01")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Per point, its calculation's weight; one more per point of a base titration (pOH first)."""
        points = problem.data["points"]
        return float(sum(REGION_WEIGHT[p["region"]] for p in points) + problem.data["base"] * len(points))

    def spellings(self, problem: Problem) -> list[str]:
        points = problem.data["points"]
        lines = "\n".join(f"{p['name']}: pH {float(Fraction(p['ph'])):.2f}".replace(" pH", "") for p in points)
        return [*super().spellings(problem), lines, f"Answer: {problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        points = problem.data["points"]
        values = [Fraction(p["ph"]) for p in points]

        def text(vs: list[Fraction]) -> str:
            return ", ".join(f"{p['name']} = {float(v):.2f}" for p, v in zip(points, vs, strict=True))

        wrong = [text([values[0] + Fraction(3, 100), *values[1:]]), text([v + 1 for v in values])]
        if abs(14 - 2 * values[0]) > Fraction(1, 10):  # pOH given as the pH: wrong unless the point is near 7
            wrong.append(text([14 - values[0], *values[1:]]))
        return wrong
