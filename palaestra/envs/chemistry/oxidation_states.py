"""Oxidation state of every element in a generated compound or ion, by the stated priority rules.

The prompt states the textbook priority rules, so every answer is determined: fluorine is -1; the group 1
metals (Li, Na, K, Rb, Cs) are +1, the group 2 metals (Be, Mg, Ca, Sr, Ba) +2 and aluminium +3; hydrogen is
+1; oxygen is -2; chlorine, bromine and iodine are -1. The rules are applied in that order and the one element
they do not cover (or, when they cover every element, the one lowest in the order) takes whatever makes the
states sum to the overall charge; when atoms of one element are not all alike the answer is their average,
which may be a fraction (Fe3O4 is not drawn, but S4O6^2- gives +5/2 and C3H8 gives -8/3).

Species are generated, not looked up: oxoanions, oxoacids and their salts (K2Cr2O7, NaHSO4, POCl3), binary
halides and interhalogens (PCl5, BrF5), hydrides of non-metals (PH3, H2S), and from level 2 the species where a
usually fixed element is the one left over: metal hydrides (NaH, LiAlH4: H is -1), peroxides and superoxides
(BaO2, KO2: O is -1, -1/2), oxygen fluorides (OF2: O is +2); from level 3 organic molecules CxHyOz, whose carbon
state is an average. The central element's state (or its average over several atoms) is always one of its
common oxidation states in the periodic-table data (between the lowest and highest for an average).

Each problem lists several species (two at level 0, four at level 4, two more per level after), so problems rarely
repeat. The answer is one line per species, in the listed order, with one state per element
(``(a) K: +1, Cr: +6, O: -2``), judged element by element; every element of every species must be right and
the feedback names the wrong ones. Difficulty: per species, atoms and elements, plus two each where the
left-over element is one the rules usually fix (an exception to spot) and where the answer is a fraction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.chemistry.common import Composition, elements, without_line_label
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import read_exact

EXAMPLE = "Na: +1, S: +6, O: -2"  # a fixed placeholder of the right shape: never derived from the answer
MAX_ANSWER_CHARS = 400

# The priority rules, highest first: (elements, state).
RULES: tuple[tuple[tuple[str, ...], int], ...] = (
    (("F",), -1),
    (("Li", "Na", "K", "Rb", "Cs"), 1),
    (("Be", "Mg", "Ca", "Sr", "Ba"), 2),
    (("Al",), 3),
    (("H",), 1),
    (("O",), -2),
    (("Cl", "Br", "I"), -1),
)
RULE_ORDER = {symbol: rank for rank, (symbols, _) in enumerate(RULES) for symbol in symbols}
RULE_STATE = {symbol: state for symbols, state in RULES for symbol in symbols}

COUNTER_CATIONS = ("Li", "Na", "K", "Rb", "Cs", "Mg", "Ca", "Sr", "Ba")
CENTRAL = ("B", "C", "N", "Si", "P", "S", "Cl", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Ge", "As", "Se",
           "Br", "Mo", "Ru", "Sn", "Sb", "Te", "I", "Pt", "Au", "Pb", "Bi")
HYDRIDE_FORMERS = ("C", "Si", "N", "P", "As", "Sb", "S", "Se", "Te")
H_FIRST = ("S", "Se", "Te")  # H2S, but NH3 and CH4
HALOGENS = ("Cl", "Br", "I")
# Kinds by stage: each stage adds kinds to the mix.
STAGES = (("oxo", "halide", "hydride"), ("oxo", "oxo", "halide", "hydride"),
          ("oxo", "oxo", "halide", "metal_hydride", "peroxide"),
          ("oxo", "oxo", "halide", "metal_hydride", "peroxide", "organic", "organic"),
          ("oxo", "oxo", "halide", "metal_hydride", "peroxide", "organic", "organic", "oxygen_fluoride"))


def rule_states(composition: Composition, charge: int) -> dict[str, Fraction]:
    """Every element's (average) oxidation state by the priority rules: all but the left-over element get
    their rule's state; the left-over element takes the rest of the charge."""
    uncovered = [s for s in composition if s not in RULE_ORDER]
    leftover = uncovered[0] if uncovered else max(composition, key=lambda s: RULE_ORDER[s])
    states = {s: Fraction(RULE_STATE[s]) for s in composition if s != leftover}
    rest = charge - sum(states[s] * composition[s] for s in states)
    states[leftover] = Fraction(rest, composition[leftover])
    return states


def _part(symbol: str, count: int) -> str:
    return "" if count == 0 else symbol + (str(count) if count > 1 else "")


def _charge_text(charge: int) -> str:
    return ("" if abs(charge) == 1 else str(abs(charge))) + ("+" if charge > 0 else "-")


def format_state(value: Fraction) -> str:
    sign = "+" if value > 0 else ""
    return f"{sign}{value.numerator}" + (f"/{value.denominator}" if value.denominator > 1 else "")


def _common_states(symbol: str) -> tuple[int, ...]:
    return elements()[symbol].oxidation_states


def _oxo(rng: random.Random, stage: int, central: int) -> tuple[list[tuple[str, int]], int]:
    x = rng.choice(CENTRAL)
    positive = [s for s in _common_states(x) if s > 0]
    n = rng.randint(1, min(central + 1, 4))
    if n > 1 and stage >= 3 and rng.random() < 0.5:  # not all atoms alike: an average
        total = rng.randint(n * min(positive), n * max(positive))
    else:
        total = n * rng.choice(positive)
    h = rng.choice([0, 0, 1, 2])
    halide = rng.choice(["F", "Cl"]) if x not in HALOGENS and rng.random() < 0.3 else ""
    f = rng.randint(1, 3) if halide else 0
    # oxygens so that the anion's charge is between -4 and +1
    options = [a for a in range(1, 4 * n + 3) if -4 <= total + h - f - 2 * a <= 1]
    if not options:
        return [], 0
    a = rng.choice(options)
    charge = total + h - f - 2 * a
    cations: list[tuple[str, int]] = []
    if charge < 0 and rng.random() < 0.7:  # a salt: one counter-cation, or two different ones (a double salt)
        first = rng.choice([c for c in COUNTER_CATIONS if RULE_STATE[c] <= -charge])
        rest = -charge - RULE_STATE[first]
        if rest == 0:
            cations = [(first, 1)]
        elif rest % RULE_STATE[first] == 0 and (stage == 0 or rng.random() < 0.5):
            cations = [(first, -charge // RULE_STATE[first])]
        else:
            fitting = [c for c in COUNTER_CATIONS if c != first and rest % RULE_STATE[c] == 0]
            second = rng.choice(fitting)
            cations = sorted([(first, 1), (second, rest // RULE_STATE[second])])
        charge = 0
    return [*cations, ("H", h), (x, n), ("O", a), (halide, f)], charge


def _halide(rng: random.Random, stage: int, central: int) -> tuple[list[tuple[str, int]], int]:
    x = rng.choice(CENTRAL)
    halide = "F" if x in HALOGENS else rng.choice(["F", "Cl", "Br"] if stage >= 1 else ["F", "Cl"])
    n = rng.randint(1, min(central, 2))
    total = n * rng.choice([s for s in _common_states(x) if s > 0])
    charge = rng.choice([0, 0, 0, -1, -2]) if stage >= 1 else 0
    if halide != "F" and x in ("Cl", "Br", "I"):
        return [], 0
    return [(x, n), (halide, total - charge)], charge


def _hydride(rng: random.Random, stage: int, central: int) -> tuple[list[tuple[str, int]], int]:
    x = rng.choice(HYDRIDE_FORMERS)
    negative = [s for s in _common_states(x) if s < 0]
    n = rng.randint(1, min(central, 2))
    charge = rng.choice([0, 0, 0, 1, -1]) if stage >= 1 else 0
    h = charge - n * rng.choice(negative)
    if h <= 0:
        return [], 0
    return ([("H", h), (x, n)] if x in H_FIRST else [(x, n), ("H", h)]), charge


def _metal_hydride(rng: random.Random, stage: int, central: int) -> tuple[list[tuple[str, int]], int]:
    metal = rng.choice(COUNTER_CATIONS)
    aluminium = rng.random() < 0.4
    if aluminium:  # M(AlH4)k
        return [(metal, 1), ("Al", RULE_STATE[metal]), ("H", 4 * RULE_STATE[metal])], 0
    return [(metal, 1), ("H", RULE_STATE[metal])], 0


def _peroxide(rng: random.Random, stage: int, central: int) -> tuple[list[tuple[str, int]], int]:
    metal = rng.choice(("H", *COUNTER_CATIONS))
    # peroxides of every metal and hydrogen; superoxides and ozonides only of the alkali metals (KO2, CsO3)
    oxygen_state = Fraction(-1) if RULE_STATE[metal] != 1 or metal == "H" else rng.choice(
        [Fraction(-1), Fraction(-1, 2), Fraction(-1, 3)])
    positive = RULE_STATE[metal]
    # m * positive + o * oxygen_state = 0 with the smallest whole counts
    ratio = Fraction(positive) / -oxygen_state  # oxygens per metal atom
    return [(metal, ratio.denominator), ("O", ratio.numerator)], 0


def _oxygen_fluoride(rng: random.Random, stage: int, central: int) -> tuple[list[tuple[str, int]], int]:
    n = rng.randint(1, 2)
    return [("O", n), ("F", rng.choice([2, 2 * n] if n > 1 else [2]))], 0


def _organic(rng: random.Random, stage: int, central: int) -> tuple[list[tuple[str, int]], int]:
    carbons = rng.randint(1, 2 + 2 * central)
    rings_and_double_bonds = rng.randint(0, carbons // 2)
    halide = rng.choice(["", "", "Cl", "Br"])
    x = rng.randint(1, 2) if halide else 0
    h = 2 * carbons + 2 - 2 * rings_and_double_bonds - x
    if h <= 0:
        return [], 0
    o = rng.randint(0, min(4, carbons))
    return [("C", carbons), ("H", h), (halide, x), ("O", o)], 0  # Hill order


KINDS = {"oxo": _oxo, "halide": _halide, "hydride": _hydride, "metal_hydride": _metal_hydride,
         "peroxide": _peroxide, "oxygen_fluoride": _oxygen_fluoride, "organic": _organic}


def _plausible(parts: list[tuple[str, int]], charge: int) -> bool:
    composition = {s: c for s, c in parts if s and c}
    if not composition or len(composition) < 2:
        return False
    states = rule_states(composition, charge)
    for symbol, state in states.items():
        if symbol in RULE_ORDER or symbol == "C":
            continue
        common = _common_states(symbol)
        if state.denominator == 1 and composition[symbol] == 1 and state not in common:
            return False
        if not min(common) <= state <= max(common):
            return False
    return True


LABELS = "abcdefghijklmnopqrstuvwxyz"


def _species_text(species: dict) -> str:
    charge = species["charge"]
    formula = species["formula"]
    return f"{formula}^{_charge_text(charge)} (an ion of charge {charge:+d})" if charge else formula


def _states_line(symbols: list[str], states: dict[str, str]) -> str:
    return ", ".join(f"{s}: {states[s]}" for s in symbols)


@register
class OxidationStates(Task):
    id = "chemistry/oxidation_states"
    family = "chemistry"
    description = "Oxidation state of each element in generated compounds and ions by the priority rules."
    tags = ("chemistry", "science")
    version = 2  # three species from level 0: two repeated 7% of level 0's problems in 1,000 seeds

    @dataclass(frozen=True)
    class Config:
        stage: int  # which kinds of species are drawn (see STAGES)
        central: int  # the most atoms of the central element (carbons of an organic molecule grow with it)
        species: int  # species per problem

    presets = (Config(0, 1, 3), Config(1, 1, 3), Config(2, 2, 3), Config(3, 3, 3), Config(4, 4, 4))
    growth = Growth(steps={"central": 1, "species": 2}, limits={"stage": len(STAGES) - 1, "species": len(LABELS)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kinds = STAGES[min(config.stage, len(STAGES) - 1)]
        drawn: list[dict] = []

        def draw() -> tuple[str, list[tuple[str, int]], int]:
            kind = rng.choice(kinds)
            parts, charge = KINDS[kind](rng, config.stage, config.central)
            return kind, parts, charge

        def fresh(d: tuple[str, list[tuple[str, int]], int]) -> bool:
            formula = "".join(_part(s, c) for s, c in d[1])
            return _plausible(d[1], d[2]) and all(x["formula"] != formula for x in drawn)

        for _ in range(config.species):
            kind, parts, charge = retry(draw, fresh, attempts=200, what="a species with plausible oxidation states")
            composition = {s: c for s, c in parts if s and c}
            states = rule_states(composition, charge)
            drawn.append({"formula": "".join(_part(s, c) for s, c in parts), "charge": charge,
                          "composition": composition, "kind": kind,
                          "states": {s: format_state(v) for s, v in states.items()}})
        listing = "\n".join(f"({LABELS[i]}) {_species_text(x)}" for i, x in enumerate(drawn))
        prompt = (
            "Give the oxidation state of every element in each of these species (generated formulas: not every "
            f"one is a known compound):\n\n{listing}\n\n"
            "Use these rules in order of priority: F is -1; Li, Na, K, Rb and Cs are +1; Be, Mg, Ca, Sr and Ba "
            "are +2; Al is +3; H is +1; O is -2; Cl, Br and I are -1. In each species every element but one "
            "follows its rule; the element no rule covers (or, if the rules cover every element, the one lowest "
            "in this order) takes whatever state makes the states of all atoms add up to the species' charge. "
            "If the atoms of an element are not all alike, give their average, as a fraction where needed "
            "(such as -8/3).\n\n"
            f"Answer with one line per species, in the order listed, each giving one state per element, for "
            f"example: (a) {EXAMPLE}"
        )
        answer = "\n".join(f"({LABELS[i]}) {_states_line(list(x['composition']), x['states'])}"
                           for i, x in enumerate(drawn))
        return Problem(prompt=prompt, answer=answer, data={"species": drawn})

    def _read(self, problem: Problem, text: str) -> list[dict[str, Fraction]] | None:
        species = problem.data["species"]
        lines = [line.strip() for line in text.strip().split("\n") if line.strip()]
        if len(lines) != len(species):
            return None
        found = []
        for i, (line, x) in enumerate(zip(lines, species, strict=True)):
            rest = _without_label(line, LABELS[i], x["formula"])
            values = read_values(rest, list(x["composition"]), _read_state)
            if values is None:
                return None
            found.append(values)
        return found

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS * len(problem.data["species"]):
            return Verdict.unparsed("expected one line per species, such as (a) " + EXAMPLE)
        found = read_answer(answer, lambda text: self._read(problem, text))
        if found is None:
            return Verdict.unparsed(f"expected {len(problem.data['species'])} lines, one per species in the order "
                                    f"listed, each with one oxidation state per element, such as (a) {EXAMPLE}")
        wrong = [f"{s} in {x['formula']}" for values, x in zip(found, problem.data["species"], strict=True)
                 for s in x["composition"] if values[s] != Fraction(x["states"][s])]
        if wrong:
            return Verdict.wrong(f"wrong oxidation state for {', '.join(wrong)}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Per species: atoms and elements, plus two where a rule's usual state is overridden (an exception to
        spot), two for a fraction and one for a charge."""
        total = 0
        for x in problem.data["species"]:
            composition = x["composition"]
            states = {s: Fraction(v) for s, v in x["states"].items()}
            exception = any(s in RULE_STATE and states[s] != RULE_STATE[s] for s in composition)
            fraction = any(v.denominator > 1 for v in states.values())
            total += sum(composition.values()) + len(composition) + 2 * exception + 2 * fraction + bool(x["charge"])
        return float(total)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        species = problem.data["species"]
        bare = "\n".join(", ".join(f"{s} = {x['states'][s].lstrip('+')}" for s in reversed(list(x["composition"])))
                         for x in species)
        named = "\n".join(f"{x['formula']}: " + ", ".join(f"{s}: {_suffix(x['states'][s])}" for s in x["composition"])
                          for x in species)
        numbered = "\n".join(f"{LABELS[i]}) {_states_line(list(x['composition']), x['states'])}"
                             for i, x in enumerate(species))
        return [*super().spellings(problem), f"Answer:\n{gold}", f"{gold}.", f"**{gold}**", bare, named, numbered]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        species = problem.data["species"]
        target = rng.randrange(len(species))
        symbol = rng.choice(list(species[target]["composition"]))

        def lines(change: Fraction, index: int, only: str | None) -> str:
            out = []
            for i, x in enumerate(species):
                states = {s: format_state(Fraction(v) + (change if i == index and (only in (None, s)) else 0))
                          for s, v in x["states"].items()}
                out.append(f"({LABELS[i]}) {_states_line(list(x['composition']), states)}")
            return "\n".join(out)

        gold_lines = (problem.answer or "").split("\n")
        return [lines(Fraction(1), target, symbol), lines(Fraction(-1), target, symbol),
                "\n".join(gold_lines[:-1]), "\n".join(reversed(gold_lines)) if len(set(gold_lines)) > 1 else "",
                f"{problem.answer} or {lines(Fraction(1), target, symbol)}"]


def _without_label(line: str, label: str, formula: str) -> str:
    """The line without its leading label (``(a)``, ``a)``, ``a.``, ``a:``) or species formula and a colon."""
    line = without_line_label(line, label)
    for sep in (":", " -", " —", " –"):
        if line.startswith(formula + sep):
            return line[len(formula) + len(sep):].strip()
    return line


def _suffix(state: str) -> str:
    """``+6`` -> ``6+``, ``-2`` -> ``2-``: the charge-style spelling (whole numbers only)."""
    if "/" in state or state == "0":
        return state
    return state.lstrip("+-") + ("-" if state.startswith("-") else "+")


def _read_state(text: str) -> Fraction | None:
    s = text.strip()
    if 1 < len(s) <= 4 and s[-1] in "+-" and s[:-1].isdigit():  # charge style: 6+, 2-
        return Fraction(int(s[:-1]) * (1 if s[-1] == "+" else -1))
    value = read_exact(s)
    return value if isinstance(value, Fraction) else None
