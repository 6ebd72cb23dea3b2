"""Prove an intuitionistic propositional tautology in Coq, by hand: automation that decides it is refused.

The theorem ``forall P Q R : Prop, H1 -> H2 -> ... -> G`` comes from a random natural-deduction
proof tree built backwards without the classical rules (:class:`palaestra.envs.proofs._fitch.TreeBuilder`
with ``classical=False``), so it holds intuitionistically and needs no axiom; draws are refused when
the hypotheses are contradictory, none is needed, an antecedent of the goal could be dropped (no
vacuous ``A -> ...``), one follows from the others, or the proof is short
(:func:`palaestra.envs.proofs._fitch.draw_sequent`). The reference is the tree read as an explicit proof
term (``intros ... . exact (...).``).

The answer is the proof script (the tactics between ``Proof.`` and ``Qed.``). It is read by
:func:`palaestra.verifiers.coq.read_script` (tactics only: no vernacular, ``admit``, axioms or strings)
with the deciding tactics refused as well (:data:`AUTOMATION`: ``tauto``, ``intuition``,
``firstorder``, ``auto``, ``lia``... each of which proves every such theorem, so a constant script
would pay) and the combinators with which one fixed script searches for the proof (``repeat``, ``try``,
``first``, ``match``, ``||``, ``+``...: :func:`palaestra.envs.proofs._coq_logic.read_hand_script`), then checked by ``coqc`` in the sandbox, and it counts only when ``Print Assumptions`` says
the theorem is closed under the global context. Any proof is accepted. Difficulty: the lines of the
reference natural-deduction proof plus a quarter of the goal's size. Needs the ``coq`` toolchain.

Generation speed: about 170 problems/s at level 4 on this 2-core machine. Each draw builds a random
intuitionistic proof tree and then checks its sequent by truth tables (premises jointly satisfiable, each
premise needed and none implied by the others, every antecedent of the goal used), and about 75 draws are
made per kept problem; the conditions are what make the stated theorem non-trivial and its hypotheses all
relevant, so they are kept.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.proofs._coq_logic import AUTOMATION, SEARCH, THEOREM, coq_formula, proof_term, read_hand_script
from palaestra.envs.proofs._fitch import draw_sequent
from palaestra.envs.proofs._logic import ATOMS, size
from palaestra.verifiers import coq


@register
class CoqTautology(Task):
    id = "proofs/coq_tautology"
    family = "proofs"
    description = "Prove an intuitionistic propositional tautology in Coq by hand (no deciding tactics)."
    tags = ("logic", "proofs", "coq", "intuitionistic")
    version = 4  # v4: search combinators refused (repeat match ... proved 5-8 of 10); v3: dintuition and the like
    multiline = True
    toolchains = ("coq",)

    @dataclass(frozen=True)
    class Config:
        atoms: int
        goal_depth: int
        budget: int
        min_lines: int
        max_premises: int

    presets = (
        Config(atoms=5, goal_depth=2, budget=3, min_lines=3, max_premises=2),  # 3 atoms: 11% of 1,000 repeated
        Config(atoms=3, goal_depth=2, budget=5, min_lines=5, max_premises=3),
        Config(atoms=3, goal_depth=3, budget=6, min_lines=6, max_premises=4),
        Config(atoms=4, goal_depth=3, budget=8, min_lines=8, max_premises=5),
        Config(atoms=4, goal_depth=3, budget=10, min_lines=10, max_premises=5),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"budget": 2, "min_lines": 2, "atoms": 1, "goal_depth": 1, "max_premises": 1}, limits={"atoms": 6, "goal_depth": 4, "max_premises": 7, "budget": 22, "min_lines": 22})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = ATOMS[: config.atoms]
        sequent = retry(lambda: draw_sequent(rng, names, config.goal_depth, config.budget, False, config.min_lines,
                                             config.max_premises, all_needed=True),
                         attempts=20_000, what="an intuitionistic tautology")
        premises = list(sequent.premises)
        variables = " ".join(n.upper() for n in names)
        statement = f"forall {variables} : Prop, " + "".join(f"({coq_formula(p)}) -> " for p in premises) \
            + f"({coq_formula(sequent.goal)})"
        hypotheses = " ".join(f"H{i}" for i in range(1, len(premises) + 1))
        script = f"intros {variables} {hypotheses}".rstrip() + f".\nexact {proof_term(sequent.tree, premises)}."
        forbidden = ", ".join(sorted(AUTOMATION))
        search = ", ".join(sorted(SEARCH))
        prompt = (
            f"Prove this theorem in Coq 8.16 (the standard library's prelude, no Require):\n\n"
            f"Theorem {THEOREM} : {statement}.\n\n"
            "Write only the proof script: the tactics that go between Proof. and Qed. Prove it by hand: the "
            f"tactics that decide such goals are not allowed ({forbidden}), nor are the combinators that search "
            f"({search}, || and the + of alternatives), admit, axioms, commands or strings. intros, apply, "
            "exact, split, destruct, left, right, exfalso, contradiction, assumption and the like are fine. The proof is checked by coqc and must be closed (Print Assumptions). The shape, "
            "for example:\nintros A B HA.\nsplit.\n- exact HA.\n- apply B."
        )
        return Problem(prompt=prompt, answer=script, data={
            "statement": statement, "steps": len(sequent.proof), "goal_size": size(sequent.goal),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        statement = problem.data["statement"]
        script = read_hand_script(answer, statement)
        if script.startswith("refused:"):
            return Verdict.unparsed(script.removeprefix("refused: "))
        return coq.check("", THEOREM, statement, script).verdict()

    def difficulty(self, problem: Problem) -> float:
        """Lines of the reference natural-deduction proof plus a quarter of the goal's size."""
        return problem.data["steps"] + problem.data["goal_size"] / 4

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        statement = problem.data["statement"]
        return [*super().spellings(problem), f"Proof.\n{gold}\nQed.", f"```coq\n{gold}\n```",
                f"Theorem {THEOREM} : {statement}.\nProof.\n{gold}\nQed.", f"(* by the proof term *)\n{gold}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        intros = gold.split("\n", 1)[0]
        return [f"{intros}\nexact I.", intros, "tauto.", "intros. admit.", f"{intros}\nfirstorder."]
