"""Prove an implicational theorem in a Hilbert system: axiom schemas A1, A2 and modus ponens, every line checked.

The system has two axiom schemas and one rule:

    A1  A → (B → A)        A2  (A → (B → C)) → ((A → B) → (A → C))        MP  from A and A → B infer B

The theorem comes from a random combinator term built from ``K`` and ``S`` (Curry–Howard: ``K`` is A1,
``S`` is A2, application is modus ponens): its principal type, found by unification with an occurs
check (untypable terms are redrawn), is a theorem, and the term read bottom-up is its proof: each leaf an
axiom instance, each application a modus ponens. Each variable of the type then becomes a random atom or
implication of two atoms, and those left free the first atom (axioms are schemas, so the instance of the
proof proves the instance of the theorem); draws are kept when the theorem is large enough and backward
chaining cannot prove it without inventing a formula (:func:`_chained`: an axiom instance, ``A → A``, ``X → Y``
from ``Y`` by A1, ``(A → B) → (A → C)`` from ``A → (B → C)`` by A2), so every proof needs a modus ponens whose
premise the prover has to find.

The answer is numbered lines ``n. formula  rule``: ``A1``/``A2`` (also ``K``/``S``, ``Ax1``/``Ax2``) or
``MP i, j`` citing earlier lines, one the antecedent and the other the implication, in either order. The
checker reads each formula with the shared propositional reader (``->`` is fine), checks each line, and
requires the last line to be the theorem. **Any** valid proof scores; the first bad line is named.
Difficulty: the reference proof's lines plus a quarter of the theorem's size.

Version 2: that chaining, a template that never looks for a premise, proved 1.00, 0.80, 0.88, 0.93, 0.88 of
levels 0-4 (and proving the last axiom instance on the theorem's right spine, then adding each antecedent by A1
and MP, 0.50, 0.48, 0.70, 0.53, 0.50); both now prove none. About 1 drawn term in 15 has a type it cannot
prove, none of three combinators, and four give too few distinct theorems (91% of 1,000 draws), so level 0 has five
combinators and each level one more (12 from level 7 on); the least theorem size grows by three a level (13 at level
1, up to 40) to keep the difficulty means apart.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.proofs._logic import ATOMS, Formula, parse_prefix, show, size, tokenize
from palaestra.verifiers.blocks import read_block, without_end_of_proof

MAX_LINES = 300
MAX_PROOF_CHARS = 40_000
MAX_ATOMS = 5
MAX_THEOREM_SIZE = 100  # the few larger types (up to 213 at level 5) are redrawn: a prompt states one formula
MAX_LINE_TOKENS = 5_000  # the longest reference lines (12 combinators, growth capped) stay under 3,000 tokens
EXAMPLE = "1. p → (q → p)    A1\n2. ...\n3. ...    MP 1, 2"


@register
class HilbertSystem(Task):
    id = "proofs/hilbert_system"
    family = "proofs"
    description = "Prove an implicational theorem in a Hilbert system (axioms A1, A2 and modus ponens), line by line."
    tags = ("logic", "proofs", "hilbert-system", "combinators")
    version = 2  # v2: theorems that backward chaining proves without inventing a formula are redrawn
    multiline = True
    max_answer_chars = MAX_PROOF_CHARS
    distinct_from = {"proofs/natural_deduction": "a Hilbert system (two axiom schemas and modus ponens only, no "
                                                 "assumptions to discharge), not natural deduction",
                     "proofs/sequent_calculus": "axiom schemas and modus ponens, not sequent rules"}

    @dataclass(frozen=True)
    class Config:
        leaves: int  # combinators in the term: the proof has 2 * leaves - 1 lines
        min_size: int  # the theorem's least size

    # v2: two combinators more than v1 at level 0 (every type of three is chained, and four give too few distinct
    # theorems: 91% in 1,000 draws), one more a level; the least size keeps growing by three once the combinators stop
    presets = (
        Config(leaves=5, min_size=7),
        Config(leaves=6, min_size=13),
        Config(leaves=7, min_size=16),
        Config(leaves=8, min_size=19),
        Config(leaves=9, min_size=22),
    )
    growth = Growth(steps={"leaves": 1, "min_size": 3}, limits={"leaves": 12, "min_size": 40})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[Formula, list[tuple[Formula, str]]] | None:
            term = _random_term(rng, config.leaves)
            typed = _typed_proof(term, rng)
            if typed is None:
                return None
            theorem, lines = typed
            if not config.min_size <= size(theorem) <= MAX_THEOREM_SIZE or _chained(theorem):
                return None
            return theorem, lines

        theorem, lines = retry(draw, attempts=5_000, what="a typable combinator term with a large enough type")
        atoms = ATOMS[:MAX_ATOMS]
        prompt = (
            f"Prove\n  {show(theorem)}\nin the Hilbert system with the axiom schemas\n"
            "  A1  A → (B → A)\n  A2  (A → (B → C)) → ((A → B) → (A → C))\n"
            "and the one rule MP (from A and A → B infer B); A, B, C stand for any formulas. Write numbered lines, "
            "each a formula with its justification: A1 or A2 (an instance of that schema), or MP i, j (lines i and "
            "j come earlier; one is the other's antecedent). The last line must be the formula to prove. -> is "
            "fine for →. Any valid proof is accepted. The shape, for example:\n"
            f"{EXAMPLE}"
        )
        answer = "\n".join(f"{i}. {show(f)}    {why}" for i, (f, why) in enumerate(lines, start=1))
        return Problem(prompt=prompt, answer=answer, data={"atoms": list(atoms), "theorem": show(theorem),
                                                           "steps": len(lines)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        atoms = problem.data["atoms"]
        proof = read_proof(answer, atoms)
        if isinstance(proof, str):
            return Verdict.unparsed(proof)
        theorem = _parse(problem.data["theorem"], atoms)
        if theorem is None:
            return Verdict.failed("the stored theorem does not parse")
        error = check(proof, theorem)
        return Verdict.right() if error is None else Verdict.wrong(error)

    def difficulty(self, problem: Problem) -> float:
        """Lines of the reference proof plus a quarter of the theorem's size."""
        theorem = _parse(problem.data["theorem"], problem.data["atoms"])
        return problem.data["steps"] + (size(theorem) / 4 if theorem else 0)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), gold.replace("→", "->"), f"```\n{gold}\n```", f"Proof:\n{gold}",
                gold.replace("A1", "K").replace("A2", "S"), gold.replace(".    ", ")    ", 1)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = (problem.answer or "").splitlines()
        theorem = problem.data["theorem"]
        wrong = ["\n".join(rows[:-1])] if f". {theorem}    " not in rows[-2] else []
        swapped = [row.replace("A1", "A#").replace("A2", "A1").replace("A#", "A2") for row in rows]
        wrong.append("\n".join(swapped))
        last = rows[-1]
        if "MP " in last:  # the conclusion's antecedent and consequent exchanged
            head, _, why = last.partition("    ")
            wrong.append("\n".join([*rows[:-1], f"{head.split('. ', 1)[0]}. ({theorem}) → ({theorem})    {why}"]))
        return wrong


# --- combinators and their types ---------------------------------------------------------------------------------

Term = Any  # "K", "S" or (function, argument)


def _random_term(rng: random.Random, leaves: int) -> Term:
    if leaves == 1:
        return rng.choice("KS")
    cut = rng.randint(1, leaves - 1)
    return (_random_term(rng, cut), _random_term(rng, leaves - cut))


def _typed_proof(term: Term, rng: random.Random) -> tuple[Formula, list[tuple[Formula, str]]] | None:
    """An instance of the principal type of ``term`` and its Hilbert proof (one line per subterm, bottom-up), or
    None when the term is untypable. Variables are ``("atom", i)`` during unification; then each variable of the
    type becomes a random atom or implication of two atoms (an instance of a theorem is a theorem, proved by the
    same instance of the proof), the rest the first atom."""
    counter = itertools.count()
    substitution: dict[int, Formula] = {}

    def fresh() -> Formula:
        return ("atom", next(counter))

    def resolve(t: Formula) -> Formula:
        while t[0] == "atom" and t[1] in substitution:
            t = substitution[t[1]]
        return t

    def occurs(variable: int, t: Formula) -> bool:
        t = resolve(t)
        if t[0] == "atom":
            return t[1] == variable
        return occurs(variable, t[1]) or occurs(variable, t[2])

    def unify(a: Formula, b: Formula) -> bool:
        a, b = resolve(a), resolve(b)
        if a == b:
            return True
        if a[0] == "atom":
            if occurs(a[1], b):
                return False
            substitution[a[1]] = b
            return True
        if b[0] == "atom":
            return unify(b, a)
        return unify(a[1], b[1]) and unify(a[2], b[2])

    steps: list[tuple[Formula, str, tuple[int, ...]]] = []  # (type, rule, cited step indices)

    def infer(t: Term) -> int | None:
        if t == "K":
            a, b = fresh(), fresh()
            steps.append((("imp", a, ("imp", b, a)), "A1", ()))
            return len(steps) - 1
        if t == "S":
            a, b, c = fresh(), fresh(), fresh()
            steps.append((("imp", ("imp", a, ("imp", b, c)), ("imp", ("imp", a, b), ("imp", a, c))), "A2", ()))
            return len(steps) - 1
        function, argument = infer(t[0]), infer(t[1])
        if function is None or argument is None:
            return None
        result = fresh()
        if not unify(steps[function][0], ("imp", steps[argument][0], result)):
            return None
        steps.append((result, "MP", (argument, function)))
        return len(steps) - 1

    if infer(term) is None:
        return None

    names: dict[int, Formula] = {}
    letters = ATOMS[:MAX_ATOMS]

    def final(t: Formula) -> Formula:
        t = resolve(t)
        if t[0] == "atom":
            return names.get(t[1], ("atom", letters[0]))
        return ("imp", final(t[1]), final(t[2]))

    def name_variables(t: Formula) -> None:
        t = resolve(t)
        if t[0] == "atom":
            if t[1] not in names:
                atom: Formula = ("atom", rng.choice(letters))
                names[t[1]] = atom if rng.random() < 0.6 else ("imp", atom, ("atom", rng.choice(letters)))
        else:
            name_variables(t[1])
            name_variables(t[2])

    name_variables(steps[-1][0])
    theorem = final(steps[-1][0])
    lines = [(final(t), rule if rule != "MP" else f"MP {cited[0] + 1}, {cited[1] + 1}") for t, rule, cited in steps]
    return theorem, lines


def _chained(formula: Formula, known: dict[Formula, bool] | None = None) -> bool:
    """Whether backward chaining proves ``formula`` without inventing a formula: it is an axiom instance or of
    the shape ``A → A`` (five lines), or it is ``X → Y`` with ``Y`` chained (A1 ``Y → (X → Y)``, then MP), or it
    is ``(A → B) → (A → C)`` with ``A → (B → C)`` chained (A2, then MP). Each step shrinks the formula, so this
    ends; a policy that only runs it needs no modus ponens whose premise it has to find."""
    known = {} if known is None else known
    if formula not in known:
        known[formula] = formula[0] == "imp" and (
            _axiom(formula) is not None or formula[1] == formula[2] or _chained(formula[2], known)
            or (formula[1][0] == "imp" and formula[2][0] == "imp" and formula[1][1] == formula[2][1]
                and _chained(("imp", formula[1][1], ("imp", formula[1][2], formula[2][2])), known)))
    return known[formula]


def _axiom(f: Formula) -> str | None:
    """``A1`` or ``A2`` when ``f`` is an instance of that schema, else None."""
    if f[0] == "imp" and f[2][0] == "imp" and f[2][2] == f[1]:
        return "A1"
    if f[0] == "imp" and f[1][0] == "imp" and f[1][2][0] == "imp" and f[2][0] == "imp" and f[2][1][0] == "imp" \
            and f[2][2][0] == "imp":
        a, b, c = f[1][1], f[1][2][1], f[1][2][2]
        if f[2] == ("imp", ("imp", a, b), ("imp", a, c)):
            return "A2"
    return None


# --- reading and checking ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Line:
    number: int
    formula: Formula
    rule: str  # "A1", "A2" or "MP"
    cited: tuple[int, ...]


RULE_WORDS = {"a1": "A1", "ax1": "A1", "k": "A1", "axiom1": "A1", "a2": "A2", "ax2": "A2", "s": "A2", "axiom2": "A2",
              "mp": "MP"}


def _parse(text: str, atoms: Any) -> Formula | None:
    tokens = tokenize(text, limit=MAX_LINE_TOKENS)  # a theorem is no longer than the proof line that states it
    read = parse_prefix(tokens, atoms) if tokens else None
    return read[0] if read is not None and tokens is not None and read[1] == len(tokens) else None


def read_line(text: str, atoms: Any) -> Line | str:
    tokens = tokenize(text, limit=MAX_LINE_TOKENS)
    if not tokens:
        return "a line is too long or empty"
    if len(tokens) < 2 or tokens[0][0] != "num" or tokens[1] not in (("punct", "."), ("close", ")"), ("punct", ":")):
        return f"line {text.strip()[:40]!r} does not start with its number"
    number = int(tokens[0][1])
    read = parse_prefix(tokens, atoms, 2)
    if read is None:
        return f"line {number}: could not read the formula"
    rest = tokens[read[1]:]
    words = [text.lower() for kind, text in rest if kind == "word"]
    numbers = tuple(int(text) for kind, text in rest if kind == "num")
    if len(words) != 1 or words[0] not in RULE_WORDS or any(k not in ("word", "num", "punct") for k, _ in rest):
        return f"line {number}: could not read the justification (A1, A2 or MP i, j)"
    rule = RULE_WORDS[words[0]]
    if (rule == "MP") != (len(numbers) == 2) or (rule != "MP" and numbers):
        return f"line {number}: A1 and A2 cite no lines, MP cites two"
    return Line(number, read[0], rule, numbers)


def read_proof(text: str, atoms: Any) -> list[Line] | str:
    if not isinstance(text, str) or len(text) > MAX_PROOF_CHARS:
        return "the proof is missing or too long"
    block = read_block(text, leading="strip")
    if block is None:
        return "expected numbered proof lines"
    rows = without_end_of_proof([row for row in block if row.strip()])
    if rows and len(rows[0]) <= 40 and rows[0].rstrip().endswith(":") and not rows[0][0].isdigit():
        rows = rows[1:]
    if not rows or len(rows) > MAX_LINES:
        return "expected between 1 and 300 proof lines"
    lines = []
    for row in rows:
        line = read_line(row, atoms)
        if isinstance(line, str):
            return line
        lines.append(line)
    return lines


def check(lines: list[Line], theorem: Formula) -> str | None:
    """Why ``lines`` is not a Hilbert proof of ``theorem`` (the first bad line named), or None when it is."""
    seen: dict[int, Formula] = {}
    for index, line in enumerate(lines, start=1):
        if line.number != index:
            return f"line {index} is numbered {line.number}: number the lines 1, 2, 3, ..."
        if line.rule in ("A1", "A2"):
            if _axiom(line.formula) != line.rule:
                return f"line {index} ({show(line.formula)}) is not an instance of {line.rule}"
        else:
            if any(c not in seen for c in line.cited):
                return f"line {index} cites a line that does not come before it"
            first, second = (seen[c] for c in line.cited)
            if second != ("imp", first, line.formula) and first != ("imp", second, line.formula):
                return f"line {index} ({show(line.formula)}) does not follow by MP from lines " \
                       f"{line.cited[0]} and {line.cited[1]}"
        seen[index] = line.formula
    if lines[-1].formula != theorem:
        return f"the last line is {show(lines[-1].formula)}, not the formula to prove"
    return None

