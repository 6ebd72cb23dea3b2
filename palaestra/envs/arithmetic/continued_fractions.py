"""Continued fractions: evaluate one, expand a fraction or a square root, and solve Pell's equation.

Level 0 evaluates a short continued fraction ``[a0; a1, a2, a3]`` to a fraction; level 1
expands a fraction p/q (the last partial quotient at least 2, as the prompt states);
level 2 does the same for larger and negative fractions; level 3 expands √n, which is
periodic (``[a0; (a1, ..., ak)]``, the shortest repeating block); level 4 asks for the
smallest positive solution of Pell's equation x² - n y² = 1, read off the convergents of √n.
Levels 3 and 4 draw n uniformly from the non-squares below 6,000 whose period is at most
10 (and, for Pell, whose solution is below 10^9): finite spaces of over 2,000 problems.

Answers: a fraction in lowest terms; a list of partial quotients (``[3; 7, 15, 1]``,
``[3, 7, 15, 1]``, ``3; 7, 15, 1``); a periodic expansion (``[4; (1, 3, 1, 8)]``,
``[4; \\overline{1, 3, 1, 8}]``, ``[4; 1, 3, 1, 8, ...]`` is not exact and is not read); a pair
``x = 649, y = 180`` (checked: x² - n y² = 1 with the smallest positive y).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.normalize import enclosed, read_answer, simplify_latex, strip_wrappers, unify
from palaestra.verifiers.rationals import format_fraction, other_spellings, read_lowest_terms
from palaestra.verifiers.sets import read_list

MAX_TERMS = 200


def expand(value: Fraction) -> list[int]:
    """The continued fraction of a rational, last quotient at least 2 (unless there is only one term)."""
    terms = []
    for _ in range(MAX_TERMS):
        whole = math.floor(value)
        terms.append(whole)
        value -= whole
        if value == 0:
            break
        value = 1 / value
    return terms


def evaluate_terms(terms: list[int]) -> Fraction:
    value = Fraction(terms[-1])
    for a in reversed(terms[:-1]):
        value = a + 1 / value
    return value


def sqrt_expansion(n: int) -> tuple[int, list[int]]:
    """(a0, the repeating block) of √n for a non-square n, by the standard m, d, a recurrence."""
    a0 = math.isqrt(n)
    m, d, a = 0, 1, a0
    block = []
    for _ in range(4 * n + 4):  # the period is at most 2n
        m = d * a - m
        d = (n - m * m) // d
        a = (a0 + m) // d
        block.append(a)
        if a == 2 * a0:
            break
    return a0, block


def pell(n: int) -> tuple[int, int]:
    """The fundamental solution of x^2 - n y^2 = 1 from the convergents of √n."""
    a0, block = sqrt_expansion(n)
    p_prev, p = 1, a0
    q_prev, q = 0, 1
    for a in block * 2:  # the solution is the convergent before the end of the first or second period
        if p * p - n * q * q == 1:
            break
        p_prev, p = p, a * p + p_prev
        q_prev, q = q, a * q + q_prev
    if p * p - n * q * q != 1:
        raise ArithmeticError(f"no Pell solution found for {n}")  # cannot happen for non-square n
    return p, q


MAX_PERIOD = 10  # square roots with longer periods make unwieldy answers
MAX_PELL = 10**9  # Pell solutions up to this size


@cache
def short_period_radicands(below: int) -> tuple[int, ...]:
    """Non-squares n < below whose √n has a period of at most MAX_PERIOD."""
    return tuple(n for n in range(2, below) if math.isqrt(n) ** 2 != n and len(sqrt_expansion(n)[1]) <= MAX_PERIOD)


@cache
def pell_radicands(below: int) -> tuple[int, ...]:
    return tuple(n for n in short_period_radicands(below) if pell(n)[0] < MAX_PELL)


def _terms_text(terms: list[int]) -> str:
    return f"[{terms[0]}; " + ", ".join(map(str, terms[1:])) + "]" if len(terms) > 1 else f"[{terms[0]}]"


_INT = re.compile(r"-?\d{1,12}")
_OVERLINE = re.compile(r"\\overline\s*\{([^{}]*)\}")


def read_terms(text: str) -> tuple[list[int], list[int]] | None:
    """(the leading terms, the repeating block) of a written continued fraction, or None.

    ``[4; (1, 3, 1, 8)]`` and ``[4; \\overline{1, 3, 1, 8}]`` give ``([4], [1, 3, 1, 8])``;
    ``[3; 7, 15, 1]`` gives ``([3, 7, 15, 1], [])``.
    """
    if not isinstance(text, str) or len(text) > 2_000:
        return None

    def read(s: str) -> tuple[list[int], list[int]] | None:
        s = strip_wrappers(simplify_latex(unify(s)).replace("$", "")).strip()
        s = re.sub(r"^(?:√\s*\d+|sqrt\(\d+\)|\\sqrt\{\d+\}|[A-Za-z]{1,3})\s*=\s*", "", s)
        overline = _OVERLINE.search(s)
        if overline:
            s = s[: overline.start()] + "(" + overline.group(1) + ")" + s[overline.end():]
        if s.startswith("[") and s.endswith("]"):
            s = s[1:-1]
        elif enclosed(s, "(") and ";" in s.partition("(")[2].partition("(")[0]:
            s = s[1:-1]  # "(3; 7, 15, 1)": round brackets around the whole, told from a repeating block by the ";"
        if "..." in s or "…" in s:
            return None
        head, _, periodic = s.partition("(")
        if periodic:
            if not periodic.rstrip().endswith(")") or ")" in periodic.rstrip()[:-1]:
                return None
            periodic = periodic.rstrip()[:-1]
        parts = [p for p in re.split(r"\s*[;,]\s*|\s+", head.strip()) if p]
        block = [p for p in re.split(r"\s*[;,]\s*|\s+", periodic.strip()) if p]
        if not parts or len(parts) + len(block) > MAX_TERMS or not all(_INT.fullmatch(p) for p in parts + block):
            return None
        return [int(p) for p in parts], [int(p) for p in block]

    return read_answer(text, read)


@register
class ContinuedFractions(Task):
    id = "arithmetic/continued_fractions"
    family = "arithmetic"
    description = "Evaluate and expand continued fractions (rationals and square roots); solve Pell's equation."
    tags = ("math", "number-theory")

    @dataclass(frozen=True)
    class Config:
        kind: str  # evaluate | expand | sqrt | pell
        size: int

    presets = (
        Config("evaluate", 12),
        Config("expand", 400),
        Config("expand", 100_000),
        Config("sqrt", 6_000),
        Config("pell", 6_000),
    )
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 4 to 5)"

    def space_size(self, level: int) -> int | None:
        config = self.level_config(level)
        if config.kind == "sqrt":
            return len(short_period_radicands(config.size))
        if config.kind == "pell":
            return len(pell_radicands(config.size))
        return None

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = config.kind
        if kind == "evaluate":
            terms = [rng.randint(0, config.size)] + [rng.randint(1, config.size) for _ in range(rng.randint(2, 4))]
            value = evaluate_terms(terms)
            prompt = (f"Evaluate the continued fraction {_terms_text(terms)}, that is "
                      f"{_nested(terms)}.\n\nGive it as a fraction in lowest terms, e.g. 43/30.")
            answer = format_fraction(value)
            data = {"kind": kind, "value": answer, "size": len(terms)}
        elif kind == "expand":
            q = rng.randint(2, config.size)
            p = rng.randint(-config.size * 3 if config.size > 1000 else 1, config.size * 3)
            value = Fraction(p, q)
            if value.denominator == 1:
                value += Fraction(1, q + 1)
            terms = expand(value)
            prompt = (f"Write {format_fraction(value)} as a simple continued fraction [a0; a1, ..., an] (a0 may be "
                      "negative or zero, the other terms positive, and the last term at least 2).\n\n"
                      "Give the terms like [2; 3, 1, 4].")
            answer = _terms_text(terms)
            data = {"kind": kind, "value": format_fraction(value), "terms": terms, "size": len(terms)}
        elif kind == "sqrt":
            n = rng.choice(short_period_radicands(config.size))
            a0, block = sqrt_expansion(n)
            prompt = (f"Write √{n} as a periodic continued fraction [a0; (a1, ..., ak)], with the shortest "
                      "repeating block in brackets.\n\nGive it like [3; (1, 2, 1, 6)].")
            answer = f"[{a0}; (" + ", ".join(map(str, block)) + ")]"
            data = {"kind": kind, "n": n, "terms": [a0], "block": block, "size": len(block) + 1}
        else:
            n = rng.choice(pell_radicands(config.size))
            x, y = pell(n)
            prompt = (f"Find the smallest solution in positive integers of Pell's equation x^2 - {n}y^2 = 1.\n\n"
                      "Give it like x = 17, y = 12.")
            answer = f"x = {x}, y = {y}"
            data = {"kind": kind, "n": n, "x": x, "y": y, "size": len(str(x)) + len(sqrt_expansion(n)[1])}
        return Problem(prompt=prompt, answer=answer, data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        kind = problem.data["kind"]
        if kind == "evaluate":
            value, reduced = read_lowest_terms(answer)
            if value is None:
                return Verdict.unparsed("not an exact number")
            if value != Fraction(problem.data["value"]):
                return Verdict.wrong("wrong value")
            return Verdict.judge(reduced, "not in lowest terms")
        if kind == "pell":
            pair = read_assignment(answer, ["x", "y"]) or _pair(answer)
            if pair is None:
                return Verdict.unparsed("not a pair x = ..., y = ...")
            x, y, n = pair["x"], pair["y"], problem.data["n"]
            if x * x - n * y * y != 1 or y <= 0 or x <= 0:
                return Verdict.wrong("not a positive solution of the equation")
            return Verdict.judge(y == problem.data["y"], "a solution, but not the smallest")
        read = read_terms(answer)
        if read is None:
            return Verdict.unparsed("not a list of partial quotients like [2; 3, 1, 4]")
        head, block = read
        if kind == "expand":
            return Verdict.judge(not block and head == problem.data["terms"], "wrong expansion")
        return Verdict.judge(head == problem.data["terms"] and block == problem.data["block"], "wrong expansion")

    def difficulty(self, problem: Problem) -> float:
        """Terms to produce (or digits of the Pell solution plus the period), plus the kind's weight."""
        weight = {"evaluate": 0, "expand": 2, "sqrt": 8, "pell": 11}[problem.data["kind"]]
        return float(problem.data["size"] + weight)

    def spellings(self, problem: Problem) -> list[str]:
        kind, answer = problem.data["kind"], problem.answer
        if kind == "evaluate":
            return [*super().spellings(problem), *other_spellings(Fraction(problem.data["value"]))]
        if kind == "pell":
            return [*super().spellings(problem), f"({problem.data['x']}, {problem.data['y']})",
                    f"y = {problem.data['y']}, x = {problem.data['x']}"]
        flat = answer.replace(";", ",")
        out = [*super().spellings(problem), flat, answer.strip("[]"), f"{answer}."]
        if kind == "sqrt":
            block = ", ".join(map(str, problem.data["block"]))
            out.append(f"[{problem.data['terms'][0]}; \\overline{{{block}}}]")
            out.append(f"√{problem.data['n']} = {answer}")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        kind = problem.data["kind"]
        if kind == "evaluate":
            value = Fraction(problem.data["value"])
            return [format_fraction(1 / value) if value else "1", format_fraction(value + 1),
                    f"{value.numerator * 2}/{value.denominator * 2}"]
        if kind == "pell":
            x, y, n = problem.data["x"], problem.data["y"], problem.data["n"]
            bigger_x, bigger_y = x * x + n * y * y, 2 * x * y  # the next solution: valid, not the smallest
            return [f"x = {x + 1}, y = {y}", f"x = {bigger_x}, y = {bigger_y}", f"x = {y}, y = {x}"]
        terms = problem.data["terms"]
        if kind == "expand":
            longer = [*terms[:-1], terms[-1] - 1, 1]  # the same number, but not in the form asked for
            return [_terms_text(longer), _terms_text([*terms[:-1], terms[-1] + 1]), _terms_text(terms[::-1])
                    if terms[::-1] != terms else _terms_text([*terms, 2])]
        block = problem.data["block"]
        return [f"[{terms[0]}; (" + ", ".join(map(str, block * 2)) + ")]",
                f"[{terms[0]}; " + ", ".join(map(str, block)) + "]",
                f"[{terms[0] + 1}; (" + ", ".join(map(str, block)) + ")]"]


def _pair(text: str) -> dict[str, Fraction] | None:
    items = read_list(text, lambda s: Fraction(s) if _INT.fullmatch(s.strip()) else None)
    return {"x": items[0], "y": items[1]} if items is not None and len(items) == 2 else None


def _nested(terms: list[int]) -> str:
    text = str(terms[-1])
    for a in reversed(terms[:-1]):
        text = f"{a} + 1/({text})"
    return text
