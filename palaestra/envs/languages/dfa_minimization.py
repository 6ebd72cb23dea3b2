"""DFA minimisation: how many states does the smallest equivalent DFA have?

A random minimal DFA with ``k`` states (every state reachable, no two equivalent) is padded to a
fixed number of states per level with redundant copies of states (each taking over some incoming
edges, so most are reachable) and a few states nothing leads to, then its states are renamed in a
random order. The shown size is the same for every problem of a level and ``k`` is uniform over a
range, so the size says nothing about the answer; the number of self loops is drawn apart from ``k``
(uniform over 0-2, the padded DFA redrawn until it has that many), since more minimal states
otherwise mean more loops and a lazy policy could count them. The answer is ``k``, an integer, checked by
Moore's partition refinement on the shown DFA (unreachable states removed, equivalent states
merged; the minimal DFA is complete).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.languages._automata import inflate, minimal_size, random_minimal_dfa, table
from palaestra.verifiers.numeric import read_integer


def self_loops(dfa: dict) -> int:
    """Moves from a state to itself."""
    return sum(t == s for s, moves in dfa["delta"].items() for t in moves.values())


@register
class DfaMinimization(Task):
    id = "languages/dfa_minimization"
    family = "languages"
    description = "Count the states of the minimal DFA equivalent to a given DFA."
    tags = ("formal-languages", "automata")

    @dataclass(frozen=True)
    class Config:
        alphabet: str
        shown: int  # states of the DFA shown
        minimal: tuple[int, int]  # range of the answer

    presets = (
        Config(alphabet="ab", shown=6, minimal=(2, 4)),
        Config(alphabet="ab", shown=7, minimal=(2, 5)),
        Config(alphabet="ab", shown=9, minimal=(3, 6)),
        Config(alphabet="abc", shown=10, minimal=(3, 7)),
        Config(alphabet="abc", shown=13, minimal=(4, 8)),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        k = rng.randint(*config.minimal)
        loops = rng.randint(0, 2)  # drawn apart from k: left alone, more minimal states mean more self loops

        def draw() -> dict | None:
            core = random_minimal_dfa(rng, k, config.alphabet)
            if core is None:
                return None
            unreachable = rng.randint(0, 1)  # the same whatever k is, so it tells nothing
            dfa = inflate(rng, core, config.shown - k - unreachable, unreachable)
            if dfa is None or self_loops(dfa) != loops:
                return None
            return dfa if minimal_size(dfa) == k else None

        dfa = retry(draw, what="a padded DFA")
        prompt = (
            f"Here is a deterministic finite automaton (DFA) over the alphabet {{{', '.join(config.alphabet)}}}:\n\n"
            f"{table(dfa)}\n\n"
            "How many states does the minimal DFA accepting the same language have? Count the states of the "
            "smallest complete DFA (every state has a move on every letter) for this language. Give a single "
            "integer, for example: 7"
        )
        return Problem(prompt=prompt, answer=str(k), data={"dfa": dfa})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_integer(answer, units={"states": 1, "state": 1})
        if value is None:
            return Verdict.unparsed("expected one integer")
        return Verdict.judge(value == minimal_size(problem.data["dfa"]))

    def difficulty(self, problem: Problem) -> float:
        """States times letters (the transitions to compare), plus the states that merge away."""
        dfa = problem.data["dfa"]
        merged = len(dfa["states"]) - int(problem.answer or 0)
        return float(len(dfa["states"]) * len(dfa["delta"][dfa["start"]]) + merged)

    def surface_features(self, problem: Problem) -> dict[str, float]:
        dfa = problem.data["dfa"]
        targets = {t for moves in dfa["delta"].values() for t in moves.values()}
        return {"accepting": float(len(dfa["accepting"])), "targets": float(len(targets)),
                "self loops": float(self_loops(dfa))}

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), f"{gold} states", f"**{gold}**", f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        k = int(problem.answer or "0")
        shown = len(problem.data["dfa"]["states"])
        return [str(k + 1), str(k - 1), str(shown), f"{k} or {k + 1}"]
