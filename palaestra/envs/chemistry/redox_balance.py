"""Balance redox reactions in acidic or basic solution (the half-reaction method), adding H+/OH- and H2O.

Each problem gives skeleton equations (oxidant + reductant -> their reduced and oxidised forms, without water,
H+ or OH-) and names the medium. Reactions pair two real half-reactions from a table of standard reduction
potentials, the oxidant's couple above the reductant's by at least 0.1 V in that medium (so each reaction runs
as written); from level 2 they include comproportionation (IO3^- + I^- -> I2) and, in basic solution,
disproportionation (Cl2 -> Cl^- + ClO3^-). A skeleton is kept only when the balancing with the medium's helper
species (H^+ and H2O in acidic solution, OH^- and H2O in basic) is unique up to a multiple, found exactly
(:func:`palaestra.envs.chemistry.common.balance_in_solution`).

The answer is one balanced equation per line. It is read with the family's formula parser (charges as ``^2-``,
``^{2-}``, ``(2-)``, Unicode superscripts or a bare trailing ``3+``, which is read as the listed species it can
name) and judged by checking, not by comparison: every skeleton species on its side, only the medium's helpers
added, no species twice, every element and the charge conserved, whole positive coefficients with gcd 1. Since
the balancing is unique up to a multiple, that is the minimal one. Difficulty: per reaction, the species, the
electrons transferred and the binary digits of the coefficients.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.chemistry.common import (
    Species,
    balance_in_solution,
    parse_formula,
    species_readings,
    species_text,
    unbalanced,
    without_line_label,
)
from palaestra.verifiers.normalize import read_answer, squeeze_spaces

EXAMPLE = "Sn^2+ + 2 Ce^4+ -> Sn^4+ + 2 Ce^3+"  # a fixed placeholder (cerium is never drawn): not the answer
ARROWS = ("\\longrightarrow", "\\rightarrow", "\\rightleftharpoons", "\\to", "-->", "<=>", "->", "→", "⟶", "⇌", "=>",
          "=")  # "=" last: it is part of "<=>" and "=>"
LABELS = "abcdefghijklmnopqrstuvwxyz"
MAX_LINE_CHARS = 300
HELPERS = {"acidic": (("H", 1), ("H2O", 0)), "basic": (("OH", -1), ("H2O", 0))}

# Couples: (oxidised form, charge, reduced form, charge, standard potential in volts, medium, level it appears).
COUPLES = (
    ("Fe", 3, "Fe", 2, 0.77, "acidic", 0), ("Cu", 2, "Cu", 0, 0.34, "acidic", 0), ("Ag", 1, "Ag", 0, 0.80, "acidic", 0),
    ("Zn", 2, "Zn", 0, -0.76, "acidic", 0), ("Sn", 4, "Sn", 2, 0.15, "acidic", 0), ("Cl2", 0, "Cl", -1, 1.36, "acidic", 0),
    ("Br2", 0, "Br", -1, 1.07, "acidic", 0), ("I2", 0, "I", -1, 0.54, "acidic", 0), ("Mg", 2, "Mg", 0, -2.37, "acidic", 0),
    ("Al", 3, "Al", 0, -1.66, "acidic", 0), ("Ni", 2, "Ni", 0, -0.25, "acidic", 0), ("Pb", 2, "Pb", 0, -0.13, "acidic", 0),
    ("Au", 3, "Au", 0, 1.50, "acidic", 0), ("Hg", 2, "Hg", 0, 0.85, "acidic", 0), ("Co", 2, "Co", 0, -0.28, "acidic", 0),
    ("MnO4", -1, "Mn", 2, 1.51, "acidic", 1), ("Cr2O7", -2, "Cr", 3, 1.33, "acidic", 1),
    ("NO3", -1, "NO", 0, 0.96, "acidic", 1), ("NO3", -1, "NO2", 0, 0.80, "acidic", 1),
    ("ClO3", -1, "Cl", -1, 1.45, "acidic", 1), ("BrO3", -1, "Br", -1, 1.42, "acidic", 1),
    ("PbO2", 0, "Pb", 2, 1.46, "acidic", 1), ("MnO2", 0, "Mn", 2, 1.23, "acidic", 1),
    ("SO4", -2, "SO2", 0, 0.17, "acidic", 1), ("CO2", 0, "H2C2O4", 0, -0.49, "acidic", 1),
    ("S", 0, "H2S", 0, 0.14, "acidic", 1), ("O2", 0, "H2O2", 0, 0.70, "acidic", 1),
    ("NO3", -1, "HNO2", 0, 0.94, "acidic", 1), ("ClO4", -1, "ClO3", -1, 1.19, "acidic", 1),
    ("IO3", -1, "I2", 0, 1.20, "acidic", 2), ("BrO3", -1, "Br2", 0, 1.52, "acidic", 2),
    ("ClO3", -1, "Cl2", 0, 1.47, "acidic", 2), ("NO3", -1, "NH4", 1, 0.88, "acidic", 2),
    ("S4O6", -2, "S2O3", -2, 0.08, "acidic", 2), ("H3AsO4", 0, "HAsO2", 0, 0.56, "acidic", 2),
    ("MnO4", -1, "MnO2", 0, 0.59, "basic", 2), ("CrO4", -2, "Cr(OH)3", 0, -0.13, "basic", 2),
    ("ClO3", -1, "Cl", -1, 0.62, "basic", 2), ("BrO3", -1, "Br", -1, 0.61, "basic", 2),
    ("ClO", -1, "Cl", -1, 0.89, "basic", 2), ("SO4", -2, "SO3", -2, -0.93, "basic", 2),
    ("NO3", -1, "NO2", -1, 0.01, "basic", 2), ("Fe(OH)3", 0, "Fe(OH)2", 0, -0.56, "basic", 2),
    ("I2", 0, "I", -1, 0.54, "basic", 2), ("Br2", 0, "Br", -1, 1.07, "basic", 2), ("Cl2", 0, "Cl", -1, 1.36, "basic", 2),
    ("MnO4", -1, "MnO4", -2, 0.56, "basic", 3), ("ClO3", -1, "Cl2", 0, 0.48, "basic", 3),
    ("BrO3", -1, "Br2", 0, 0.52, "basic", 3), ("IO3", -1, "I2", 0, 0.21, "basic", 3),
    ("ClO", -1, "Cl2", 0, 0.42, "basic", 3), ("O2", 0, "OH", -1, 0.40, "basic", 3),
    ("NO3", -1, "NH3", 0, -0.12, "basic", 3), ("SO3", -2, "S2O3", -2, -0.57, "basic", 3),
    ("Zn(OH)4", -2, "Zn", 0, -1.20, "basic", 3), ("Al(OH)4", -1, "Al", 0, -2.33, "basic", 3),
    ("CrO4", -2, "Cr(OH)4", -1, -0.13, "basic", 3),
)
PAIRING_GAP = 0.1


@dataclass(frozen=True)
class Reaction:
    reactants: tuple[tuple[str, int], ...]
    products: tuple[tuple[str, int], ...]
    medium: str


def _skeleton(oxidant: tuple, reductant: tuple) -> Reaction | None:
    """oxidant couple's oxidised form + reductant couple's reduced form -> the other two (merged when equal)."""
    ox, red = (oxidant[0], oxidant[1]), (oxidant[2], oxidant[3])
    red_b, ox_b = (reductant[2], reductant[3]), (reductant[0], reductant[1])
    reactants = [ox] if ox == red_b else [ox, red_b]
    products = [red] if red == ox_b else [red, ox_b]
    helpers = {h for h in HELPERS[oxidant[5]]}
    if set(reactants) & set(products) or (set(reactants) | set(products)) & helpers:
        return None
    return Reaction(tuple(reactants), tuple(products), oxidant[5])


def _species(pair: tuple[str, int]) -> Species:
    return parse_formula(pair[0]) or {}, pair[1]


def solve(reaction: Reaction) -> list[tuple[int, tuple[str, int]]] | None:
    """The balanced equation as signed (coefficient, species) terms, reactants positive; None if not unique."""
    helpers = list(HELPERS[reaction.medium])
    solved = balance_in_solution([_species(p) for p in reaction.reactants], [_species(p) for p in reaction.products],
                                 [_species(p) for p in helpers])
    if solved is None:
        return None
    skeleton, extra = solved
    n = len(reaction.reactants)
    terms = [(c, p) for c, p in zip(skeleton[:n], reaction.reactants, strict=True)]
    terms += [(-c, p) for c, p in zip(skeleton[n:], reaction.products, strict=True)]
    terms += [(c, p) for c, p in zip(extra, helpers, strict=True) if c]
    return terms


def _latex(formula: str, charge: int) -> str:
    text = species_text(formula, charge)
    return text.replace("^", "^{") + "}" if charge else text


def equation(terms: list[tuple[int, tuple[str, int]]], reverse_sides: bool = False, latex: bool = False) -> str:
    def side(items: list[tuple[int, tuple[str, int]]]) -> str:
        write = _latex if latex else species_text
        return " + ".join((f"{abs(c)} " if abs(c) > 1 else "") + write(*p) for c, p in items)

    left, right = [t for t in terms if t[0] > 0], [t for t in terms if t[0] < 0]
    if reverse_sides:
        left, right = left[::-1], right[::-1]
    return side(left) + " -> " + side(right)


@register
class RedoxBalance(Task):
    id = "chemistry/redox_balance"
    family = "chemistry"
    description = "Balance redox reactions in acidic or basic solution, adding H+/OH- and H2O (checked, not compared)."
    tags = ("chemistry", "science", "math")
    bounded = "the half-reactions come from a finite table of real couples; reactions per problem cap the size"

    @dataclass(frozen=True)
    class Config:
        stage: int  # couples of this table level and below are drawn (0: metals and halogens in acid)
        reactions: int  # reactions per problem
        basic_share: float  # the share of reactions drawn in basic solution (from stage 2)

    presets = (Config(0, 2, 0.0), Config(1, 2, 0.0), Config(2, 2, 0.4), Config(3, 3, 0.5), Config(3, 4, 0.6))

    def generate(self, rng: random.Random, config: Config) -> Problem:
        drawn: list[tuple[Reaction, list]] = []

        def draw() -> tuple[Reaction | None, list | None]:
            medium = "basic" if rng.random() < config.basic_share else "acidic"
            couples = [c for c in COUPLES if c[5] == medium and c[6] <= config.stage]
            oxidant, reductant = rng.choice(couples), rng.choice(couples)
            if oxidant[4] < reductant[4] + PAIRING_GAP:
                return None, None
            reaction = _skeleton(oxidant, reductant)
            return reaction, (solve(reaction) if reaction else None)

        def fresh(d: tuple[Reaction | None, list | None]) -> bool:
            return d[1] is not None and all(d[0] != r for r, _ in drawn)

        for _ in range(config.reactions):
            reaction, terms = retry(draw, fresh, attempts=500, what="a redox reaction with a unique balancing")
            assert reaction is not None and terms is not None
            drawn.append((reaction, terms))
        listing = "\n".join(
            f"({LABELS[i]}) in {r.medium} solution: " + " + ".join(species_text(*p) for p in r.reactants) + " -> "
            + " + ".join(species_text(*p) for p in r.products) for i, (r, _) in enumerate(drawn))
        prompt = (
            f"Balance each redox reaction in the solution named (the half-reaction method):\n\n{listing}\n\n"
            "In acidic solution you may add H^+ and H2O, in basic solution OH^- and H2O, on whichever side they "
            "are needed; add nothing else. Use the smallest positive whole-number coefficients, conserving every "
            "element and the charge.\n\n"
            f"Answer with one balanced equation per line, in the order listed, for example:\n(a) {EXAMPLE}"
        )
        answer = "\n".join(f"({LABELS[i]}) {equation(terms)}" for i, (_, terms) in enumerate(drawn))
        data = {"reactions": [{"reactants": [list(p) for p in r.reactants], "products": [list(p) for p in r.products],
                               "medium": r.medium, "terms": [[c, list(p)] for c, p in terms]} for r, terms in drawn]}
        return Problem(prompt=prompt, answer=answer, data=data)

    def _read_line(self, line: str, reaction: dict) -> list[tuple[int, Species, tuple[str, int]]] | str:
        """Signed (coefficient, species, its listed name) terms of one written equation, or why it is unreadable."""
        arrow = next((a for a in ARROWS if line.count(a) == 1), None)
        if arrow is None:
            return "one arrow (->) per equation"
        known = [tuple(p) for p in (*reaction["reactants"], *reaction["products"])]
        known += [h for h in HELPERS[reaction["medium"]]]
        terms: list[tuple[int, Species, tuple[str, int]]] = []
        for sign, side in zip((1, -1), line.split(arrow), strict=True):
            for term in side.replace("\\ce{", "").replace("$", "").split(" + "):
                term = term.strip()
                digits = len(term) - len(term.lstrip("0123456789"))
                if digits > 4 or (digits and term[0] == "0") or not term:
                    return "a coefficient followed by a listed species"
                coefficient = int(term[:digits]) if digits else 1
                readings = species_readings(term[digits:].strip())
                matches = [p for p in known if _species(p) in readings]
                if len(matches) != 1:
                    return f"'{term[digits:].strip()}' is not one of the species this reaction may use"
                terms.append((sign * coefficient, _species(matches[0]), matches[0]))
        return terms

    def _read(self, problem: Problem, text: str) -> list | None:
        reactions = problem.data["reactions"]
        lines = [squeeze_spaces(line).strip() for line in text.strip().split("\n") if line.strip()]
        if len(lines) != len(reactions) or any(len(line) > MAX_LINE_CHARS for line in lines):
            return None
        found = []
        for i, (line, reaction) in enumerate(zip(lines, reactions, strict=True)):
            terms = self._read_line(without_line_label(line, LABELS[i]), reaction)
            if isinstance(terms, str):
                return None
            found.append(terms)
        return found

    def verify(self, problem: Problem, answer: str) -> Verdict:
        reactions = problem.data["reactions"]
        if not isinstance(answer, str) or len(answer) > MAX_LINE_CHARS * len(reactions) + 200:
            return Verdict.unparsed("expected one balanced equation per line, such as " + EXAMPLE)
        found = read_answer(answer, lambda text: self._read(problem, text))
        if found is None:
            return Verdict.unparsed(f"expected {len(reactions)} lines, one balanced equation per reaction in the "
                                    f"order listed, using only its species and the medium's H+/OH- and H2O, such "
                                    f"as {EXAMPLE}")
        problems = []
        for i, (terms, reaction) in enumerate(zip(found, reactions, strict=True)):
            label = f"({LABELS[i]})"
            names = [t[2] for t in terms]
            if len(set(names)) != len(names):
                problems.append(f"{label} a species is written twice")
                continue
            sides = {t[2]: (1 if t[0] > 0 else -1) for t in terms}
            missing = [p for p in reaction["reactants"] if sides.get(tuple(p)) != 1]
            missing += [p for p in reaction["products"] if sides.get(tuple(p)) != -1]
            if missing:
                problems.append(f"{label} {species_text(*missing[0])} is missing or on the wrong side")
                continue
            off = unbalanced([(t[0], t[1]) for t in terms])
            if off:
                problems.append(f"{label} not balanced: {', '.join(off)} differ between the sides")
                continue
            divisor = math.gcd(*(abs(t[0]) for t in terms))
            if divisor > 1:
                problems.append(f"{label} balanced, but not the smallest whole numbers: divide by {divisor}")
        if problems:
            return Verdict.wrong("; ".join(problems))
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Per reaction: species in the balanced equation plus the binary digits of its coefficients, plus two
        for basic solution (the H+ bookkeeping is converted)."""
        total = 0
        for reaction in problem.data["reactions"]:
            terms = reaction["terms"]
            total += len(terms) + sum(abs(c).bit_length() for c, _ in terms) + 2 * (reaction["medium"] == "basic")
        return float(total)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        reactions = problem.data["reactions"]

        def terms_of(reaction: dict) -> list[tuple[int, tuple[str, int]]]:
            return [(c, (p[0], p[1])) for c, p in reaction["terms"]]

        reversed_sides = "\n".join(equation(terms_of(r), reverse_sides=True) for r in reactions)
        latex = "\n".join(f"{LABELS[i]}) " + equation(terms_of(r), latex=True) for i, r in enumerate(reactions))
        bare = "\n".join(equation(terms_of(r)).replace("^", "").replace("->", "→") for r in reactions)
        return [*super().spellings(problem), f"Answer:\n{gold}", f"{gold}.", reversed_sides, bare, latex]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        reactions = problem.data["reactions"]

        def text(change: dict[int, list[tuple[int, tuple[str, int]]]]) -> str:
            return "\n".join(f"({LABELS[i]}) " + equation(change.get(i, [(c, (p[0], p[1])) for c, p in r["terms"]]))
                             for i, r in enumerate(reactions))

        target = rng.randrange(len(reactions))
        terms = [(c, (p[0], p[1])) for c, p in reactions[target]["terms"]]
        doubled = [(2 * c, p) for c, p in terms]
        bumped = list(terms)
        k = rng.randrange(len(bumped))
        bumped[k] = (bumped[k][0] + (1 if bumped[k][0] > 0 else -1), bumped[k][1])
        no_helpers = [(c, p) for c, p in terms if p not in HELPERS[reactions[target]["medium"]]]
        wrong = [text({target: doubled}), text({target: bumped}), "\n".join((problem.answer or "").split("\n")[:-1]),
                 f"{problem.answer} or {text({target: doubled})}"]
        if no_helpers != terms:
            wrong.append(text({target: no_helpers}))
        return wrong
