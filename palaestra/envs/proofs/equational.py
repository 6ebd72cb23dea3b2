"""Equational proof from the group axioms: a chain of terms, each one axiom instance rewritten at one place.

The identity to prove is ``s = t`` for two group terms with the same reduced word in the free group
(so it holds in every group): a random reduced word over the letters is padded twice, independently,
with identities and cancelling pairs (``b * b⁻¹``) at random places and bracketed at random. Inverses
stand on letters only, so the five axioms suffice without derived lemmas:

    G1 (x * y) * z = x * (y * z)    G2 e * x = x    G3 x * e = x    G4 x⁻¹ * x = e    G5 x * x⁻¹ = e

The reference chain rewrites each side to the right-nested reduced word (identities dropped, products
re-associated to the right, adjacent inverse pairs cancelled) and joins the two halves. The checker
reads the chain with a hand-written term parser (products of two factors, brackets required beyond
that, inverses ``a⁻¹``, ``a'``, ``a^-1``, ``inv(a)``) and accepts a step when the two terms agree
outside one position and the two subterms there are one axiom's two sides under a single
substitution, in either direction; **any** valid chain from ``s`` to ``t`` scores. Difficulty: the
reference chain's steps plus a quarter of the two sides' sizes.

The chain's length bound follows the problem (:func:`chain_bounds`: twice the reference's terms, each as wide
as the wider side, never below 300 terms and 40,000 characters). A fixed 40,000-character bound refused the
reference itself from level 18 on (level 20, seeds 0-30: 9 of 31; the longest reference over 15,000 seeds at the
growth cap is 56,043 characters and 190 terms, its bound 157,626); grading only, problems unchanged.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.proofs import _rewriting as rewriting
from palaestra.envs.proofs._logic import Token, tokenize
from palaestra.verifiers.blocks import read_block, without_end_of_proof
from palaestra.verifiers.normalize import strip_wrappers

Term = tuple[Any, ...]  # ("e",), ("var", "a"), ("mul", s, t), ("inv", s); patterns add ("pv", "x")
E: Term = ("e",)
LETTERS = "abcdfgh"  # no "e": that is the identity
MAX_TERMS = 300  # the least bounds on a chain's terms and characters, whatever the problem (see chain_bounds)
MAX_CHAIN_CHARS = 40_000
# What Task.check lets through to verify, which then holds the chain to the problem's own bound (chain_bounds);
# above that bound for every problem the capped growth can draw (at most about 160,000; tests pin it).
MAX_ANSWER_CHARS = 250_000
MAX_DEPTH = 60  # brackets and inv( ) nested, and inverses stacked (a⁻¹⁻¹): hostile input costs bounded time


def _pv(name: str) -> Term:
    return ("pv", name)


X, Y, Z = _pv("x"), _pv("y"), _pv("z")
AXIOMS: dict[str, tuple[Term, Term]] = {
    "G1": (("mul", ("mul", X, Y), Z), ("mul", X, ("mul", Y, Z))),
    "G2": (("mul", E, X), X),
    "G3": (("mul", X, E), X),
    "G4": (("mul", ("inv", X), X), E),
    "G5": (("mul", X, ("inv", X)), E),
}
AXIOM_TEXT = ("G1 (x * y) * z = x * (y * z);  G2 e * x = x;  G3 x * e = x;  G4 x⁻¹ * x = e;  G5 x * x⁻¹ = e")
EXAMPLE = "(a * b) * c\n= a * (b * c)\n= a * (b * (e * c))"


@register
class GroupEquational(Task):
    id = "proofs/equational"
    family = "proofs"
    description = "Prove a group identity by a chain of terms, each one axiom instance rewritten at one place."
    tags = ("algebra", "proofs", "rewriting", "groups")
    version = 1
    multiline = True
    max_answer_chars = MAX_ANSWER_CHARS

    @dataclass(frozen=True)
    class Config:
        letters: int
        word: int  # letters of the reduced word both sides equal
        padding: int  # identities and cancelling pairs added to each side
        min_steps: int

    presets = (
        Config(letters=2, word=2, padding=1, min_steps=3),
        Config(letters=2, word=3, padding=2, min_steps=5),
        Config(letters=3, word=3, padding=3, min_steps=8),
        Config(letters=3, word=4, padding=4, min_steps=11),
        Config(letters=4, word=5, padding=5, min_steps=14),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"word": 1, "padding": 1, "min_steps": 3}, limits={"letters": 6, "word": 20, "padding": 20, "min_steps": 59})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        letters = LETTERS[: config.letters]

        def draw() -> tuple[Term, Term, list[Term]] | None:
            word = _reduced_word(rng, letters, config.word)
            left, right = _padded(rng, word, letters, config.padding), _padded(rng, word, letters, config.padding)
            if left == right:
                return None
            chain = reference_chain(left, right)
            return (left, right, chain) if len(chain) - 1 >= config.min_steps else None

        left, right, chain = retry(draw, attempts=500, what="an identity with a long enough proof")
        prompt = (
            f"In a group, with identity e and inverse ⁻¹, prove that\n  {show_term(left)} = {show_term(right)}\n"
            f"from the group axioms alone:\n  {AXIOM_TEXT}\n"
            "Give a chain of terms from the left side to the right side, separated by =, in which each term comes "
            "from the previous one by applying one axiom, in either direction, to one subterm (x, y, z stand for any "
            "terms). Write every product of two factors in brackets except the outermost (a * (b * c), never a * b "
            "* c). Any valid chain is accepted. The shape, for example:\n"
            f"{EXAMPLE}"
        )
        return Problem(prompt=prompt, answer="\n= ".join(show_term(t) for t in chain), data={
            "letters": letters, "left": show_term(left), "right": show_term(right), "steps": len(chain) - 1,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        letters = problem.data["letters"]
        terms = read_chain(answer, letters, *chain_bounds(problem.data))
        if isinstance(terms, str):
            return Verdict.unparsed(terms)
        left, right = parse_term(problem.data["left"], letters), parse_term(problem.data["right"], letters)
        if terms[0] != left:
            return Verdict.wrong(f"the chain starts with {show_term(terms[0])}, not the left side")
        for number, (before, after) in enumerate(zip(terms, terms[1:]), start=1):
            if not one_step(before, after):
                return Verdict.wrong(f"step {number} ({show_term(before)} = {show_term(after)}) is not one axiom "
                                     "applied at one place")
        if terms[-1] != right:
            return Verdict.wrong(f"the chain ends with {show_term(terms[-1])}, not the right side")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Steps of the reference chain plus a quarter of the two sides' sizes."""
        letters = problem.data["letters"]
        sides = [parse_term(problem.data[k], letters) for k in ("left", "right")]
        return problem.data["steps"] + sum(_size(t) for t in sides if t is not None) / 4

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        one_line = gold.replace("\n", " ")
        return [*super().spellings(problem), one_line, gold.replace("⁻¹", "'"), gold.replace("⁻¹", "^-1"),
                gold.replace(" * ", "·"), f"```\n{gold}\n```", f"Proof:\n{gold}", f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = (problem.answer or "").split("\n= ")
        wrong = ["\n= ".join([rows[0], rows[-1]]), "\n= ".join(rows[:-1])]
        if len(rows) > 3:  # two steps merged into one where they cannot be one rewrite
            letters = problem.data["letters"]
            terms = [parse_term(r, letters) for r in rows]
            for i in range(len(terms) - 2):
                first, third = terms[i], terms[i + 2]
                if first is not None and third is not None and not one_step(first, third):
                    wrong.append("\n= ".join(rows[: i + 1] + rows[i + 2 :]))
                    break
        return wrong


# --- terms ----------------------------------------------------------------------------------------------------

def show_term(term: Term, top: bool = True) -> str:
    kind = term[0]
    if kind == "e":
        return "e"
    if kind in ("var", "pv"):
        return str(term[1])
    if kind == "inv":
        inner = show_term(term[1], False)
        return f"{inner}⁻¹" if term[1][0] in ("var", "e", "pv") else f"({show_term(term[1])})⁻¹"
    text = f"{show_term(term[1], False)} * {show_term(term[2], False)}"
    return text if top else f"({text})"


def _size(term: Term) -> int:
    return 1 + sum(_size(t) for t in term[1:] if isinstance(t, tuple))


class _TermParser:
    """term := factor ("*" factor)?; factor := primary postfix*; primary := letter | e | 1 | ( term ) | inv( term )."""

    def __init__(self, tokens: list[Token], letters: str) -> None:
        self.tokens, self.letters = tokens, letters
        self.stacked = 0  # inverses stacked on a factor beyond its first, in the whole term

    def at(self, pos: int) -> Token:
        return self.tokens[pos] if pos < len(self.tokens) else ("end", "")

    def term(self, pos: int, depth: int) -> tuple[Term, int] | None:
        left = self.factor(pos, depth)
        if left is None:
            return None
        if self.at(left[1])[0] == "op":
            right = self.factor(left[1] + 1, depth)
            if right is None:
                return None
            return ("mul", left[0], right[0]), right[1]
        return left

    def factor(self, pos: int, depth: int) -> tuple[Term, int] | None:
        read = self.primary(pos, depth)
        if read is None:
            return None
        term, pos = read
        for stacked in range(len(self.tokens)):
            step = self.postfix(pos)
            if step is None:
                break
            # Inverses stacked on one factor (a⁻¹⁻¹) nest terms without brackets: unbounded, a⁻¹⁻¹⁻¹... would
            # overflow the recursion of comparing and showing terms, so the term's stacked ones beyond the first
            # count against MAX_DEPTH.
            if stacked:
                self.stacked += 1
                if self.stacked > MAX_DEPTH:
                    return None
            term, pos = ("inv", term), step
        return term, pos

    def postfix(self, pos: int) -> int | None:
        kind, text = self.at(pos)
        if kind == "prime":
            return pos + 1
        if (kind, text, *self.at(pos + 1)) == ("sup", "⁻", "sup", "¹"):
            return pos + 2
        if kind == "caret":  # ^-1, ^{-1}, ^(-1)
            inner = pos + 1
            closing = {"lbrace": "rbrace", "open": "close"}.get(self.at(inner)[0])
            if closing:
                inner += 1
            if self.at(inner)[0] == "dash" and self.at(inner + 1) == ("num", "1"):
                inner += 2
                if closing:
                    return inner + 1 if self.at(inner)[0] == closing else None
                return inner
        return None

    def primary(self, pos: int, depth: int) -> tuple[Term, int] | None:
        if depth > MAX_DEPTH:
            return None
        kind, text = self.at(pos)
        if kind == "word" and text == "e" or (kind, text) == ("num", "1"):
            return E, pos + 1
        if kind == "word" and len(text) == 1 and text in self.letters:
            return ("var", text), pos + 1
        if kind == "word" and text in ("inv", "i") and self.at(pos + 1)[0] == "open":
            inner = self.term(pos + 2, depth + 1)
            if inner is not None and self.at(inner[1])[0] == "close":
                return ("inv", inner[0]), inner[1] + 1
            return None
        if kind == "open":
            inner = self.term(pos + 1, depth + 1)
            if inner is not None and self.at(inner[1])[0] == "close":
                return inner[0], inner[1] + 1
        return None


def parse_term(text: str, letters: str) -> Term | None:
    tokens = tokenize(text, limit=2_000)
    if not tokens:
        return None
    read = _TermParser(tokens, letters).term(0, 0)
    return read[0] if read is not None and read[1] == len(tokens) else None


def chain_bounds(data: dict[str, Any]) -> tuple[int, int]:
    """The most terms and characters a chain for the problem with ``data`` may have: twice the reference's terms,
    each as wide as the wider side plus 8 (the ``=``, a label such as ``(G3)``), and never below
    ``MAX_TERMS`` and ``MAX_CHAIN_CHARS``.

    The bound grows with the problem so that a valid chain is not refused for its length (a fixed one refused the
    reference itself past level 17), and stays a bound so that reading hostile text costs bounded time. The
    reference's rows never outgrow its wider side (normalising only drops, collapses and re-brackets), so it
    takes at most half of either bound; another valid route may be twice as long."""
    terms = int(data.get("steps", 0)) + 1
    width = max(len(str(data.get("left", ""))), len(str(data.get("right", ""))))
    max_terms = max(MAX_TERMS, 2 * terms)
    return max_terms, max(MAX_CHAIN_CHARS, max_terms * (width + 8))


def read_chain(text: str, letters: str, max_terms: int = MAX_TERMS,
               max_chars: int = MAX_CHAIN_CHARS) -> list[Term] | str:
    """The terms of a chain ``t0 = t1 = ...`` (on one line or many), or why it cannot be read; at most
    ``max_terms`` terms in ``max_chars`` characters (see :func:`chain_bounds`)."""
    if not isinstance(text, str):
        return "the chain is missing"
    if len(text) > max_chars:
        return f"the chain is longer than {max_chars} characters"
    block = read_block(strip_wrappers(text), leading="strip")  # "Answer: t0 = t1", a chain in $...$ or \boxed{}
    if block is None:
        return "expected terms separated by ="
    rows = without_end_of_proof([row for row in block if row.strip()])
    if rows and len(rows[0]) <= 40 and rows[0].rstrip().endswith(":") and "=" not in rows[0]:
        rows = rows[1:]
    tokens = tokenize(" ".join(rows), limit=max_chars)  # a token takes a character at least
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
    if len(segments) < 2:
        return "expected at least two terms separated by ="
    if len(segments) > max_terms:
        return f"the chain has more than {max_terms} terms"
    terms: list[Term] = []
    for number, segment in enumerate(segments):
        segment, label = rewriting.split_label(segment, AXIOMS)
        if label is not None and number == 0:
            return f"the first term ({label}) has no step to justify"
        read = _TermParser(segment, letters).term(0, 0) if segment else None
        if read is None or read[1] != len(segment):
            shown = " ".join(t for _, t in segment)[:60]
            return f"could not read the term {shown!r} (products of two factors; brackets around inner products)"
        if label is not None and rewriting.one_step(terms[-1], read[0], {label: AXIOMS[label]}) is None:
            return f"step {number} is not an instance of {label}, the axiom it names"
        terms.append(read[0])
    return terms


def one_step(before: Term, after: Term) -> bool:
    """Whether ``after`` is ``before`` with one group axiom instance rewritten at one position."""
    return rewriting.one_step(before, after, AXIOMS) is not None


# --- generation and the reference chain -------------------------------------------------------------------------

def _reduced_word(rng: random.Random, letters: str, length: int) -> list[Term]:
    word: list[Term] = []
    for _ in range(length):
        for _ in range(20):
            letter: Term = ("var", rng.choice(letters))
            if rng.random() < 0.4:
                letter = ("inv", letter)
            if not word or not _cancels(word[-1], letter):
                break
        word.append(letter)
    return word


def _cancels(a: Term, b: Term) -> bool:
    return a == ("inv", b) or b == ("inv", a)


def _padded(rng: random.Random, word: list[Term], letters: str, padding: int) -> Term:
    leaves = list(word)
    for _ in range(padding):
        at = rng.randint(0, len(leaves))
        if rng.random() < 0.3:
            leaves[at:at] = [E]
        else:
            letter: Term = ("var", rng.choice(letters))
            pair = [letter, ("inv", letter)]
            leaves[at:at] = pair if rng.random() < 0.5 else pair[::-1]
    return _bracketed(rng, leaves)


def _bracketed(rng: random.Random, leaves: list[Term]) -> Term:
    if len(leaves) == 1:
        return leaves[0]
    cut = rng.randint(1, len(leaves) - 1)
    return ("mul", _bracketed(rng, leaves[:cut]), _bracketed(rng, leaves[cut:]))


def _rewrite_once(term: Term) -> Term | None:
    """One normalising step (first applicable, leftmost-outermost): collapse an inverse pair, drop an identity,
    re-associate to the right, bring an adjacent inverse pair together; None when ``term`` is the right-nested reduced word."""
    for rule in (_collapse, _drop_identity, _associate, _cancel):
        result = rule(term)
        if result is not None:
            return result
    return None


def _collapse(term: Term) -> Term | None:
    """``a * a⁻¹ -> e`` or ``a⁻¹ * a -> e`` at the leftmost-outermost place."""
    if term[0] != "mul":
        return None
    if _cancels(term[1], term[2]):
        return E
    for i in (1, 2):
        inner = _collapse(term[i])
        if inner is not None:
            return ("mul", inner, term[2]) if i == 1 else ("mul", term[1], inner)
    return None


def _drop_identity(term: Term) -> Term | None:
    if term[0] != "mul":
        return None
    if term[1] == E:
        return term[2]
    if term[2] == E:
        return term[1]
    for i in (1, 2):
        inner = _drop_identity(term[i])
        if inner is not None:
            return ("mul", inner, term[2]) if i == 1 else ("mul", term[1], inner)
    return None


def _associate(term: Term) -> Term | None:
    if term[0] != "mul":
        return None
    if term[1][0] == "mul":
        return ("mul", term[1][1], ("mul", term[1][2], term[2]))
    inner = _associate(term[2])
    return None if inner is None else ("mul", term[1], inner)


def _cancel(term: Term) -> Term | None:
    """On a right-nested product: ``a * (a⁻¹ * r) -> (a * a⁻¹) * r`` (G1 backwards), which the collapse and
    identity rules then finish."""
    if term[0] != "mul":
        return None
    head, tail = term[1], term[2]
    if tail[0] == "mul" and _cancels(head, tail[1]):
        return ("mul", ("mul", head, tail[1]), tail[2])
    inner = _cancel(tail)
    return None if inner is None else ("mul", head, inner)


def _normalising_chain(term: Term) -> list[Term]:
    chain = [term]
    for _ in range(10_000):
        step = _rewrite_once(chain[-1])
        if step is None:
            return chain
        chain.append(step)
    raise RuntimeError("normalisation did not end")


def reference_chain(left: Term, right: Term) -> list[Term]:
    """A chain of one-step rewrites from ``left`` to ``right`` through their common normal form, cut where the
    two halves first meet."""
    down, up = _normalising_chain(left), _normalising_chain(right)
    if down[-1] != up[-1]:
        raise ValueError("the two sides are not equal in every group")
    position = {t: i for i, t in enumerate(up)}
    meet = next(i for i, t in enumerate(down) if t in position)
    return down[: meet + 1] + up[: position[down[meet]]][::-1]
