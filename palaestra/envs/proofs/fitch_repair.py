"""Natural deduction over turns: build a Fitch proof a few lines at a time, repairing the steps the checker rejects.

The sequent is drawn as in ``proofs/natural_deduction`` (a random proof tree, valid by construction,
nontrivial). The premises stand as lines 1..k from the start. Each turn the model sends the next
numbered lines; the step checker of :mod:`palaestra.envs.proofs._fitch` checks them after the lines
accepted so far: if one is wrong, none of the turn's lines is kept and the feedback is the checker's
error for the first bad step (its line, its rule, why it does not follow), so the model repairs it
next turn; if all are right they are kept. The episode ends when an accepted line outside every
subproof is the goal. Reward: ``1 / (1 + mistakes)`` on finishing, nothing before, so per-turn
rewards add up to at most 1 and a clean proof earns exactly 1. Unreadable lines lose the turn but
are not counted as mistakes. The oracle sends the reference proof, a few lines per turn.
Difficulty: the reference proof's lines plus a quarter of the goal's size.

Generation speed: about 480 problems/s at level 4 on this 2-core machine. Each draw builds a random
classical proof tree and checks its sequent by truth tables (premises satisfiable, each needed, none
implied by the others); about 20 draws are made per kept problem, and the conditions keep the proof to
repair non-trivial, so they stay.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.proofs._fitch import check, draw_sequent, read_proof, render
from palaestra.envs.proofs._logic import ATOMS, parse_formula, show, size

LINES_PER_ORACLE_TURN = 4


@register
class FitchRepair(MultiTurnTask):
    id = "proofs/fitch_repair"
    family = "proofs"
    description = "Build a Fitch proof over turns; a rejected step comes back with the checker's error to repair."
    tags = ("logic", "proofs", "natural-deduction", "multi-turn", "proof-repair")
    version = 1
    distinct_from = {"proofs/natural_deduction": "the proof is built over turns and each rejected step comes back "
                                                 "with the checker's error to repair; natural_deduction grades one "
                                                 "whole proof at once"}

    @dataclass(frozen=True)
    class Config:
        atoms: int
        goal_depth: int
        budget: int
        min_lines: int
        max_premises: int
        turns: int

    presets = (
        Config(atoms=3, goal_depth=2, budget=3, min_lines=3, max_premises=3, turns=8),
        Config(atoms=3, goal_depth=2, budget=5, min_lines=5, max_premises=4, turns=10),
        Config(atoms=3, goal_depth=3, budget=6, min_lines=6, max_premises=4, turns=12),
        Config(atoms=4, goal_depth=3, budget=8, min_lines=8, max_premises=5, turns=14),
        Config(atoms=4, goal_depth=3, budget=11, min_lines=11, max_premises=6, turns=16),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"budget": 3, "min_lines": 3, "atoms": 1, "goal_depth": 1, "max_premises": 1, "turns": 3}, limits={"atoms": 6, "goal_depth": 4, "max_premises": 7, "budget": 26, "min_lines": 26, "turns": 31})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = ATOMS[: config.atoms]
        sequent = retry(lambda: draw_sequent(rng, names, config.goal_depth, config.budget, True, config.min_lines,
                                             config.max_premises), attempts=20_000, what="a provable sequent")
        proof = render(sequent.proof)
        premises = len(sequent.premises)
        given = "\n".join(proof.splitlines()[:premises]) or "(no premises: the goal is a theorem)"
        prompt = (
            f"Prove the goal {show(sequent.goal)} in Fitch-style natural deduction (classical), a few lines per turn."
            f"\n\nThe premises are already written:\n{given}\n\n"
            "Each turn, send the next numbered lines (continuing the numbering): the number, one | per enclosing "
            "subproof, the formula, then the rule and the lines it cites. An assumption line opens a subproof one "
            "bar deeper; a range i-j cites a closed subproof (assumption on line i, its last line j). Rules: R k; "
            "∧I k, m; ∧E k; ∨I k; ∨E k, i-j, m-n; →I i-j; →E k, m; ¬I i-j; ¬E k, m (A and ¬A give ⊥); ⊥E k; "
            "RAA i-j (a subproof from ¬A to ⊥ gives A); ¬¬E k. ASCII connectives (->, &, |, ~, _|_) are fine. "
            "Every line you send is checked: if one is wrong, none of that turn's lines is kept and you get the "
            "checker's reason for the first bad one. The proof is done when a line outside every subproof is the "
            "goal. Finishing scores 1 / (1 + the number of rejected turns). The shape of a turn, for example:\n"
            "4. | a ∧ c      assumption\n5. | a          ∧E 4"
        )
        return Problem(prompt=prompt, answer=proof, data={
            "atoms": list(names), "premises": [show(p) for p in sequent.premises], "goal": show(sequent.goal),
            "turns": config.turns,
        })

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Lines of the reference proof plus a quarter of the goal's size."""
        goal = parse_formula(problem.data["goal"], problem.data["atoms"])
        return len((problem.answer or "").splitlines()) + (size(goal) / 4 if goal else 0)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        premises = len(problem.data["premises"])
        return {"lines": (problem.answer or "").splitlines()[:premises], "mistakes": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        atoms = problem.data["atoms"]
        new = read_proof(move, atoms)
        if isinstance(new, str):
            return Outcome(state, Verdict.unparsed(new), f"Unreadable: {new}. Send numbered proof lines, from line "
                                                         f"{len(state['lines']) + 1}.")
        accepted = read_proof("\n".join(state["lines"]), atoms) if state["lines"] else []
        assert not isinstance(accepted, str)  # the state only ever holds accepted lines
        rows = _rows(move)
        if accepted and new[: len(accepted)] == accepted:  # the proof so far restated before the new lines
            new, rows = new[len(accepted):], rows[len(accepted):]
            if not new:
                return Outcome(state, Verdict.unparsed("no new lines"), f"No new lines: continue from line "
                                                                         f"{len(accepted) + 1}.")
        premises = [p for p in (parse_formula(text, atoms) for text in problem.data["premises"]) if p is not None]
        goal = parse_formula(problem.data["goal"], atoms) or ("bot",)
        lines = [*accepted, *new]
        error = check(lines, premises, goal, complete=False)
        if error is not None:
            mistakes = state["mistakes"] + 1
            return Outcome({**state, "mistakes": mistakes}, Verdict.wrong(error),
                           f"Rejected: {error}. Nothing of this turn was kept; continue from line {len(accepted) + 1}.")
        texts = [*state["lines"], *rows]
        new_state = {"lines": texts, "mistakes": state["mistakes"]}
        if check(lines, premises, goal) is None:
            reward = 1 / (1 + state["mistakes"])
            return Outcome(new_state, Verdict(reward, state["mistakes"] == 0, True, "proved"),
                           "Accepted: the goal is proved.", True)
        return Outcome(new_state, Verdict(0.0, True, True, "accepted"),
                       f"Accepted lines {len(accepted) + 1}-{len(lines)}. Continue from line {len(lines) + 1}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        reference = (problem.answer or "").splitlines()
        done = len(state["lines"])
        return "\n".join(reference[done : done + LINES_PER_ORACLE_TURN])


def _rows(move: str) -> list[str]:
    """The proof lines of a readable move, as text: fence, label, separator lines and a closing end-of-proof mark
    (``∎``, ``QED``) left out, as :func:`palaestra.envs.proofs._fitch.read_proof` leaves them out. A kept mark would
    stand mid-proof once the next turn's lines follow it, and the accepted lines would no longer read."""
    from palaestra.envs.proofs._fitch import MAX_LINES, _is_separator
    from palaestra.verifiers.blocks import read_block, without_end_of_proof

    block = read_block(move, leading="strip") or []
    rows = without_end_of_proof([row.strip() for row in block if row.strip() and not _is_separator(row)])
    if rows and len(rows[0]) <= 40 and rows[0].rstrip().endswith(":") and not any(c.isdigit() for c in rows[0]):
        rows = rows[1:]
    return rows[:MAX_LINES]
