"""How does a generated recursive function split over a sum or an append? Find the law and prove it in Coq.

Two kinds of generated ``Fixpoint f``:

- on nat: ``f 0 = 0``, ``f n = f (n - 1) + p2 * n * n + p1 * n + p0``; then ``f (n + m)`` is
  ``f n + f m`` plus cross terms ``p2 * n * n * m + p2 * n * m * m + (p2 + p1) * n * m`` (the constant
  ``p0`` cancels, a trap for pattern matching);
- on lists: ``f [] = 0``, ``f (x :: t) = a * x + b + c * length t + d * sum t + f t``; then
  ``f (l1 ++ l2)`` is ``f l1 + f l2 + c * length l1 * length l2 + d * length l1 * sum l2``.

The task: state and prove ``Theorem f_split : forall n m : nat, f (n + m) = E.`` (or ``forall l1 l2 :
list nat, f (l1 ++ l2) = E.``) with ``E`` built from ``f n``, ``f m``, ``n``, ``m`` (or ``f l1``, ``f
l2``, ``length l1``, ``length l2``, ``sum l1``, ``sum l2``), numerals, ``+``, ``*`` and brackets. The law
is the problem-specific part, so no fixed script earns the reward; the proof is an induction on the first
argument (on lists with ``app_length`` and a lemma that ``sum`` splits over ``++``, proved inside).

The answer is read by hand: the statement (``Theorem`` or ``Lemma``, the binder with or without its
type), its ``E`` evaluated in Python on a grid of arguments against ``f`` (a wrong law is refused naming
arguments where it differs, no coqc run), then the proof through
:func:`palaestra.verifiers.coq.read_script` and ``coqc`` in the sandbox, with ``Print Assumptions``
required closed. Any ``E`` and proof are accepted. Difficulty: the cross terms of the law (on lists each
needs a lemma) and half the bits of the constants. Needs the ``coq`` toolchain.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.proofs._coq_statement import evaluate, read_statement, strip_binder
from palaestra.verifiers import coq

THEOREM = "f_split"
IMPORTS = ("Require Import List Arith Lia.\nImport ListNotations.\n"
           "Fixpoint sum (l : list nat) : nat := match l with [] => 0 | x :: t => x + sum t end.")
NAT_GRID = [(n, m) for n in range(5) for m in range(5)] + [(7, 6)]
LIST_PAIRS: tuple[tuple[list[int], list[int]], ...] = (
    ([], []), ([2], []), ([], [5]), ([1], [3]), ([4, 0], [2]), ([3], [1, 6]), ([2, 5, 1], [0, 7]), ([6, 1], [4, 4, 2]))
MAX_FORMULA_CHARS = 300
SHAPES = {"nat": ("forall n m : nat,", "n m", "nat", "f (n + m) = "),
          "list": ("forall l1 l2 : list nat,", "l1 l2", "list nat", "f (l1 ++ l2) = ")}


@register
class CoqRecursiveFunctions(Task):
    id = "proofs/coq_recursive_functions"
    family = "proofs"
    description = "Find how a generated recursive function splits over n + m or l1 ++ l2, and prove it in Coq."
    tags = ("proofs", "coq", "induction", "recursive-functions")
    version = 1
    multiline = True
    toolchains = ("coq",)
    bounded = "the laws are fixed in shape (degree 2 on nat, linear terms on lists) and Coq's nat numerals are unary"
    distinct_from = {"proofs/coq_closed_form": "the law relates f at a sum to f at the parts (cross terms), with no "
                                               "closed form asked; lists as well as nat",
                     "proofs/coq_list_sum": "the law relates f at an append to f at the parts (cross terms in length "
                                            "and sum), not a list function's effect on the sum"}

    @dataclass(frozen=True)
    class Config:
        kind: str  # "nat" or "list"
        terms: int  # nat: the step polynomial's degree (1-2); list: 1 = a length term, 2 = length and sum terms
        largest: int

    presets = (
        Config(kind="nat", terms=1, largest=40),
        Config(kind="list", terms=1, largest=12),
        Config(kind="nat", terms=2, largest=20),
        Config(kind="list", terms=2, largest=12),
        Config(kind="list", terms=2, largest=30),
    )

    def space_size(self, level: int) -> int | None:
        """The problems of a level are its functions' coefficients, each drawn from a range (nat: p2 in 1..top for a
        quadratic step, p1 from 1 (or 0 beside p2) to top, p0 in 0..top; list: a and c in 1..top, b in 0..top, d in
        1..top for a sum term): small at the low levels, whose constants stay small because nat numerals are unary
        in Coq (larger ones make coqc time out)."""
        config = self.level_config(level)
        top = config.largest
        if config.kind == "nat":
            size = top * (top + 1) ** 2 if config.terms == 2 else top * (top + 1)
        else:
            size = top * (top + 1) * top * (top if config.terms == 2 else 1)
        return size if size <= 100_000 else None

    def generate(self, rng: random.Random, config: Config) -> Problem:
        top = config.largest
        f: dict[str, Any]
        if config.kind == "nat":
            p2 = rng.randint(1, top) if config.terms == 2 else 0
            p1, p0 = rng.randint(1 if p2 == 0 else 0, top), rng.randint(0, top)
            f = {"kind": "nat", "p2": p2, "p1": p1, "p0": p0}
            step = " + ".join(t for t in (_term(p2, "n * n"), _term(p1, "n"), str(p0) if p0 else "") if t)
            definition = (f"Fixpoint f (n : nat) : nat :=\n  match n with\n  | 0 => 0\n  | S k => f k + ({step})\n"
                          "  end.")
            cross = [_term(p2, "n * n * m"), _term(p2, "n * m * m"), _term(p2 + p1, "n * m")]
            formula = " + ".join(["f n", "f m", *(t for t in cross if t)])
            proof = "intros n m.\ninduction n as [|k IH].\n- simpl. ring.\n- simpl. rewrite IH. ring."
        else:
            c = rng.randint(1, top)
            d = rng.randint(1, top) if config.terms == 2 else 0
            f = {"kind": "list", "a": rng.randint(1, top), "b": rng.randint(0, top), "c": c, "d": d}
            parts = [_term(f["a"], "x"), str(f["b"]) if f["b"] else "", _term(c, "length t"), _term(d, "sum t"), "f t"]
            definition = (f"Fixpoint f (l : list nat) : nat :=\n  match l with\n  | [] => 0\n"
                          f"  | x :: t => {' + '.join(p for p in parts if p)}\n  end.")
            cross = [_term(c, "length l1 * length l2"), _term(d, "length l1 * sum l2")]
            formula = " + ".join(["f l1", "f l2", *(t for t in cross if t)])
            split_sum = ("assert (Hs : forall a b : list nat, sum (a ++ b) = sum a + sum b).\n"
                         "{ induction a as [|y u IHu]; intros b; simpl; [reflexivity | rewrite IHu; ring]. }\n"
                         if d else "")
            rewrites = "IH, app_length, Hs" if d else "IH, app_length"
            proof = (f"intros l1 l2.\n{split_sum}induction l1 as [|x t IH]; simpl.\n- ring.\n"
                     f"- rewrite {rewrites}. ring.")
        binder, _, _, head = SHAPES[config.kind]
        answer = f"Theorem {THEOREM} : {binder} {head}{formula}.\nProof.\n{proof}\nQed."
        names = ("f n, f m, n, m" if config.kind == "nat" else
                 "f l1, f l2, length l1, length l2, sum l1, sum l2")
        example = "f n + f m + 4 * n" if config.kind == "nat" else "f l1 + 3 * sum l2"
        prompt = (
            f"Coq 8.16, after\n{IMPORTS}\n\nlet f be\n\n{definition}\n\n"
            f"Work out how f splits, then state and prove\n  Theorem {THEOREM} : {binder} {head}E.\n"
            f"with E built only from {names}, numerals, + and * (and brackets). Write the theorem with your E, then "
            "Proof. ... Qed. with any standard-library tactics (no admit, axioms, commands or strings); coqc must "
            "accept it with no assumption left open. The form, for example:\n"
            f"Theorem {THEOREM} : {binder} {head}{example}.\nProof.\n...\nQed."
        )
        return Problem(prompt=prompt, answer=answer, data={"f": f, "definition": definition})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        f = problem.data["f"]
        binder, variables, kind, head = SHAPES[f["kind"]]
        read = read_statement(answer)
        if isinstance(read, str):
            return Verdict.unparsed(read)
        statement, rest = read
        body = strip_binder(statement, variables, kind)
        if body is None or not body.startswith(head) or len(body) > MAX_FORMULA_CHARS:
            return Verdict.unparsed(f"the statement must read: {binder} {head}E")
        formula = body.removeprefix(head)
        for atoms, truth, shown in _cases(f):
            got = evaluate(formula, atoms)
            if got is None:
                return Verdict.unparsed("E may use only f and the variables as the prompt lists them, numerals, "
                                        "+, * and brackets")
            if got != truth:
                return Verdict.wrong(f"E is wrong: for {shown} it gives {got}, but f there is {truth}")
        script = coq.read_script(rest)
        if script.startswith("refused:"):
            return Verdict.unparsed(script.removeprefix("refused: "))
        preamble = f"{IMPORTS}\n{problem.data['definition']}"
        return coq.check(preamble, THEOREM, f"{binder} {head}{formula}", script).verdict()

    def difficulty(self, problem: Problem) -> float:
        """The law's cross terms (twice on nat; on lists, where each needs a lemma, three times plus one) plus
        half the bits of the constants."""
        f = problem.data["f"]
        if f["kind"] == "nat":
            weight = 2 * (3 if f["p2"] else 1)
            constants = f["p2"] + f["p1"] + f["p0"]
        else:
            weight = 1 + 3 * (2 if f["d"] else 1)
            constants = f["a"] + f["b"] + f["c"] + f["d"]
        return weight + math.log2(constants + 1) / 2

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        binder, variables, _, _ = SHAPES[problem.data["f"]["kind"]]
        lemma = gold.replace(f"Theorem {THEOREM}", "Lemma split_law", 1).replace(binder, f"forall {variables},", 1)
        return [*super().spellings(problem), f"```coq\n{gold}\n```", lemma]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        head, _, proof = gold.partition(".\nProof.")
        return [f"{head} + 1.\nProof.{proof}", gold.replace(" = f ", " = 2 * f ", 1).replace(" + f ", " + 2 * f ", 1),
                gold.replace("ring.\nQed.", "admit.\nQed."), head + "."]


def _term(coefficient: int, factors: str) -> str:
    if coefficient == 0:
        return ""
    return factors if coefficient == 1 else f"{coefficient} * {factors}"


def f_nat(f: dict[str, int], n: int) -> int:
    return sum(f["p2"] * j * j + f["p1"] * j + f["p0"] for j in range(1, n + 1))


def f_list(f: dict[str, int], values: list[int]) -> int:
    return sum(f["a"] * x + f["b"] + f["c"] * (len(values) - i - 1) + f["d"] * sum(values[i + 1 :])
               for i, x in enumerate(values))


def _cases(f: dict[str, int]) -> list[tuple[dict[str, int], int, str]]:
    """(the atoms' values, f at the sum or append, the arguments in words) for every checked case."""
    if f["kind"] == "nat":
        return [({"f n": f_nat(f, n), "f m": f_nat(f, m), "n": n, "m": m}, f_nat(f, n + m), f"n = {n}, m = {m}")
                for n, m in NAT_GRID]
    return [({"f l1": f_list(f, l1), "f l2": f_list(f, l2), "length l1": len(l1), "length l2": len(l2),
              "sum l1": sum(l1), "sum l2": sum(l2)}, f_list(f, l1 + l2), f"l1 = {l1}, l2 = {l2}")
            for l1, l2 in LIST_PAIRS]
