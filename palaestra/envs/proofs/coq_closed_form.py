"""Find the closed form of a recursively defined sum and prove it in Coq by induction.

A generated ``Fixpoint f`` adds a polynomial in ``n`` (nonnegative coefficients, degree 1-3) at each
step from a constant ``f 0``, so ``f n = c + p(1) + ... + p(n)``: a polynomial in ``n`` whose
coefficients are fractions with a common denominator ``D`` (Faulhaber's sums of ``k``, ``k²``,
``k³`` all have nonnegative coefficients). The task: state ``Theorem closed_form : forall n : nat,
D * f n = E.`` with ``E`` a polynomial in ``n`` (numerals, ``n``, ``+``, ``*``, ``^``, brackets: no
``f``, no other function, no subtraction) and prove it. The closed form is the problem-specific part:
the proof may use any tactic (``ring``, ``lia``...), since no fixed script proves a wrong formula.

The answer is read by hand: the statement (``Theorem`` or ``Lemma``, ``forall n : nat,`` or ``forall
n,``), its right side ``E`` parsed as a polynomial and compared with ``D * f n`` at ``n = 0..8``
in Python first (a wrong formula is refused at once, naming where it differs: no coqc run), then the
proof script after it through :func:`palaestra.verifiers.coq.read_script` (tactics only) and
``coqc`` in the sandbox, with ``Print Assumptions`` required closed. Any closed form and any proof
are accepted. Difficulty: the degree, the terms of the step polynomial and the size of the closed
form's coefficients. Needs the ``coq`` toolchain.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.proofs._coq_statement import polynomial_text
from palaestra.verifiers import coq
from palaestra.verifiers.blocks import read_block

THEOREM = "closed_form"
PREAMBLE_IMPORTS = "Require Import Arith Lia."
MAX_EXPRESSION_CHARS = 300
CHECK_POINTS = 9  # n = 0..8: more than any polynomial of degree <= 4 needs, and a sanity check beyond
# Faulhaber: sum_{k=1..n} k^i as polynomial coefficients in n (index = power)
_POWER_SUMS = {
    0: [Fraction(0), Fraction(1)],
    1: [Fraction(0), Fraction(1, 2), Fraction(1, 2)],
    2: [Fraction(0), Fraction(1, 6), Fraction(1, 2), Fraction(1, 3)],
    3: [Fraction(0), Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)],
}


@register
class CoqClosedForm(Task):
    id = "proofs/coq_closed_form"
    family = "proofs"
    description = "Find the closed form of a recursively defined sum and prove it in Coq by induction."
    tags = ("math", "proofs", "coq", "induction")
    version = 1
    multiline = True
    toolchains = ("coq",)

    @dataclass(frozen=True)
    class Config:
        degree: int
        max_coefficient: int

    presets = (
        Config(degree=1, max_coefficient=20),
        Config(degree=2, max_coefficient=9),
        Config(degree=2, max_coefficient=15),
        Config(degree=3, max_coefficient=6),
        Config(degree=3, max_coefficient=12),
    )
    bounded = ("the degree stops at 3 (sums of k^4 and up have negative coefficients, so E would need subtraction) "
               "and Coq's nat numerals are unary: much larger coefficients make coqc's arithmetic the bottleneck")

    def generate(self, rng: random.Random, config: Config) -> Problem:
        step = [rng.randint(0, config.max_coefficient) for _ in range(config.degree)]
        step.append(rng.randint(1, config.max_coefficient))  # the leading coefficient, index = power
        start = rng.randint(0, config.max_coefficient * 2)
        closed = [Fraction(start)] + [Fraction(0)] * (config.degree + 1)
        for power, coefficient in enumerate(step):
            for i, c in enumerate(_POWER_SUMS[power]):
                closed[i] += coefficient * c
        scale = math.lcm(*(c.denominator for c in closed))
        rhs = [int(c * scale) for c in closed]
        lhs = "f n" if scale == 1 else f"{scale} * f n"
        fixpoint = (f"Fixpoint f (n : nat) : nat :=\n  match n with\n  | 0 => {start}\n"
                    f"  | S m => f m + ({polynomial_text(step)})\n  end.")
        expression = polynomial_text(rhs)
        rewrite = "rewrite IH" if scale == 1 else "rewrite Nat.mul_add_distr_l, IH"
        answer = (f"Theorem {THEOREM} : forall n : nat, {lhs} = {expression}.\nProof.\n"
                  f"induction n as [|m IH].\n- reflexivity.\n- cbn [f]. {rewrite}. ring.\nQed.")
        prompt = (
            f"In Coq 8.16 (with {PREAMBLE_IMPORTS}), f is defined by\n\n{fixpoint}\n\n"
            f"Find a closed form and prove it: state and prove\n  Theorem {THEOREM} : forall n : nat, {lhs} = E.\n"
            "where E is a polynomial in n written with numerals, n, +, * and ^ and brackets (no f, no other "
            "function, no subtraction). Give the theorem with E filled in, then its proof (Proof. tactics Qed.); "
            "any tactics of the standard library are fine, but no admit, axioms, commands or strings. The proof is "
            "checked by coqc and must be closed (Print Assumptions). The shape, for example:\n"
            f"Theorem {THEOREM} : forall n : nat, {lhs} = 2 * n * n + 7.\nProof.\ninduction n.\n...\nQed."
        )
        return Problem(prompt=prompt, answer=answer, data={
            "start": start, "step": step, "scale": scale, "closed": rhs, "fixpoint": fixpoint,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        read = read_theorem(answer, data["scale"])
        if isinstance(read, str):
            return Verdict.unparsed(read)
        expression, rest = read
        values = evaluate_polynomial_text(expression)
        if values is None:
            return Verdict.unparsed("E must be a polynomial in n: numerals, n, +, *, ^ and brackets")
        for n, value in enumerate(values):
            truth = data["scale"] * f_value(data["start"], data["step"], n)
            if value != truth:
                lhs = "f" if data["scale"] == 1 else f"{data['scale']} * f"
                return Verdict.wrong(f"the closed form is wrong: at n = {n} it gives {value}, but {lhs} {n} = {truth}")
        script = coq.read_script(rest)
        if script.startswith("refused:"):
            return Verdict.unparsed(script.removeprefix("refused: "))
        lhs = "f n" if data["scale"] == 1 else f"{data['scale']} * f n"
        preamble = f"{PREAMBLE_IMPORTS}\n{data['fixpoint']}"
        return coq.check(preamble, THEOREM, f"forall n : nat, {lhs} = {expression}", script).verdict()

    def difficulty(self, problem: Problem) -> float:
        """Three per degree, one per term of the step polynomial, plus half the bits of the closed form's
        coefficients' sum (bigger numbers to work out)."""
        step, closed = problem.data["step"], problem.data["closed"]
        return 3 * (len(step) - 1) + sum(1 for c in step if c) + math.log2(sum(closed) + 1) / 2

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        lemma = gold.replace(f"Theorem {THEOREM}", f"Lemma {THEOREM}", 1).replace("forall n : nat,", "forall n,", 1)
        return [*super().spellings(problem), f"```coq\n{gold}\n```", lemma,
                gold.replace("\n- ", "\n  - ").replace("Proof.\n", "Proof.\n  ")]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        head, _, proof = gold.partition(".\nProof.")
        off_by_one = f"{head} + 1.\nProof.{proof}"
        with_f = gold.replace(" = ", " = f n + 0 * ", 1)
        return [off_by_one, with_f, gold.replace("ring.", "admit."), head + "."]


def f_value(start: int, step: list[int], n: int) -> int:
    return start + sum(sum(c * k**power for power, c in enumerate(step)) for k in range(1, n + 1))


def read_theorem(answer: str, scale: int) -> tuple[str, str] | str:
    """(E, the text after the statement) of an answer ``Theorem closed_form : forall n : nat, D * f n = E. ...``,
    or why it cannot be read."""
    if not isinstance(answer, str) or len(answer) > coq.MAX_SCRIPT_CHARS:
        return "the answer is missing or too long"
    block = read_block(answer, leading="strip")
    if block is None:
        return "expected the theorem and its proof"
    text = " ".join("\n".join(block).split(" "))
    words = text.split(None, 2)
    if len(words) < 3 or words[0] not in ("Theorem", "Lemma") or not words[1].rstrip(":").isidentifier():
        return f"expected: Theorem {THEOREM} : forall n : nat, ... = E. then the proof"
    body = words[2] if words[1].endswith(":") else words[2].removeprefix(":")
    end = next((i for i, ch in enumerate(body) if ch == "." and (i + 1 == len(body) or body[i + 1].isspace())), -1)
    if end < 0:
        return "the statement does not end with a period"
    statement, rest = " ".join(body[:end].split()), body[end + 1 :]
    sides = ["f n"] if scale == 1 else [f"{scale} * f n", f"{scale} * (f n)"]
    for binder in ("forall n : nat,", "forall n,", "forall (n : nat),"):
        for side in sides:
            prefix = f"{binder} {side} = "
            if statement.startswith(prefix):
                expression = statement[len(prefix):]
                if not expression or len(expression) > MAX_EXPRESSION_CHARS:
                    return "E is missing or too long"
                return expression, rest
    lhs = sides[0]
    return f"the statement must read: forall n : nat, {lhs} = E"


def evaluate_polynomial_text(expression: str) -> list[int] | None:
    """The values of a polynomial ``expression`` in ``n`` at n = 0..CHECK_POINTS-1, or None when it is not one
    (only numerals, n, +, *, ^ with a numeral exponent up to 6, and brackets)."""
    tokens: list[str] = []
    i = 0
    while i < len(expression):
        ch = expression[i]
        if ch == " ":
            i += 1
        elif "0" <= ch <= "9":
            j = i
            while j < len(expression) and "0" <= expression[j] <= "9" and j - i < 12:
                j += 1
            tokens.append(expression[i:j])
            i = j
        elif ch in "n+*^()":
            tokens.append(ch)
            i += 1
        else:
            return None
    values = []
    for n in range(CHECK_POINTS):
        read = _sum(tokens, 0, n, 0)
        if read is None or read[1] != len(tokens):
            return None
        values.append(read[0])
    return values


def _sum(tokens: list[str], pos: int, n: int, depth: int) -> tuple[int, int] | None:
    read = _product(tokens, pos, n, depth)
    while read is not None and read[1] < len(tokens) and tokens[read[1]] == "+":
        right = _product(tokens, read[1] + 1, n, depth)
        read = None if right is None else (read[0] + right[0], right[1])
    return read


def _product(tokens: list[str], pos: int, n: int, depth: int) -> tuple[int, int] | None:
    read = _power(tokens, pos, n, depth)
    while read is not None and read[1] < len(tokens) and tokens[read[1]] == "*":
        right = _power(tokens, read[1] + 1, n, depth)
        read = None if right is None else (read[0] * right[0], right[1])
    return read


def _power(tokens: list[str], pos: int, n: int, depth: int) -> tuple[int, int] | None:
    base = _atom(tokens, pos, n, depth)
    if base is None or base[1] >= len(tokens) or tokens[base[1]] != "^":
        return base
    exponent = tokens[base[1] + 1] if base[1] + 1 < len(tokens) else ""
    if not exponent.isdigit() or int(exponent) > 6:
        return None
    return base[0] ** int(exponent), base[1] + 2


def _atom(tokens: list[str], pos: int, n: int, depth: int) -> tuple[int, int] | None:
    if pos >= len(tokens) or depth > 20:
        return None
    token = tokens[pos]
    if token == "n":
        return n, pos + 1
    if token.isdigit():
        return int(token), pos + 1
    if token == "(":
        inner = _sum(tokens, pos + 1, n, depth + 1)
        if inner is not None and inner[1] < len(tokens) and tokens[inner[1]] == ")":
            return inner[0], inner[1] + 1
    return None
