"""Chemical equilibrium by ICE tables, exactly: the equilibrium constant from one measured concentration, or
every equilibrium concentration from the constant.

Reactions are real gas-phase equilibria (N2 + 3 H2 <=> 2 NH3, N2O4 <=> 2 NO2, PCl5 <=> PCl3 + Cl2, ...), all
species in one container, concentrations in mol/L. Two kinds of question:

- *find K*: the initial concentrations and one species' equilibrium concentration are given; the change x
  follows from that species' line of the ICE table and K = Q(x) is an exact rational;
- *find the concentrations*: K and the initial concentrations are given. The change x is drawn first (a
  rational with the level's decimal places) and K computed from it, so the equilibrium condition Q(x) = K,
  a polynomial of degree up to five, has that exact root; no quadratic formula or approximation is needed,
  and the root is the only one: Q(x) strictly increases in x over the interval where every concentration is
  positive (each factor of the numerator grows and each of the denominator shrinks), so exactly one x there
  gives K. From level 3 products may be present at the start, and then the reaction may run either way.

Answers are exact: K as a fraction or exact decimal; concentrations as exact decimals or fractions, one per
species (``[N2] = 0.35, [H2] = 0.15, [NH3] = 0.3``), with or without the unit (M, mol/L). Rounded values are
wrong, as the prompt says. Difficulty: the degree of Q in x (the sum of the coefficients), the species, three
per decimal place, three more when the concentrations must be solved for, and one each for products present at
the start and a reverse shift.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.numeric import format_decimal, read_exact
from palaestra.verifiers.rationals import format_fraction

EXAMPLE_K = "K = 12/7"  # fixed placeholders of the right shapes: never derived from the answer
EXAMPLE_CONCENTRATIONS = "[A] = 0.25, [B] = 1.5"
MAX_ANSWER_CHARS = 600
UNITS = (" mol/L", " mol L^-1", " mol·L⁻¹", " M", "M")

# (reactants, products) as (coefficient, formula); the level at which the reaction appears.
REACTIONS = (
    (((1, "H2"), (1, "I2")), ((2, "HI"),), 0), (((1, "CO"), (1, "H2O")), ((1, "CO2"), (1, "H2")), 0),
    (((1, "PCl5"),), ((1, "PCl3"), (1, "Cl2")), 0), (((1, "COCl2"),), ((1, "CO"), (1, "Cl2")), 0),
    (((1, "SO2Cl2"),), ((1, "SO2"), (1, "Cl2")), 0), (((1, "H2"), (1, "Br2")), ((2, "HBr"),), 0),
    (((1, "N2"), (1, "O2")), ((2, "NO"),), 0), (((1, "N2O4"),), ((2, "NO2"),), 1),
    (((1, "N2"), (3, "H2")), ((2, "NH3"),), 1), (((2, "SO2"), (1, "O2")), ((2, "SO3"),), 1),
    (((2, "NO"), (1, "O2")), ((2, "NO2"),), 1), (((1, "CO"), (2, "H2")), ((1, "CH3OH"),), 1),
    (((2, "NOCl"),), ((2, "NO"), (1, "Cl2")), 1), (((1, "CH4"), (1, "H2O")), ((1, "CO"), (3, "H2")), 2),
    (((2, "H2S"),), ((2, "H2"), (1, "S2")), 2), (((2, "NO2"),), ((2, "NO"), (1, "O2")), 2),
    (((2, "SO3"),), ((2, "SO2"), (1, "O2")), 2), (((4, "NH3"), (5, "O2")), ((4, "NO"), (6, "H2O")), 3),
    (((1, "CS2"), (4, "H2")), ((1, "CH4"), (2, "H2S")), 3), (((2, "NO"), (2, "H2")), ((1, "N2"), (2, "H2O")), 3),
)
KINDS = ("find_k", "find_concentrations")  # level 1 mixes both


def _q(concentrations: dict[str, Fraction], reactants: tuple, products: tuple) -> Fraction:
    top = Fraction(1)
    for nu, formula in products:
        top *= concentrations[formula] ** nu
    bottom = Fraction(1)
    for nu, formula in reactants:
        bottom *= concentrations[formula] ** nu
    return top / bottom


def _number(value: Fraction) -> str:
    text = format_decimal(value)
    return text if "/" not in text else format_fraction(value)


def _read_value(text: str, sentence: bool = False) -> Fraction | None:
    """An exact value, with or without its unit; with ``sentence`` also in a naming sentence ("The equilibrium
    constant is 12/7"), read where the question asks one value."""
    s = text.strip()
    for unit in UNITS:
        if s.endswith(unit) and len(s) > len(unit):
            s = s[: -len(unit)].strip()
            break
    value = read_exact(s, sentence=sentence)
    return value if isinstance(value, Fraction) else None


@register
class EquilibriumIce(Task):
    id = "chemistry/equilibrium_ice"
    family = "chemistry"
    description = "ICE tables: K from a measured equilibrium, or every equilibrium concentration from K, exactly."
    tags = ("chemistry", "science", "math")

    @dataclass(frozen=True)
    class Config:
        stage: int  # reactions of this table level and below
        kinds: tuple[str, ...]  # question kinds drawn
        decimals: int  # decimal places of the given concentrations and of the change x
        products_at_start: bool  # whether products may be present initially (the shift may go either way)

    presets = (Config(0, ("find_k",), 2, False), Config(1, KINDS, 2, False),
               Config(1, ("find_concentrations",), 2, False), Config(2, ("find_concentrations",), 2, True),
               Config(3, ("find_concentrations",), 3, True))
    growth = Growth(steps={"decimals": 1}, limits={"stage": 3})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        unit = Fraction(1, 10 ** config.decimals)
        scale = 10 ** config.decimals

        def draw() -> tuple | None:
            reactants, products, _ = rng.choice([r for r in REACTIONS if r[2] <= config.stage])
            initial = {f: unit * rng.randint(scale // 10, 2 * scale) for _, f in reactants}
            for _, f in products:
                initial[f] = unit * rng.randint(1, scale) if config.products_at_start and rng.random() < 0.5 \
                    else Fraction(0)
            # x in steps of `unit`, keeping every equilibrium concentration positive
            high = min(initial[f] / nu for nu, f in reactants)
            low = max(-(initial[f] / nu) for nu, f in products)  # 0 unless every product is present
            steps_low, steps_high = int(low / unit) + 1, int(high / unit) - 1
            if steps_low > steps_high:
                return None
            x = unit * rng.randint(steps_low, steps_high)
            if x == 0:
                return None
            final = {f: initial[f] - nu * x for nu, f in reactants} | {f: initial[f] + nu * x for nu, f in products}
            if any(v <= 0 for v in final.values()):
                return None
            return reactants, products, initial, x, final

        reactants, products, initial, x, final = retry(draw, lambda d: d is not None, attempts=300,
                                                       what="an equilibrium with positive concentrations")
        k = _q(final, reactants, products)
        species = [f for _, f in reactants] + [f for _, f in products]
        equation = (" + ".join((f"{nu} " if nu > 1 else "") + f for nu, f in reactants) + " ⇌ "
                    + " + ".join((f"{nu} " if nu > 1 else "") + f for nu, f in products))
        start = ", ".join(f"[{f}] = {_number(initial[f])}" for f in species)
        intro = (f"At a fixed temperature the gas-phase reaction\n\n{equation}\n\nstarts in a closed container "
                 f"with the initial concentrations (mol/L) {start}.")
        if kind == "find_k":
            measured = rng.choice(species)
            prompt = (f"{intro} At equilibrium [{measured}] = {_number(final[measured])} mol/L.\n\n"
                      "What is the equilibrium constant Kc (in terms of concentrations in mol/L)? Give its exact "
                      f"value as a fraction in lowest terms or an exact decimal (a rounded value is wrong), for "
                      f"example: {EXAMPLE_K}")
            answer = _number(k)
            data = {"measured": measured}
        else:
            prompt = (f"{intro} Its equilibrium constant is Kc = {_number(k)} (concentrations in mol/L).\n\n"
                      "Find the equilibrium concentration of every species, exactly (as exact decimals or "
                      "fractions; a rounded value is wrong). Answer with one value per species, for example: "
                      f"{EXAMPLE_CONCENTRATIONS}")
            answer = ", ".join(f"[{f}] = {_number(final[f])}" for f in species)
            data = {}
        data |= {"kind": kind, "reactants": [list(r) for r in reactants], "products": [list(p) for p in products],
                 "initial": {f: str(v) for f, v in initial.items()}, "x": str(x), "k": str(k),
                 "final": {f: str(v) for f, v in final.items()}, "decimals": config.decimals}
        return Problem(prompt=prompt, answer=answer, data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
            return Verdict.unparsed("expected an exact value")
        if data["kind"] == "find_k":
            text = answer.strip()
            for lead in ("Kc =", "K_c =", "K =", "K_{c} ="):
                if text.startswith(lead):
                    text = text[len(lead):]
                    break
            value = _read_value(text, sentence=True) if len(text) < 100 else None
            if value is None:
                return Verdict.unparsed(f"expected Kc as an exact fraction or decimal, such as {EXAMPLE_K}")
            if value != Fraction(data["k"]):
                return Verdict.wrong("not the equilibrium constant these concentrations give")
            return Verdict.right()
        species = list(data["final"])
        found = read_values(answer.replace("[", "").replace("]", ""), species, _read_value)
        if found is None:
            return Verdict.unparsed(f"expected one exact concentration for each of {', '.join(species)}, such as "
                                    f"{EXAMPLE_CONCENTRATIONS}")
        wrong = [f for f in species if found[f] != Fraction(data["final"][f])]
        if wrong:
            return Verdict.wrong(f"wrong equilibrium concentration of {', '.join(wrong)}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """The degree of Q in x, the species, three per decimal place (each makes every product and K longer); +3 to
        solve for x, +1 for products at the start and +1 for a reverse shift."""
        data = problem.data
        degree = sum(nu for nu, _ in data["reactants"]) + sum(nu for nu, _ in data["products"])
        solve = data["kind"] == "find_concentrations"
        return float(degree + len(data["final"]) + 3 * data["decimals"] + 3 * solve
                     + (1 if Fraction(data["x"]) < 0 else 0) + (1 if any(Fraction(data["initial"][f]) for _, f in
                                                                        data["products"]) else 0))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        data = problem.data
        if data["kind"] == "find_k":
            k = Fraction(data["k"])
            return [*super().spellings(problem), f"Kc = {gold}", f"\\boxed{{{gold}}}", f"{gold}.",
                    f"\\frac{{{k.numerator}}}{{{k.denominator}}}", f"K = {format_fraction(k)}"]
        final = {f: Fraction(v) for f, v in data["final"].items()}
        plain = ", ".join(f"{f} = {format_fraction(v)}" for f, v in reversed(final.items()))
        units = "\n".join(f"[{f}] = {_number(v)} M" for f, v in final.items())
        return [*super().spellings(problem), f"{gold}.", plain, units, f"Answer: {gold}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        if data["kind"] == "find_k":
            k = Fraction(data["k"])
            wrong = [_number(k + 1), _number(1 / k), f"{float(k):.3g}" if float(f"{float(k):.3g}") != k else _number(2 * k),
                     f"{_number(k)} or {_number(1 / k)}"]
            return [w for w in wrong if w != problem.answer]
        final = {f: Fraction(v) for f, v in data["final"].items()}
        initial = {f: Fraction(v) for f, v in data["initial"].items()}
        target = rng.choice(list(final))
        nudged = {f: v + (Fraction(1, 10 ** data["decimals"]) if f == target else 0) for f, v in final.items()}
        return [", ".join(f"[{f}] = {_number(v)}" for f, v in nudged.items()),
                ", ".join(f"[{f}] = {_number(v)}" for f, v in initial.items()),
                ", ".join(f"[{f}] = {_number(v)}" for f, v in list(final.items())[:-1])]
