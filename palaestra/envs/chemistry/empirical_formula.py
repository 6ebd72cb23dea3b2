"""Empirical formula from mass percentages.

A compound's formula is drawn (a salt of the textbook ion tables, or its hydrate, or a valid organic
molecular formula); the
prompt gives each element's mass percentage rounded to a stated number of decimal places (two; one more per
level past the presets, so larger formulas stay pinned down) and the atomic weights to use. The
answer is the empirical formula, the smallest whole-number ratio of atoms, in any element order and any
formula spelling (``CH2O``, ``OCH2``, ``H₂CO``); it is judged by the multiset of element counts. A multiple
of the empirical formula (a molecular formula such as ``C2H4O2``) is wrong and told so.

Unique where implied: at generation every formula with at most :data:`SEARCH_LIMIT` atoms of the first element
(or twice the level's carbon count; the others then follow from the ratios, the neighbouring whole numbers
tried) whose exact percentages all
round to the printed ones is found; the problem is kept only when all of them reduce to the drawn formula,
which is drawn in lowest terms (so the level's sizes are the answer's sizes).

Difficulty: the elements, the atoms of the empirical formula, and the multiplier that turns the smallest
mole ratio into whole numbers (1 for CH2O, 2 for Fe2O3 from 1 : 1.5).

Version 2: three problems in four draw a formula with no element of count one (Fe2O3, C5H8O2), so dividing every
element's moles by the smallest and rounding (without looking for the multiplier) is wrong there: that shortcut
answered 0.78, 0.65, 0.38, 0.58 and 0.48 of levels 0 to 4, now 0.25, 0.15, 0.15, 0.20 and 0.08.

Generation speed: about 370 problems/s at level 4. Each drawn formula is checked for uniqueness by searching every
formula up to the atom limit whose exact percentages round to the printed ones; the search is kept because it
proves that the printed percentages pin down one empirical formula.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.chemistry.common import (
    HETEROATOMS,
    Composition,
    elements,
    hill_formula,
    molar_mass,
    organic_formula,
    parse_formula,
    salt_formula,
)
from palaestra.verifiers.normalize import read_answer

EXAMPLE = "Y2Se3"  # a fixed placeholder of the right shape: never derived from the answer
SUBJECTS = ("the empirical formula is", "empirical formula:", "empirical formula =", "the formula is")
# v2: the share of problems whose answer has no element with one atom (Fe2O3, C5H8O2), so dividing the mole amounts
# by the smallest and rounding is wrong: that shortcut answered 0.78, 0.65, 0.38, 0.58 and 0.48 of levels 0 to 4
MULTIPLIED_SHARE = 0.75
SEARCH_LIMIT = 60  # at least; twice the level's largest carbon count where that is more


def reduced(composition: Composition) -> Composition:
    divisor = math.gcd(*composition.values())
    return {symbol: atoms // divisor for symbol, atoms in composition.items()}


def percentages(composition: Composition) -> dict[str, Fraction]:
    total = molar_mass(composition)
    table = elements()
    return {symbol: 100 * table[symbol].weight * atoms / total for symbol, atoms in composition.items()}


def _rounded(value: Fraction, places: int) -> Fraction:
    return Fraction(round(value * 10**places), 10**places)


def _fixed(value: Fraction, places: int) -> str:
    """A non-negative multiple of 10^-places written with exactly ``places`` decimals."""
    scaled = int(value * 10**places)
    return f"{scaled // 10**places}.{scaled % 10**places:0{places}d}"


def consistent_formulas(printed: dict[str, Fraction], places: int = 2, limit: int = SEARCH_LIMIT) -> set[str]:
    """Empirical formulas (Hill order) of every formula whose percentages round to ``printed`` (bounded search).

    Candidates are screened in floating point with a margin, then confirmed exactly with fractions."""
    table = elements()
    symbols = sorted(printed)
    weights = [float(table[s].weight) for s in symbols]
    targets = [float(printed[s]) for s in symbols]
    ratios = [targets[i] / weights[i] / (targets[0] / weights[0]) for i in range(len(symbols))]
    half_unit = Fraction(1, 2 * 10**places)
    margin = float(half_unit) * 1.001 + 1e-12
    found: set[str] = set()
    for n_first in range(1, limit + 1):
        options = [sorted({max(1, math.floor(n_first * r)), max(1, math.ceil(n_first * r))}) for r in ratios[1:]]
        for counts in itertools.product(*options):
            atoms = (n_first, *counts)
            total = sum(w * n for w, n in zip(weights, atoms, strict=True))
            if any(abs(100 * w * n / total - t) > margin for w, n, t in zip(weights, atoms, targets, strict=True)):
                continue
            candidate = dict(zip(symbols, atoms, strict=True))
            shares = percentages(candidate)
            if all(abs(shares[s] - printed[s]) <= half_unit for s in symbols):
                found.add(hill_formula(reduced(candidate)))
    return found


def _named_formula(text: str) -> dict[str, int] | None:
    """A formula, optionally after a naming lead-in ("The empirical formula is C2H6O")."""
    stripped = text.strip()
    for subject in SUBJECTS:
        if stripped.lower().startswith(subject):
            stripped = stripped[len(subject):].strip()
            break
    return parse_formula(stripped)


@register
class EmpiricalFormula(Task):
    id = "chemistry/empirical_formula"
    family = "chemistry"
    description = "Empirical formula of a compound from its mass percentages (any element order judged)."
    tags = ("chemistry", "science", "math")
    version = 2  # v2: three answers in four have every count at least 2 (rounding the smallest ratio is wrong)

    @dataclass(frozen=True)
    class Config:
        carbons: int  # the largest organic carbon count
        heteroatoms: int  # the most kinds of heteroatom in an organic formula
        salts: int  # the weight of salts and their hydrates against organic formulas (4)
        water: int  # the most waters of crystallisation of a hydrate
        places: int = 2  # decimal places of the printed percentages (more pin down larger formulas)

    presets = (Config(8, 3, 4, 10), Config(13, 3, 2, 10), Config(19, 3, 1, 10), Config(25, 4, 1, 10),
               Config(32, 4, 0, 10))
    growth = Growth(steps={"carbons": 16, "heteroatoms": 1, "salts": -1, "places": 1},
                    limits={"heteroatoms": len(HETEROATOMS), "salts": 0})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        multiplied = rng.random() < MULTIPLIED_SHARE

        def draw() -> tuple[str, dict[str, Fraction], set[str]]:
            salt = rng.randrange(4 + config.salts) >= 4  # salts repeat sooner: their share shrinks with the level
            if salt:
                waters = rng.randint(0, config.water)
                formula = salt_formula(rng) + (f"·{waters}H2O" if waters else "")
            else:
                formula = organic_formula(rng, config.carbons, config.heteroatoms)
            composition = parse_formula(formula) or {}
            printed = {s: _rounded(p, config.places) for s, p in percentages(composition).items()}
            if len(composition) < 2 or (multiplied and min(composition.values()) == 1):
                return formula, printed, set()  # rejected (v2: every count at least 2 where ``multiplied``)
            return formula, printed, consistent_formulas(printed, config.places, max(SEARCH_LIMIT, 2 * config.carbons))

        # Formulas that are their own empirical formula, so a level's sizes are the answers' sizes.
        formula, printed, found = retry(draw, lambda d: d[2] == {hill_formula(parse_formula(d[0]) or {})},
                                        attempts=100,
                                        what="percentages that fix one empirical formula")
        empirical = next(iter(found))
        table = elements()
        order = sorted(printed, key=lambda s: -printed[s])  # by share, not formula order: no hint of the answer
        lines = "\n".join(f"{table[s].name} ({s}): {_fixed(printed[s], config.places)}%" for s in order)
        weights = ", ".join(f"{s} {table[s].weight_text}" for s in sorted(printed, key=lambda s: table[s].number))
        prompt = (
            f"A compound contains only these elements, with these mass percentages (rounded to {config.places} "
            f"decimal places):\n\n{lines}\n\nUse these atomic weights (g/mol): {weights}.\n\n"
            f"What is its empirical formula (the smallest whole-number ratio of atoms)? Answer with the formula, "
            f"for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=empirical,
                       data={"percentages": {s: str(printed[s]) for s in order}, "places": config.places,
                             "formula": formula,
                             "empirical": empirical})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_answer(answer, _named_formula) if isinstance(answer, str) and len(answer) <= 300 else None
        if written is None:
            return Verdict.unparsed(f"expected one chemical formula, such as {EXAMPLE}")
        expected = parse_formula(problem.data["empirical"])
        if set(written) != set(problem.data["percentages"]):
            return Verdict.wrong("the formula must hold exactly the elements listed")
        if written == expected:
            return Verdict.right()
        if reduced(written) == expected:
            return Verdict.wrong(f"that is a multiple of the empirical formula: divide the counts by "
                                 f"{math.gcd(*written.values())}")
        return Verdict.wrong(f"{hill_formula(written)} does not have the mass percentages given")

    def difficulty(self, problem: Problem) -> float:
        """Elements, atoms of the empirical formula, and the multiplier of the smallest mole ratio."""
        empirical = parse_formula(problem.data["empirical"]) or {}
        return float(2 * len(empirical) + sum(empirical.values()) + min(empirical.values()))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        composition = parse_formula(gold) or {}
        backwards = "".join(s + (str(n) if n > 1 else "") for s, n in reversed(list(composition.items())))
        subscripted = "".join(s + (f"_{{{n}}}" if n > 1 else "") for s, n in composition.items())
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"Answer: {gold}", f"{gold}.", backwards,
                f"\\mathrm{{{subscripted}}}", gold.translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        composition = parse_formula(problem.answer or "") or {}
        doubled = hill_formula({s: 2 * n for s, n in composition.items()})
        bumped = dict(composition)
        symbol = rng.choice(sorted(bumped))
        bumped[symbol] += 1
        dropped = dict(list(composition.items())[:-1]) or {"H": 1}
        return [doubled, hill_formula(bumped), hill_formula(dropped), f"{problem.answer} or {doubled}"]
