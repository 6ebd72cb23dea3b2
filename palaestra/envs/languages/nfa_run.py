"""Run a nondeterministic finite automaton: which states can it be in after reading a string?

A random NFA (from level 2 with epsilon moves) and an input string. The answer is the set of
states the automaton can be in after reading the whole string, epsilon moves included: the
subset the textbook subset construction tracks letter by letter. Any order and the usual set
spellings are accepted (``{q0, q2}``, ``q2, q0``); the set is never empty (strings that kill
every branch are drawn again). The set is unique, computed by simulation.

Version 3: the start must matter. A dense random NFA forgets where it started within a few
letters, so reading only the last letter or two from *every* state gave the answer (0.55 of
level 4, 0.97 of level 7 for the last two letters). Each letter now moves the states along a
random permutation (each move kept with ``keep``) plus a few extra branches, so sets neither
collapse nor flood, and a run is kept only when no proper suffix read from all states gives its
answer: skipping even the first letter gives a wrong set. Nor may any proper prefix read from the
start give it (nothing read, or all but the last letter): small permutations read twice are often
the identity, and "read only the first letter" otherwise answered 0.37 of level 0.

Version 4: the epsilon moves matter. At 0.1 epsilon moves per state most runs of levels 2-4 took none that
changed the answer: ignoring epsilon moves altogether answered 0.81 of level 2 and 0.69 of level 4, skipping
the closure after the last letter (the prompt names it) 0.93 and 0.91. From level 2 an epsilon move is now
planted from a state the last letter reaches to one the run does not end in, and a run is kept only when
skipping the closure after the last letter gives a wrong set (so ignoring epsilon moves does too: without
them a run only loses states); both misreadings answer none of levels 2-4.

Version 5: a constant answer paid. Level 0's three states leave six possible answers, and "q0, q2" answered 0.23
of it (500 seeds); the most common set answered 0.09 and 0.08 of levels 1 and 2. Level 0 now has four states (14
possible answers), the states are renamed by a random permutation after the run is drawn (the start is no longer
always q0), and up to seven states the number of states the run ends in is drawn first, k with chance C(n, k)
among the sizes a run can end in (from 2 where an epsilon move is planted), so every answer is about as likely
(1/14 of levels 0 and 1, 1/25 of level 2). A size not met in 1,000 draws gives way to any size.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass

from palaestra.core import GenerationError, Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.languages._automata import Automaton, closure, nfa_table, run_nfa
from palaestra.verifiers.sets import read_set

_SIZED_UP_TO = 7  # up to this many states the size of the answer is drawn first
_SIZED_DRAWS = 1_000  # draws tried for the drawn size before any size will do

# "States: q1, q2", "The possible states are q1, q2", "The NFA can be in q1, q2"
_LABEL = re.compile(r"^\s*(?:(?:the\s+)?(?:(?:final|possible|reachable|current|active|resulting)\s+)?states?\s*(?::|=|are\b|"
                    r"is\b)|(?:the\s+)?nfa\s+(?:can|could|may)\s+be\s+in\b(?:\s+states?\b)?\s*:?)\s*", re.IGNORECASE)


@register
class NfaRun(Task):
    id = "languages/nfa_run"
    version = 5
    family = "languages"
    description = "Give the set of states an NFA (with epsilon moves) can be in after reading a string."
    tags = ("formal-languages", "automata", "simulation")

    @dataclass(frozen=True)
    class Config:
        states: int
        alphabet: str
        keep: float  # chance that a state keeps its move along a letter's permutation
        branching: float  # expected extra moves per state and letter
        epsilon: float  # expected epsilon moves per state
        length: tuple[int, int]

    presets = (
        Config(states=4, alphabet="ab", keep=0.8, branching=0.35, epsilon=0.0, length=(3, 4)),
        Config(states=4, alphabet="ab", keep=0.8, branching=0.35, epsilon=0.0, length=(4, 6)),
        Config(states=5, alphabet="ab", keep=0.8, branching=0.3, epsilon=0.1, length=(5, 7)),
        Config(states=6, alphabet="abc", keep=0.8, branching=0.3, epsilon=0.1, length=(6, 9)),
        Config(states=8, alphabet="abc", keep=0.8, branching=0.3, epsilon=0.1, length=(8, 12)),
    )
    # Capped at level 16's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"states": 32, "length": (32, 48)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[dict, str, set[str]] | None:
            nfa = _tracking_nfa(rng, config)
            string = "".join(rng.choice(config.alphabet) for _ in range(rng.randint(*config.length)))
            if config.epsilon > 0 and not _plant_final_epsilon(rng, nfa, string):
                return None  # no epsilon move can matter after the last letter
            final = run_nfa(nfa, string)
            if not final or len(final) == config.states:
                return None  # a dead run, or every state: nothing to work out
            if any(_from_every_state(nfa, string[k:]) == final for k in range(1, len(string))):
                return None  # the letters before some point do not matter: a lazy reading would do
            if any(run_nfa(nfa, string[:k]) == final for k in range(len(string))):
                return None  # the last letters change nothing: a permutation read twice often is the identity
            if config.epsilon > 0 and _without_last_closure(nfa, string) == final:
                return None  # the epsilon moves after the last letter add nothing: skipping them would do
            return nfa, string, final

        if config.states <= _SIZED_UP_TO:  # how many states the run ends in is drawn first (see the docstring)
            sizes = range(2 if config.epsilon > 0 else 1, config.states)  # the planted epsilon move adds a state
            wanted = rng.choices(sizes, [math.comb(config.states, k) for k in sizes])[0]
            try:
                nfa, string, final = retry(draw, accept=lambda run: len(run[2]) == wanted, attempts=_SIZED_DRAWS,
                                           what="an NFA run ending in the drawn number of states")
            except GenerationError:
                nfa, string, final = retry(draw, what="an NFA run ending in a proper non-empty set of states")
        else:
            nfa, string, final = retry(draw, what="an NFA run ending in a proper non-empty set of states")
        nfa, final = _relabelled(rng, nfa, final)
        answer = ", ".join(sorted(final, key=lambda q: int(q[1:])))
        example = "q1, q3"  # the notation, whatever the answer
        epsilon = (" A move on ε (epsilon) may be taken at any time without reading a letter." if
                   any("" in moves for moves in nfa["delta"].values()) else "")
        prompt = (
            f"Here is a nondeterministic finite automaton (NFA) over the alphabet {{{', '.join(config.alphabet)}}}. "
            "From a state, reading a letter may lead to several states (or none)." + epsilon + "\n\n"
            f"{nfa_table(nfa)}\n\n"
            f'Starting in {nfa["start"]}, the NFA reads the string "{string}". Which states can it be in after '
            "reading the whole string (including states reached by ε moves after the last letter)? "
            f"List them separated by commas, for example: {example}"
        )
        return Problem(prompt=prompt, answer=answer, data={"nfa": nfa, "string": string})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        nfa = problem.data["nfa"]
        names = {s.lower(): s for s in nfa["states"]}
        if isinstance(answer, str):
            answer = _LABEL.sub("", answer, count=1)
        states = read_set(answer, lambda item: names.get(item.strip().lower()))
        if states is None:
            return Verdict.unparsed("expected state names separated by commas")
        truth = run_nfa(nfa, problem.data["string"])
        if states == truth:
            return Verdict.right()
        missing, extra = sorted(truth - states), sorted(states - truth)
        return Verdict.wrong("missing " + ", ".join(missing) if missing else "not reachable: " + ", ".join(extra))

    def difficulty(self, problem: Problem) -> float:
        """Letters read times states."""
        return float(len(problem.data["string"]) * len(problem.data["nfa"]["states"]))

    def spellings(self, problem: Problem) -> list[str]:
        items = (problem.answer or "").split(", ")
        return [*super().spellings(problem), "{" + ", ".join(items) + "}", ", ".join(reversed(items)),
                f"States: {problem.answer}",
                " and ".join(items) if len(items) == 2 else "; ".join(items), ", ".join(i.upper() for i in items)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        items = (problem.answer or "").split(", ")
        others = [s for s in problem.data["nfa"]["states"] if s not in items]
        wrong = [", ".join([*items, rng.choice(others)])]
        if len(items) > 1:
            wrong.append(", ".join(items[:-1]))
        wrong.append(f"{problem.answer} or {rng.choice(others)}")
        return wrong


def _tracking_nfa(rng: random.Random, config: NfaRun.Config) -> Automaton:
    """An NFA whose state sets carry their history: each letter moves every state along a random
    permutation (the move kept with ``keep``), plus extra moves and epsilon moves at the configured
    rates. A dense random NFA instead funnels every run into the same few states within a few letters."""
    states = [f"q{i}" for i in range(config.states)]
    others = max(1, config.states - 1)
    delta: dict[str, dict[str, list[str]]] = {s: {} for s in states}
    for letter in config.alphabet:
        images = rng.sample(states, len(states))
        for source, image in zip(states, images):
            targets = {image} if rng.random() < config.keep else set()
            targets |= {t for t in states if t != image and rng.random() < config.branching / others}
            if targets:
                delta[source][letter] = sorted(targets, key=lambda q: int(q[1:]))
    for source in states:
        jumps = [t for t in states if t != source and rng.random() < config.epsilon / others]
        if jumps:
            delta[source][""] = jumps
    return {"states": states, "start": "q0", "accepting": [], "delta": delta}


def _relabelled(rng: random.Random, nfa: Automaton, final: set[str]) -> tuple[Automaton, set[str]]:
    """The same NFA and run with its states renamed by a random permutation (the start too), listed by name."""
    states = nfa["states"]
    rename = dict(zip(states, rng.sample(states, len(states))))
    order = {s: int(s[1:]) for s in states}
    delta = {rename[s]: {letter: sorted((rename[t] for t in targets), key=order.__getitem__)
                         for letter, targets in nfa["delta"][s].items()} for s in states}
    relabelled = {**nfa, "start": rename[nfa["start"]], "delta": {s: delta[s] for s in states}}
    return relabelled, {rename[s] for s in final}


def _without_last_closure(nfa: Automaton, string: str) -> set[str]:
    """The states after ``string`` when the epsilon moves after the last letter are skipped (a misreading). With
    no epsilon moves at all a run only loses states, so a run this misses is missed by ignoring epsilon too."""
    current = closure(nfa, {nfa["start"]})
    for number, letter in enumerate(string):
        current = {t for s in current for t in nfa["delta"].get(s, {}).get(letter, [])}
        if number < len(string) - 1:
            current = closure(nfa, current)
    return current


def _plant_final_epsilon(rng: random.Random, nfa: Automaton, string: str) -> bool:
    """Add an epsilon move from a state the run reaches on its last letter to a state the run does not end in,
    so that the closure after the last letter matters; False when the run dies or already ends everywhere."""
    before = _without_last_closure(nfa, string)
    outside = [s for s in nfa["states"] if s not in closure(nfa, before)]
    if not before or not outside:
        return False
    source = rng.choice(sorted(before, key=lambda q: int(q[1:])))
    target = rng.choice(outside)
    moves = nfa["delta"][source]
    moves[""] = sorted({*moves.get("", []), target}, key=lambda q: int(q[1:]))
    return True


def _from_every_state(nfa: Automaton, string: str) -> set[str]:
    """The states reached by reading ``string`` from all states at once (where the run started forgotten)."""
    current = closure(nfa, set(nfa["states"]))
    for letter in string:
        current = closure(nfa, {t for s in current for t in nfa["delta"].get(s, {}).get(letter, [])})
    return current
