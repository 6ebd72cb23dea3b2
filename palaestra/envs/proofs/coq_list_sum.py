"""Work out what a generated list function does to a list's sum, and prove it in Coq by list induction.

A generated ``Fixpoint g (l : list nat) : list nat`` replaces each element ``x`` by a few elements
``a * x + b`` and ends with a fixed tail of numbers, so ``sum (g l) = A * sum l + B * length l + C``
for constants the model must work out (``A`` and ``B`` add up the per-element coefficients, ``C`` is
the tail's sum). The task: state ``Theorem g_sum : forall l : list nat, sum (g l) = E.`` with ``E``
built from numerals, ``sum l``, ``length l``, ``+``, ``*`` and brackets, and prove it. The formula is
the problem-specific part; the proof may use any tactic (``lia``...), since no fixed script proves a
wrong formula.

The answer is read by hand: the statement (``Theorem`` or ``Lemma``; ``forall l : list nat,`` or
``forall l,``), its right side evaluated in Python on a few fixed lists against the generated
function (a wrong formula is refused at once, naming a list where it differs: no coqc run), then the
proof script through :func:`palaestra.verifiers.coq.read_script` and ``coqc`` in the sandbox, with
``Print Assumptions`` required closed. Any formula and proof are accepted. Difficulty: the elements
emitted per input element, the tail's length and the size of the constants. Needs the ``coq``
toolchain.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers import coq
from palaestra.verifiers.blocks import read_block

THEOREM = "g_sum"
PREAMBLE = ("Require Import List Arith Lia.\nImport ListNotations.\n"
            "Fixpoint sum (l : list nat) : nat := match l with [] => 0 | x :: t => x + sum t end.")
TEST_LISTS: tuple[list[int], ...] = ([], [3], [1, 4], [2, 0, 5], [7, 1, 1, 6], [0, 0, 9, 2, 8])
MAX_FORMULA_CHARS = 200


@register
class CoqListSum(Task):
    id = "proofs/coq_list_sum"
    family = "proofs"
    description = "Find what a generated list function does to a list's sum and prove it in Coq by list induction."
    tags = ("proofs", "coq", "induction", "lists")
    version = 2  # level 0 constants up to 60
    multiline = True
    toolchains = ("coq",)
    bounded = "Coq's nat numerals are unary: much larger constants make coqc's arithmetic the bottleneck, and the " \
              "shape (a linear formula in sum l and length l) does not grow"

    @dataclass(frozen=True)
    class Config:
        per_element: int  # elements emitted for each input element
        tail: int  # most numbers in the fixed tail
        largest: int  # coefficients and tail numbers up to this

    presets = (
        Config(per_element=1, tail=1, largest=60),  # constants up to 30: 10% of 1,000 level-0 problems repeated
        Config(per_element=2, tail=1, largest=12),
        Config(per_element=2, tail=2, largest=20),
        Config(per_element=3, tail=2, largest=20),
        Config(per_element=3, tail=3, largest=40),
    )

    def generate(self, rng: random.Random, config: Config) -> Problem:
        emitted = [(rng.randint(0, config.largest), rng.randint(0, config.largest)) for _ in range(config.per_element)]
        if all(a == 0 for a, _ in emitted):
            emitted[0] = (rng.randint(1, config.largest), emitted[0][1])
        tail = [rng.randint(0, config.largest) for _ in range(rng.randint(0, config.tail))]
        pieces = " :: ".join(_element_text(a, b) for a, b in emitted)
        fixpoint = (f"Fixpoint g (l : list nat) : list nat :=\n  match l with\n  | [] => [{'; '.join(map(str, tail))}]\n"
                    f"  | x :: t => {pieces} :: g t\n  end.")
        a_total, b_total, c_total = sum(a for a, _ in emitted), sum(b for _, b in emitted), sum(tail)
        formula = " + ".join(t for t in (f"{a_total} * sum l", f"{b_total} * length l" if b_total else "",
                                          str(c_total) if c_total else "") if t)
        answer = (f"Theorem {THEOREM} : forall l : list nat, sum (g l) = {formula}.\nProof.\n"
                  "induction l as [|x t IH]; simpl; lia.\nQed.")
        prompt = (
            f"Coq 8.16, after\n{PREAMBLE}\n\nlet g be the list function\n\n{fixpoint}\n\n"
            f"Work out how g changes the sum of a list, then state and prove\n"
            f"  Theorem {THEOREM} : forall l : list nat, sum (g l) = E.\n"
            "with E built only from numerals, sum l, length l, + and * (and brackets). Write the theorem with your "
            "E, then Proof. ... Qed. with any standard-library tactics (no admit, axioms, commands or strings); "
            "coqc must accept it with no assumption left open. The form, for example:\n"
            f"Theorem {THEOREM} : forall l : list nat, sum (g l) = 2 * sum l + 1.\nProof.\n...\nQed."
        )
        return Problem(prompt=prompt, answer=answer, data={
            "emitted": [list(e) for e in emitted], "tail": tail, "fixpoint": fixpoint,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        read = _read_statement(answer)
        if isinstance(read, str):
            return Verdict.unparsed(read)
        formula, rest = read
        emitted, tail = problem.data["emitted"], problem.data["tail"]
        for values in TEST_LISTS:
            got = _evaluate(formula, sum(values), len(values))
            if got is None:
                return Verdict.unparsed("E may use only numerals, sum l, length l, + and * and brackets")
            truth = sum(a * x + b for x in values for a, b in emitted) + sum(tail)
            if got != truth:
                return Verdict.wrong(f"the formula is wrong: for l = {values} it gives {got}, but sum (g l) = {truth}")
        script = coq.read_script(rest)
        if script.startswith("refused:"):
            return Verdict.unparsed(script.removeprefix("refused: "))
        preamble = f"{PREAMBLE}\n{problem.data['fixpoint']}"
        return coq.check(preamble, THEOREM, f"forall l : list nat, sum (g l) = {formula}", script).verdict()

    def difficulty(self, problem: Problem) -> float:
        """Elements emitted per input element (twice), the tail's length, and half the bits of the constants' sum."""
        emitted, tail = problem.data["emitted"], problem.data["tail"]
        constants = sum(a + b for a, b in emitted) + sum(tail)
        return 2 * len(emitted) + len(tail) + math.log2(constants + 1) / 2

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        lemma = gold.replace(f"Theorem {THEOREM}", f"Lemma {THEOREM}", 1).replace("forall l : list nat,", "forall l,")
        return [*super().spellings(problem), f"```coq\n{gold}\n```", lemma]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        head, _, proof = gold.partition(".\nProof.")
        return [f"{head} + 1.\nProof.{proof}", gold.replace("sum (g l) = ", "sum (g l) = sum (g l) + 0 * ", 1),
                gold.replace("lia.", "admit."), head + "."]


def _element_text(a: int, b: int) -> str:
    if a == 0:
        return str(b)
    product = "x" if a == 1 else f"{a} * x"
    return f"({product} + {b})" if b else f"({product})"


def _read_statement(answer: str) -> tuple[str, str] | str:
    """(E, the text after the statement), or why the answer cannot be read."""
    if not isinstance(answer, str) or len(answer) > coq.MAX_SCRIPT_CHARS:
        return "the answer is missing or too long"
    block = read_block(answer, leading="strip")
    if block is None:
        return "expected the theorem and its proof"
    words = "\n".join(block).split(None, 2)
    if len(words) < 3 or words[0] not in ("Theorem", "Lemma") or not words[1].rstrip(":").isidentifier():
        return f"expected: Theorem {THEOREM} : forall l : list nat, sum (g l) = E. then the proof"
    body = words[2] if words[1].endswith(":") else words[2].removeprefix(":")
    end = next((i for i, ch in enumerate(body) if ch == "." and (i + 1 == len(body) or body[i + 1].isspace())), -1)
    if end < 0:
        return "the statement does not end with a period"
    statement, rest = " ".join(body[:end].split()), body[end + 1 :]
    for binder in ("forall l : list nat,", "forall l,", "forall (l : list nat),"):
        prefix = f"{binder} sum (g l) = "
        if statement.startswith(prefix):
            formula = statement[len(prefix):]
            if not formula or len(formula) > MAX_FORMULA_CHARS:
                return "E is missing or too long"
            return formula, rest
    return "the statement must read: forall l : list nat, sum (g l) = E"


def _evaluate(formula: str, total: int, length: int) -> int | None:
    """The value of ``formula`` with ``sum l`` = total and ``length l`` = length, or None when it is not built from
    numerals, ``sum l``, ``length l``, ``+``, ``*`` and brackets."""
    tokens: list[str] = []
    text = formula.replace("sum l", " S ").replace("length l", " L ")
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == " ":
            i += 1
        elif "0" <= ch <= "9":
            j = i
            while j < len(text) and "0" <= text[j] <= "9" and j - i < 9:
                j += 1
            tokens.append(text[i:j])
            i = j
        elif ch in "SL+*()":
            tokens.append(ch)
            i += 1
        else:
            return None
    values = {"S": total, "L": length}

    def expression(pos: int, depth: int) -> tuple[int, int] | None:
        read = term(pos, depth)
        while read is not None and read[1] < len(tokens) and tokens[read[1]] == "+":
            right = term(read[1] + 1, depth)
            read = None if right is None else (read[0] + right[0], right[1])
        return read

    def term(pos: int, depth: int) -> tuple[int, int] | None:
        read = atom(pos, depth)
        while read is not None and read[1] < len(tokens) and tokens[read[1]] == "*":
            right = atom(read[1] + 1, depth)
            read = None if right is None else (read[0] * right[0], right[1])
        return read

    def atom(pos: int, depth: int) -> tuple[int, int] | None:
        if pos >= len(tokens) or depth > 20:
            return None
        token = tokens[pos]
        if token in values:
            return values[token], pos + 1
        if token.isdigit():
            return int(token), pos + 1
        if token == "(":
            inner = expression(pos + 1, depth + 1)
            if inner is not None and inner[1] < len(tokens) and tokens[inner[1]] == ")":
                return inner[0], inner[1] + 1
        return None

    read = expression(0, 0)
    return read[0] if read is not None and read[1] == len(tokens) else None
