"""A most-parsimonious assignment of sequences to the internal nodes of a given rooted binary tree (Fitch).

The tree is drawn by joining random pairs of subtrees and written in Newick notation with named internal
nodes; each leaf carries a short DNA sequence (sites are independent characters), evolved down the tree from
a random root with random substitutions, so the leaves share structure. The answer gives every internal node
a sequence; its cost is the number of substitutions summed over edges (sites whose state differs across an
edge). Many assignments can be optimal, so the verifier does not compare with one: it reads a sequence of the
right length for every internal node and checks the cost equals the minimum, which Fitch's bottom-up pass
computes exactly at generation (no assignment can cost less, so "at most the minimum" is "optimal").
Four problems in five are redrawn until no shortcut assignment is optimal (declared as heuristics): every internal
node given the leaves' commonest base per site (v1: optimal on 64% of level 0), each node a copy of its subtree's
first or last leaf or of a leaf child, or the least or greatest letter of its bottom-up Fitch set with the top-down
pass skipped. v2 redrew for the majority alone, and the others were optimal on 0.36, 0.40, 0.19, 0.43 and 0.24 of
level 0 (0.13-0.15 of level 1); v3: each at most 0.06 (200 seeds a level).

Difficulty: the set operations of Fitch's pass on the drawn tree (internal nodes × sites) plus the changes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer

Tree = str | tuple  # a leaf name, or (left, right) / once labelled (left, right, internal name)
SHORTCUTS_FAIL_SHARE = 0.8  # problems redrawn while a shortcut assignment (shortcut_assignments) is optimal
EXAMPLE = "n1: ACGT\nn2: TTGA"  # a fixed placeholder of the right shape: never derived from the answer


def random_tree(rng: random.Random, leaves: list[str]) -> Tree:
    """A rooted binary tree over ``leaves`` made by joining random pairs until one remains."""
    forest: list[Tree] = list(leaves)
    while len(forest) > 1:
        left = forest.pop(rng.randrange(len(forest)))
        right = forest.pop(rng.randrange(len(forest)))
        forest.append((left, right))
    return forest[0]


def labelled(tree: Tree, names: list[str]) -> Tree:
    """The tree with every internal node given the next name of ``names`` (children first), as
    ``(left, right, name)``."""
    if isinstance(tree, str):
        return tree
    left, right = labelled(tree[0], names), labelled(tree[1], names)
    return (left, right, names.pop(0))


def parse_newick(text: str) -> Tree:
    """The labelled tree of :func:`newick`'s text (our own generated text only, never a model's)."""
    position = 0

    def node() -> Tree:
        nonlocal position
        if text[position] == "(":
            position += 1
            left = node()
            position += 1  # the comma
            right = node()
            position += 1  # the closing parenthesis
        start = position
        while position < len(text) and text[position] not in ",)":
            position += 1
        name = text[start:position]
        return (left, right, name) if text[start - 1] == ")" else name

    return node()


def newick(tree: Tree) -> str:
    """Newick text with internal labels: ``((t1,t2)n1,t3)n2``."""
    return tree if isinstance(tree, str) else f"({newick(tree[0])},{newick(tree[1])}){tree[2]}"


def edges(tree: Tree) -> list[tuple[str, str]]:
    """(parent, child) name pairs of every edge."""
    if isinstance(tree, str):
        return []
    name = tree[2]
    return [(name, child if isinstance(child, str) else child[2]) for child in tree[:2]] + edges(tree[0]) + edges(tree[1])


def evolve(rng: random.Random, tree: Tree, sequence: str, rate: float, out: dict[str, str]) -> None:
    """Leaf sequences: ``sequence`` at the root, each site substituted with chance ``rate`` on every edge."""
    if isinstance(tree, str):
        out[tree] = sequence
        return
    for child in tree[:2]:
        mutated = "".join(rng.choice([b for b in "ACGT" if b != s]) if rng.random() < rate else s for s in sequence)
        evolve(rng, child, mutated, rate, out)


def fitch_sets(tree: Tree, states: dict[str, str], sets: dict[str, set[str]]) -> int:
    """Fitch's bottom-up pass for one site: fills each node's candidate set, returns the minimum changes."""
    if isinstance(tree, str):
        sets[tree] = {states[tree]}
        return 0
    cost = fitch_sets(tree[0], states, sets) + fitch_sets(tree[1], states, sets)
    left, right = (sets[c if isinstance(c, str) else c[2]] for c in tree[:2])
    sets[tree[2]] = (left & right) or (left | right)
    return cost + (not left & right)


def most_parsimonious(tree: Tree, sequences: dict[str, str], pick=min) -> tuple[int, dict[str, str]]:  # type: ignore[no-untyped-def]
    """The minimum total changes and one assignment achieving it (Fitch's top-down pass: keep the parent's
    state where the child's set allows it, else ``pick`` from the child's set)."""
    sites = len(next(iter(sequences.values())))
    total = 0
    columns: dict[str, list[str]] = {}
    for site in range(sites):
        sets: dict[str, set[str]] = {}
        total += fitch_sets(tree, {leaf: seq[site] for leaf, seq in sequences.items()}, sets)
        chosen = {tree[2]: pick(sets[tree[2]])}
        for parent, child in edges(tree):
            if child not in sequences:
                chosen[child] = chosen[parent] if chosen[parent] in sets[child] else pick(sets[child])
        for name, state in chosen.items():
            columns.setdefault(name, []).append(state)
    return total, {name: "".join(states) for name, states in columns.items()}


def shortcut_assignments(tree: Tree, sequences: dict[str, str], internal: list[str]) -> list[dict[str, str]]:
    """Assignments a policy makes without solving: every node given the leaves' commonest base per site; each node a
    copy of its subtree's first leaf, of its last leaf, or of a leaf child where it has one; each node the least or
    the greatest letter of its bottom-up Fitch set (the top-down pass skipped)."""
    majority = "".join(Counter(column).most_common(1)[0][0] for column in zip(*sequences.values()))
    first: dict[str, str] = {}
    last: dict[str, str] = {}
    child: dict[str, str] = {}

    def copy_leaves(node: Tree) -> tuple[str, str]:
        if isinstance(node, str):
            return sequences[node], sequences[node]
        (head, _), (_, tail) = copy_leaves(node[0]), copy_leaves(node[1])
        first[node[2]], last[node[2]] = head, tail
        leaf_children = [sequences[c] for c in node[:2] if isinstance(c, str)]
        child[node[2]] = leaf_children[-1] if leaf_children else head
        return head, tail

    copy_leaves(tree)
    columns = []
    for site in range(len(majority)):
        sets: dict[str, set[str]] = {}
        fitch_sets(tree, {leaf: seq[site] for leaf, seq in sequences.items()}, sets)
        columns.append({name: sets[name] for name in internal})
    bottom_up = [{name: "".join(pick(column[name]) for column in columns) for name in internal} for pick in (min, max)]
    return [dict.fromkeys(internal, majority), first, last, child, *bottom_up]


def assignment_cost(tree: Tree, sequences: dict[str, str], assignment: dict[str, str]) -> int:
    both = {**sequences, **assignment}
    return sum(sum(x != y for x, y in zip(both[parent], both[child])) for parent, child in edges(tree))


def read_assignment(answer: str, names: list[str], sites: int) -> dict[str, str] | None:
    """``name: SEQUENCE`` entries (lines, or separated by ``;`` or ``,``) for exactly ``names``, or ``None``."""

    def read(text: str) -> dict[str, str] | None:
        if len(text) > 20_000:
            return None
        entries = [e.strip() for e in text.replace(";", "\n").replace(",", "\n").split("\n") if e.strip()]
        result: dict[str, str] = {}
        for entry in entries:
            name, colon, sequence = entry.partition(":")
            if not colon:
                name, colon, sequence = entry.partition("=")
            name, sequence = name.strip().strip("*`").lower(), sequence.strip().upper()
            if name not in names or name in result or len(sequence) != sites or set(sequence) - set("ACGT"):
                return None
            result[name] = sequence
        return result if len(result) == len(names) else None

    return read_answer(answer, read)


@register
class FitchParsimony(Task):
    id = "biology/fitch_parsimony"
    family = "biology"
    description = "Assign internal-node sequences on a rooted binary tree with the fewest substitutions (Fitch)."
    tags = ("biology", "phylogenetics", "algorithmic")
    version = 3  # v3: the leaf copies and the bottom-up-only Fitch picks redrawn as well as the majority

    @dataclass(frozen=True)
    class Config:
        leaves: int  # leaves of the tree
        sites: int  # sites (independent characters) per sequence
        rate: float  # chance a site changes along an edge

    presets = (Config(4, 3, 0.25), Config(5, 4, 0.25), Config(6, 5, 0.3), Config(8, 6, 0.3), Config(10, 8, 0.3))
    growth = Growth(steps={"leaves": 2, "sites": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        leaves = [f"t{i}" for i in range(1, config.leaves + 1)]
        internal = [f"n{i}" for i in range(1, config.leaves)]
        shortcuts_fail = rng.random() < SHORTCUTS_FAIL_SHARE

        def draw() -> tuple[Tree, dict[str, str], int, dict[str, str]] | None:
            tree = labelled(random_tree(rng, leaves), list(internal))  # labelled() uses up the list it is given
            sequences: dict[str, str] = {}
            evolve(rng, tree, "".join(rng.choice("ACGT") for _ in range(config.sites)), config.rate, sequences)
            changes, assignment = most_parsimonious(tree, sequences)
            if shortcuts_fail and any(assignment_cost(tree, sequences, shortcut) == changes
                                      for shortcut in shortcut_assignments(tree, sequences, internal)):
                return None
            return tree, sequences, changes, assignment

        tree, sequences, changes, assignment = retry(draw, what="leaves no shortcut assignment solves")
        table = "\n".join(f"{name}: {sequences[name]}" for name in leaves)
        prompt = (
            f"A rooted binary tree in Newick notation; leaves t1 to t{config.leaves}, internal nodes n1 to "
            f"n{config.leaves - 1} (each internal node's name follows its closing parenthesis):\n\n{newick(tree)};\n\n"
            f"Each leaf has this DNA sequence ({config.sites} aligned sites):\n{table}\n\n"
            f"Assign a sequence of the same length to every internal node so that the total number of "
            f"substitutions is as small as possible, where an edge costs the number of sites at which its two ends "
            f"differ (a most-parsimonious assignment; if several exist, give any one). Answer with one line per "
            f"internal node, its name, a colon and its sequence, for example:\n{EXAMPLE}"
        )
        answer = "\n".join(f"{name}: {assignment[name]}" for name in sorted(assignment, key=lambda n: int(n[1:])))
        return Problem(prompt=prompt, answer=answer,
                       data={"tree": newick(tree), "sequences": sequences, "changes": changes})

    def _tree(self, problem: Problem) -> Tree:
        return parse_newick(problem.data["tree"])

    def verify(self, problem: Problem, answer: str) -> Verdict:
        sequences = problem.data["sequences"]
        names = [f"n{i}" for i in range(1, len(sequences))]
        sites = len(next(iter(sequences.values())))
        written = read_assignment(answer, names, sites)
        if written is None:
            return Verdict.unparsed(f"expected one line per internal node n1 to n{len(names)}, such as n1: ACGT, "
                                    f"each sequence {sites} letters long")
        cost = assignment_cost(self._tree(problem), sequences, written)
        if cost > problem.data["changes"]:
            return Verdict.wrong(f"that assignment costs {cost} substitutions; a cheaper one exists")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def shortcut(index: int) -> Callable[[Problem], str]:
            def policy(problem: Problem) -> str:
                sequences = problem.data["sequences"]
                internal = [f"n{i}" for i in range(1, len(sequences))]
                chosen = shortcut_assignments(self._tree(problem), sequences, internal)[index]
                return "\n".join(f"{name}: {chosen[name]}" for name in internal)
            return policy

        names = ("the leaves' commonest base per site", "each node its first leaf", "each node its last leaf",
                 "each node a leaf child", "bottom-up sets, least letter", "bottom-up sets, greatest letter")
        return {name: shortcut(index) for index, name in enumerate(names)}

    def difficulty(self, problem: Problem) -> float:
        """Fitch's set operations (internal nodes × sites) plus the changes counted."""
        sequences = problem.data["sequences"]
        sites = len(next(iter(sequences.values())))
        return float((len(sequences) - 1) * sites + problem.data["changes"])

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        lines = gold.split("\n")
        _, other = most_parsimonious(self._tree(problem), problem.data["sequences"], pick=max)
        return [*super().spellings(problem), "\n".join(reversed(lines)), "; ".join(lines), gold.lower(),
                f"Answer:\n{gold}", "\n".join(f"{name}: {seq}" for name, seq in sorted(other.items()))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        lines = gold.split("\n")
        name, _, sequence = lines[0].partition(": ")
        flipped = "".join(next(b for b in "ACGT" if b != s) for s in sequence)  # every site of one node changed
        wrong = ["\n".join(lines[1:]), "\n".join([f"{name}: {flipped}", *lines[1:]]), f"{gold}\nor\n{lines[0]}"]
        return [w for w in wrong if w.strip() and not self.verify(problem, w).correct]
