"""Decide whether propositional premises entail a conclusion; if not, show a counter-model.

Premises and conclusion are random formulas over the variables p, q, r, ... built with ¬, ∧, ∨,
→ and ↔. The premises are drawn first, without looking at the label, and are kept only when
they are jointly satisfiable, pairwise inequivalent and admit both an entailed and a
non-entailed conclusion of one shape (a tree of connectives, filled with variables and
negations in two ways). The label is then drawn and picks one of the two fillings. So nothing
about the premises, nor the connectives of the conclusion, hints at the label (a truth table
over all assignments decides it). No formula or subformula is constant, a non-entailed
conclusion is still consistent with the premises, and the conclusion never restates a premise,
appears inside one or uses a variable the premises do not mention.

"Not entailed" has a short certificate, so it must be shown: the answer is ``no`` followed by a
counter-model, a truth value for every variable that makes every premise true and the conclusion
false (``no: p = true, q = false, ...``; ``p=1 q=0``, ``p: T``, the literals ``p, ¬q``, with or
without the ``no``, read by the family's assignment reader as deduction/equivalence reads it), and
**any** counter-model is accepted (the formulas are evaluated under it). A bare ``no`` scores 0.
"Entailed" has no short certificate (a truth table is exponential), so ``yes`` is answered alone
(or ``true``, ``entailed``, in any case) and is the answer of
a quarter of the problems (``ENTAILED_SHARE``): a constant ``yes`` scores about 0.25. A ``yes``
beside an assignment, two values for a variable or a retraction is not read.

A non-entailed conclusion has at most a sixteenth of all assignments as counter-models (at
least one; ``COUNTER_MODEL_SHARE``), as deduction/equivalence bounds its separating rows, so a
guessed assignment rarely is one: a uniformly random assignment, all-true or all-false after
``no`` each score at most about 0.06 at every level (about 0.11 at levels 0-1 without that bound).

Version 2: premises drawn independently of the label and conclusions of one shape for both
labels (the premises' connectives predicted the label: "yes iff more ∨/→ than ∧" scored 63%);
level 0 has three variables (two gave 687 distinct problems per 1,000 seeds); yes/no read with
the shared reader; a difficulty measure.

Version 3: premises with a single model are redrawn at once (every consistent conclusion is
entailed there, so no conclusion pair exists): problems from the same distribution, another random stream.

Version 4: a ``no`` must come with a counter-model and ``yes`` answers a quarter of the problems
(version 3 took a bare yes or no on balanced problems, which a coin paid half the time); levels 0
and 1 have four variables (three left a random assignment a counter-model one time in eight, and
only nine distinct answers); a non-entailed conclusion has at most a sixteenth of the assignments
as counter-models.

Version 5: a non-entailed conclusion also has at most a quarter of the premises' models as counter-models
(``PREMISE_MODEL_SHARE``). In version 4 the premises often had two or three models, so ``no:`` with a random model
of the premises, found without reading the conclusion, was a counter-model 0.23, 0.20, 0.25, 0.22 and 0.30 of the
time at levels 0-4 (200 seeds each; more than the constant ``yes`` at the top level); now 0.15, 0.17, 0.16, 0.11,
0.15. An assignment that falsifies the conclusion alone, ignoring the premises, scores 0.22, 0.22, 0.23, 0.14, 0.11.
Level 0 redraws more premises: its generation takes about twice as long as in version 4.

Generation speed: about 220 problems/s at level 0, 1,300 at level 1 and 4,500 at level 4 (level 0's
premises, of one connective each, seldom admit a conclusion with a single counter-model and are
redrawn most often).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.deduction.common import read_truth_assignment
from palaestra.verifiers.choices import NEGATIONS, read_yes_no
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify, words

_VARIABLES = "pqrstu"
_SYMBOLS = {"and": "∧", "or": "∨", "imp": "→", "iff": "↔"}
_CONNECTIVES = {symbol: name for name, symbol in _SYMBOLS.items()}
_FILLINGS = 60  # fillings of one conclusion shape tried for an entailed and a non-entailed one
_SHAPES = 6  # conclusion shapes tried for one set of premises
ENTAILED_SHARE = 0.25  # the certificate-free "yes" answers this share: a constant "yes" scores about 0.25
COUNTER_MODEL_SHARE = 1 / 16  # at most this share of all assignments (and at least one) are counter-models
# ... and at most this share of the premises' models: a model of the premises found without reading the conclusion
# must seldom be a counter-model
PREMISE_MODEL_SHARE = 1 / 4
_YES = ("yes", "true", "it is entailed", "the premises entail the conclusion")
_NO = ("no", "false", "it is not entailed", "the premises do not entail the conclusion")
# One-word verdicts, read only as the whole answer: as a yes-spelling, "entailed" would make the
# remark in "No, it is not entailed." name the other answer.
_VERDICTS = {"entailed": True, "not entailed": False}
# "No, it is not entailed: p = true, ..." states the verdict (and may name the counter-model) before it; "Counter-model:
# p = true, ..." names it alone (no hyphen after the name: -p is the literal not p).
_COUNTER_MODEL = r"(?:an? |one )?counter-? ?(?:model|example)(?: is)?\b[\s,.:;—–]*"
_NO_LEAD = re.compile(r"^(?:(?:(?:no|false|not entailed|it is not entailed|the premises do not entail the conclusion)\b"
                      r"[\s,.:;!—–-]*)+(?:" + _COUNTER_MODEL + r")?|" + _COUNTER_MODEL + ")", re.IGNORECASE)
_NEGATION_MARKS = ("¬", "~")  # ("!p" and "-p" name a variable, which is checked too)


@register
class Propositional(Task):
    id = "deduction/propositional"
    family = "deduction"
    seed_id = "logic/propositional"  # moved from logic/ in round 3; same problems
    aliases = {"logic/propositional": {"version": 3}}
    description = "Decide whether propositional-logic premises entail a conclusion; if not, give a counter-model."
    tags = ("logic", "deduction", "certificates")
    version = 5
    max_answer_chars = 600
    certificate_free = ("yes",)
    bare_verdicts = ("no",)

    @dataclass(frozen=True)
    class Config:
        variables: int
        premises: int
        depth: int  # maximum nesting of connectives in one formula

    presets = (
        Config(variables=4, premises=2, depth=1),
        Config(variables=4, premises=2, depth=2),
        Config(variables=4, premises=3, depth=2),
        Config(variables=5, premises=4, depth=3),
        Config(variables=6, premises=5, depth=3),
    )
    # Capped at level 16's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(steps={"depth": 1}, limits={"depth": 15})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        variables, everything = _variable_tables(config.variables)

        def draw() -> tuple[list[list], int, dict[bool, tuple[list, int]]] | None:
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
                    return premises, models, pair
            return None

        premises, models, pair = retry(draw, what="premises with an entailed and a non-entailed conclusion")
        entailed = rng.random() < ENTAILED_SHARE
        conclusion = _render(pair[entailed][0])
        names = ", ".join(_VARIABLES[: config.variables])
        listing = "\n".join(f"{i}. {_render(f)}" for i, f in enumerate(premises, 1))
        prompt = (
            f"In propositional logic over the variables {names}, with ¬ meaning not, ∧ and, ∨ (inclusive) or, "
            "→ implies and ↔ if and only if:\n\n"
            f"Premises:\n{listing}\n\nConclusion: {conclusion}\n\n"
            "Do the premises entail the conclusion, that is, is the conclusion true under every assignment "
            "of truth values that makes all the premises true? If they do, answer with the single word yes. If "
            "they do not, answer no followed by a counter-model: a truth value for every variable that makes all "
            "the premises true and the conclusion false, written like: no: p = true, q = false, ... (one value "
            "per variable)"
        )
        if entailed:
            answer = "yes"
        else:
            counter = models & ~pair[False][1]
            answer = "no: " + _assignment(rng.choice([a for a in range(1 << config.variables) if counter >> a & 1]),
                                          config.variables)
        return Problem(
            prompt=prompt,
            answer=answer,
            data={
                "premises": [_render(f) for f in premises],
                "conclusion": conclusion,
                "entailed": entailed,
                "variables": config.variables,
            },
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        data = problem.data
        names = list(_VARIABLES[: data["variables"]])
        text = strip_wrappers(unify(answer))
        lead = _NO_LEAD.match(text)
        rest = text[lead.end():] if lead else text
        values = read_answer(rest, lambda s: read_truth_assignment(s, names)) if rest.strip() else None
        if values is not None:
            assignment = sum(1 << i for i, name in enumerate(names) if values[name])
            premises = [_table_of(f, len(names)) >> assignment & 1 for f in data["premises"]]
            if not all(premises):
                return Verdict.wrong(f"premise {premises.index(0) + 1} is false under this assignment")
            return Verdict.judge(not _table_of(data["conclusion"], len(names)) >> assignment & 1,
                                 "the conclusion is true under this assignment")
        if _carries_assignment(text, names):
            return Verdict.unparsed("expected yes, or no followed by a truth value for every variable "
                                    "(no: p = true, q = false, ...)")
        said = _read_verdict(answer)
        if said is None:
            return Verdict.unparsed("expected yes, or no followed by a counter-model")
        if not said:
            return Verdict.wrong("a no needs its counter-model: a truth value for every variable")
        return Verdict.judge(data["entailed"], "the premises do not entail the conclusion")

    def difficulty(self, problem: Problem) -> float:
        """Truth-table effort: assignments to check times the connectives to evaluate in each."""
        formulas = [*problem.data["premises"], problem.data["conclusion"]]
        connectives = sum(sum(f.count(s) for s in (*_SYMBOLS.values(), "¬")) for f in formulas)
        return float(2 ** problem.data["variables"] * connectives)

    def spellings(self, problem: Problem) -> list[str]:
        if problem.data["entailed"]:
            return [*super().spellings(problem), "Yes", "YES.", "True", "**yes**", "\\boxed{yes}", "Entailed",
                    "Yes."]
        n = problem.data["variables"]
        counter = _counter_models(problem)
        gold = (problem.answer or "").removeprefix("no: ")
        values = [(name, counter[0] >> i & 1) for i, name in enumerate(_VARIABLES[:n])]
        spelled = [*super().spellings(problem), f"No, it is not entailed: {gold}.", f"\\boxed{{no: {gold}}}",
                   "No. Counter-model: " + " ".join(f"{name}={value}" for name, value in values),
                   "no, " + ", ".join(name if value else f"¬{name}" for name, value in values),
                   "Not entailed.\n" + "\n".join(f"{name.upper()}: {'T' if value else 'F'}" for name, value in values),
                   gold]
        # any counter-model is right, not only the reference's
        return spelled + [f"no: {_assignment(a, n)}" for a in counter[1:]]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        n = problem.data["variables"]
        everyone_true = "no: " + _assignment((1 << n) - 1, n)
        if problem.data["entailed"]:
            return ["no", "NO.", "yes or no", "maybe", "yes, no wait, no", "Yes, it is not entailed.", "Entailed, not",
                    everyone_true, f"yes: {everyone_true[4:]}", f"yes ({everyone_true})"]
        counter = _counter_models(problem)
        gold = problem.answer or ""
        others = [a for a in range(1 << n) if a not in counter]
        flipped = "false" if gold.startswith(f"no: {_VARIABLES[0]} = true") else "true"
        return ["yes", "no", "No.", "Not entailed", "False", "yes or no", "maybe", f"{gold}, no wait, yes",
                f"{gold}. Yes.", f"yes: {gold[4:]}", f"{gold}\n{_VARIABLES[0]} = {flipped}",  # two values for p
                gold.rsplit(", ", 1)[0],  # a variable left out
                f"no: {_assignment(rng.choice(others), n)}", "No, it is entailed."]

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Guessed counter-models: a uniformly random assignment (seeded by the prompt), all true, all false."""

        def guess(problem: Problem) -> str:
            n = problem.data["variables"]
            return "no: " + _assignment(random.Random(problem.prompt).randrange(1 << n), n)

        def constant(value: bool) -> Callable[[Problem], str]:
            return lambda problem: "no: " + ", ".join(f"{name} = {str(value).lower()}"
                                                       for name in _VARIABLES[: problem.data["variables"]])

        return {"random assignment": guess, "all true": constant(True), "all false": constant(False)}

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


def _carries_assignment(text: str, names: list[str]) -> bool:
    """Whether ``text`` holds truth values of variables (so it is no bare verdict): a ``=``, a digit, a negation
    sign or a variable's name."""
    return ("=" in text or any(c.isdigit() for c in text) or any(mark in text for mark in _NEGATION_MARKS)
            or not set(words(text)).isdisjoint(names))


def _assignment(a: int, n: int) -> str:
    """``p = true, q = false, ...``: bit i of ``a`` is the value of variable i."""
    return ", ".join(f"{_VARIABLES[i]} = {'true' if a >> i & 1 else 'false'}" for i in range(n))


def _counter_models(problem: Problem) -> list[int]:
    """The assignments that make every premise true and the conclusion false, in increasing order."""
    n = problem.data["variables"]
    counter = (1 << (1 << n)) - 1
    for premise in problem.data["premises"]:
        counter &= _table_of(premise, n)
    counter &= ~_table_of(problem.data["conclusion"], n)
    return [a for a in range(1 << n) if counter >> a & 1]


@lru_cache(maxsize=4096)
def _table_of(text: str, n: int) -> int:
    """The truth table of a formula as this env renders it (a nested connective always in parentheses); read
    from the problem's data, never from an answer."""
    variables, everything = _variable_tables(n)
    tokens = [c for c in text if not c.isspace()]
    position = 0

    def operand() -> int:
        nonlocal position
        token = tokens[position]
        position += 1
        if token == "¬":
            return everything ^ operand()
        if token == "(":
            table = formula()
            position += 1  # its closing parenthesis
            return table
        return variables[_VARIABLES.index(token)]

    def formula() -> int:
        nonlocal position
        left = operand()
        if position < len(tokens) and tokens[position] in _CONNECTIVES:
            position += 1
            return _combine(_CONNECTIVES[tokens[position - 1]], left, operand(), everything)
        return left

    return formula()


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
    most_counter_models = max(1, int(COUNTER_MODEL_SHARE * (1 << config.variables)))
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
        if not entailed and (models & ~table).bit_count() > min(most_counter_models,
                                                                PREMISE_MODEL_SHARE * models.bit_count()):
            continue  # a guessed assignment, or a model of the premises alone, would too often be a counter-model
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
