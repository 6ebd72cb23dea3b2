"""Shared chemistry helpers: the periodic table (package data), formulas, ions and exact balancing.

The table ``elements.json`` lists each element's symbol, name, atomic number, standard atomic weight
(a decimal string, three places, as textbooks print it) and common oxidation states. Weights are read as
exact rationals, so every molar mass is the exact sum of the table's weights.

Formulas are read by plain string scanning (:func:`parse_formula`), never by ``eval``: element symbols,
counts, nested groups ``(..)``/``[..]``, a hydrate dot (``CuSO4·5H2O``), and the subscript spellings a
model may write (``H₂O``, ``H_2O``, ``H_{2}O``, ``\\mathrm{H_2O}``). It is bounded: at most
:data:`MAX_FORMULA_CHARS` characters, :data:`MAX_DEPTH` nested groups and counts below :data:`MAX_COUNT`;
anything else reads as ``None``, so the same scanner serves the env's own formulas and model answers.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any

from palaestra.core.retry import retry
from palaestra.solvers.linalg import nullspace
from palaestra.verifiers.normalize import closing_bracket, strip_wrappers

MAX_FORMULA_CHARS = 120
MAX_DEPTH = 4
MAX_COUNT = 10_000

Composition = dict[str, int]  # element symbol -> atoms


@dataclass(frozen=True)
class Element:
    number: int
    symbol: str
    name: str
    weight: Fraction  # standard atomic weight, g/mol, exactly as the table prints it
    weight_text: str
    oxidation_states: tuple[int, ...]


@lru_cache(maxsize=1)
def elements() -> dict[str, Element]:
    """The periodic table shipped with the package, by symbol."""
    text = resources.files("palaestra.envs.chemistry").joinpath("elements.json").read_text(encoding="utf-8")
    return {row["symbol"]: Element(row["number"], row["symbol"], row["name"], Fraction(row["weight"]), row["weight"],
                                   tuple(row["oxidation_states"])) for row in json.loads(text)}


_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_HYDRATE_DOTS = ("·", "⋅", "•", "∙", "*", ".", "\\cdot")


def _plain(text: str) -> str:
    """LaTeX wrappers, subscript markers and spaces removed: ``\\mathrm{H_{2}O}`` -> ``H2O``."""
    s = text.strip().translate(_SUBSCRIPTS)
    for wrapper in ("\\mathrm{", "\\text{", "\\ce{"):
        if s.startswith(wrapper) and s.endswith("}"):
            s = s[len(wrapper):-1]
    for dot in _HYDRATE_DOTS:
        s = s.replace(dot, "·")
    s = s.replace("_{", "").replace("_", "").replace(" ", "")
    # braces left by subscripts ("H2}O" after "_{" went) are dropped; group brackets are ( ) and [ ]
    return s.replace("}", "").replace("{", "")


def _scan(s: str, start: int, depth: int) -> tuple[Counter[str], int] | None:
    """Counts of one group from ``start`` to its closing bracket (or the end); the index after it."""
    table = elements()
    total: Counter[str] = Counter()
    i = start
    while i < len(s) and s[i] not in ")]":
        if s[i] in "([":
            if depth >= MAX_DEPTH:
                return None
            inner = _scan(s, i + 1, depth + 1)
            if inner is None:
                return None
            part, i = inner
            if i >= len(s) or s[i] not in ")]":
                return None
            i += 1
        elif s[i].isupper():
            symbol = s[i: i + 2] if i + 1 < len(s) and s[i + 1].islower() else s[i]
            if symbol not in table:
                return None
            part, i = Counter({symbol: 1}), i + len(symbol)
        else:
            return None
        digits_end = i
        while digits_end < len(s) and s[digits_end].isdecimal() and digits_end - i < 5:  # what int() reads
            digits_end += 1
        count = int(s[i:digits_end]) if digits_end > i else 1
        if count == 0 or count >= MAX_COUNT or (digits_end > i and s[i] == "0"):
            return None
        for symbol, atoms in part.items():
            total[symbol] += atoms * count
        i = digits_end
    return total, i


def parse_formula(text: str) -> Composition | None:
    """Element counts of a formula, or ``None`` when it is not one.

    >>> parse_formula("Ca(OH)2") == {"Ca": 1, "O": 2, "H": 2}, parse_formula("CuSO4·5H2O")["O"]
    (True, 9)
    >>> parse_formula("H₂O") == parse_formula("H_{2}O") == {"H": 2, "O": 1}, parse_formula("Xx2"), parse_formula("2+2")
    (True, None, None)
    """
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_FORMULA_CHARS:
        return None
    total: Counter[str] = Counter()
    for index, piece in enumerate(_plain(text).split("·")):
        multiplier = 1
        if index > 0:  # a hydrate part may lead with a count: ·5H2O
            digits = len(piece) - len(piece.lstrip("0123456789"))
            if digits > 4 or (digits and piece[0] == "0"):
                return None
            multiplier, piece = (int(piece[:digits]) if digits else 1), piece[digits:]
        if not piece:
            return None
        scanned = _scan(piece, 0, 0)
        if scanned is None or scanned[1] != len(piece):
            return None
        for symbol, atoms in scanned[0].items():
            total[symbol] += atoms * multiplier
    return dict(total) if total and max(total.values()) < MAX_COUNT else None


def molar_mass(composition: Composition) -> Fraction:
    """The exact molar mass in g/mol from the table's weights."""
    table = elements()
    return sum((table[symbol].weight * atoms for symbol, atoms in composition.items()), Fraction(0))


def hill_formula(composition: Composition) -> str:
    """A composition in Hill order (C, H, then alphabetical; alphabetical without carbon): ``C2H6O``."""
    order = sorted(composition)
    if "C" in composition:
        order = ["C", *(["H"] if "H" in composition else []), *[s for s in order if s not in ("C", "H")]]
    return "".join(s + (str(composition[s]) if composition[s] > 1 else "") for s in order)


@dataclass(frozen=True)
class Ion:
    formula: str  # "NO3", "NH4", "Fe"
    charge: int  # signed
    name: str

    @property
    def polyatomic(self) -> bool:
        return sum(ch.isupper() for ch in self.formula) > 1


# Real ions of the textbook tables: cations and anions, simplest charges first.
CATIONS = (
    Ion("Li", 1, "lithium"), Ion("Na", 1, "sodium"), Ion("K", 1, "potassium"), Ion("Ag", 1, "silver"),
    Ion("NH4", 1, "ammonium"), Ion("Rb", 1, "rubidium"), Ion("Cs", 1, "caesium"),
    Ion("Mg", 2, "magnesium"), Ion("Ca", 2, "calcium"), Ion("Ba", 2, "barium"), Ion("Zn", 2, "zinc"),
    Ion("Cu", 2, "copper(II)"), Ion("Fe", 2, "iron(II)"), Ion("Pb", 2, "lead(II)"), Ion("Sr", 2, "strontium"),
    Ion("Ni", 2, "nickel(II)"), Ion("Co", 2, "cobalt(II)"), Ion("Mn", 2, "manganese(II)"), Ion("Sn", 2, "tin(II)"),
    Ion("Cd", 2, "cadmium"), Ion("Hg", 2, "mercury(II)"),
    Ion("Al", 3, "aluminium"), Ion("Fe", 3, "iron(III)"), Ion("Cr", 3, "chromium(III)"), Ion("Bi", 3, "bismuth(III)"),
    Ion("Ga", 3, "gallium"), Ion("Sn", 4, "tin(IV)"), Ion("Ti", 4, "titanium(IV)"),
)
ANIONS = (
    Ion("F", -1, "fluoride"), Ion("Cl", -1, "chloride"), Ion("Br", -1, "bromide"), Ion("I", -1, "iodide"),
    Ion("OH", -1, "hydroxide"), Ion("NO3", -1, "nitrate"), Ion("NO2", -1, "nitrite"), Ion("ClO3", -1, "chlorate"),
    Ion("ClO4", -1, "perchlorate"), Ion("CN", -1, "cyanide"), Ion("MnO4", -1, "permanganate"),
    Ion("HCO3", -1, "hydrogen carbonate"), Ion("C2H3O2", -1, "acetate"), Ion("BrO3", -1, "bromate"),
    Ion("O", -2, "oxide"), Ion("S", -2, "sulfide"), Ion("SO4", -2, "sulfate"), Ion("SO3", -2, "sulfite"),
    Ion("CO3", -2, "carbonate"), Ion("CrO4", -2, "chromate"), Ion("Cr2O7", -2, "dichromate"),
    Ion("C2O4", -2, "oxalate"), Ion("HPO4", -2, "hydrogen phosphate"), Ion("S2O3", -2, "thiosulfate"),
    Ion("PO4", -3, "phosphate"), Ion("AsO4", -3, "arsenate"), Ion("N", -3, "nitride"), Ion("P", -3, "phosphide"),
)


def ionic_formula(cation: Ion, anion: Ion) -> str:
    """The neutral salt of two ions, lowest ratio, polyatomic ions bracketed when counted: ``Ca3(PO4)2``."""
    lcm = math.lcm(cation.charge, -anion.charge)

    def part(ion: Ion, count: int) -> str:
        if count == 1:
            return ion.formula
        return f"({ion.formula}){count}" if ion.polyatomic else f"{ion.formula}{count}"

    return part(cation, lcm // cation.charge) + part(anion, lcm // -anion.charge)


def balance(reactants: list[Composition], products: list[Composition],
            charges: tuple[list[int], list[int]] | None = None) -> list[int] | None:
    """The minimal positive integer coefficients that conserve every element (and charge, when given),
    or ``None`` when the balancing is not unique up to a multiple or not all positive."""
    species = [*reactants, *products]
    symbols = sorted({s for c in species for s in c})
    sign = [1] * len(reactants) + [-1] * len(products)
    matrix = [[Fraction(sign[j] * species[j].get(s, 0)) for j in range(len(species))] for s in symbols]
    if charges is not None:
        all_charges = [*charges[0], *charges[1]]
        matrix.append([Fraction(sign[j] * all_charges[j]) for j in range(len(species))])
    basis = nullspace(matrix, columns=len(species))
    if len(basis) != 1:
        return None  # not unique up to a multiple
    vector = basis[0]
    if all(v < 0 for v in vector):
        vector = [-v for v in vector]
    if not all(v > 0 for v in vector):
        return None
    scale = math.lcm(*(v.denominator for v in vector))
    integers = [int(v * scale) for v in vector]
    divisor = math.gcd(*integers)
    return [v // divisor for v in integers]


def conserves(reactants: list[Composition], products: list[Composition], coefficients: list[int]) -> list[str]:
    """The elements whose atoms the coefficients do not conserve (empty when balanced)."""
    left: Counter[str] = Counter()
    right: Counter[str] = Counter()
    n = len(reactants)
    for j, composition in enumerate([*reactants, *products]):
        side = left if j < n else right
        for symbol, atoms in composition.items():
            side[symbol] += atoms * coefficients[j]
    return sorted(s for s in set(left) | set(right) if left[s] != right[s])


HETEROATOMS = ("N", "O", "S", "Cl", "F", "Br", "P", "I")


def organic_formula(rng: random.Random, carbons: int, heteroatoms: int) -> str:
    """A valid molecular formula in Hill order (C, H, then heteroatoms alphabetically): the hydrogens follow
    from a drawn number of rings and double bonds, counting N and P trivalent, halogens monovalent."""
    x = rng.randint(max(1, carbons // 2), carbons)
    others = {symbol: rng.randint(1, 4) for symbol in rng.sample(HETEROATOMS, rng.randint(1, heteroatoms))}
    trivalent = others.get("N", 0) + others.get("P", 0)
    halogens = sum(others.get(symbol, 0) for symbol in ("F", "Cl", "Br", "I"))
    saturated = 2 * x + 2 + trivalent - halogens
    y = saturated - 2 * rng.randint(0, max(0, min(x, saturated // 2 - 1)))
    parts = [("C", x), ("H", max(y, 0)), *sorted(others.items())]
    return "".join(symbol + (str(count) if count > 1 else "") for symbol, count in parts if count)


def salt_formula(rng: random.Random) -> str:
    """A neutral salt of two ions drawn from the tables."""
    return ionic_formula(rng.choice(CATIONS), rng.choice(ANIONS))


NONMETALS = {"O": "O2", "S": "S", "N": "N2", "P": "P4", "F": "F2", "Cl": "Cl2", "Br": "Br2", "I": "I2"}
ACID_ANIONS = [a for a in ANIONS if a.formula not in ("O", "N", "P", "OH", "S")]
# Oxidising acids: (acid, the reduced product, the salt's anion).
OXIDISING = (("HNO3", "NO", "NO3"), ("HNO3", "NO2", "NO3"), ("H2SO4", "SO2", "SO4"))


def _acid(anion_formula: str, charge: int) -> str:
    """The acid of an anion: Cl -> HCl, SO4 -> H2SO4, HCO3 -> H2CO3 (the tables' H-anions hold one H)."""
    hydrogens = -charge
    if anion_formula.startswith("H"):
        return f"H{hydrogens + 1}{anion_formula[1:]}"
    return ("H" if hydrogens == 1 else f"H{hydrogens}") + anion_formula


def _fuel(rng: random.Random, carbons: int) -> str:
    """A valid molecular formula CxHyNwOz (hydrogens plus nitrogens even, at most 2x + 2 + w hydrogens)."""
    x = rng.randint(max(1, 2 * carbons // 3), carbons)
    w = rng.choice([0, 0, 1, 2, 3]) if x >= 3 else 0
    y = 2 * rng.randint((x + 1) // 2, x + 1 + w // 2) - w % 2
    z = rng.choice([0, 0, 1, 2, 3, 4][: 2 + min(4, x)])

    def part(symbol: str, count: int) -> str:
        return "" if count == 0 else symbol + (str(count) if count > 1 else "")

    return part("C", x) + part("H", y) + part("N", w) + part("O", z)


def _draw(rng: random.Random, config: Any) -> tuple[list[str], list[str], str]:
    cations = [c for c in CATIONS if c.charge <= config.charge]
    anions = [a for a in ANIONS if -a.charge <= config.charge]
    # Weights roughly follow each kind's number of distinct reactions, so problems rarely repeat. Salts do not
    # grow, so their share shrinks level by level while the fuels grow.
    kinds = ["displacement"] * config.salts + ["neutralisation"] * (config.salts // 4)
    kinds += ["combustion"] * (config.carbons // 3) + ["synthesis"] * (config.salts // 8)
    if config.redox:
        kinds += ["redox"] * 3
    kind = rng.choice(kinds)
    if kind == "displacement":
        pool = [c for c in cations if config.polyatomic or not c.polyatomic]
        c1 = rng.choice(pool)
        c2 = rng.choice([c for c in pool if c.formula != c1.formula])
        a1, a2 = rng.sample([a for a in anions if a.formula not in ("O", "N", "P")
                             and (config.polyatomic or not a.polyatomic)], 2)
        left, right = [ionic_formula(c1, a1), ionic_formula(c2, a2)], [ionic_formula(c1, a2), ionic_formula(c2, a1)]
    elif kind == "neutralisation":
        cation = rng.choice([c for c in cations if c.formula != "NH4"])
        anion = rng.choice([a for a in ACID_ANIONS if -a.charge <= config.charge])
        left = [_acid(anion.formula, anion.charge), ionic_formula(cation, ANIONS[4])]
        right = [ionic_formula(cation, anion), "H2O"]
    elif kind == "combustion":
        fuel = _fuel(rng, config.carbons)
        left, right = [fuel, "O2"], ["CO2", "H2O", *(["N2"] if "N" in fuel else [])]
    elif kind == "synthesis":
        cation = rng.choice([c for c in cations if not c.polyatomic])
        anion = rng.choice([a for a in anions if a.formula in NONMETALS])
        left, right = [cation.formula, NONMETALS[anion.formula]], [ionic_formula(cation, anion)]
    else:
        acid, reduced, anion_formula = rng.choice(OXIDISING)
        anion = next(a for a in ANIONS if a.formula == anion_formula)
        metal = rng.choice([c for c in cations if not c.polyatomic and c.formula not in ("Li", "Na", "K", "Rb", "Cs")])
        left, right = [metal.formula, acid], [ionic_formula(metal, anion), reduced, "H2O"]
    rng.shuffle(left)
    rng.shuffle(right)
    return left, right, kind


def draw_reaction(rng: random.Random, config: Any) -> tuple[list[str], list[str], str, list[int]]:
    """A generated reaction with a unique balancing that is not all ones: reactants, products, its kind and
    the minimal coefficients. ``config`` has the fields ``charge``, ``carbons``, ``redox``, ``salts`` and
    ``polyatomic`` (see ``chemistry/balance_equation``)."""

    def draw() -> tuple[list[str], list[str], str, list[int] | None]:
        left, right, kind = _draw(rng, config)
        coefficients = balance([parse_formula(f) or {} for f in left], [parse_formula(f) or {} for f in right])
        return left, right, kind, coefficients

    left, right, kind, coefficients = retry(
        draw, lambda d: d[3] is not None and set(d[3]) != {1} and len(set(d[0] + d[1])) == len(d[0] + d[1]),
        attempts=200, what="a reaction with a unique non-trivial balancing")
    assert coefficients is not None
    return left, right, kind, coefficients


@dataclass(frozen=True)
class ReactionConfig:
    """Generation parameters of the envs built on :func:`draw_reaction` (balancing, stoichiometry, limiting reagent)."""

    charge: int  # the largest ion charge drawn
    carbons: int  # the largest fuel's carbon count
    redox: bool  # whether metal + oxidising acid reactions are drawn
    salts: int  # the weight of salt reactions (displacement, neutralisation, synthesis) against fuels
    polyatomic: bool = True  # whether salts exchange polyatomic ions (else only monatomic ones)
    digits: int = 3  # significant digits of the masses given (the envs that give masses)


def equation_text(reactants: list[str], products: list[str], coefficients: list[int]) -> str:
    """A balanced equation as written in the prompts: ``2 H2 + O2 -> 2 H2O`` (a coefficient of 1 is not written)."""
    terms = [(f"{c} " if c > 1 else "") + f for c, f in zip(coefficients, [*reactants, *products], strict=True)]
    return " + ".join(terms[: len(reactants)]) + " -> " + " + ".join(terms[len(reactants):])


Species = tuple[Composition, int]  # a formula's element counts and its charge

_SUPERSCRIPT_CHARGE = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-")


def _charge_value(text: str) -> int | None:
    """``2-``, ``-2``, ``+``, ``3+`` -> the signed charge; None for anything else."""
    s = text.strip().replace("−", "-")
    if not s or len(s) > 3:
        return None
    if s[0] in "+-" and (len(s) == 1 or s[1:].isdecimal()):  # isdigit() holds for "³", which int() refuses
        magnitude, sign = (int(s[1:]) if len(s) > 1 else 1), s[0]
    elif s[-1] in "+-" and (len(s) == 1 or s[:-1].isdecimal()):
        magnitude, sign = (int(s[:-1]) if len(s) > 1 else 1), s[-1]
    else:
        return None
    return magnitude * (1 if sign == "+" else -1) if magnitude else None


def species_readings(text: str) -> list[Species]:
    """The ways a written species can be read: ``MnO4^-``, ``Cr2O7^{2-}``, ``Fe³⁺``, ``Fe(3+)`` have one reading;
    a bare trailing charge (``Fe3+``, ``NO3-``) is ambiguous between subscript and charge digits, so each split is
    returned and the caller keeps the one that names a species it knows. Never raises."""
    s = text.strip().translate(_SUPERSCRIPT_CHARGE).replace("−", "-").replace("$", "")
    if not s or len(s) > MAX_FORMULA_CHARS:
        return []
    readings: list[Species] = []
    if "^" in s:
        base, _, charge_text = s.partition("^")
        charge = _charge_value(charge_text.strip().strip("{}"))
        if charge is not None and (composition := parse_formula(base)) is not None:
            readings.append((composition, charge))
        return readings
    if s.endswith(")") and "(" in s:
        base, _, charge_text = s[:-1].rpartition("(")
        charge = _charge_value(charge_text)
        if charge is not None and (composition := parse_formula(base)) is not None:
            return [(composition, charge)]
    if s[-1] in "+-":
        digits = len(s[:-1]) - len(s[:-1].rstrip("0123456789"))
        for take in range(min(digits, 1) + 1):  # charge digits: none, or the last one
            base, magnitude = s[: len(s) - 1 - take], s[len(s) - 1 - take: -1]
            charge = _charge_value(magnitude + s[-1])
            if charge is not None and (composition := parse_formula(base)) is not None:
                readings.append((composition, charge))
        return readings
    composition = parse_formula(s)
    return [(composition, 0)] if composition is not None else []


def species_text(formula: str, charge: int) -> str:
    """A species as the prompts write it: ``MnO4^-``, ``Fe^3+``, ``H2O``."""
    if charge == 0:
        return formula
    return f"{formula}^{abs(charge) if abs(charge) > 1 else ''}{'+' if charge > 0 else '-'}"


def balance_in_solution(reactants: list[Species], products: list[Species],
                        helpers: list[Species]) -> tuple[list[int], list[int]] | None:
    """Balance a skeleton equation, adding the ``helpers`` (H+ and H2O, or OH- and H2O) on whichever side needs
    them: the minimal positive coefficients of the skeleton species and the signed coefficient of each helper
    (positive: a reactant; negative: a product; zero: not needed), conserving every element and the charge.
    None unless the balancing is unique up to a multiple and the skeleton coefficients are all positive."""
    species = [*reactants, *products, *helpers]
    sign = [1] * len(reactants) + [-1] * len(products) + [1] * len(helpers)
    symbols = sorted({s for composition, _ in species for s in composition})
    matrix = [[Fraction(sign[j] * species[j][0].get(s, 0)) for j in range(len(species))] for s in symbols]
    matrix.append([Fraction(sign[j] * species[j][1]) for j in range(len(species))])
    basis = nullspace(matrix, columns=len(species))
    if len(basis) != 1:
        return None  # not unique up to a multiple
    vector = basis[0]
    skeleton = len(reactants) + len(products)
    if all(v < 0 for v in vector[:skeleton]):
        vector = [-v for v in vector]
    if not all(v > 0 for v in vector[:skeleton]):
        return None
    scale = math.lcm(*(v.denominator for v in vector))
    integers = [int(v * scale) for v in vector]
    divisor = math.gcd(*integers)
    integers = [v // divisor for v in integers]
    return integers[:skeleton], integers[skeleton:]


def unbalanced(terms: list[tuple[int, Species]]) -> list[str]:
    """What a written equation does not conserve: the elements, and ``charge``; ``terms`` are (signed coefficient,
    species), reactants positive and products negative. Empty when balanced."""
    atoms: Counter[str] = Counter()
    charge = 0
    for coefficient, (composition, species_charge) in terms:
        for symbol, count in composition.items():
            atoms[symbol] += coefficient * count
        charge += coefficient * species_charge
    return sorted(s for s, v in atoms.items() if v) + (["charge"] if charge else [])


_NAMING_VERBS = ("formed is ", "produced is ", "is ", "equals ", "= ", "≈ ")


def without_quantity_name(text: str, symbol: str, words: tuple[str, ...], composition: Composition,
                          bracketed: bool = False) -> str:
    """``text`` without a leading name of the asked quantity of the species ``composition``: its symbol with the
    formula in brackets (``M(CO2) = ``, ``m(H₂O) ≈ ``) or a naming sentence (``The molar mass of CO2 is ``, ``The
    mass of H2O formed is ``, for ``words`` such as ``("molar mass",)``); the formula may be spelled in any way
    :func:`parse_formula` reads to the same atoms; with ``bracketed`` also the formula in square brackets, a
    concentration's notation (``[BaCl2] = ``). Anything else (another species named, no verb) comes back
    unchanged, so the env's reader still sees the whole text. Plain string scanning, bounded: never raises.

    >>> without_quantity_name("M(Ca(OH)2) = 74.09 g/mol", "M", ("molar mass",), {"Ca": 1, "O": 2, "H": 2})
    '74.09 g/mol'
    >>> without_quantity_name("The mass of CO2 formed is 4.4 g", "m", ("mass",), {"C": 1, "O": 2})
    '4.4 g'
    >>> without_quantity_name("m(H2O) = 4.4 g", "m", ("mass",), {"C": 1, "O": 2})
    'm(H2O) = 4.4 g'
    """
    if not isinstance(text, str) or len(text) > 400:
        return text
    s = strip_wrappers(text)
    if bracketed and s.startswith("["):
        end = closing_bracket(s, 0)
        if end > 0 and parse_formula(s[1:end]) == composition:
            rest = s[end + 1 :].lstrip()
            if rest[:1] in ("=", "≈"):
                return rest[1:].strip()
        return text
    if s.startswith(symbol + "("):
        end = closing_bracket(s, len(symbol))
        if end > 0 and parse_formula(s[len(symbol) + 1 : end]) == composition:
            rest = s[end + 1 :].lstrip()
            if rest[:1] in ("=", "≈"):
                return rest[1:].strip()
        return text
    lower = s.lower()
    for word in words:
        for lead in (f"the {word} of ", f"{word} of "):
            if not lower.startswith(lead):
                continue
            formula, _, tail = s[len(lead) :].partition(" ")
            if parse_formula(formula) != composition:
                return text
            tail = tail.lstrip()
            verb = next((v for v in _NAMING_VERBS if tail.lower().startswith(v)), None)
            return tail[len(verb) :].strip() if verb is not None else text
    return text


_LINE_BULLETS = ("- ", "* ", "• ")


def without_line_label(line: str, label: str) -> str:
    """A line of a listed answer without its bullet (``- ``, ``* ``, ``• ``) and its leading label: ``(a)``, ``a)``,
    ``a.``, ``a:``, also followed by a colon (``(a):``) or in markdown bold (``**(a)**``). Plain prefix checks: never
    raises.

    >>> without_line_label("(a) [He] 2s2", "a"), without_line_label("- **(b)** Na: +1", "b"), without_line_label("(c): x", "c")
    ('[He] 2s2', 'Na: +1', 'x')
    """
    s = line.strip()
    for bullet in _LINE_BULLETS:
        if s.startswith(bullet):
            s = s[len(bullet) :].lstrip()
            break
    unbolded = s[2:] if s.startswith("**") else s
    for prefix in (f"({label})", f"{label})", f"{label}.", f"{label}:"):
        if unbolded.startswith(prefix):
            rest = unbolded[len(prefix) :]
            if s.startswith("**"):
                if not rest.startswith("**"):
                    return s  # bold that does not close right after the label: left for the reader to refuse
                rest = rest[2:]
            rest = rest.lstrip()
            return rest[1:].strip() if rest.startswith(":") and not prefix.endswith(":") else rest
    return s
