"""Natural deduction: prove a propositional sequent with a Fitch-style proof, every step checked.

The sequent comes from a random proof tree built backwards from a random goal (each goal proved by
an introduction or elimination rule whose premises become new goals; goals that are open assumptions
are cited, the others become premises when the step budget is spent), so it is valid by construction,
and a truth table confirms it. Draws are refused when the premises are jointly unsatisfiable (⊥E would
then prove anything), when no premise is needed, when the goal is a premise, or when the proof is
short. The tree's Fitch rendering is the reference; **any** correct proof is accepted.

The checker (:mod:`palaestra.envs.proofs._fitch`) reads each numbered line (bars for subproof depth,
a formula in ASCII or Unicode connectives, a rule in any common spelling — ``→E``, ``->E``, ``MP``,
``imp-elim`` — and its cited lines and ranges) and checks every step: the rule's shape, that the
cited lines are earlier and still accessible, that a cited range is a closed subproof of the current
context, and that the line follows. Feedback names the first bad step. The system is classical (RAA
and ¬¬E allowed). Difficulty: the reference proof's lines plus the goal's size.

Generation speed: about 430 problems/s at level 4 on this 2-core machine. Each draw builds a random proof
tree and checks its sequent by truth tables (premises satisfiable, each needed, none implied by the
others); about 35 draws are made per kept problem, and these conditions are what stop a proof that
ignores the premises or uses ex falso from earning reward.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.proofs._fitch import Line, check, draw_sequent, read_proof, render
from palaestra.envs.proofs._logic import ATOMS, parse_formula, show, size

EXAMPLE = (
    "1. a → b        premise\n"
    "2. | a ∧ c      assumption\n"
    "3. | a          ∧E 2\n"
    "4. | b          →E 1, 3\n"
    "5. (a ∧ c) → b  →I 2-4"
)


@register
class NaturalDeduction(Task):
    id = "proofs/natural_deduction"
    family = "proofs"
    description = "Prove a propositional sequent in Fitch-style natural deduction; every step is checked."
    tags = ("logic", "proofs", "natural-deduction")
    version = 2  # level 0 over four atoms
    multiline = True

    @dataclass(frozen=True)
    class Config:
        atoms: int
        goal_depth: int  # connective levels of the goal
        budget: int  # rule applications in the random proof tree
        min_lines: int  # proof lines besides the premises, at least
        max_premises: int

    presets = (
        Config(atoms=4, goal_depth=2, budget=3, min_lines=3, max_premises=3),  # 3 atoms: 6.6% of 1,000 repeated
        Config(atoms=3, goal_depth=2, budget=5, min_lines=5, max_premises=4),
        Config(atoms=3, goal_depth=3, budget=6, min_lines=6, max_premises=4),
        Config(atoms=4, goal_depth=3, budget=8, min_lines=8, max_premises=5),
        Config(atoms=4, goal_depth=3, budget=11, min_lines=11, max_premises=6),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"budget": 2, "min_lines": 2, "atoms": 1, "goal_depth": 1, "max_premises": 1}, limits={"atoms": 6, "goal_depth": 4, "max_premises": 7, "budget": 29, "min_lines": 29})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = ATOMS[: config.atoms]
        sequent = retry(lambda: draw_sequent(rng, names, config.goal_depth, config.budget, True, config.min_lines,
                                             config.max_premises), attempts=20_000, what="a provable sequent")
        premises = [show(p) for p in sequent.premises]
        listing = "\n".join(f"  {p}" for p in premises) if premises else "  (none: the goal is a theorem)"
        prompt = (
            f"Prove the goal from the premises in Fitch-style natural deduction (classical).\n\nPremises:\n{listing}\n"
            f"Goal: {show(sequent.goal)}\n\n"
            "Write numbered lines: the number, one | per enclosing subproof, the formula, then the rule and the "
            "lines it cites. Premises come first (rule: premise). An assumption line opens a subproof one bar "
            "deeper; a range i-j cites a closed subproof (assumption on line i, its last line j). Rules: premise; "
            "assumption; R k (reiteration); ∧I k, m; ∧E k; ∨I k; ∨E k, i-j, m-n; →I i-j; →E k, m; ¬I i-j (a "
            "subproof from A to ⊥ gives ¬A); ¬E k, m (A and ¬A give ⊥); ⊥E k (⊥ gives anything); RAA i-j (a "
            "subproof from ¬A to ⊥ gives A); ¬¬E k. The last line, outside every subproof, is the goal. ASCII "
            "connectives (->, &, |, ~, _|_) are fine. Any correct proof is accepted. The shape, for example:\n"
            f"{EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=render(sequent.proof), data={
            "atoms": list(names), "premises": premises, "goal": show(sequent.goal),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        atoms = problem.data["atoms"]
        lines = read_proof(answer, atoms)
        if isinstance(lines, str):
            return Verdict.unparsed(lines)
        premises = [parse_formula(p, atoms) for p in problem.data["premises"]]
        goal = parse_formula(problem.data["goal"], atoms)
        error = check(lines, [p for p in premises if p is not None], goal or ("bot",))
        return Verdict.judge(error is None, error or "")

    def difficulty(self, problem: Problem) -> float:
        """Lines of the reference proof plus a quarter of the goal's size."""
        goal = parse_formula(problem.data["goal"], problem.data["atoms"])
        return len((problem.answer or "").splitlines()) + (size(goal) / 4 if goal else 0)

    def spellings(self, problem: Problem) -> list[str]:
        lines = self._reference(problem)
        plain = render(lines, ascii_only=True)
        bracketed = "\n".join(_bracketed(row) for row in render(lines).splitlines())
        worded = render(lines).replace("→I", "->intro").replace("→E", "MP").replace("∧E", "and-elim")
        return [*super().spellings(problem), plain, f"```\n{problem.answer}\n```", f"Proof:\n{problem.answer}",
                bracketed, worded, plain.replace(". ", ") ", len(lines))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        lines = self._reference(problem)
        final = lines[-1]
        wrong = [
            # the goal asserted as a premise
            render([*lines[:-1], Line(final.number, 0, final.formula, "premise")]),
            # the proof without its last step
            render(lines[:-1]),
            # the goal cited from a later line
            render([*lines[:-1], Line(final.number, 0, final.formula, "reit", [final.number])]),
        ]
        first = next((line for line in lines if line.rule == "assumption"), None)
        if first is not None:  # the first subproof's assumption is swapped for its negation: the discharge breaks
            swapped = Line(first.number, first.depth, ("not", first.formula), "assumption")
            wrong.append(render([swapped if line is first else line for line in lines]))
        return wrong

    def _reference(self, problem: Problem) -> list[Line]:
        lines = read_proof(problem.answer or "", problem.data["atoms"])
        assert not isinstance(lines, str), lines
        return lines


def _bracketed(row: str) -> str:
    """``4. | q    →E 1, 3`` as ``4. | q  [→E 1, 3]``."""
    formula, _, justification = row.partition("    ")
    return f"{formula}  [{justification.strip()}]"
