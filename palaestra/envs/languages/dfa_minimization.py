"""DFA minimisation: which states of a DFA are equivalent, and which are unreachable?

A random minimal DFA with ``k`` states (every state reachable, no two equivalent; since version 3 with a
planted chain that needs a level's number of refinement rounds, below) is padded to a
fixed number of states per level with redundant copies of states (each taking over some incoming
edges, so most are reachable) and a few states nothing leads to, then its states are renamed in a
random order. The shown size is the same for every problem of a level and ``k`` is uniform over a
range; the number of self loops is drawn apart from ``k`` (uniform over 0-1, the padded DFA redrawn
until it has that many), since more minimal states otherwise mean more loops.

The answer is the minimisation itself: the states no word leads to from the start, named apart,
and the partition of the reachable states into classes of equivalent states (two states are
equivalent when every word leads both to acceptance or both to rejection), written like
``unreachable: q7; classes: {q0, q3}, {q1}, {q2, q5, q6}`` (``unreachable: none`` when every state is
reachable; classes and the states in them in any order, braces or brackets or none, classes apart by
``;``, ``|`` or new lines when unbraced). That partition is unique (the Myhill-Nerode classes of the
reachable states, one per state of the minimal DFA), so the verifier compares it with the one Moore's
partition refinement computes on the shown DFA, and its feedback names the first thing wrong: a name
that is no state, a state named twice or not at all, a reachable state called unreachable (with a
word reaching it) or an unreachable one put in a class, two inequivalent states in one class (with
a word telling them apart), or two equivalent states in different classes.

Version 2: the answer was only ``k``, the number of classes, which took 4-5 values per level: the
best constant scored 0.36 at level 0 (``2``) and 0.24 at the top level (``6``), and counting the
classes after one round of refinement scored 0.84 at level 0 and 0.29 at the top. Now the answer is
the partition, and no cheap rule gives it: every minimal DFA has at least four states (so grouping
by acceptance, two classes at most, never does) and needs two rounds of refinement (one round,
grouping the states by their acceptance and their targets' acceptance, never ends it), and problems
where merging states with identical rows (again and again until none are left) gives the partition
are redrawn. These rules are the declared ``heuristics``; each scores 0 at every level.

Version 3: random minimal DFAs are shallow: two states almost always differ on a word of one or two letters,
so Moore's refinement stopped after two rounds (states told apart only by words of up to two letters) still
answered 0.84 of level 0, 0.66 of level 2 and 0.83 of level 4, and three rounds 1.00, 0.95 and 0.95. Now the
minimal DFA is drawn with a planted chain of ``deep + 2`` or ``deep + 3`` of its states along one letter, all
but the last alike in acceptance and sharing their moves on the other letters, the rest of the table random:
the chain's first two states differ only by a word that runs along the whole chain, so refinement needs at
least ``deep`` rounds (4 at levels 0-1, 5 at levels 2-3, 6 at level 4, one more per level past the presets),
and any fewer rounds leave two inequivalent states in one class (0 at every level for up to three rounds, and
at the top level for up to five; the declared ``heuristics`` stop after 2 and 3 rounds). Minimal DFAs hence have
6-10 states and the shown ones 10-15 (7-13 before), so that enough equivalent copies are left to pad with.

Generation speed: about 400-700 problems/s at levels 0-4 on this 2-core machine. About 10 automata are drawn
per problem: a minimal DFA with its planted chain (redrawn if not minimal or a state is out of reach) is
inflated with equivalent and unreachable states and its state classes worked out; a draw with the wrong number
of self-loops, or one that a cheap rule (one refinement round, merging identical rows) minimises, is redrawn.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.languages._automata import (
    Automaton,
    classes,
    distinguishing,
    inflate,
    minimal_size,
    reachable,
    table,
)
from palaestra.verifiers.normalize import closing_bracket, read_answer, unify

Partition = frozenset[frozenset[str]]

EXAMPLE = "unreachable: s4; classes: {s0, s2}, {s1, s3, s5}"  # made-up names: never a problem's answer
_STATE = re.compile(r"q(?:0|[1-9]\d{0,2})")
_HEADER = re.compile(r"(unreachable(?:\s+states?)?|(?:equivalence\s+)?classes)\s*[:=]")
_LABEL = re.compile(r"(?:class|group|block)\s*\d{1,3}\s*[:=]\s*")
_GROUP_GAP = re.compile(r"[\s,;|]*(?:and\s+)?")  # between bracketed classes
_STATE_GAP = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")  # between the states of one class
_NONE = frozenset({"none", "-", "∅", "{}", "[]", "()", "\\emptyset", "\\varnothing", "nothing", "no states", "no state"})
_LATEX_STATE = re.compile(r"q_(?:\{(\d{1,3})\}|(\d{1,3}))")  # q_3, q_{3}: a state written in LaTeX
_BRACKETS = {"{": "}", "[": "]", "(": ")"}
MAX_CHARS = 2_000


def self_loops(dfa: dict) -> int:
    """Moves from a state to itself."""
    return sum(t == s for s, moves in dfa["delta"].items() for t in moves.values())


def _number(state: str) -> int:
    return int(state[1:])


def _partition(states: list[str], key: Callable[[str], object]) -> Partition:
    groups: dict[object, set[str]] = {}
    for state in states:
        groups.setdefault(key(state), set()).add(state)
    return frozenset(frozenset(group) for group in groups.values())


def equivalence_classes(dfa: Automaton) -> Partition:
    """The reachable states' Myhill-Nerode classes (Moore's refinement): unique for the DFA."""
    found = classes(dfa)
    return _partition(list(found), found.__getitem__)


def by_acceptance(dfa: Automaton) -> Partition:
    """The lazy rule: accepting reachable states in one class, the others in another."""
    accepting = set(dfa["accepting"])
    return _partition(reachable(dfa), lambda s: s in accepting)


def one_round(dfa: Automaton) -> Partition:
    """One round of Moore's refinement: a state's acceptance and its targets' acceptance, letter by letter."""
    accepting = set(dfa["accepting"])
    letters = sorted(dfa["delta"][dfa["start"]])
    return _partition(reachable(dfa), lambda s: (s in accepting, *(dfa["delta"][s][a] in accepting for a in letters)))


def _refined_after(rounds: int, dfa: Automaton) -> Partition:
    return refined(dfa, rounds)


def refined(dfa: Automaton, rounds: int) -> Partition:
    """Moore's refinement stopped after ``rounds`` rounds: reachable states apart only when a word of at most
    ``rounds`` letters tells them apart (the truncation the planted chain defeats)."""
    states = reachable(dfa)
    accepting = set(dfa["accepting"])
    letters = sorted(dfa["delta"][dfa["start"]])
    block = {s: int(s in accepting) for s in states}
    for _ in range(rounds):
        signature = {s: (block[s], *(block[dfa["delta"][s][a]] for a in letters)) for s in states}
        numbering: dict[tuple, int] = {}
        block = {s: numbering.setdefault(signature[s], len(numbering)) for s in states}
    return _partition(states, block.__getitem__)


def planted_dfa(rng: random.Random, size: int, alphabet: str, deep: int) -> Automaton | None:
    """A random DFA with ``size`` states, all reachable and none equivalent to another, that needs at least
    ``deep`` rounds of refinement: a chain of ``deep + 2`` or ``deep + 3`` states along one letter, all but
    its last alike in acceptance and sharing their moves on the other letters, so that two neighbours on
    the chain differ only by a word running to its end; the rest of the table is random. None if the draw
    is not minimal or not all reachable."""
    states = [f"p{i}" for i in range(size)]
    rng.shuffle(states)
    chain = states[: rng.randint(deep + 2, min(size, deep + 3))]
    along = rng.choice(alphabet)
    side = rng.random() < 0.5  # the chain's acceptance, its last state the other
    chance = rng.uniform(0.3, 0.6)
    accepting = {s for s in states[len(chain):] if rng.random() < chance}
    accepting |= set(chain[:-1]) if side else {chain[-1]}
    shared = {a: rng.choice(states) for a in alphabet if a != along}
    delta = {s: {a: rng.choice(states) for a in alphabet} for s in states}
    for here, there in zip(chain, chain[1:]):
        delta[here] = {a: there if a == along else shared[a] for a in alphabet}
    dfa = {"states": states, "start": rng.choice(states), "accepting": sorted(accepting), "delta": delta}
    if len(reachable(dfa)) != size or minimal_size(dfa) != size:
        return None
    return dfa


def merged_rows(dfa: Automaton, rounds: int | None = None) -> Partition:
    """States with the same acceptance and the same row of targets merged, then again on the merged table
    until nothing merges (``rounds`` times if given): finds copies, but not states that only agree up to a
    cycle through each other."""
    states = reachable(dfa)
    accepting = set(dfa["accepting"])
    letters = sorted(dfa["delta"][dfa["start"]])
    block = {s: s for s in states}  # state -> the first state of its class so far; classes only grow
    for _ in range(rounds if rounds is not None else len(states)):
        key = {s: (s in accepting, *(block[dfa["delta"][s][a]] for a in letters)) for s in states}
        leader: dict[tuple, str] = {}
        for state in sorted(states, key=_number):
            leader.setdefault(key[state], state)
        merged = {s: leader[key[s]] for s in states}
        if len(set(merged.values())) == len(set(block.values())):
            break
        block = merged
    return _partition(states, block.__getitem__)


def format_answer(dfa: Automaton, partition: Partition) -> str:
    """``unreachable: q7; classes: {q0, q3}, {q1}``: classes by their first state, states by number."""
    seen = set(reachable(dfa))
    hidden = sorted((s for s in dfa["states"] if s not in seen), key=_number)
    ordered = sorted((sorted(group, key=_number) for group in partition), key=lambda g: _number(g[0]))
    return (f"unreachable: {', '.join(hidden) or 'none'}; classes: "
            + ", ".join("{" + ", ".join(group) + "}" for group in ordered))


def _states(text: str) -> list[str] | None:
    """The states of one class or of the unreachable list: ``q0, q3`` or ``q0 q3`` (not both)."""
    text = text.strip()
    if text[:1] in _BRACKETS and text.endswith(_BRACKETS[text[0]]):
        text = text[1:-1].strip()
    pieces = _STATE_GAP.split(text) if "," in text or " and " in text else text.split()
    if not pieces or not all(_STATE.fullmatch(piece) for piece in pieces):
        return None
    return pieces


def _bracketed(text: str) -> list[list[str]] | None:
    """Classes each in brackets, ``{q0, q3}, {q1}`` (an optional ``class 1:`` before each)."""
    groups: list[list[str]] = []
    position = 0
    for _ in range(len(text) + 1):
        position = _GROUP_GAP.match(text, position).end()  # type: ignore[union-attr]
        if position >= len(text):
            return groups or None
        label = _LABEL.match(text, position)
        if label:
            position = label.end()
        opener = text[position:position + 1]
        if opener not in _BRACKETS:
            return None
        end = text.find(_BRACKETS[opener], position + 1)
        if end < 0:
            return None
        inner = text[position + 1:end]
        group = None if any(c in inner for c in "{}[]()") else _states(inner)
        if group is None:
            return None
        groups.append(group)
        position = end + 1
    return None


def _classes(text: str) -> list[list[str]] | None:
    """The classes: bracketed, or one per line (or apart by ``;`` / ``|``), states apart by commas or spaces."""
    text = text.strip()
    opener = text[:1]
    if opener in _BRACKETS and closing_bracket(text, 0) == len(text) - 1 and any(c in text[1:-1] for c in "{[("):
        text = text[1:-1].strip()  # one bracket around all the classes
    if any(c in text for c in "{[("):
        return _bracketed(text)
    groups = []
    for part in filter(str.strip, re.split(r"[;|\n]", text)):
        label = _LABEL.match(part.strip())
        group = _states(part.strip()[label.end():] if label else part)
        if group is None:
            return None
        groups.append(group)
    return groups or None


def _without_separator(part: str) -> str:
    """A part of the answer without the ``;``, ``,`` or ``.`` that ends it before the next part."""
    part = part.strip()
    return part[:-1].rstrip() if part[-1:] in ";,." else part


def _plain(text: str) -> str:
    """``text`` in lower case with its LaTeX looked through: ``$``, ``\\{`` for ``{``, ``q_{3}`` and ``q_3`` for ``q3``."""
    text = text.strip().lower().replace("\\{", "{").replace("\\}", "}").replace("$", "")
    return _LATEX_STATE.sub(lambda match: "q" + (match.group(1) or match.group(2)), text)


def read_minimisation(text: str) -> tuple[list[str], list[list[str]]] | None:
    """``(unreachable, classes)`` from ``unreachable: q7; classes: {q0, q3}, {q1}`` (either part first;
    ``unreachable`` optional when there are none; ``classes:`` optional without it or on the lines after
    it). None if unreadable."""
    text = _plain(text)
    headers = list(_HEADER.finditer(text))
    if not headers:
        parts = {"classes": text}
    else:
        if text[:headers[0].start()].strip():
            return None
        parts = {}
        for header, following in zip(headers, [*headers[1:], None]):
            kind = "unreachable" if header.group(1).startswith("unreachable") else "classes"
            body = text[header.end():following.start() if following else len(text)].strip()
            if kind in parts:
                return None
            parts[kind] = _without_separator(body) if following else body
    if "classes" not in parts and "\n" in parts.get("unreachable", ""):  # classes on the lines after, unheaded
        line, _, rest = parts["unreachable"].partition("\n")
        parts = {"unreachable": _without_separator(line), "classes": rest}
    if "classes" not in parts:
        return None
    unreachable: list[str] | None = []
    if parts.get("unreachable", "none") not in _NONE:
        unreachable = _states(parts["unreachable"])
    groups = _classes(parts["classes"])
    if unreachable is None or groups is None:
        return None
    return unreachable, groups


def _path(dfa: Automaton, target: str) -> str:
    """A shortest word leading from the start to ``target`` (which is reachable)."""
    word = {dfa["start"]: ""}
    queue = [dfa["start"]]
    for state in queue:
        for letter, nxt in sorted(dfa["delta"][state].items()):
            if nxt not in word:
                word[nxt] = word[state] + letter
                queue.append(nxt)
    return word.get(target, "")


def _quoted(word: str) -> str:
    return f"'{word}'" if word else "the empty word"


def mistake(dfa: Automaton, unreachable: list[str], groups: list[list[str]]) -> str | None:
    """What is wrong with the answer ``(unreachable, groups)``, or None if it is the minimisation."""
    named = [*unreachable, *(s for group in groups for s in group)]
    known = set(dfa["states"])
    for state in named:
        if state not in known:
            return f"{state} is not a state of this DFA"
    seen: set[str] = set()
    for state in named:
        if state in seen:
            return f"{state} is named more than once"
        seen.add(state)
    missing = sorted(known - seen, key=_number)
    if missing:
        return f"{missing[0]} is in no class and not named unreachable"
    reached = set(reachable(dfa))
    for state in unreachable:
        if state in reached:
            return f"{state} is reachable: the word {_quoted(_path(dfa, state))} leads to it from {dfa['start']}"
    placed = sorted(seen - set(unreachable) - reached, key=_number)
    if placed:
        return f"{placed[0]} is unreachable (no word leads to it from {dfa['start']}): name it apart, in no class"
    truth = classes(dfa)
    for group in groups:
        for other in group[1:]:
            if truth[other] != truth[group[0]]:
                word = distinguishing({**dfa, "start": group[0]}, {**dfa, "start": other}) or ""
                return (f"{group[0]} and {other} are not equivalent: from one the word {_quoted(word)} is "
                        "accepted and from the other it is not")
    where = {s: i for i, group in enumerate(groups) for s in group}
    first: dict[int, str] = {}
    for state in sorted(where, key=_number):
        other = first.setdefault(truth[state], state)
        if where[other] != where[state]:
            return f"{other} and {state} are equivalent (no word tells them apart) but in different classes"
    return None


@register
class DfaMinimization(Task):
    id = "languages/dfa_minimization"
    family = "languages"
    description = "Minimise a DFA: name its unreachable states and its classes of equivalent states."
    tags = ("formal-languages", "automata", "certificates")
    version = 3
    max_answer_chars = MAX_CHARS

    @dataclass(frozen=True)
    class Config:
        alphabet: str
        shown: int  # states of the DFA shown
        minimal: tuple[int, int]  # range of the minimal DFA's size
        deep: int  # rounds of refinement the minimal DFA needs at least (its planted chain's)

    presets = (
        Config(alphabet="ab", shown=10, minimal=(6, 7), deep=4),
        Config(alphabet="ab", shown=11, minimal=(6, 8), deep=4),
        Config(alphabet="ab", shown=12, minimal=(7, 8), deep=5),
        Config(alphabet="abc", shown=13, minimal=(7, 9), deep=5),
        Config(alphabet="abc", shown=15, minimal=(8, 10), deep=6),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        k = rng.randint(*config.minimal)
        loops = rng.randint(0, 1)  # drawn apart from k: left alone, more minimal states mean more self loops

        def draw() -> dict | None:
            core = planted_dfa(rng, k, config.alphabet, config.deep)
            if core is None:
                return None  # not minimal, or a state out of reach: its chain alone needs `deep` rounds
            unreachable = rng.randint(0, 1)  # the same whatever k is, so it tells nothing
            dfa = inflate(rng, core, config.shown - k - unreachable, unreachable)
            if dfa is None or self_loops(dfa) != loops:
                return None
            truth = equivalence_classes(dfa)
            if len(truth) != k or any(rule(dfa) == truth for rule in (one_round, merged_rows)):
                return None
            return dfa

        dfa = retry(draw, what="a padded DFA no cheap rule minimises")
        prompt = (
            f"Here is a deterministic finite automaton (DFA) over the alphabet {{{', '.join(config.alphabet)}}}:\n\n"
            f"{table(dfa)}\n\n"
            "Minimise it. Two states are equivalent when every word leads from both to acceptance or from both "
            "to rejection. Name the unreachable states (those no word leads to from the start), then group all "
            "the other states into their classes of equivalent states, one class per state of the minimal DFA. "
            "Write every state exactly once, in this form (an example with other state names):\n"
            f"{EXAMPLE}\n"
            "Write 'unreachable: none' if every state is reachable. The classes, and the states in a class, may "
            "come in any order."
        )
        return Problem(prompt=prompt, answer=format_answer(dfa, equivalence_classes(dfa)), data={"dfa": dfa})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > MAX_CHARS:
            return Verdict.unparsed("answer too long")
        read = read_answer(unify(answer), read_minimisation)
        if read is None:
            return Verdict.unparsed(f"expected the unreachable states and the classes, like: {EXAMPLE}")
        error = mistake(problem.data["dfa"], *read)
        return Verdict.right() if error is None else Verdict.wrong(error)

    def difficulty(self, problem: Problem) -> float:
        """States times letters (the transitions to compare), plus the states that merge away."""
        dfa = problem.data["dfa"]
        merged = len(dfa["states"]) - len(equivalence_classes(dfa))
        return float(len(dfa["states"]) * len(dfa["delta"][dfa["start"]]) + merged)

    def surface_features(self, problem: Problem) -> dict[str, float]:
        dfa = problem.data["dfa"]
        targets = {t for moves in dfa["delta"].values() for t in moves.values()}
        return {"accepting": float(len(dfa["accepting"])), "targets": float(len(targets)),
                "self loops": float(self_loops(dfa))}

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def policy(rule: Callable[[Automaton], Partition]) -> Callable[[Problem], str]:
            return lambda problem: format_answer(problem.data["dfa"], rule(problem.data["dfa"]))

        def singletons(dfa: Automaton) -> Partition:
            return frozenset(frozenset([s]) for s in reachable(dfa))

        def together(dfa: Automaton) -> Partition:
            return frozenset([frozenset(reachable(dfa))])

        return {"every state its own class": policy(singletons), "all reachable states in one class": policy(together),
                "grouped by acceptance": policy(by_acceptance), "one round of refinement": policy(one_round),
                "identical rows merged once": policy(lambda dfa: merged_rows(dfa, 1)),
                "identical rows merged until none": policy(merged_rows),
                **{f"refinement stopped after {rounds} rounds": policy(functools.partial(_refined_after, rounds))
                   for rounds in (2, 3)}}

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        head, _, tail = gold.partition("; classes: ")
        groups = [g.strip("{}").split(", ") for g in tail.split("}, {")]
        plain = "\n".join(", ".join(g[::-1]) for g in groups[::-1])
        return [*super().spellings(problem), f"{gold}.", f"Classes: {tail}\n{head.capitalize()}",
                f"{head}\nclasses:\n{plain}", f"{head}; classes: [" + ", ".join(f"[{' '.join(g)}]" for g in groups)
                + "]", f"{head}; equivalence classes: " + " | ".join(" ".join(g) for g in groups),
                f"{head}; classes: $" + ", ".join("\\{" + ", ".join(s.replace("q", "q_") for s in g) + "\\}" for g in groups) + "$"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        dfa = problem.data["dfa"]
        gold = problem.answer or ""
        head, _, tail = gold.partition("; classes: ")
        groups = [g.strip("{}").split(", ") for g in tail.split("}, {")]
        braced = ", ".join("{" + ", ".join(g) + "}" for g in groups)
        big = next(g for g in groups if len(g) > 1)
        split = ", ".join("{" + ", ".join(g) + "}" for g in groups if g is not big) + f", {{{big[0]}}}, {{{', '.join(big[1:])}}}"
        merged = "{" + ", ".join([*groups[0], *groups[1]]) + "}, " + ", ".join("{" + ", ".join(g) + "}" for g in groups[2:])
        wrong = [f"{head}; classes: {split}", f"{head}; classes: {merged}", f"classes: {braced}, {{{big[0]}}}",
                 f"unreachable: {dfa['start']}; classes: {braced}", str(len(groups)), f"{gold} or {head}; classes: {split}"]
        if head == "unreachable: none":
            return wrong
        return [*wrong, f"unreachable: none; classes: {braced}", f"{gold}, {{{head.removeprefix('unreachable: ')}}}"]
