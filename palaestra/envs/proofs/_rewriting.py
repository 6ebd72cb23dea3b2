"""Equational proofs from the axioms of an algebra: terms, one-step rewrites, chains, random walks.

A term is a nested tuple: ``("var", "a")``, a constant ``("zero",)``, a prefix operation
``("neg", s)`` or a binary one ``("add", s, t)``; an axiom's sides are terms over pattern variables
``("pv", "x")``. :func:`one_step` decides whether one term comes from another by one axiom instance,
read either way, rewritten at one position (linear in the depth: only the path where the two terms
differ is followed), and names the axiom. An :class:`Algebra` says how its terms are written and read:
a hand-written reader over :func:`palaestra.envs.proofs._logic.tokenize`'s tokens (two factors per
product, brackets required below the top; nesting capped, so hostile input costs bounded time), and
its axioms. :func:`random_walk` draws an identity with a proof: random rewrites from a start term,
cycles cut, so the walk itself is a valid chain from its first term to its last.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, retry
from palaestra.envs.proofs._logic import Token, tokenize
from palaestra.verifiers.blocks import read_block, without_end_of_proof
from palaestra.verifiers.normalize import strip_wrappers

Term = tuple[Any, ...]
MAX_DEPTH = 60
MAX_TERMS = 300
MAX_CHAIN_CHARS = 8_000  # the longest reference chains (growth capped) stay near 5,000


def pv(name: str) -> Term:
    return ("pv", name)


def _is_leaf(term: Term) -> bool:
    return not any(isinstance(part, tuple) for part in term)


def match(pattern: Term, term: Term, binding: dict[str, Term]) -> bool:
    """Whether ``term`` is an instance of ``pattern``, extending ``binding`` (pattern variable -> term)."""
    if pattern[0] == "pv":
        bound = binding.get(pattern[1])
        if bound is None:
            binding[pattern[1]] = term
            return True
        return bound == term
    if pattern[0] != term[0] or len(pattern) != len(term):
        return False
    return all(match(p, t, binding) if isinstance(p, tuple) else p == t for p, t in zip(pattern[1:], term[1:]))


def substitute(pattern: Term, binding: Mapping[str, Term]) -> Term:
    if pattern[0] == "pv":
        return binding[pattern[1]]
    return (pattern[0], *(substitute(p, binding) if isinstance(p, tuple) else p for p in pattern[1:]))


def axiom_instance(before: Term, after: Term, axioms: Mapping[str, tuple[Term, Term]]) -> str | None:
    """The name of an axiom of which ``before = after`` is an instance, read either way; None if none is."""
    for name, (left, right) in axioms.items():
        for a, b in ((left, right), (right, left)):
            binding: dict[str, Term] = {}
            if match(a, before, binding) and match(b, after, binding):
                return name
    return None


def one_step(before: Term, after: Term, axioms: Mapping[str, tuple[Term, Term]]) -> str | None:
    """The axiom by which ``after`` is ``before`` with one axiom instance rewritten at one position, or None."""
    for _ in range(MAX_DEPTH * 4):
        if before == after:
            return None
        name = axiom_instance(before, after, axioms)
        if name is not None:
            return name
        if before[0] != after[0] or len(before) != len(after) or _is_leaf(before):
            return None
        differing = [i for i in range(1, len(before)) if before[i] != after[i]]
        if len(differing) != 1:
            return None
        before, after = before[differing[0]], after[differing[0]]
    return None


def size(term: Term) -> int:
    return 1 + sum(size(t) for t in term[1:] if isinstance(t, tuple))


# --- generation: random rewrites --------------------------------------------------------------------------------

def rewrites_at_top(term: Term, axioms: Mapping[str, tuple[Term, Term]],
                   fresh: Callable[[], Term]) -> list[tuple[str, Term]]:
    """Every (axiom, term) with an instance of the axiom (either way) rewritten at the top of ``term``; a pattern
    variable only on the new side (``x -> x ∧ (x ∨ y)``) is bound to ``fresh()``."""
    results = []
    for name, (left, right) in axioms.items():
        for a, b in ((left, right), (right, left)):
            binding: dict[str, Term] = {}
            if match(a, term, binding):
                for variable in sorted(_pattern_variables(b) - binding.keys()):
                    binding[variable] = fresh()
                result = substitute(b, binding)
                if result != term:
                    results.append((name, result))
    return results


def _pattern_variables(pattern: Term) -> set[str]:
    if pattern[0] == "pv":
        return {pattern[1]}
    return set().union(*(_pattern_variables(p) for p in pattern[1:] if isinstance(p, tuple)))


def _paths(term: Term, prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    paths = [prefix]
    for i, part in enumerate(term):
        if i and isinstance(part, tuple):
            paths.extend(_paths(part, (*prefix, i)))
    return paths


def _at(term: Term, path: tuple[int, ...]) -> Term:
    for i in path:
        term = term[i]
    return term


def _replaced(term: Term, path: tuple[int, ...], new: Term) -> Term:
    if not path:
        return new
    i = path[0]
    return (*term[:i], _replaced(term[i], path[1:], new), *term[i + 1 :])


def random_walk(rng: random.Random, start: Term, axioms: Mapping[str, tuple[Term, Term]], steps: int,
                max_size: int, fresh: Callable[[], Term]) -> list[Term]:
    """A chain of up to ``steps`` random rewrites from ``start`` (a place drawn, then an axiom among those that
    apply there, so commutativity does not crowd out the rest; terms above ``max_size`` never entered), each
    return to an earlier term cutting the loop out, so every term appears once."""
    chain = [start]
    for _ in range(steps):
        current = chain[-1]
        paths = _paths(current)
        rng.shuffle(paths)
        current_size = size(current)
        for path in paths:
            here = _at(current, path)
            room = max_size - current_size + size(here)  # the largest size a rewrite of ``here`` may have
            options = [(name, t) for name, t in rewrites_at_top(here, axioms, fresh) if size(t) <= room]
            if options:
                break
        else:
            break
        axiom = rng.choice(sorted({name for name, _ in options}))
        step = _replaced(current, path, rng.choice([t for name, t in options if name == axiom]))
        if step in chain:
            del chain[chain.index(step) + 1 :]
        else:
            chain.append(step)
    return chain


# --- writing and reading ----------------------------------------------------------------------------------------

def split_label(segment: list[Token], axioms: Mapping[str, object]) -> tuple[list[Token], str | None]:
    """A term's tokens without a trailing justification that names one axiom (``(G3)``, ``[R2, reversed]``,
    ``by L5``), and that axiom's name; the tokens unchanged and None when there is no such label. A grader
    reads such a label as the step's justification, so the chain's checker holds the step to that axiom."""
    if segment and segment[-1][0] in ("close", "rbrack"):
        opener = "open" if segment[-1][0] == "close" else "lbrack"
        start = next((i for i in range(len(segment) - 2, max(-1, len(segment) - 8), -1)
                      if segment[i][0] == opener), None)
        if start is None:
            return segment, None
        inner, rest = segment[start + 1:-1], segment[:start]
    else:
        start = next((i for i in range(len(segment) - 1, max(-1, len(segment) - 5), -1)
                      if segment[i] in (("word", "by"), ("word", "using"))), None)
        if start is None:
            return segment, None
        inner, rest = segment[start:], segment[:start]
    words = [text for kind, text in inner if kind != "punct"]
    if words[:1] in (["by"], ["using"]):
        words = words[1:]
    if words and words[0] in axioms and words[1:] in ([], ["reversed"], ["backwards"]):
        return rest, words[0]
    return segment, None


@dataclass(frozen=True)
class Algebra:
    """How an algebra's terms are written and read. ``binary``: operation -> its symbol; ``prefix``: operation
    -> symbol; ``constants``: operation -> symbol; ``tokens``: (kind, text) of a token -> the operation or
    constant it spells (several spellings may name one)."""

    binary: Mapping[str, str]
    prefix: Mapping[str, str]
    constants: Mapping[str, str]
    tokens: Mapping[tuple[str, str], str]
    axioms: Mapping[str, tuple[Term, Term]]

    def show(self, term: Term, top: bool = True) -> str:
        kind = term[0]
        if kind in ("var", "pv"):
            return str(term[1])
        if kind in self.constants:
            return self.constants[kind]
        if kind in self.prefix:
            inner = term[1]
            shown = self.show(inner, False) if _is_leaf(inner) or inner[0] in self.prefix else f"({self.show(inner)})"
            return f"{self.prefix[kind]}{shown}"
        text = f"{self.show(term[1], False)} {self.binary[kind]} {self.show(term[2], False)}"
        return text if top else f"({text})"

    def parse(self, text: str, letters: str) -> Term | None:
        tokens = tokenize(text, limit=2_000)
        if not tokens:
            return None
        read = _Reader(self, tokens, letters).term(0, 0)
        return read[0] if read is not None and read[1] == len(tokens) else None

    def read_chain(self, text: str, letters: str) -> list[Term] | str:
        """The terms of a chain ``t0 = t1 = ...`` (one line or many), or why it cannot be read."""
        if not isinstance(text, str) or len(text) > MAX_CHAIN_CHARS:
            return "the chain is missing or too long"
        block = read_block(strip_wrappers(text), leading="strip")  # "Answer: t0 = t1", a chain in $...$ or \boxed{}
        if block is None:
            return "expected terms separated by ="
        rows = without_end_of_proof([row for row in block if row.strip()])
        if rows and len(rows[0]) <= 40 and rows[0].rstrip().endswith(":") and "=" not in rows[0]:
            rows = rows[1:]
        tokens = tokenize(" ".join(rows), limit=MAX_CHAIN_CHARS)
        if not tokens:
            return "expected terms separated by ="
        if tokens[-1] == ("punct", "."):
            tokens.pop()
        segments: list[list[Token]] = [[]]
        for token in tokens:
            if token[0] == "eq":
                segments.append([])
            else:
                segments[-1].append(token)
        if len(segments) < 2 or len(segments) > MAX_TERMS:
            return "expected at least two terms separated by ="
        terms: list[Term] = []
        for number, segment in enumerate(segments):
            segment, label = split_label(segment, self.axioms)
            if label is not None and number == 0:
                return f"the first term ({label}) has no step to justify"
            read = _Reader(self, segment, letters).term(0, 0) if segment else None
            if read is None or read[1] != len(segment):
                shown = " ".join(t for _, t in segment)[:60]
                return f"could not read the term {shown!r} (two operands per operation; brackets inside)"
            if label is not None and one_step(terms[-1], read[0], {label: self.axioms[label]}) is None:
                return f"step {number} is not an instance of {label}, the axiom it names"
            terms.append(read[0])
        return terms

    def check_chain(self, terms: list[Term], left: Term, right: Term) -> str | None:
        """Why ``terms`` is not a proof of ``left = right`` (the first bad step named), or None when it is."""
        if terms[0] != left:
            return f"the chain starts with {self.show(terms[0])}, not the left side"
        for number, (before, after) in enumerate(zip(terms, terms[1:]), start=1):
            if one_step(before, after, self.axioms) is None:
                return (f"step {number} ({self.show(before)} = {self.show(after)}) is not one axiom applied at one "
                        "place")
        if terms[-1] != right:
            return f"the chain ends with {self.show(terms[-1])}, not the right side"
        return None


class _Reader:
    """term := factor (binary factor)?; factor := prefix* primary; primary := letter | constant | ( term )."""

    def __init__(self, algebra: Algebra, tokens: list[Token], letters: str) -> None:
        self.algebra, self.tokens, self.letters = algebra, tokens, letters

    def at(self, pos: int) -> Token:
        return self.tokens[pos] if pos < len(self.tokens) else ("end", "")

    def term(self, pos: int, depth: int) -> tuple[Term, int] | None:
        left = self.factor(pos, depth)
        if left is None:
            return None
        operation = self.algebra.tokens.get(self.at(left[1]))
        if operation in self.algebra.binary:
            right = self.factor(left[1] + 1, depth)
            if right is None:
                return None
            return (operation, left[0], right[0]), right[1]
        return left

    def factor(self, pos: int, depth: int) -> tuple[Term, int] | None:
        if depth > MAX_DEPTH:
            return None
        operation = self.algebra.tokens.get(self.at(pos))
        if operation in self.algebra.prefix:
            inner = self.factor(pos + 1, depth + 1)
            return None if inner is None else ((operation, inner[0]), inner[1])
        kind, text = self.at(pos)
        if operation in self.algebra.constants:
            return (operation,), pos + 1
        if kind == "word" and len(text) == 1 and text in self.letters:
            return ("var", text), pos + 1
        if kind == "open":
            inner = self.term(pos + 1, depth + 1)
            if inner is not None and self.at(inner[1])[0] == "close":
                return inner[0], inner[1] + 1
        return None


# --- the task shared by the algebras' envs ----------------------------------------------------------------------

class ChainTask(Task):
    """Prove ``left = right`` in an algebra by a chain of terms, each one axiom instance rewritten at one place.

    An env names its ``algebra``, the structure in words, the axioms as the prompt lists them, a fixed example
    chain, and how a start term is drawn (:meth:`draw_start`); the identity is a :func:`random_walk` from it, kept
    when it is long enough and its two sides are not one step apart. Any valid chain scores.
    """

    algebra: Algebra
    structure = ""
    axiom_text = ""
    example = ""
    multiline = True
    max_answer_chars = MAX_CHAIN_CHARS

    @dataclass(frozen=True)
    class Config:
        letters: int
        start_size: int  # operations in the start term
        steps: int  # random rewrites from it
        min_steps: int  # the reference chain's least length
        max_size: int  # the largest term the walk enters

    def draw_start(self, rng: random.Random, letters: str, operations: int) -> Term:
        raise NotImplementedError

    def fresh(self, rng: random.Random, letters: str) -> Callable[[], Term]:
        """The term an axiom's new variable is bound to during the walk: a random letter."""
        return lambda: ("var", rng.choice(letters))

    def generate(self, rng: random.Random, config: Config) -> Problem:
        letters = LETTERS[: config.letters]

        def draw() -> list[Term] | None:
            start = self.draw_start(rng, letters, config.start_size)
            chain = random_walk(rng, start, self.algebra.axioms, config.steps, config.max_size, self.fresh(rng, letters))
            if len(chain) - 1 < config.min_steps or one_step(chain[0], chain[-1], self.algebra.axioms):
                return None
            return chain

        chain = retry(draw, attempts=500, what="an identity with a long enough proof")
        show = self.algebra.show
        prompt = (
            f"In a {self.structure}, prove that\n  {show(chain[0])} = {show(chain[-1])}\nfrom these axioms alone:\n"
            f"  {self.axiom_text}\n"
            "Give a chain of terms from the left side to the right side, separated by =, in which each term comes "
            "from the previous one by applying one axiom, in either direction, to one subterm (x, y, z stand for any "
            "terms). Write every operation below the outermost in brackets (a + (b + c), never a + b + c). Any "
            f"valid chain is accepted. The shape, for example:\n{self.example}"
        )
        return Problem(prompt=prompt, answer="\n= ".join(show(t) for t in chain), data={
            "letters": letters, "left": show(chain[0]), "right": show(chain[-1]), "steps": len(chain) - 1,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        letters = problem.data["letters"]
        terms = self.algebra.read_chain(answer, letters)
        if isinstance(terms, str):
            return Verdict.unparsed(terms)
        left, right = (self.algebra.parse(problem.data[k], letters) for k in ("left", "right"))
        if left is None or right is None:
            return Verdict.failed("the stored identity does not parse")
        error = self.algebra.check_chain(terms, left, right)
        return Verdict.right() if error is None else Verdict.wrong(error)

    def difficulty(self, problem: Problem) -> float:
        """Steps of the reference chain plus a quarter of the two sides' sizes."""
        letters = problem.data["letters"]
        sides = [self.algebra.parse(problem.data[k], letters) for k in ("left", "right")]
        return problem.data["steps"] + sum(size(t) for t in sides if t is not None) / 4

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), gold.replace("\n", " "), f"```\n{gold}\n```", f"Proof:\n{gold}",
                f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = (problem.answer or "").split("\n= ")
        letters = problem.data["letters"]
        terms = [self.algebra.parse(r, letters) for r in rows]
        wrong = ["\n= ".join(rows[:-1]), "\n= ".join(rows[1:])]
        for i in range(len(terms) - 2):  # two steps merged where they are not one rewrite
            first, third = terms[i], terms[i + 2]
            if first is not None and third is not None and not one_step(first, third, self.algebra.axioms):
                wrong.append("\n= ".join(rows[: i + 1] + rows[i + 2 :]))
                break
        return wrong


LETTERS = "abcdfgh"
