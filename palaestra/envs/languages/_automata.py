"""Finite automata for the language envs: random DFAs and NFAs, runs, minimisation, equivalence.

A DFA is ``{"states": [...], "start": "q0", "accepting": [...], "delta": {state: {letter: state}}}``
(complete: every state has a move on every letter). An NFA has ``delta: {state: {letter: [states]}}``
where the letter ``""`` stands for an epsilon move. Both are JSON-native, so they travel in a
problem's data. This is a family helper (no env registers here).

Example::

    >>> dfa = {"states": ["q0", "q1", "q2"], "start": "q0", "accepting": ["q1", "q2"],
    ...        "delta": {"q0": {"a": "q1", "b": "q0"}, "q1": {"a": "q2", "b": "q0"}, "q2": {"a": "q1", "b": "q0"}}}
    >>> run_dfa(dfa, "ab"), accepts(dfa, "ba"), minimal_size(dfa)
    ('q0', True, 2)
    >>> distinguishing(dfa, {**dfa, "accepting": ["q1"]})
    'aa'
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

Automaton = dict[str, Any]
Pair = tuple[str, str]


def run_dfa(dfa: Automaton, string: str) -> str:
    state = dfa["start"]
    for letter in string:
        state = dfa["delta"][state][letter]
    return state


def accepts(dfa: Automaton, string: str) -> bool:
    return run_dfa(dfa, string) in dfa["accepting"]


def reachable(dfa: Automaton) -> list[str]:
    """States reachable from the start, in breadth-first order."""
    seen, queue = {dfa["start"]}, [dfa["start"]]
    for state in queue:
        for target in dfa["delta"][state].values():
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return queue


def classes(dfa: Automaton) -> dict[str, int]:
    """The reachable states' equivalence classes (Moore's partition refinement): state -> class number."""
    states = reachable(dfa)
    letters = sorted(dfa["delta"][dfa["start"]])
    accepting = set(dfa["accepting"])
    block = {s: int(s in accepting) for s in states}
    for _ in range(len(states) + 1):
        signature = {s: (block[s], *(block[dfa["delta"][s][a]] for a in letters)) for s in states}
        numbering: dict[tuple, int] = {}
        refined = {s: numbering.setdefault(signature[s], len(numbering)) for s in states}
        if len(numbering) == len(set(block.values())):
            return refined
        block = refined
    return block


def minimal_size(dfa: Automaton) -> int:
    """States of the minimal complete DFA for the same language."""
    return len(set(classes(dfa).values()))


def _product_search(first: Automaton, second: Automaton) -> Iterator[tuple[Pair, dict[Pair, tuple[Pair, str] | None]]]:
    """The state pairs reachable from the start pair, breadth-first (letters in order), each with the parent map
    so far (pair -> (the pair before it, the letter between))."""
    start = (first["start"], second["start"])
    parent: dict[Pair, tuple[Pair, str] | None] = {start: None}
    queue = [start]
    letters = sorted(first["delta"][first["start"]])
    for pair in queue:
        yield pair, parent
        for letter in letters:
            nxt = (first["delta"][pair[0]][letter], second["delta"][pair[1]][letter])
            if nxt not in parent:
                parent[nxt] = (pair, letter)
                queue.append(nxt)


def distinguishing(first: Automaton, second: Automaton) -> str | None:
    """A shortest string exactly one of the two DFAs accepts (breadth-first over state pairs), or None."""
    for pair, parent in _product_search(first, second):
        if (pair[0] in first["accepting"]) != (pair[1] in second["accepting"]):
            word = []
            node = pair
            for _ in range(len(parent)):
                step = parent[node]
                if step is None:
                    break
                node, letter = step
                word.append(letter)
            return "".join(reversed(word))
    return None


def reachable_pairs(first: Automaton, second: Automaton) -> list[Pair]:
    """The state pairs the two DFAs reach together on some string, breadth-first: when no pair disagrees on
    acceptance (the DFAs are equivalent), the smallest bisimulation between them.

    >>> one = {"states": ["q0", "q1"], "start": "q0", "accepting": ["q1"],
    ...        "delta": {"q0": {"a": "q1"}, "q1": {"a": "q1"}}}
    >>> reachable_pairs(one, {**one, "start": "q1"})
    [('q0', 'q1'), ('q1', 'q1')]
    """
    return [pair for pair, _ in _product_search(first, second)]


def bisimulation_flaw(first: Automaton, second: Automaton, relation: set[Pair]) -> str | None:
    """Why ``relation`` (pairs of a state of ``first`` and a state of ``second``) is no bisimulation between the
    DFAs, or None when it is one: it holds the start pair, pairs only states that agree on acceptance, and
    holds the pair of the two moves on every letter from each of its pairs. Any such relation proves the DFAs
    equivalent (every string leads to a pair in it), minimal or not."""
    start = (first["start"], second["start"])
    if start not in relation:
        return f"the relation lacks the pair of start states {start[0]} ~ {start[1]}"
    letters = sorted(first["delta"][first["start"]])
    for p, q in sorted(relation):
        if p not in first["delta"] or q not in second["delta"]:
            return f"{p} ~ {q} names no state pair of the two DFAs"
        if (p in first["accepting"]) != (q in second["accepting"]):
            return f"{p} ~ {q} pairs an accepting state with a rejecting one"
        for letter in letters:
            nxt = (first["delta"][p][letter], second["delta"][q][letter])
            if nxt not in relation:
                return f"{p} ~ {q} is in the relation but its moves on {letter}, {nxt[0]} ~ {nxt[1]}, are not"
    return None


def random_dfa(rng: random.Random, size: int, alphabet: str, accept_chance: float = 0.4) -> Automaton:
    """A random complete DFA on states q0..q{size-1} (q0 the start; some states may be unreachable)."""
    states = [f"q{i}" for i in range(size)]
    delta = {s: {a: rng.choice(states) for a in alphabet} for s in states}
    accepting = [s for s in states if rng.random() < accept_chance]
    return {"states": states, "start": "q0", "accepting": accepting, "delta": delta}


def random_minimal_dfa(rng: random.Random, size: int, alphabet: str, attempts: int = 200) -> Automaton | None:
    """A random DFA with ``size`` states, all reachable, none equivalent to another (None if none found)."""
    for _ in range(attempts):
        dfa = random_dfa(rng, size, alphabet, rng.uniform(0.3, 0.6))
        if len(reachable(dfa)) == size and minimal_size(dfa) == size:
            return dfa
    return None


def inflate(rng: random.Random, dfa: Automaton, clones: int, unreachable: int) -> Automaton | None:
    """An equivalent DFA with ``clones`` redundant copies of states and ``unreachable`` states nothing leads
    to; states renamed q0..q{n-1} in a random order (q0 the start). A copy takes over some, never all, of
    its twin's incoming edges, so both stay reachable when the twin was. None if no state has two ways in."""
    delta = {s: dict(moves) for s, moves in dfa["delta"].items()}
    accepting = set(dfa["accepting"])
    original = {s: s for s in delta}  # state -> the original state it copies
    for k in range(clones):
        incoming: dict[str, list[tuple[str, str]]] = {}
        for source in sorted(delta):
            for letter in sorted(delta[source]):
                incoming.setdefault(delta[source][letter], []).append((source, letter))
        shared = sorted(t for t, edges in incoming.items() if len(edges) >= 2)
        if not shared:
            return None  # no state with two ways in: no copy keeps both it and its twin reachable
        twin = rng.choice(shared)
        copy = f"c{k}"
        delta[copy] = {a: rng.choice([s for s in delta if original[s] == original[t]]) for a, t in delta[twin].items()}
        original[copy] = original[twin]
        if twin in accepting:
            accepting.add(copy)
        edges = incoming[twin]
        for source, letter in rng.sample(edges, rng.randint(1, len(edges) - 1)):
            delta[source][letter] = copy  # some of the twin's ways in now lead to the copy, the rest stay
    for k in range(unreachable):
        ghost = f"u{k}"
        delta[ghost] = {a: rng.choice(sorted(delta)) for a in dfa["delta"][dfa["start"]]}
        if rng.random() < 0.5:
            accepting.add(ghost)
    others = [s for s in sorted(delta) if s != dfa["start"]]
    rng.shuffle(others)
    names = {s: f"q{i}" for i, s in enumerate([dfa["start"], *others])}
    states = [names[s] for s in [dfa["start"], *others]]
    return {
        "states": states,
        "start": "q0",
        "accepting": sorted((names[s] for s in accepting), key=lambda q: int(q[1:])),
        "delta": {names[s]: {a: names[t] for a, t in moves.items()} for s, moves in delta.items()},
    }


def table(dfa: Automaton) -> str:
    """The DFA as text: start, accepting states, one line of moves per state."""
    letters = sorted(dfa["delta"][dfa["start"]])
    order = sorted(dfa["states"], key=lambda q: int(q[1:]))
    lines = [f"Start state: {dfa['start']}",
             f"Accepting states: {', '.join(dfa['accepting']) or 'none'}", "Transitions:"]
    lines += [f"  {s}: " + ", ".join(f"on {a} -> {dfa['delta'][s][a]}" for a in letters) for s in order]
    return "\n".join(lines)


# --- NFAs ----------------------------------------------------------------------------------------------------------

def closure(nfa: Automaton, states: set[str]) -> set[str]:
    """``states`` and everything reachable from them by epsilon moves."""
    seen = set(states)
    stack = list(states)
    for _ in range(len(nfa["states"]) ** 2 + 1):
        if not stack:
            break
        for target in nfa["delta"].get(stack.pop(), {}).get("", []):
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


def run_nfa(nfa: Automaton, string: str) -> set[str]:
    """The set of states the NFA can be in after reading ``string`` (epsilon moves included)."""
    current = closure(nfa, {nfa["start"]})
    for letter in string:
        step = {t for s in current for t in nfa["delta"].get(s, {}).get(letter, [])}
        current = closure(nfa, step)
    return current


def nfa_table(nfa: Automaton) -> str:
    lines = [f"Start state: {nfa['start']}", "Transitions:"]
    for s in nfa["states"]:
        moves = nfa["delta"].get(s, {})
        parts = [f"on {'ε' if a == '' else a} -> {{{', '.join(ts)}}}" for a, ts in sorted(moves.items())]
        lines.append(f"  {s}: " + ("; ".join(parts) if parts else "no moves"))
    return "\n".join(lines)
