"""Decide whether propositional premises entail a conclusion.

Premises and conclusion are random formulas over the variables p, q, r, ... built with ¬, ∧, ∨,
→ and ↔. The label (entailed or not) is drawn first so both answers are equally common; formulas
are then drawn until a truth table over all assignments confirms that label. The premises are
always jointly satisfiable, no formula or subformula is constant, and a non-entailed conclusion is still
consistent with the premises, so neither answer follows from a shortcut.

The answer is ``yes`` (entailed) or ``no`` (not entailed), in any case.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register

_VARIABLES = "pqrstu"
_SYMBOLS = {"and": "∧", "or": "∨", "imp": "→", "iff": "↔"}
_CONCLUSION_TRIES = 40


@register
class Propositional(Task):
    id = "logic/propositional"
    family = "logic"
    description = "Decide whether propositional-logic premises entail a conclusion."
    tags = ("logic", "deduction", "classification")

    @dataclass(frozen=True)
    class Config:
        variables: int
        premises: int
        depth: int  # maximum nesting of connectives in one formula

    def config(self, level: int) -> Config:
        return [
            self.Config(variables=2, premises=2, depth=1),
            self.Config(variables=3, premises=2, depth=2),
            self.Config(variables=4, premises=3, depth=2),
            self.Config(variables=5, premises=4, depth=3),
            self.Config(variables=6, premises=5, depth=3),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        entailed = rng.random() < 0.5
        variables, everything = _variable_tables(config.variables)
        while True:
            drawn = [_formula(rng, variables, everything, config.depth) for _ in range(config.premises)]
            premises, tables = [f for f, _ in drawn], [t for _, t in drawn]
            models = everything
            for table in tables:
                models &= table
            if not models or len(set(tables)) < len(tables):
                continue  # contradictory or equivalent premises
            conclusion = _conclusion(rng, config, variables, everything, models, entailed)
            if conclusion is not None and conclusion[1] not in tables:  # not a restated premise
                break
        names = ", ".join(_VARIABLES[: config.variables])
        listing = "\n".join(f"{i}. {_render(f)}" for i, f in enumerate(premises, 1))
        prompt = (
            f"In propositional logic over the variables {names}, with ¬ meaning not, ∧ and, ∨ (inclusive) or, "
            "→ implies and ↔ if and only if:\n\n"
            f"Premises:\n{listing}\n\nConclusion: {_render(conclusion[0])}\n\n"
            "Do the premises entail the conclusion, that is, is the conclusion true under every assignment "
            "of truth values that makes all the premises true? Answer yes or no."
        )
        return Problem(
            prompt=prompt,
            answer="yes" if entailed else "no",
            data={
                "premises": [_render(f) for f in premises],
                "conclusion": _render(conclusion[0]),
                "entailed": entailed,
            },
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        word = answer.strip().strip(".!\"'*` ").lower() if len(answer) <= 20 else ""
        if word not in ("yes", "no"):
            return Verdict.unparsed("expected yes or no")
        return Verdict.judge((word == "yes") == problem.data["entailed"], "wrong")

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["no" if problem.data["entailed"] else "yes"]


# A formula is a JSON list: ["var", i], ["not", f] or [connective, f, g]. Its truth table is an int
# whose bit a is the formula's value under assignment a (bit i of a set = variable i is true).


@cache
def _variable_tables(n: int) -> tuple[list[int], int]:
    tables = [sum(1 << a for a in range(1 << n) if a >> i & 1) for i in range(n)]
    return tables, (1 << (1 << n)) - 1


def _formula(
    rng: random.Random, variables: list[int], everything: int, depth: int, leaf_chance: float = 0.1
) -> tuple[list, int]:
    """A random formula with at most ``depth`` nested binary connectives, and its truth table.

    Whole formulas are rarely bare literals (``leaf_chance``); subformulas more often are.
    No subformula is constant, and the two sides of a connective are neither equivalent nor
    complementary, which rules out padding such as ``q ∨ q`` or ``¬t ∧ t``.
    """
    if depth == 0 or rng.random() < leaf_chance:
        i = rng.randrange(len(variables))
        if rng.random() < 0.3:
            return ["not", ["var", i]], everything ^ variables[i]
        return ["var", i], variables[i]
    while True:
        op = rng.choice(("and", "or", "imp", "imp", "iff"))
        left, a = _formula(rng, variables, everything, depth - 1, 0.25)
        right, b = _formula(rng, variables, everything, depth - 1, 0.25)
        if a == b or a == everything ^ b:
            continue
        table = {"and": a & b, "or": a | b, "imp": (everything ^ a) | b, "iff": everything ^ a ^ b}[op]
        if table not in (0, everything):
            break
    if rng.random() < 0.1:
        return ["not", [op, left, right]], everything ^ table
    return [op, left, right], table


def _conclusion(
    rng: random.Random, config: Propositional.Config, variables: list[int], everything: int, models: int, entailed: bool
) -> tuple[list, int] | None:
    """A formula (and its table) entailed by ``models`` or, if not, still true in one of them; None if none turns up."""
    for _ in range(_CONCLUSION_TRIES):
        formula, table = _formula(rng, variables, everything, rng.randint(1, config.depth))
        if entailed == (models & ~table == 0) and models & table:
            return formula, table
    return None


def _render(formula: list, nested: bool = False) -> str:
    op = formula[0]
    if op == "var":
        return _VARIABLES[formula[1]]
    if op == "not":
        return "¬" + _render(formula[1], nested=True)
    text = f"{_render(formula[1], True)} {_SYMBOLS[op]} {_render(formula[2], True)}"
    return f"({text})" if nested else text
