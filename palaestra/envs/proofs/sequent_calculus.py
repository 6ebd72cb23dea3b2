"""Prove a classical propositional sequent in the sequent calculus G3c; every rule application is checked.

The sequent ``Γ ⊢ Δ`` is drawn at random and kept when it is classically valid (a truth table), no
formula stands on both sides, every formula of it is needed (dropping any one breaks validity), and
its proof is long enough. The reference proof comes from backward search in G3c, whose rules are all
invertible, so the search never backtracks: one-premise rules first, then branching ones; leaves are
axioms. It is written as numbered lines, premises before the lines that cite them.

The calculus (contexts are sets, the axiom absorbs weakening, no cut): ``Ax`` when a formula is on
both sides or ``⊥`` on the left; ``¬L``/``¬R``, ``∧L``/``∧R``, ``∨L``/``∨R``, ``→L``/``→R`` as usual
(``→L``: from ``Γ ⊢ A, Δ`` and ``B, Γ ⊢ Δ`` infer ``A → B, Γ ⊢ Δ``). The checker reads each line
(number, sequent with ``⊢`` or ``|-``, rule, cited lines; ASCII connectives and rule names such as
``->R``, ``andL``, ``Ax``/``id`` are fine) and accepts a step when some formula of the named connective
on the named side is principal: the cited premises are the conclusion with it replaced as the rule says
(in either order for two premises; the principal formula may also be kept in the premise). The last line
must be the goal sequent. **Any** valid proof scores; the first bad line is named. Difficulty: the
reference proof's lines plus a quarter of the sequent's size.

Generation speed: about 370 problems/s at level 4 on this 2-core machine. Each draw is a random sequent
that must be classically valid with every formula needed (one truth table per formula) and whose
derivation reaches the minimum length; about 100 draws are made per kept problem, because random sequents
are rarely both valid and tight, and tightness is what stops a derivation from ignoring formulas.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.proofs._logic import (
    ATOMS,
    BOT,
    Formula,
    Token,
    models,
    parse_prefix,
    random_formula,
    show,
    size,
    tokenize,
)
from palaestra.verifiers.blocks import read_block, without_end_of_proof

Sequent = tuple[frozenset[Formula], frozenset[Formula]]
MAX_LINES = 200
MAX_PROOF_CHARS = 30_000
MAX_REFERENCE_LINES = 60
CONNECTIVE_WORDS = {"and": "and", "or": "or", "imp": "imp", "not": "not", "neg": "not", "conj": "and",
                    "disj": "or", "impl": "imp"}
AXIOM_WORDS = {"ax", "axiom", "id", "init", "identity"}
RULE_TEXT = ("Ax: Γ, A ⊢ A, Δ (also ⊥ on the left); ¬L: from Γ ⊢ A, Δ infer ¬A, Γ ⊢ Δ; ¬R: from A, Γ ⊢ Δ infer "
             "Γ ⊢ ¬A, Δ; ∧L: from A, B, Γ ⊢ Δ infer A ∧ B, Γ ⊢ Δ; ∧R: from Γ ⊢ A, Δ and Γ ⊢ B, Δ infer Γ ⊢ A ∧ B, Δ; "
             "∨L: from A, Γ ⊢ Δ and B, Γ ⊢ Δ infer A ∨ B, Γ ⊢ Δ; ∨R: from Γ ⊢ A, B, Δ infer Γ ⊢ A ∨ B, Δ; "
             "→L: from Γ ⊢ A, Δ and B, Γ ⊢ Δ infer A → B, Γ ⊢ Δ; →R: from A, Γ ⊢ B, Δ infer Γ ⊢ A → B, Δ")
EXAMPLE = "1. q, p ⊢ p    Ax\n2. q, p ⊢ q    Ax\n3. p, q ⊢ p ∧ q    ∧R 1, 2"


@register
class SequentCalculus(Task):
    id = "proofs/sequent_calculus"
    family = "proofs"
    description = "Prove a classical propositional sequent in the sequent calculus G3c; every rule step is checked."
    tags = ("logic", "proofs", "sequent-calculus")
    version = 2  # level 0 over three atoms
    multiline = True
    max_answer_chars = MAX_PROOF_CHARS
    distinct_from = {"proofs/natural_deduction": "sequent calculus (rules on both sides of ⊢, a proof tree of "
                                                 "sequents), not Fitch-style natural deduction",
                     "proofs/resolution": "a cut-free sequent proof, not a resolution refutation of clauses"}

    @dataclass(frozen=True)
    class Config:
        atoms: int
        depth: int
        left: int  # formulas on the left
        right: int  # formulas on the right
        min_lines: int

    presets = (
        Config(atoms=3, depth=2, left=1, right=1, min_lines=3),  # 2 atoms: 7.1% of 1,000 repeated
        Config(atoms=3, depth=2, left=2, right=1, min_lines=5),
        Config(atoms=3, depth=3, left=2, right=1, min_lines=7),
        Config(atoms=3, depth=3, left=2, right=2, min_lines=9),
        Config(atoms=4, depth=3, left=3, right=2, min_lines=10),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"min_lines": 4, "atoms": 1, "left": 1}, limits={"atoms": 4, "left": 4, "min_lines": 40})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = ATOMS[: config.atoms]

        def draw() -> tuple[Sequent, list[tuple[Sequent, str, list[int]]]] | None:
            left = [random_formula(rng, names, config.depth) for _ in range(rng.randint(1, config.left))]
            right = [random_formula(rng, names, config.depth) for _ in range(rng.randint(1, config.right))]
            sequent: Sequent = (frozenset(left), frozenset(right))
            if len(sequent[0]) != len(left) or len(sequent[1]) != len(right) or sequent[0] & sequent[1]:
                return None
            if not _valid_and_tight(sequent, names):
                return None
            lines = _linearize(sequent)
            return (sequent, lines) if lines is not None and len(lines) >= config.min_lines else None

        goal, lines = retry(draw, attempts=20_000, what="a valid sequent with a long enough proof")
        prompt = (
            f"Prove the sequent\n  {show_sequent(goal)}\nin the classical sequent calculus G3c (contexts are sets; "
            f"no cut, no weakening rule):\n  {RULE_TEXT}.\n"
            "Write the proof as numbered lines, each a sequent, its rule and the numbers of the earlier lines it "
            "follows from (none for Ax). The last line must be the sequent to prove. ASCII is fine (|- for ⊢, "
            "->, &, |, ~; rule names such as ->R, andL, Ax). Any valid proof is accepted. The shape, for example:\n"
            f"{EXAMPLE}"
        )
        answer = "\n".join(f"{i}. {show_sequent(s)}    {rule}{' ' + ', '.join(map(str, cited)) if cited else ''}"
                           for i, (s, rule, cited) in enumerate(lines, start=1))
        return Problem(prompt=prompt, answer=answer, data={
            "atoms": list(names), "left": sorted(show(f) for f in goal[0]), "right": sorted(show(f) for f in goal[1]),
            "steps": len(lines),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        atoms = problem.data["atoms"]
        proof = read_proof(answer, atoms)
        if isinstance(proof, str):
            return Verdict.unparsed(proof)
        goal = _goal(problem)
        if goal is None:
            return Verdict.failed("the stored sequent does not parse")
        error = check(proof, goal)
        return Verdict.right() if error is None else Verdict.wrong(error)

    def difficulty(self, problem: Problem) -> float:
        """Lines of the reference proof plus a quarter of the sequent's size."""
        goal = _goal(problem)
        sizes = sum(size(f) for side in goal for f in side) if goal else 0
        return problem.data["steps"] + sizes / 4

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        ascii_lines = []
        for row in gold.splitlines():
            ascii_lines.append(row.replace("⊢", "|-").replace("→", "->").replace("∧", "&").replace("∨", "|")
                               .replace("¬", "~"))
        return [*super().spellings(problem), "\n".join(ascii_lines), f"```\n{gold}\n```", f"Proof:\n{gold}",
                gold.replace(".    ", ")    ").replace(". ", ") ")]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = (problem.answer or "").splitlines()
        wrong = ["\n".join(rows[:-1])]
        last = rows[-1]
        for old, new in (("∧R", "∨R"), ("→R", "∧R"), ("∨L", "∧L"), ("→L", "∨L"), ("¬R", "¬L"), ("∧L", "∨L"),
                         ("¬L", "¬R"), ("∨R", "→R")):
            if f"    {old}" in last:
                wrong.append("\n".join([*rows[:-1], last.replace(f"    {old}", f"    {new}")]))
                break
        axioms = [i for i, row in enumerate(rows) if row.endswith("Ax")]
        if axioms:  # a leaf whose right side is replaced by ⊥: no longer an axiom
            i = axioms[0]
            head, _, _ = rows[i].partition("⊢")
            wrong.append("\n".join([*rows[:i], f"{head}⊢ ⊥    Ax", *rows[i + 1 :]]))
        return wrong


def show_sequent(sequent: Sequent) -> str:
    left = ", ".join(sorted(show(f) for f in sequent[0]))
    right = ", ".join(sorted(show(f) for f in sequent[1]))
    return f"{left} ⊢ {right}".strip()


def _goal(problem: Problem) -> Sequent | None:
    atoms = problem.data["atoms"]
    sides = []
    for key in ("left", "right"):
        formulas = []
        for text in problem.data[key]:
            tokens = tokenize(text)
            read = parse_prefix(tokens, atoms) if tokens else None
            if read is None or read[1] != len(tokens or []):
                return None
            formulas.append(read[0])
        sides.append(frozenset(formulas))
    return sides[0], sides[1]


def _valid_and_tight(sequent: Sequent, names: Any) -> bool:
    """Whether the sequent is classically valid and every formula of it is needed (dropping any one breaks
    validity), from one truth table per formula (bit ``i`` of a mask: the formula holds in row ``i``)."""
    full = (1 << (1 << len(names))) - 1
    left = [models([f], names) for f in sequent[0]]
    right = [models([f], names) for f in sequent[1]]

    def valid(lefts: list[int], rights: list[int]) -> bool:
        both = full
        for mask in lefts:
            both &= mask
        for mask in rights:
            both &= ~mask
        return both == 0

    return valid(left, right) and all(not valid(left[:i] + left[i + 1 :], right) for i in range(len(left))) \
        and all(not valid(left, right[:i] + right[i + 1 :]) for i in range(len(right)))


# --- backward proof search ---------------------------------------------------------------------------------------

_ONE_PREMISE = (("L", "not"), ("R", "not"), ("L", "and"), ("R", "or"), ("R", "imp"))
_TWO_PREMISES = (("R", "and"), ("L", "or"), ("L", "imp"))


def premises_of(sequent: Sequent, side: str, principal: Formula) -> list[Sequent]:
    """The premises of the rule for ``principal`` on ``side`` (G3c: the principal formula removed)."""
    left, right = sequent
    kind = principal[0]
    if side == "L":
        rest = left - {principal}
        if kind == "not":
            return [(rest, right | {principal[1]})]
        if kind == "and":
            return [(rest | {principal[1], principal[2]}, right)]
        if kind == "or":
            return [(rest | {principal[1]}, right), (rest | {principal[2]}, right)]
        return [(rest, right | {principal[1]}), (rest | {principal[2]}, right)]  # imp
    rest = right - {principal}
    if kind == "not":
        return [(left | {principal[1]}, rest)]
    if kind == "and":
        return [(left, rest | {principal[1]}), (left, rest | {principal[2]})]
    if kind == "or":
        return [(left, rest | {principal[1], principal[2]})]
    return [(left | {principal[1]}, rest | {principal[2]})]  # imp


def _is_axiom(sequent: Sequent) -> bool:
    return bool(sequent[0] & sequent[1]) or BOT in sequent[0]


def _linearize(goal: Sequent) -> list[tuple[Sequent, str, list[int]]] | None:
    """The backward-search proof of a valid ``goal`` as lines (premises first), or None past
    :data:`MAX_REFERENCE_LINES` lines or when a leaf is no axiom."""
    lines: list[tuple[Sequent, str, list[int]]] = []
    symbols = {"not": "¬", "and": "∧", "or": "∨", "imp": "→"}

    def prove(sequent: Sequent) -> int | None:
        if len(lines) >= MAX_REFERENCE_LINES:
            return None
        if _is_axiom(sequent):
            lines.append((sequent, "Ax", []))
            return len(lines)
        for side, kind in (*_ONE_PREMISE, *_TWO_PREMISES):
            pool = sequent[0] if side == "L" else sequent[1]
            candidates = sorted((f for f in pool if f[0] == kind), key=show)
            if candidates:
                cited = []
                for premise in premises_of(sequent, side, candidates[0]):
                    number = prove(premise)
                    if number is None:
                        return None
                    cited.append(number)
                lines.append((sequent, f"{symbols[kind]}{side}", cited))
                return len(lines)
        return None  # only atoms left and no axiom: not valid

    return lines if prove(goal) is not None else None


# --- reading and checking ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Line:
    number: int
    sequent: Sequent
    rule: tuple[str, str] | None  # (side, connective); None for an axiom
    cited: tuple[int, ...]


def _split_sequent(tokens: list[Token]) -> tuple[list[Token], list[Token]] | None:
    for i, token in enumerate(tokens):
        if token == ("other", "⊢"):
            return tokens[:i], tokens[i + 1 :]
        if token == ("conn", "bar") and i + 1 < len(tokens) and tokens[i + 1][0] == "dash":
            return tokens[:i], tokens[i + 2 :]
    return None


def _formula_list(tokens: list[Token], atoms: Any, pos: int, until_end: bool) -> tuple[list[Formula], int] | None:
    """Formulas separated by commas from ``pos``; ``until_end``: they must fill the tokens."""
    formulas: list[Formula] = []
    if pos >= len(tokens):
        return formulas, pos
    for _ in range(len(tokens)):
        read = parse_prefix(tokens, atoms, pos)
        if read is None:
            return (formulas, pos) if not until_end and not formulas else None
        formulas.append(read[0])
        pos = read[1]
        if pos < len(tokens) and tokens[pos] == ("punct", ","):
            pos += 1
            continue
        break
    if until_end and pos != len(tokens):
        return None
    return formulas, pos


RULE_TOKENS = frozenset({"num", "punct", "dash", "word", "conn", "open", "close", "lbrack", "rbrack"})


def _rule(tokens: list[Token]) -> tuple[tuple[str, str] | None, tuple[int, ...]] | str:
    """(the rule, cited numbers) from the tokens after a sequent, or why they cannot be read."""
    if any(kind not in RULE_TOKENS for kind, _ in tokens):  # "∧L 4?" is a doubt, not a rule
        return "could not read the rule (Ax, or a connective with L or R, e.g. ∧R or ->L, then the lines cited)"
    numbers = [int(text) for kind, text in tokens if kind == "num"]
    head = [t for t in tokens if t[0] not in ("num", "punct", "dash")]
    words = [text for kind, text in head if kind == "word"]
    if len(words) == 1 and words[0].lower() in AXIOM_WORDS and len(head) == 1:
        return None, tuple(numbers)
    connectives = {text for kind, text in head if kind == "conn"}
    connectives = {"or" if c == "bar" else c for c in connectives}
    side = ""
    for word in words:
        lowered = word.lower()
        if lowered in ("l", "r"):
            side = lowered.upper()
        elif lowered in CONNECTIVE_WORDS:
            connectives.add(CONNECTIVE_WORDS[lowered])
        elif lowered[-1] in "lr" and lowered[:-1] in CONNECTIVE_WORDS:  # andR
            connectives.add(CONNECTIVE_WORDS[lowered[:-1]])
            side = lowered[-1].upper()
        elif lowered[0] in "lr" and lowered[1:] in CONNECTIVE_WORDS:  # Rand
            connectives.add(CONNECTIVE_WORDS[lowered[1:]])
            side = lowered[0].upper()
        else:
            return f"could not read the rule word {word[:20]!r}"
    if len(connectives) != 1 or side not in ("L", "R") or connectives - {"and", "or", "imp", "not"}:
        return "could not read the rule (Ax, or a connective with L or R, e.g. ∧R or ->L)"
    return (side, next(iter(connectives))), tuple(numbers)


def read_line(text: str, atoms: Any) -> Line | str:
    tokens = tokenize(text, limit=600)
    if not tokens:
        return "a line is too long or empty"
    if len(tokens) < 2 or tokens[0][0] != "num" or tokens[1] not in (("punct", "."), ("close", ")"), ("punct", ":")):
        return f"line {text.strip()[:40]!r} does not start with its number"
    number = int(tokens[0][1])
    split = _split_sequent(tokens[2:])
    if split is None:
        return f"line {number}: no ⊢ in it"
    left_tokens, rest = split
    left = _formula_list(left_tokens, atoms, 0, until_end=True)
    right = _formula_list(rest, atoms, 0, until_end=False)
    if left is None or right is None:
        return f"line {number}: could not read the sequent"
    rule = _rule(rest[right[1]:])
    if isinstance(rule, str):
        return f"line {number}: {rule}"
    return Line(number, (frozenset(left[0]), frozenset(right[0])), rule[0], rule[1])


def read_proof(text: str, atoms: Any) -> list[Line] | str:
    if not isinstance(text, str) or len(text) > MAX_PROOF_CHARS:
        return "the proof is missing or too long"
    block = read_block(text, leading="strip")
    if block is None:
        return "expected numbered proof lines"
    rows = without_end_of_proof([row for row in block if row.strip()])
    if rows and len(rows[0]) <= 40 and rows[0].rstrip().endswith(":") and "⊢" not in rows[0]:
        rows = rows[1:]
    if not rows or len(rows) > MAX_LINES:
        return "expected between 1 and 200 proof lines"
    lines = []
    for row in rows:
        line = read_line(row, atoms)
        if isinstance(line, str):
            return line
        lines.append(line)
    return lines


def _step_ok(line: Line, premises: list[Sequent]) -> bool:
    sequent = line.sequent
    if line.rule is None:
        return not premises and _is_axiom(sequent)
    side, kind = line.rule
    pool = sequent[0] if side == "L" else sequent[1]
    for principal in (f for f in pool if f[0] == kind):
        expected = premises_of(sequent, side, principal)
        if len(expected) != len(premises):
            continue
        kept = [(s[0] | {principal}, s[1]) if side == "L" else (s[0], s[1] | {principal}) for s in expected]
        for options in (expected, kept):
            if sorted(map(_key, options)) == sorted(map(_key, premises)):
                return True
    return False


def _key(sequent: Sequent) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(sorted(map(show, sequent[0]))), tuple(sorted(map(show, sequent[1])))


def check(lines: list[Line], goal: Sequent) -> str | None:
    """Why ``lines`` is not a G3c proof of ``goal`` (the first bad line named), or None when it is."""
    seen: dict[int, Sequent] = {}
    for index, line in enumerate(lines, start=1):
        if line.number != index:
            return f"line {index} is numbered {line.number}: number the lines 1, 2, 3, ..."
        if any(c not in seen for c in line.cited):
            return f"line {index} cites a line that does not come before it"
        if not _step_ok(line, [seen[c] for c in line.cited]):
            rule = "Ax" if line.rule is None else f"{ {'not': '¬', 'and': '∧', 'or': '∨', 'imp': '→'}[line.rule[1]]}"\
                f"{line.rule[0]}"
            return f"line {index} ({show_sequent(line.sequent)}) does not follow by {rule.strip()} from the lines it cites"
        seen[index] = line.sequent
    if _key(lines[-1].sequent) != _key(goal):
        return f"the last line proves {show_sequent(lines[-1].sequent)}, not the sequent asked"
    return None
