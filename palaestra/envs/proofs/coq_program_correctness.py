"""What does an accumulator loop compute? State it against a recursive specification and prove it in Coq.

A generated tail-recursive loop ``go : list nat -> nat -> nat`` updates an accumulator element by
element (a running sum of ``a * x + b``, a count of ``a`` or ``b`` by a test ``x <= k``, a running
maximum, or Horner's rule ``c * acc + (a * x + b)``), ``run l := go l i`` starts it at ``i``, and a
structurally recursive ``spec`` computes the same kind of value directly. The task: state and prove
``Theorem run_correct : forall l : list nat, run l = E.`` with ``E`` built from numerals, ``spec l``,
``length l``, ``+``, ``*``, ``^``, ``max`` and brackets (``i + spec l``, ``max i (spec l)``, ``i * c ^
length l + spec l``...). Working out ``E`` means finding how the start value travels through the loop,
and the proof needs the loop's invariant for every accumulator (``forall l acc, go l acc = ...``), the
program-correctness skill; ``E`` is problem-specific, so no fixed script earns the reward.

The answer is read by hand: the statement (``Theorem`` or ``Lemma``; ``forall l : list nat,`` or
``forall l,``), its ``E`` evaluated in Python on a few fixed lists against the loop (a wrong ``E`` is
refused naming a list where it differs, no coqc run), then the proof through
:func:`palaestra.verifiers.coq.read_script` and ``coqc`` in the sandbox, with ``Print Assumptions``
required closed. Any ``E`` and proof are accepted. Difficulty: the loop's kind (Horner's rule hardest)
plus half the bits of its constants. Needs the ``coq`` toolchain.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.proofs._coq_statement import evaluate, read_statement, strip_binder
from palaestra.verifiers import coq

THEOREM = "run_correct"
IMPORTS = "Require Import List Arith Lia.\nImport ListNotations."
TEST_LISTS: tuple[list[int], ...] = ([], [3], [1, 4], [6, 0, 5], [2, 7, 1, 3], [0, 4, 9, 2, 8])
KIND_WEIGHT = {"sum": 1, "count": 2, "max": 3, "horner": 5}
MAX_FORMULA_CHARS = 200


@register
class CoqProgramCorrectness(Task):
    id = "proofs/coq_program_correctness"
    family = "proofs"
    description = "State what a generated accumulator loop computes against its recursive spec and prove it in Coq."
    tags = ("proofs", "coq", "program-verification", "invariants")
    version = 1
    multiline = True
    toolchains = ("coq",)
    bounded = "four loop kinds and small constants: Coq's nat numerals are unary, so constants stay small"
    distinct_from = {"proofs/coq_list_sum": "the program is a tail-recursive loop whose accumulator invariant must be "
                                            "found; coq_list_sum relates a structural list function to sum and length"}

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]
        largest: int  # element coefficients, offsets, thresholds and start values up to this
        largest_base: int  # Horner's base up to this

    presets = (
        Config(kinds=("sum",), largest=12, largest_base=2),
        Config(kinds=("sum", "count"), largest=15, largest_base=2),
        Config(kinds=("count", "max"), largest=20, largest_base=2),
        Config(kinds=("max", "horner"), largest=20, largest_base=3),
        Config(kinds=("horner",), largest=25, largest_base=5),
    )

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        loop: dict[str, Any] = {"kind": kind, "a": rng.randint(1, config.largest), "b": rng.randint(0, config.largest),
                "k": rng.randint(1, config.largest), "c": rng.randint(2, config.largest_base),
                "start": rng.randint(1, config.largest * 2)}
        if kind == "count":
            loop["a"], loop["b"] = rng.sample(range(0, config.largest + 1), 2)
        element = _element_text(loop["a"], loop["b"])
        update, step = {
            "sum": (f"acc + ({element})", f"({element}) + spec t"),
            "count": (f"if Nat.leb x {loop['k']} then acc + {loop['a']} else acc + {loop['b']}",
                      f"(if Nat.leb x {loop['k']} then {loop['a']} else {loop['b']}) + spec t"),
            "max": (f"max acc ({element})", f"max ({element}) (spec t)"),
            "horner": (f"{loop['c']} * acc + ({element})", f"({element}) * {loop['c']} ^ length t + spec t"),
        }[kind]
        program = (f"Fixpoint go (l : list nat) (acc : nat) : nat :=\n  match l with\n  | [] => acc\n"
                   f"  | x :: t => go t ({update})\n  end.\n"
                   f"Definition run (l : list nat) : nat := go l {loop['start']}.\n"
                   f"Fixpoint spec (l : list nat) : nat :=\n  match l with\n  | [] => 0\n"
                   f"  | x :: t => {step}\n  end.")
        start, base = loop["start"], loop["c"]
        invariant, formula, close = {
            "sum": ("acc + spec l", f"{start} + spec l", "lia"),
            "count": ("acc + spec l", f"{start} + spec l", f"destruct (Nat.leb x {loop['k']}); lia"),
            "max": ("max acc (spec l)", f"max {start} (spec l)", "lia"),
            "horner": (f"acc * {base} ^ length l + spec l", f"{start} * {base} ^ length l + spec l", "ring"),
        }[kind]
        answer = (f"Theorem {THEOREM} : forall l : list nat, run l = {formula}.\nProof.\n"
                  f"assert (G : forall l acc, go l acc = {invariant}).\n"
                  "{ induction l as [|x t IH]; intros acc; simpl.\n  - lia.\n"
                  f"  - rewrite IH. {close}. }}\nintros l. unfold run. rewrite G. reflexivity.\nQed.")
        prompt = (
            f"Coq 8.16, after\n{IMPORTS}\n\nthis program and specification are defined:\n\n{program}\n\n"
            f"Work out what run computes in terms of spec, then state and prove\n"
            f"  Theorem {THEOREM} : forall l : list nat, run l = E.\n"
            "with E built only from numerals, spec l, length l, +, *, ^, max and brackets. Write the theorem with "
            "your E, then Proof. ... Qed. with any standard-library tactics (no admit, axioms, commands or strings); "
            "coqc must accept it with no assumption left open. The form, for example:\n"
            f"Theorem {THEOREM} : forall l : list nat, run l = 2 * spec l + 1.\nProof.\n...\nQed."
        )
        return Problem(prompt=prompt, answer=answer, data={"loop": loop, "program": program})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        read = read_statement(answer)
        if isinstance(read, str):
            return Verdict.unparsed(read)
        statement, rest = read
        body = strip_binder(statement, "l", "list nat")
        if body is None or not body.startswith("run l = ") or len(body) > MAX_FORMULA_CHARS:
            return Verdict.unparsed("the statement must read: forall l : list nat, run l = E")
        formula = body.removeprefix("run l = ")
        loop = problem.data["loop"]
        for values in TEST_LISTS:
            got = evaluate(formula, {"spec l": spec_value(loop, values), "length l": len(values)})
            if got is None:
                return Verdict.unparsed("E may use only numerals, spec l, length l, +, *, ^, max and brackets")
            truth = run_value(loop, values)
            if got != truth:
                return Verdict.wrong(f"E is wrong: for l = {values} it gives {got}, but run l = {truth}")
        script = coq.read_script(rest)
        if script.startswith("refused:"):
            return Verdict.unparsed(script.removeprefix("refused: "))
        preamble = f"{IMPORTS}\n{problem.data['program']}"
        return coq.check(preamble, THEOREM, f"forall l : list nat, run l = {formula}", script).verdict()

    def difficulty(self, problem: Problem) -> float:
        """The loop kind's weight (sum 1, count 2, max 3, Horner 5, twice) plus half the bits of its constants."""
        loop = problem.data["loop"]
        used = {"sum": ("a", "b"), "count": ("a", "b", "k"), "max": ("a", "b"), "horner": ("a", "b", "c")}
        constants = sum(loop[name] for name in used[loop["kind"]]) + loop["start"]
        return 2 * KIND_WEIGHT[loop["kind"]] + math.log2(constants + 1) / 2

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        lemma = gold.replace(f"Theorem {THEOREM}", f"Lemma {THEOREM}", 1).replace("forall l : list nat,", "forall l,", 1)
        return [*super().spellings(problem), f"```coq\n{gold}\n```", lemma]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        head, _, proof = gold.partition(".\nProof.")
        start = problem.data["loop"]["start"]
        shifted = head.replace(f"run l = {start}", f"run l = {start + 1}", 1) if "run l = max" not in head else \
            head.replace(f"max {start}", f"max {start + 1}", 1)
        return [f"{shifted}.\nProof.{proof}", head.replace(f"{start}", "0", 1) + ".\nProof." + proof,
                gold.replace("reflexivity.", "admit."), head + "."]


def _element_text(a: int, b: int) -> str:
    product = "x" if a == 1 else f"{a} * x"
    return f"{product} + {b}" if b else product


def _element(loop: dict[str, int], x: int) -> int:
    return loop["a"] * x + loop["b"]


def spec_value(loop: dict[str, int], values: list[int]) -> int:
    """``spec l`` computed directly."""
    kind = loop["kind"]
    if kind == "sum":
        return sum(_element(loop, x) for x in values)
    if kind == "count":
        return sum(loop["a"] if x <= loop["k"] else loop["b"] for x in values)
    if kind == "max":
        return max((_element(loop, x) for x in values), default=0)
    n = len(values)
    return sum(_element(loop, x) * loop["c"] ** (n - 1 - j) for j, x in enumerate(values))


def run_value(loop: dict[str, int], values: list[int]) -> int:
    """``run l``: the loop executed from its start value."""
    acc = loop["start"]
    for x in values:
        kind = loop["kind"]
        if kind == "sum":
            acc += _element(loop, x)
        elif kind == "count":
            acc += loop["a"] if x <= loop["k"] else loop["b"]
        elif kind == "max":
            acc = max(acc, _element(loop, x))
        else:
            acc = loop["c"] * acc + _element(loop, x)
    return acc
