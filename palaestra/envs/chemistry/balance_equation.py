"""Balance a chemical equation with the smallest positive whole-number coefficients.

Reactions are generated from real ions and compounds: double displacement between two salts of the textbook
ion tables, neutralisation of an acid by a hydroxide, combustion of a generated CxHyOz fuel (a valid molecular
formula: even hydrogen count, at most 2x + 2), synthesis of a binary salt from its elements, and, from level 2,
metals dissolving in oxidising acids (nitric acid to NO or NO2, hot concentrated sulfuric acid to SO2). Each
reaction is kept only when its balancing is unique up to a multiple (the element matrix has a one-dimensional
null space with all entries positive, found exactly with fractions) and not all ones.

The answer is the coefficient list in the written order (also under a ``Coefficients:`` label, refused before
v4), or the whole balanced equation (species on each side in any order). The verifier checks that the coefficients are positive integers that conserve every element
and that their gcd is 1; since the balancing is unique up to a multiple, that is the minimal one. A multiple
of it is wrong and told so.

Difficulty: the atoms written in the species' formulas, plus the species count, plus the binary digits of the
coefficients (bigger molecules, more species and larger coefficients all take more elimination work). Levels
grow the fuels and the ion charges and shift the mix from salts to fuels and oxidising acids.

Reactions balanced by ones and twos alone (a salt exchange of charges 1 and 2) are kept at odds SMALL_KEEP, and level
0's fuels have up to 6 carbons: in v2 they were nearly half of level 0, spread over a few orders, and the constant
"2, 1, 1, 2" or "1, 2, 1, 2" answered 8-12% of it (0.084 for the commonest on 500 seeds); now 0.056 (level 1: 0.066 ->
0.052).
"""

from __future__ import annotations

import math
import random

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.chemistry.common import Composition, ReactionConfig, conserves, draw_reaction, parse_formula
from palaestra.verifiers.normalize import read_answer, strip_wrappers
from palaestra.verifiers.numeric import read_integer
from palaestra.verifiers.sets import read_list

EXAMPLE = "4, 1, 3, 2"  # a fixed placeholder of the right shape: never derived from the answer
STATES = ("(aq)", "(s)", "(l)", "(g)")
# Reactions whose coefficients are all 1 or 2 (a salt exchange of charges 1 and 2: "2, 1, 1, 2") are kept at these odds:
# at level 0 they were nearly half the problems, spread over a few orders, and one order answered 8-12% (v2).
SMALL_KEEP = 0.55  # lower odds leave level 0 under 95% distinct problems (few larger salt balancings)
ARROWS = ("\\longrightarrow", "\\rightarrow", "\\to", "-->", "->", "→", "⟶", "=>", "=")

@register
class BalanceEquation(Task):
    id = "chemistry/balance_equation"
    family = "chemistry"
    description = "Balance a chemical equation with the smallest whole-number coefficients (any order judged)."
    tags = ("chemistry", "science", "math")
    version = 4  # v4: "Coefficients: 2, 1, 2, 1" read (v3 refused the label)
    # v3: reactions balanced by ones and twos alone kept at odds SMALL_KEEP (their few orders answered
    # up to 12% of level 0 each: "2, 1, 1, 2"), level 0's fuels up to 6 carbons (was 4). v2: level 2 weighs salt reactions 14 (was 6): it repeated 5.1% of its problems in 1,000 seeds
    max_answer_chars = 600

    Config = ReactionConfig

    presets = (Config(3, 6, False, 12, False), Config(3, 8, False, 12), Config(3, 16, True, 14),
               Config(4, 22, True, 4), Config(4, 30, True, 2))
    growth = Growth(steps={"carbons": 8, "salts": -2}, limits={"salts": 0})

    def generate(self, rng: random.Random, config: ReactionConfig) -> Problem:
        left, right, kind, coefficients = retry(
            lambda: draw_reaction(rng, config), lambda drawn: max(drawn[3]) > 2 or rng.random() < SMALL_KEEP,
            attempts=60, what="a reaction (those balanced by ones and twos alone thinned)")
        equation = " + ".join(left) + " -> " + " + ".join(right)
        prompt = (
            f"Balance this chemical equation with the smallest positive whole-number coefficients:\n\n"
            f"{equation}\n\n"
            f"Answer with the {len(left) + len(right)} coefficients in the order the species are written "
            f"(reactants, then products), separated by commas, writing 1 where a coefficient is one (for a "
            f"different reaction the answer might look like: {EXAMPLE}). You may instead write the whole balanced "
            f"equation."
        )
        return Problem(prompt=prompt, answer=", ".join(map(str, coefficients)),
                       data={"reactants": left, "products": right, "kind": kind, "coefficients": coefficients})

    def _read(self, problem: Problem, answer: str) -> list[int] | None:
        """Coefficients in the written order, from a list or from a full equation."""
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return None
        count = len(problem.data["reactants"]) + len(problem.data["products"])
        stripped = answer.strip()
        if stripped.lower().startswith("coefficients:"):  # the list under its label, as "Answer:" is read
            answer = stripped[len("coefficients:"):]
        listed = read_list(answer, read_integer, space_separated=True)
        if listed is not None:
            return listed if len(listed) == count else None
        return read_answer(answer, lambda s: self._read_equation(problem, s))

    def _read_equation(self, problem: Problem, text: str) -> list[int] | None:
        text = text.strip()
        if text.startswith("\\ce{") and text.endswith("}"):  # mhchem: \ce{2 H2 + O2 -> 2 H2O}
            text = text[len("\\ce{") : -1]
        arrow = next((a for a in ARROWS if text.count(a) == 1), None)
        if arrow is None:
            return None
        sides = text.split(arrow)
        found: list[int] = []
        for side_text, species in zip(sides, (problem.data["reactants"], problem.data["products"]), strict=True):
            wanted = [parse_formula(f) for f in species]
            terms = [t.strip() for t in strip_wrappers(side_text).replace("$", "").split("+")]
            coefficients: list[int | None] = [None] * len(species)
            if len(terms) != len(species):
                return None
            for term in terms:
                digits = len(term) - len(term.lstrip("0123456789"))
                if digits > 6 or (digits and term[0] == "0"):
                    return None
                coefficient = int(term[:digits]) if digits else 1
                formula = term[digits:].strip()
                state = next((x for x in STATES if formula.endswith(x)), "")  # a state symbol: H2O(l), NaCl(aq)
                composition = parse_formula(formula[: len(formula) - len(state)].strip())
                if composition is None or composition not in wanted:
                    return None
                index = wanted.index(composition)
                if coefficients[index] is not None:
                    return None
                coefficients[index] = coefficient
            found += [c for c in coefficients if c is not None]
        return found

    def verify(self, problem: Problem, answer: str) -> Verdict:
        coefficients = self._read(problem, answer)
        if coefficients is None:
            return Verdict.unparsed(f"expected {len(problem.data['reactants']) + len(problem.data['products'])} "
                                    f"coefficients separated by commas, such as {EXAMPLE}, or the balanced equation")
        if any(c <= 0 for c in coefficients):
            return Verdict.wrong("every coefficient must be a positive whole number")
        reactants: list[Composition] = [parse_formula(f) or {} for f in problem.data["reactants"]]
        products: list[Composition] = [parse_formula(f) or {} for f in problem.data["products"]]
        unbalanced = conserves(reactants, products, coefficients)
        if unbalanced:
            return Verdict.wrong(f"not balanced: {', '.join(unbalanced)} atoms differ between the sides")
        divisor = math.gcd(*coefficients)
        if divisor > 1:
            return Verdict.wrong(f"balanced, but not the smallest whole numbers: divide every coefficient by {divisor}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Atoms in the species' formulas, the species, and the binary digits of the coefficients."""
        species = [*problem.data["reactants"], *problem.data["products"]]
        atoms = sum(sum((parse_formula(f) or {}).values()) for f in species)
        return float(atoms + len(species) + sum(c.bit_length() for c in problem.data["coefficients"]))

    def _equation(self, problem: Problem, order: int = 1) -> str:
        coefficients = problem.data["coefficients"]
        n = len(problem.data["reactants"])
        terms = [(f"{c} " if c > 1 else "") + f for c, f in
                 zip(coefficients, [*problem.data["reactants"], *problem.data["products"]], strict=True)]
        left, right = terms[:n][::order], terms[n:][::order]
        return " + ".join(left) + " → " + " + ".join(right)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"Answer: {gold}", f"{gold}.",
                gold.replace(", ", " "), f"({gold})", self._equation(problem), self._equation(problem, -1),
                self._equation(problem).replace(" → ", " -> ").replace(" ", "")]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        coefficients = problem.data["coefficients"]
        doubled = ", ".join(str(2 * c) for c in coefficients)
        bumped = list(coefficients)
        bumped[rng.randrange(len(bumped))] += 1
        ones = ", ".join("1" for _ in coefficients)
        wrong = [doubled, ", ".join(map(str, bumped)), ", ".join(map(str, coefficients[:-1])),
                 f"{problem.answer} or {ones}"]
        if list(reversed(coefficients)) != coefficients:
            wrong.append(", ".join(map(str, reversed(coefficients))))
        return wrong
