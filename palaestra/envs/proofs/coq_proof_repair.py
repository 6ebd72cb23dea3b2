"""Repair a broken Coq proof over turns: each attempt is checked by coqc and its real error comes back.

The theorem is an intuitionistic propositional tautology drawn as in ``proofs/coq_tautology`` (a random
natural-deduction tree without the classical rules, every premise needed), and the reference proof is
the tree as a tactic script (:func:`palaestra.envs.proofs._coq_logic.tactic_script`: one tactic a line,
subproofs in braces, eliminations by ``refine``). The prompt shows that script with 1-3 injected faults,
each of which certainly breaks it: a hypothesis that does not exist, ``exact`` with a premise of another
formula, ``proj1`` and ``proj2`` swapped on a conjunction of two different formulas, an ``intro`` that no
longer names the assumption a later line uses, or the final step dropped.

Each turn the model sends a whole proof script. It is read by :func:`palaestra.verifiers.coq.read_script`
with the deciding tactics refused (:data:`palaestra.envs.proofs._coq_logic.AUTOMATION`: ``tauto``,
``firstorder``, ``auto``... would prove every such theorem, so a constant script would pay; so would a
fixed search with ``repeat``, ``try``, ``first``, ``match``, ``||`` or ``+``, refused by
:func:`palaestra.envs.proofs._coq_logic.read_hand_script`) and checked by
``coqc`` in the sandbox with ``Print Assumptions`` required closed. A rejected attempt comes back with
coqc's first error, its line in the script and that line's text; a refused script (a forbidden tactic, a
command) loses the turn with the reason. The episode ends when a proof closes: reward ``1 / (1 +
rejected attempts)``, so the turns' rewards add up to at most 1. Any proof is accepted. The oracle sends
the reference script. Difficulty: the reference script's lines plus three per injected fault. Needs the
``coq`` toolchain.

Generation speed: about 270 problems/s at level 4 on this 2-core machine. Each draw builds a random
intuitionistic proof tree and checks its sequent by truth tables (premises satisfiable, each needed, none
implied by the others, every antecedent of the goal used); about 50 draws are made per kept problem, and
these conditions keep the broken proof's theorem non-trivial, so they stay.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.proofs._coq_logic import (
    AUTOMATION,
    SEARCH,
    THEOREM,
    coq_formula,
    read_hand_script,
    tactic_script,
)
from palaestra.envs.proofs._fitch import draw_sequent
from palaestra.envs.proofs._logic import ATOMS
from palaestra.verifiers import coq

FAULTS = ("missing_name", "wrong_premise", "swapped_projection", "unnamed_intro", "dropped_step")


@register
class CoqProofRepair(MultiTurnTask):
    id = "proofs/coq_proof_repair"
    family = "proofs"
    description = "Repair a broken Coq proof over turns; each attempt comes back with coqc's real error."
    tags = ("logic", "proofs", "coq", "multi-turn", "proof-repair")
    version = 4  # v4: search combinators refused (repeat match ...); v3: dintuition and the like
    multiline = True
    toolchains = ("coq",)
    distinct_from = {"proofs/coq_tautology": "a given broken tactic script is repaired over turns from coqc's error "
                                             "messages; coq_tautology asks for one proof written from scratch",
                     "proofs/fitch_repair": "Coq tactic scripts checked by coqc, not Fitch lines checked in Python"}

    @dataclass(frozen=True)
    class Config:
        atoms: int
        goal_depth: int
        budget: int
        min_lines: int
        max_premises: int
        faults: int
        turns: int

    presets = (
        Config(atoms=4, goal_depth=2, budget=3, min_lines=3, max_premises=2, faults=1, turns=4),  # 3 atoms: 5.2% repeated
        Config(atoms=3, goal_depth=2, budget=5, min_lines=5, max_premises=3, faults=1, turns=5),
        Config(atoms=3, goal_depth=3, budget=6, min_lines=6, max_premises=4, faults=2, turns=6),
        Config(atoms=4, goal_depth=3, budget=8, min_lines=8, max_premises=5, faults=2, turns=7),
        Config(atoms=4, goal_depth=3, budget=8, min_lines=8, max_premises=5, faults=3, turns=8),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"budget": 2, "min_lines": 2, "atoms": 1, "max_premises": 1, "faults": 1, "turns": 1},
                    limits={"atoms": 5, "max_premises": 6, "budget": 22, "min_lines": 22, "faults": 4, "turns": 14})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = ATOMS[: config.atoms]

        def draw() -> tuple[str, list[str], list[str], list[str]] | None:
            sequent = draw_sequent(rng, names, config.goal_depth, config.budget, False, config.min_lines,
                                   config.max_premises, all_needed=True)
            if sequent is None:
                return None
            premises = list(sequent.premises)
            variables = " ".join(n.upper() for n in names)
            statement = f"forall {variables} : Prop, " + "".join(f"({coq_formula(p)}) -> " for p in premises) \
                + f"({coq_formula(sequent.goal)})"
            hypotheses = " ".join(f"H{i}" for i in range(1, len(premises) + 1))
            reference = [f"intros {variables} {hypotheses}".rstrip() + ".", *tactic_script(sequent.tree, premises)]
            broken = list(reference)
            applied: list[str] = []
            for fault in rng.sample(FAULTS * 2, 2 * len(FAULTS)):  # a kind may come twice, at two places
                if len(applied) == config.faults:
                    break
                edited = _inject(fault, broken, reference, premises, rng)
                if edited is not None:
                    broken, applied = edited, [*applied, fault]
            return (statement, reference, broken, applied) if len(applied) == config.faults else None

        statement, reference, broken, applied = retry(draw, attempts=20_000, what="a tautology with faults to inject")
        forbidden = ", ".join(sorted(AUTOMATION))
        search = ", ".join(sorted(SEARCH))
        broken_text = "\n".join(broken)
        prompt = (
            f"This Coq 8.16 proof (the standard library's prelude, no Require) does not go through:\n\n"
            f"Theorem {THEOREM} : {statement}.\nProof.\n{broken_text}\nQed.\n\n"
            "Repair it. Each turn, send a whole proof script (the tactics between Proof. and Qed.); coqc checks "
            "it and, if it fails, you get coqc's first error with its line. The episode ends when the proof "
            "closes (Print Assumptions must show no axiom); it scores 1 / (1 + the number of rejected attempts). "
            f"The tactics that decide such goals are not allowed ({forbidden}), nor are the combinators that "
            f"search ({search}, || and the + of alternatives), admit, axioms, commands or strings. The shape of "
            "a turn, for example:\nintros P Q H1.\nsplit.\n{ exact H1. }\n{ ... }"
        )
        return Problem(prompt=prompt, answer="\n".join(reference), data={
            "statement": statement, "broken": broken_text, "faults": applied, "turns": config.turns,
        })

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """The reference script's lines plus three per injected fault."""
        return len((problem.answer or "").splitlines()) + 3 * len(problem.data["faults"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"rejected": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        statement = problem.data["statement"]
        script = read_hand_script(move, statement)
        if script.startswith("refused:"):
            return Outcome.invalid(state, script.removeprefix("refused: "), "proof")
        report = coq.check("", THEOREM, statement, script)
        if report.error is not None:
            return Outcome(state, report.verdict(), f"The proof could not be checked: {report.error}.", True)
        if report.ok:
            reward = 1 / (1 + state["rejected"])
            return Outcome(state, Verdict(reward, state["rejected"] == 0, True, "proved"),
                           "Accepted: coqc closes the proof.", True)
        rejected = state["rejected"] + 1
        return Outcome({"rejected": rejected}, Verdict.wrong(report.message),
                       f"coqc rejected the proof: {_with_line_text(report.message, script)} Send the whole repaired "
                       "script.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return problem.answer or ""


def _inject(fault: str, lines: list[str], reference: list[str], premises: list[Any],
            rng: random.Random) -> list[str] | None:
    """``lines`` with one more fault of kind ``fault`` on a line the reference still has unchanged, or None when
    the script offers no place for it. Every fault certainly breaks the proof (see the module docstring)."""
    untouched = [i for i in range(1, len(lines)) if lines[i] == reference[i]]
    rng.shuffle(untouched)
    for i in untouched:
        text = lines[i]
        body = text.lstrip(" {").rstrip(" }")
        if fault in ("missing_name", "wrong_premise") and body.startswith("exact H") and body.endswith("."):
            used = int(body[len("exact H"):-1])
            if fault == "missing_name":
                replacement = f"exact H{len(premises) + 1}."
            else:
                others = [k for k in range(1, len(premises) + 1)
                          if _unfolded(premises[k - 1]) != _unfolded(premises[used - 1])]
                if not others:
                    continue
                replacement = f"exact H{rng.choice(others)}."  # a premise of another formula, even with ~ unfolded
            return [*lines[:i], text.replace(body, replacement), *lines[i + 1 :]]
        if fault == "swapped_projection" and "(@proj" in body:
            which, other = ("proj1", "proj2") if "(@proj1" in body else ("proj2", "proj1")
            inside = body[body.index("(@") + 2 + len(which):].rsplit(" _)", 1)[0].strip()
            parts = _two_parts(inside)
            # two different formulas without ~ or False, which Coq could unfold into each other
            if parts and parts[0] != parts[1] and not any(w in inside for w in ("~", "False")):
                return [*lines[:i], text.replace(f"@{which}", f"@{other}"), *lines[i + 1 :]]
        if fault == "unnamed_intro" and body.startswith("intro h"):
            held = body[len("intro "):-1]
            if any(held in _words(later) for later in lines[i + 1 :]):
                return [*lines[:i], text.replace(body, "intros."), *lines[i + 1 :]]
    if fault == "dropped_step" and "{" not in lines[-1] and "}" not in lines[-1] and len(lines) > 2 \
            and lines[-1] == reference[-1]:
        return lines[:-1]
    return None


def _unfolded(formula: Any) -> Any:
    """The formula as Coq compares it: ``~ A`` is ``A -> False``."""
    if formula[0] == "not":
        return ("imp", _unfolded(formula[1]), ("bot",))
    if formula[0] in ("and", "or", "imp"):
        return (formula[0], _unfolded(formula[1]), _unfolded(formula[2]))
    return formula


def _two_parts(text: str) -> tuple[str, str] | None:
    """The two bracketed arguments of ``(A) (B)``, or None."""
    depth, cut = 0, -1
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch == ")":
            cut = i + 1
            break
    if cut < 0:
        return None
    return text[:cut].strip(), text[cut:].strip()


def _words(text: str) -> set[str]:
    return set("".join(ch if ch.isalnum() or ch == "_" else " " for ch in text).split())


def _with_line_text(message: str, script: str) -> str:
    """coqc's message with the text of the script line it names (``line 4 of the proof`` -> that line quoted)."""
    head, found, rest = message.partition(" of the proof")
    number = head.removeprefix("line ")
    rows = script.splitlines()
    if found and number.isdigit() and 1 <= int(number) <= len(rows):
        return f"{head} of the proof ({rows[int(number) - 1].strip()[:120]}){rest}"
    return message
