"""Propositional satisfiability: give a satisfying assignment of a CNF formula, or say there is none.

Formulas are random 3-CNF (three distinct variables per clause, random signs, no clause twice) near the
satisfiability threshold, where random formulas are hardest and satisfiable and unsatisfiable
ones are equally likely. The status is drawn first; formulas are drawn until one with that status
comes up, and a SAT solver decides it (an unsatisfiable formula is proven so by the solver: an
``unsatisfiable`` answer is right exactly then). Both statuses share the clause count, so the
formula's size says nothing about the answer.

``unsatisfiable`` has no short proof (a refutation is long), so it is the certificate-free side:
only 20% of formulas are unsatisfiable (``UNSAT_SHARE``), and a constant ``unsatisfiable`` scores
about 0.20. It must be said alone: an assignment with ``unsatisfiable`` beside it is a hedge and is
not read.

The answer is an assignment (``x1 = true, x2 = false, ...``, ``x1=1 x2=0``, or the literals
``x1, ¬x2, ...``; variables left out may take either value) or ``unsatisfiable``. **Any**
assignment that makes every clause true is accepted.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.deduction.common import read_truth_assignment
from palaestra.solvers.sat import CNF, Budget, BudgetExhausted, SatSolver
from palaestra.verifiers.claims import has_digit, mentions
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

_BUDGET = Budget(conflicts=100_000)
_UNSAT_WORDS = frozenset({"unsatisfiable", "unsat", "not satisfiable", "no satisfying assignment", "none",
                          "no solution", "there is no satisfying assignment", "it is unsatisfiable",
                          "the formula is unsatisfiable", "no satisfying assignment exists", "no such assignment exists",
                          "the formula is not satisfiable", "no assignment exists", "there is none"})
UNSAT_SHARE = 0.2  # the certificate-free side is rare, so answering it blindly pays little
_UNSAT_MENTIONS = ("unsatisfiable", "unsat", "not satisfiable", "no satisfying", "none", "no solution", "no assignment")


@register
class SatSolve(Task):
    id = "deduction/sat_solve"
    family = "deduction"
    description = "Find a satisfying assignment of a 3-CNF formula, or answer that it is unsatisfiable."
    tags = ("logic", "satisfiability", "search")
    max_answer_chars = 3_000
    version = 2
    certificate_free = ("unsatisfiable",)

    @dataclass(frozen=True)
    class Config:
        variables: int
        clauses: int

    # about 4.3 clauses per variable: the threshold, where both answers are common
    presets = (
        Config(variables=5, clauses=21),
        Config(variables=7, clauses=30),
        Config(variables=10, clauses=43),
        Config(variables=15, clauses=64),
        Config(variables=20, clauses=86),
    )
    # Capped at level 32's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"variables": 160, "clauses": 702})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.variables
        want_sat = rng.random() >= UNSAT_SHARE

        def draw() -> tuple[list[list[int]], dict | None] | None:
            clauses: list[list[int]] = []
            seen: set[frozenset[int]] = set()
            for _ in range(20 * config.clauses):  # duplicates are skipped: a repeated clause is padding
                if len(clauses) == config.clauses:
                    break
                clause = [v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), 3)]
                if frozenset(clause) not in seen:
                    seen.add(frozenset(clause))
                    clauses.append(clause)
            model = _solve(clauses, n)
            if model == "unknown" or (model is not None) != want_sat:
                return None
            return clauses, model

        clauses, model = retry(draw, what=f"a {'satisfiable' if want_sat else 'unsatisfiable'} formula")
        names = [f"x{i}" for i in range(1, n + 1)]
        listing = "\n".join(f"({' ∨ '.join(_literal(lit) for lit in clause)})" for clause in clauses)
        prompt = (
            f"Here is a formula in conjunctive normal form over the variables {', '.join(names)}: it is the "
            "conjunction (AND) of the clauses below, each a disjunction (OR) of literals, where ¬ means not.\n\n"
            f"{listing}\n\n"
            "Find an assignment of true/false values to the variables that makes every clause true, or say that "
            "none exists. Answer with the assignment, for example: x1 = true, x2 = false, ... (one value per "
            "variable), or with the single word unsatisfiable."
        )
        answer = "unsatisfiable" if model is None else ", ".join(
            f"x{i} = {'true' if model[i] else 'false'}" for i in range(1, n + 1))
        return Problem(prompt=prompt, answer=answer, data={"variables": n, "clauses": clauses,
                                                           "satisfiable": model is not None})

    def difficulty(self, problem: Problem) -> float:
        """Variables times clauses, plus the decisions a plain DPLL search (unit propagation, first free
        variable) takes on this formula."""
        clauses = [[(abs(lit), lit > 0) for lit in c] for c in problem.data["clauses"]]
        decisions = 0

        def search(assigned: dict[int, bool]) -> bool:
            nonlocal decisions
            assigned = dict(assigned)
            while True:  # unit propagation: the first clause (in order) left false or with one free literal
                unit: tuple[int, bool] | None = None
                for clause in clauses:
                    free: tuple[int, bool] | None = None
                    count = 0
                    for variable, value in clause:
                        now = assigned.get(variable)
                        if now is None:
                            free, count = (variable, value), count + 1
                        elif now == value:
                            break  # the clause is true
                    else:
                        if count == 0:
                            return False
                        if count == 1:
                            unit = free
                            break
                if unit is None:
                    break
                assigned[unit[0]] = unit[1]
            free_vars = [v for v in range(1, problem.data["variables"] + 1) if v not in assigned]
            if not free_vars or decisions > 10_000:
                return True
            decisions += 1
            return search({**assigned, free_vars[0]: True}) or search({**assigned, free_vars[0]: False})

        search({})
        return float(problem.data["variables"] * len(clauses) + decisions)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        data = problem.data
        if not has_digit(answer) and _says_unsatisfiable(answer):
            return Verdict.judge(not data["satisfiable"], "the formula is satisfiable")
        if mentions(answer, _UNSAT_MENTIONS):
            return Verdict.unparsed("the answer gives both an assignment and 'unsatisfiable'")
        n = data["variables"]
        values = read_truth_assignment(_without_sat_label(answer), [f"x{i}" for i in range(1, n + 1)], partial=True)
        if values is None:
            return Verdict.unparsed("expected an assignment such as x1 = true, x2 = false, or unsatisfiable")
        for clause in data["clauses"]:
            if not any(values.get(f"x{abs(lit)}") == (lit > 0) for lit in clause):
                return Verdict.wrong("a clause is false under this assignment: "
                                     f"({' ∨ '.join(_literal(lit) for lit in clause)})")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        if not problem.data["satisfiable"]:
            return [*super().spellings(problem), "Unsatisfiable.", "UNSAT", "**unsatisfiable**",
                    "There is no satisfying assignment.", "No satisfying assignment exists.",
                    "Unsatisfiable."]
        pairs = [pair.split(" = ") for pair in gold.split(", ")]
        return [*super().spellings(problem),
                "\n".join(f"{k}: {'T' if v == 'true' else 'F'}" for k, v in pairs),
                " ".join(f"{k}={1 if v == 'true' else 0}" for k, v in pairs),
                ", ".join(k if v == "true" else f"¬{k}" for k, v in pairs),
                ", ".join(f"{k} = {v}" for k, v in reversed(pairs))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if not problem.data["satisfiable"]:
            n = problem.data["variables"]
            return ["x1 = true", ", ".join(f"x{i} = true" for i in range(1, n + 1)), "satisfiable", "maybe",
                    "unsatisfiable, or x1 = true", "unsatisfiable\nx1 = true", "Unsatisfiable. Actually it is satisfiable."]
        clause = rng.choice(problem.data["clauses"])
        gold = dict(pair.split(" = ") for pair in (problem.answer or "").split(", "))
        for lit in clause:  # make the clause false: every literal's variable gets the other value
            gold[f"x{abs(lit)}"] = "false" if lit > 0 else "true"
        return [", ".join(f"{k} = {v}" for k, v in gold.items()), "unsatisfiable", "x1 = true, x1 = false",
                f"{problem.answer}. Unsatisfiable.", f"unsatisfiable ({problem.answer})"]

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        return {"majority sign, else unsatisfiable": _majority_sign}

    def surface_features(self, problem: Problem) -> dict[str, float]:
        """Counts a lazy policy might read: negations, the busiest variable, variables of one sign only."""
        clauses = problem.data["clauses"]
        signs: dict[int, set[bool]] = {}
        uses: dict[int, int] = {}
        for clause in clauses:
            for lit in clause:
                signs.setdefault(abs(lit), set()).add(lit > 0)
                uses[abs(lit)] = uses.get(abs(lit), 0) + 1
        return {
            "negative share": sum(lit < 0 for clause in clauses for lit in clause) / (3 * len(clauses)),
            "busiest variable": float(max(uses.values())),
            "one-sign variables": float(sum(len(s) == 1 for s in signs.values())),
        }


def _majority_sign(problem: Problem) -> str:
    """Each variable takes the sign it has most often; that assignment if it satisfies the formula, else
    ``unsatisfiable`` (about 19% right at level 4)."""
    n, clauses = problem.data["variables"], problem.data["clauses"]
    lean = [0] * (n + 1)
    for clause in clauses:
        for lit in clause:
            lean[abs(lit)] += 1 if lit > 0 else -1
    if all(any((lean[abs(lit)] >= 0) == (lit > 0) for lit in clause) for clause in clauses):
        return ", ".join(f"x{i} = {'true' if lean[i] >= 0 else 'false'}" for i in range(1, n + 1))
    return "unsatisfiable"


def _literal(lit: int) -> str:
    return f"x{lit}" if lit > 0 else f"¬x{-lit}"


def _solve(clauses: list[list[int]], n: int) -> dict[int, bool] | None | str:
    cnf = CNF()
    for i in range(1, n + 1):
        cnf.var(i)
    for clause in clauses:
        cnf.add(clause)
    try:
        with SatSolver(cnf, _BUDGET) as solver:
            model = solver.model()
    except BudgetExhausted:
        return "unknown"
    return None if model is None else {i: model[i] for i in range(1, n + 1)}


# "Satisfiable: x1 = true, ...", "SAT. x1 = ...", "A satisfying assignment: x1 = ...": the verdict or a name for the
# assignment before it (one character class between the parts, so the pattern stays linear on long runs of spaces; no
# hyphen after the label: -x1 is the literal not x1)
_SAT_LABEL = re.compile(r"^\**(?:yes\b[\s,.:;\u2013\u2014-]*)?(?:(?:the\s+formula\s+is|it\s+is)\s+)?(?:satisfiable\b|sat\b|"
                        r"(?:(?:an?|one|the)\s+)?(?:(?:satisfying\s+)?assignment|solution|model)\b(?:\s+is\b)?)"
                        r"[\s*,.:;\u2013\u2014]*(?:(?:e\.g\.|for\s+example|for\s+instance|with)[\s,.:;\u2013\u2014]*)?",
                        re.IGNORECASE)


def _without_sat_label(answer: str) -> str:
    """The answer without a leading ``satisfiable:`` verdict or ``a satisfying assignment:`` name (bold and
    wrappers looked through: ``**SAT**: x1 = true``)."""
    text = strip_wrappers(unify(answer))
    bare = _SAT_LABEL.sub("", text, count=1)
    return strip_wrappers(bare) if bare != text and bare.strip() else answer


def _says_unsatisfiable(answer: str) -> bool:
    """Whether the answer is one of the "unsatisfiable" spellings, maybe followed by a short remark."""

    def read(text: str) -> bool | None:
        return True if text.strip().rstrip(".!").strip().lower() in _UNSAT_WORDS else None

    return read_answer(unify(answer), read) is True
