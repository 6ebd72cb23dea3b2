"""Decide whether propositional premises entail a conclusion.

Premises and conclusion are random formulas over the variables p, q, r, ... built with ¬, ∧, ∨,
→ and ↔. The premises are drawn first, without looking at the label, and are kept only when
they are jointly satisfiable, pairwise inequivalent and admit both an entailed and a
non-entailed conclusion of one shape (a tree of connectives, filled with variables and
negations in two ways). The label is then drawn (both answers equally common) and picks one of
the two fillings. So nothing about the premises, nor the connectives of the conclusion, hints at
the label (a truth table over all assignments decides it). No formula or subformula is
constant, a non-entailed conclusion is still consistent with the premises, and the conclusion
never restates a premise, appears inside one or uses a variable the premises do not mention.

The answer is ``yes`` (entailed) or ``no`` (not entailed), in any case; ``true``/``false`` and
``entailed``/``not entailed`` are read the same way, and a short trailing sentence that does not
contradict the answer is allowed (``Yes, it is entailed.``).

Version 2: premises drawn independently of the label and conclusions of one shape for both
labels (the premises' connectives predicted the label: "yes iff more ∨/→ than ∧" scored 63%);
level 0 has three variables (two gave 687 distinct problems per 1,000 seeds); yes/no read with
the shared reader; a difficulty measure.

Version 3: premises with a single model are redrawn at once (every consistent conclusion is
entailed there, so no conclusion pair exists): problems from the same distribution, another random stream.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.choices import NEGATIONS, read_yes_no
from palaestra.verifiers.normalize import strip_wrappers, unify, words

_VARIABLES = "pqrstu"
_SYMBOLS = {"and": "∧", "or": "∨", "imp": "→", "iff": "↔"}
_FILLINGS = 60  # fillings of one conclusion shape tried for an entailed and a non-entailed one
_SHAPES = 6  # conclusion shapes tried for one set of premises
_YES = ("yes", "true", "it is entailed", "the premises entail the conclusion")
_NO = ("no", "false", "it is not entailed", "the premises do not entail the conclusion")
# One-word verdicts, read only as the whole answer: as a yes-spelling, "entailed" would make the
# remark in "No, it is not entailed." name the other answer.
_VERDICTS = {"entailed": True, "not entailed": False}


@register
class Propositional(Task):
    id = "deduction/propositional"
    family = "deduction"
    seed_id = "logic/propositional"  # moved from logic/ in round 3; same problems
    aliases = {"logic/propositional": {"version": 3}}
    description = "Decide whether propositional-logic premises entail a conclusion."
    tags = ("logic", "deduction", "classification")
    version = 3

    @dataclass(frozen=True)
    class Config:
        variables: int
        premises: int
        depth: int  # maximum nesting of connectives in one formula

    presets = (
        Config(variables=3, premises=2, depth=1),
        Config(variables=3, premises=2, depth=2),
        Config(variables=4, premises=3, depth=2),
        Config(variables=5, premises=4, depth=3),
        Config(variables=6, premises=5, depth=3),
    )
    # Capped at level 16's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(steps={"depth": 1}, limits={"depth": 15})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        variables, everything = _variable_tables(config.variables)

        def draw() -> tuple[list[list], dict[bool, tuple[list, int]]] | None:
            drawn = [_formula(rng, variables, everything, config.depth) for _ in range(config.premises)]
            premises, tables = [f for f, _ in drawn], [t for _, t in drawn]
            models = everything
            for table in tables:
                models &= table
            if models & (models - 1) == 0 or len(set(tables)) < len(tables):
                # contradictory or equivalent premises, or a single model, where every consistent conclusion is entailed
                return None
            rendered = [_render(f) for f in premises]
            for _ in range(_SHAPES):
                pair = _conclusion_pair(rng, config, variables, everything, models, tables, rendered)
                if pair is not None:
                    return premises, pair
            return None

        premises, pair = retry(draw, what="premises with an entailed and a non-entailed conclusion")
        entailed = rng.random() < 0.5
        conclusion = _render(pair[entailed][0])
        names = ", ".join(_VARIABLES[: config.variables])
        listing = "\n".join(f"{i}. {_render(f)}" for i, f in enumerate(premises, 1))
        prompt = (
            f"In propositional logic over the variables {names}, with ¬ meaning not, ∧ and, ∨ (inclusive) or, "
            "→ implies and ↔ if and only if:\n\n"
            f"Premises:\n{listing}\n\nConclusion: {conclusion}\n\n"
            "Do the premises entail the conclusion, that is, is the conclusion true under every assignment "
            "of truth values that makes all the premises true? Answer with one word: yes (entailed) or no "
            "(not entailed)."
        )
        return Problem(
            prompt=prompt,
            answer="yes" if entailed else "no",
            data={
                "premises": [_render(f) for f in premises],
                "conclusion": conclusion,
                "entailed": entailed,
                "variables": config.variables,
            },
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        said = _read_verdict(answer)
        if said is None:
            return Verdict.unparsed("expected yes or no")
        return Verdict.judge(said == problem.data["entailed"], "wrong")

    def difficulty(self, problem: Problem) -> float:
        """Truth-table effort: assignments to check times the connectives to evaluate in each."""
        formulas = [*problem.data["premises"], problem.data["conclusion"]]
        connectives = sum(sum(f.count(s) for s in (*_SYMBOLS.values(), "¬")) for f in formulas)
        return float(2 ** problem.data["variables"] * connectives)

    def spellings(self, problem: Problem) -> list[str]:
        if problem.data["entailed"]:
            return [*super().spellings(problem), "Yes", "YES.", "True", "**yes**", "\\boxed{yes}", "Entailed",
                    "Yes."]
        return [*super().spellings(problem), "No", "NO.", "False", "**no**", "\\boxed{no}", "Not entailed",
                "No."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        other = "no" if problem.data["entailed"] else "yes"
        contradictions = ["Yes, it is not entailed.", "Entailed, not"] if problem.data["entailed"] else [
            "No, it is entailed.", "not entailed, yes"]
        return [other, other.upper() + ".", "yes or no", "maybe", f"{problem.answer}, no wait, {other}",
                *contradictions]

    def surface_features(self, problem: Problem) -> dict[str, float]:
        """Cheap cues a lazy policy could read: the premises' and the conclusion's connectives."""
        premises, conclusion = problem.data["premises"], problem.data["conclusion"]
        text = " ".join(premises)
        weak = text.count("∨") + text.count("→")
        return {
            "premise ∨/→ minus ∧": float(weak - text.count("∧")),
            "premise ∨/→ share": weak / max(1, weak + text.count("∧") + text.count("↔")),
            "conclusion ∨/→ minus ∧": float(conclusion.count("∨") + conclusion.count("→") - conclusion.count("∧")),
            "conclusion negations": float(conclusion.count("¬")),
            "conclusion length": float(len(conclusion)),
            "conclusion variables absent from premises": float(
                sum(v in conclusion and v not in text for v in _VARIABLES)),
            "conclusion variables shared with premises": float(sum(v in conclusion and v in text for v in _VARIABLES)),
            "premise negations": float(text.count("¬")),
        }


def _read_verdict(answer: str) -> bool | None:
    """True (entailed), False (not entailed) or None: yes/no/true/false with a short remark, or the verdict alone.

    A *no* whose remark speaks of entailment without a negation (``No, entailed``) contradicts
    itself and is unreadable, as a *yes* with a negated remark is (the shared reader's rule).
    """
    if len(answer) > 600:
        return None
    verdict = _VERDICTS.get(strip_wrappers(unify(answer)).rstrip(".!").strip().lower())
    if verdict is not None:
        return verdict
    said = read_yes_no(answer, yes=_YES, no=_NO)
    spoken = words(answer)
    if said is False and any(w.startswith("entail") for w in spoken) and not NEGATIONS.intersection(spoken[1:]):
        return None
    return said


# A formula is a JSON list: ["var", i], ["not", f] or [connective, f, g]. Its truth table is an int
# whose bit a is the formula's value under assignment a (bit i of a set = variable i is true).


@cache
def _variable_tables(n: int) -> tuple[list[int], int]:
    tables = [sum(1 << a for a in range(1 << n) if a >> i & 1) for i in range(n)]
    return tables, (1 << (1 << n)) - 1


def _literal(rng: random.Random, variables: list[int], everything: int) -> tuple[list, int]:
    i = rng.randrange(len(variables))
    if rng.random() < 0.3:
        return ["not", ["var", i]], everything ^ variables[i]
    return ["var", i], variables[i]


def _combine(op: str, a: int, b: int, everything: int) -> int:
    return {"and": a & b, "or": a | b, "imp": (everything ^ a) | b, "iff": everything ^ a ^ b}[op]


def _formula(
    rng: random.Random, variables: list[int], everything: int, depth: int, leaf_chance: float = 0.1
) -> tuple[list, int]:
    """A random formula with at most ``depth`` nested binary connectives, and its truth table.

    Whole formulas are rarely bare literals (``leaf_chance``); subformulas more often are.
    No subformula is constant, and the two sides of a connective are neither equivalent nor
    complementary, which rules out padding such as ``q ∨ q`` or ``¬t ∧ t``.
    """
    if depth == 0 or rng.random() < leaf_chance:
        return _literal(rng, variables, everything)

    def draw() -> tuple[str, list, list, int] | None:
        op = rng.choice(("and", "or", "imp", "imp", "iff"))
        left, a = _formula(rng, variables, everything, depth - 1, 0.25)
        right, b = _formula(rng, variables, everything, depth - 1, 0.25)
        table = _combine(op, a, b, everything)
        if a == b or a == everything ^ b or table in (0, everything):
            return None
        return op, left, right, table

    op, left, right, table = retry(draw, what="a non-constant subformula")
    if rng.random() < 0.1:
        return ["not", [op, left, right]], everything ^ table
    return [op, left, right], table


def _shape(formula: list) -> list:
    """The formula with every literal replaced by a slot: its connectives, without its variables."""
    if formula[0] == "var" or (formula[0] == "not" and formula[1][0] == "var"):
        return ["slot"]
    if formula[0] == "not":
        return ["not", _shape(formula[1])]
    return [formula[0], _shape(formula[1]), _shape(formula[2])]


def _fill(
    rng: random.Random, shape: list, variables: list[int], everything: int
) -> tuple[list, int] | None:
    """A formula of ``shape`` with random literals, or None if a subformula came out degenerate."""
    if shape[0] == "slot":
        return _literal(rng, variables, everything)
    if shape[0] == "not":
        inner = _fill(rng, shape[1], variables, everything)
        return None if inner is None else (["not", inner[0]], everything ^ inner[1])
    left, right = _fill(rng, shape[1], variables, everything), _fill(rng, shape[2], variables, everything)
    if left is None or right is None:
        return None
    a, b = left[1], right[1]
    table = _combine(shape[0], a, b, everything)
    if a == b or a == everything ^ b or table in (0, everything):
        return None
    return [shape[0], left[0], right[0]], table


def _conclusion_pair(
    rng: random.Random,
    config: Propositional.Config,
    variables: list[int],
    everything: int,
    models: int,
    premise_tables: list[int],
    premises: list[str],
) -> dict[bool, tuple[list, int]] | None:
    """An entailed and a non-entailed (but consistent) conclusion of one shape, keyed by entailment.

    None when the fillings tried did not give both. Neither may restate a premise (same truth
    table), be written inside one, or use a variable the premises do not mention (a cheap cue
    for "no").
    """
    shape = _shape(_formula(rng, variables, everything, rng.randint(1, config.depth))[0])
    mentioned = set("".join(premises)) & set(_VARIABLES)
    found: dict[bool, tuple[list, int]] = {}
    for _ in range(_FILLINGS):
        filled = _fill(rng, shape, variables, everything)
        if filled is None:
            continue
        formula, table = filled
        entailed = models & ~table == 0
        if entailed in found or not models & table or table in premise_tables:
            continue  # a filling of a kind already found is not looked at further
        text = _render(formula)
        if not (set(text) & set(_VARIABLES)).issubset(mentioned) or any(text in premise for premise in premises):
            continue
        found[entailed] = filled
        if len(found) == 2:
            return found
    return None


def _render(formula: list, nested: bool = False) -> str:
    op = formula[0]
    if op == "var":
        return _VARIABLES[formula[1]]
    if op == "not":
        return "¬" + _render(formula[1], nested=True)
    text = f"{_render(formula[1], True)} {_SYMBOLS[op]} {_render(formula[2], True)}"
    return f"({text})" if nested else text
