"""Every positive fraction once: positions and terms of the Calkin–Wilf sequence, paths in the Stern–Brocot tree.

The prompt defines the structures. The Calkin–Wilf tree has root 1/1 and gives every a/b the children
a/(a + b) (left) and (a + b)/b (right); read level by level, left to right, it lists every positive rational
exactly once, in lowest terms: 1/1, 1/2, 2/1, 1/3, 3/2, 2/3, 3/1, 1/4, ... The Stern–Brocot tree starts at
1/1 between the bounds 0/1 and 1/0; a step left (L) or right (R) moves to the mediant of the current fraction
and its lower or upper bound, so each positive fraction sits at the end of exactly one L/R path.

Kinds: the n-th fraction of the Calkin–Wilf list (computed from the binary digits of n: the tree position of
the n-th entry is n itself); the position of a given fraction in that list (climbing to the root, each step
undoes one child rule); and the Stern–Brocot path of a fraction (Euclid's algorithm, run-length form). Each
answer is unique. Fractions are judged by exact value (``3/2``, ``\\frac{3}{2}`` or ``1.5``); paths as L/R
strings (spaces and case aside). Levels grow n tenfold past the presets. Difficulty: the depth in the tree
(the binary digits of n) plus the kind's steps (term 1, position 2, path 2).

Version 3: n is drawn from 9 up and never on the tree's edges (n = 2^k, the fraction 1/(k+1); n = 2^k - 1, the
fraction k/1): the prompt prints the list up to position 8, where both edges show, so looking a fraction up in
that list or carrying its edges on (1/1, 1/2, 1/3, 1/4 at positions 1, 2, 4, 8) answered 0.095 of level 0
(lookup alone 0.035, 200 seeds); now 0.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, strip_wrappers
from palaestra.verifiers.numeric import read_exact, read_integer

KIND_STEPS = {"term": 1, "position": 2, "path": 2}
CALKIN_WILF = ("The Calkin–Wilf tree has the root 1/1, and every fraction a/b in it has two children: a/(a+b) on the "
               "left and (a+b)/b on the right. Reading the tree level by level, each level from left to right, "
               "lists every positive fraction exactly once, in lowest terms: 1/1, 1/2, 2/1, 1/3, 3/2, 2/3, 3/1, "
               "1/4, ... (1/1 is at position 1).")
STERN_BROCOT = ("The Stern–Brocot tree starts at 1/1, which lies between the bounds 0/1 and 1/0. From a fraction "
                "a/b between the bounds p/q (below) and r/s (above), a step L moves to the mediant (p+a)/(q+b) "
                "(and a/b becomes the upper bound), a step R moves to the mediant (a+r)/(b+s) (and a/b becomes the "
                "lower bound). Every positive fraction in lowest terms is reached by exactly one string of steps.")
EXAMPLES = {"term": "7/5", "position": "1234", "path": "RRLRL"}  # fixed placeholders: not the answer
FIRST_DRAWN = 9  # the prompt lists positions 1-8


def _on_edge(n: int) -> bool:
    """Whether position n is on the Calkin–Wilf tree's left edge (2^k, 1/(k+1)) or right edge (2^k - 1, k/1)."""
    return n & (n - 1) == 0 or n & (n + 1) == 0


def term(n: int) -> Fraction:
    """The n-th Calkin–Wilf fraction: follow n's binary digits after the leading 1 (0 left, 1 right)."""
    a, b = 1, 1
    for bit in bin(n)[3:]:
        a, b = (a, a + b) if bit == "0" else (a + b, b)
    return Fraction(a, b)


def position(value: Fraction) -> int:
    """The Calkin–Wilf position of a positive fraction: climb to the root, recording each step."""
    a, b = value.numerator, value.denominator
    bits = []
    while (a, b) != (1, 1):  # bounded: a + b shrinks every step
        if a < b:
            bits.append("0")
            b -= a
        else:
            bits.append("1")
            a -= b
    return int("1" + "".join(reversed(bits)), 2)


def path(value: Fraction) -> str:
    """The Stern–Brocot path of a positive fraction (empty for 1/1)."""
    a, b = value.numerator, value.denominator
    steps = []
    while a != b:  # bounded: a + b shrinks every step (Euclid by subtraction)
        if a < b:
            steps.append("L")
            b -= a
        else:
            steps.append("R")
            a -= b
    return "".join(steps)


def _read_path(text: str) -> str | None:
    s = strip_wrappers(text).strip().replace(" ", "").replace(",", "").replace("\\text{", "").replace("}", "")
    return s.upper() if 0 < len(s) <= 2_000 and all(ch in "LRlr" for ch in s) else None


@register
class RationalTrees(Task):
    id = "sequences/rational_trees"
    family = "sequences"
    description = "Calkin–Wilf terms and positions, Stern–Brocot paths: enumerations of the positive fractions."
    tags = ("math", "sequences", "number_theory")
    version = 3  # v3: n from 9 and off the tree's edges (the printed list and its edges paid 0.095 at level 0)
    # v2: level 1 positions up to 5,000 (was 1,000: 2,997 problems, 86% distinct in 1,000 draws)

    @dataclass(frozen=True)
    class Config:
        largest: int  # the largest position n drawn
        kinds: tuple[str, ...]

    presets = (Config(100, ("term", "position")), Config(5_000, ("term", "position", "path")),
               Config(10_000, ("term", "position", "path")), Config(10**6, ("term", "position", "path")),
               Config(10**9, ("term", "position", "path")))
    growth = Growth(factors={"largest": 10})

    def space_size(self, level: int) -> int | None:
        """Level 0: two kinds over positions 9..100 less the six on the tree's edges (15, 16, 31, 32, 63, 64)."""
        return 2 * 86 if level == 0 else None

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        # past the printed list (positions 1-8) and off the edges its pattern gives away (2^k: 1/(k+1); 2^k - 1: k/1)
        n = retry(lambda: rng.randint(FIRST_DRAWN, config.largest), lambda n: not _on_edge(n),
                  what="a position off the tree's edges")
        fraction = term(n)
        text = f"{fraction.numerator}/{fraction.denominator}"
        if kind == "term":
            prompt = (f"{CALKIN_WILF}\n\nWhat is the fraction at position {n}? Give it in lowest terms, for "
                      f"example: {EXAMPLES['term']}")
            answer = text
        elif kind == "position":
            prompt = (f"{CALKIN_WILF}\n\nAt which position does {text} appear? Give a whole number, for example: "
                      f"{EXAMPLES['position']}")
            answer = str(n)
        else:
            prompt = (f"{STERN_BROCOT}\n\nWhich string of steps reaches {text}? Give it as letters L and R, for "
                      f"example: {EXAMPLES['path']}")
            answer = path(fraction)
        return Problem(prompt=prompt, answer=answer,
                       data={"kind": kind, "n": n, "fraction": text, "answer": answer})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        if not isinstance(answer, str) or len(answer) > 4_000:
            return Verdict.unparsed("expected one answer")
        if data["kind"] == "term":
            value = read_exact(answer, mixed=True)
            if value is None:
                return Verdict.unparsed(f"expected a fraction such as {EXAMPLES['term']}")
            right = value == Fraction(data["fraction"])
        elif data["kind"] == "position":
            found = read_integer(answer)
            if found is None:
                return Verdict.unparsed(f"expected a whole number such as {EXAMPLES['position']}")
            right = found == data["n"]
        else:
            steps = read_answer(answer, _read_path)
            if steps is None:
                return Verdict.unparsed(f"expected a string of L and R such as {EXAMPLES['path']}")
            right = steps == data["answer"]
        return Verdict.judge(right, "right" if right else "not the answer for that fraction or position")

    def difficulty(self, problem: Problem) -> float:
        """The depth in the tree (binary digits of n) plus the kind's steps."""
        data = problem.data
        return float(data["n"].bit_length() + KIND_STEPS[data["kind"]])

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        extra = []
        if problem.data["kind"] == "term":
            numerator, denominator = gold.split("/")
            extra = [f"\\frac{{{numerator}}}{{{denominator}}}"]
        elif problem.data["kind"] == "path":
            extra = [" ".join(gold), gold.lower()]
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"{gold}.", f"Answer: {gold}", *extra]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        n = data["n"]
        if data["kind"] == "term":
            neighbour = term(n + 1)
            flipped = 1 / Fraction(data["fraction"])
            wrong = [f"{neighbour.numerator}/{neighbour.denominator}", f"{data['fraction']} or {neighbour}"]
            if flipped != Fraction(data["fraction"]):
                wrong.append(f"{flipped.numerator}/{flipped.denominator}")
            return wrong
        if data["kind"] == "position":
            return [str(n + 1), str(n - 1), f"{n} or {n + 1}"]
        steps = data["answer"]
        mirrored = steps.translate(str.maketrans("LR", "RL"))
        return [mirrored, steps + "L", steps[:-1] if len(steps) > 1 else "RR", f"{steps} or {mirrored}"]
