"""Find a negative cycle in a weighted directed graph (Bellman-Ford territory), or say there is none.

Weights come from node potentials: ``w(a, b) = c(a, b) + p(a) - p(b)`` with ``c >= 0``, so many
edges are negative yet every cycle weighs its ``c`` total, never less than zero. Then one cycle of
the graph (every graph drawn has cycles) is brought to a total of -3 to -1 (half the time) or 0 to
2, its edges sharing the change, and other edges are raised by as much as the cycle was lowered,
so the total weight and the weight range say nothing about the answer. Bellman-Ford then decides
(draws whose outcome differs from the coin are redrawn). Both kinds have the same numbers of
nodes and edges.

The lowered cycle must not stand out. Costs ``c`` are small beside the potentials, so an edge's
weight says mostly where its ends sit and little about the cycles through it; and a negative graph
is redrawn while a guess that never adds up a cycle (the declared ``heuristics``: the first cycle a
depth-first search meets, the cycle through one of the three lightest edges, the walk along lightest
edges) lands on a negative cycle. Version 3: before, the lowered cycle's edges were the lightest, and
the cycle through the lightest edge was negative in 0.475 of the problems at level 0 (0.25 at level
4, the walk along lightest edges 0.25-0.375 at every level); now every declared guess scores 0, and
the cycle through the fourth or fifth lightest edge at most 0.225 (level 0), about a random cycle's
share (0.16 at level 0, 0.04 at level 4).

Both sides carry a proof. A graph with a negative cycle is answered by **any** cycle that follows
edges in their direction and has negative total weight. One without is answered by ``none:`` and
one integer per node, in node order, with ``value(b) <= value(a) + w`` for every edge ``a -> b`` of
weight ``w`` (a feasible potential, such as the shortest distances from a virtual source joined to
every node by weight-0 edges, which the reference gives): around any cycle these inequalities add
up to ``0 <= total weight``. A bare ``none`` is wrong, and a cycle followed by ``none`` is a hedge
and not read.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import (
    closed_walk,
    cycle_error,
    find_cycle,
    non_cycle_example,
    read_nodes,
    weighted_edge_lines,
    without_yes,
)
from palaestra.generators.graphs import random_connected
from palaestra.verifiers.claims import mentions
from palaestra.verifiers.normalize import strip_wrappers

NONE_SPELLINGS = ("none", "no negative cycle", "no negative cycles")
# "none:", "No negative cycle. Potentials:", "None; distances =" before the values that prove it
_NONE_HEAD = re.compile(
    r"^\W{0,8}(?:no\b[\s,.:;!-]*)?(?:there (?:is|are) )?(?:none|no negative cycles?)\b[\s,.:;=!]*"
    r"(?:(?:the )?(?:potentials?|distances?|values?|labels?)\b\s*(?:are\b)?\s*[:=]?\s*)?", re.IGNORECASE)


@register
class NegativeCycle(Task):
    id = "graphs/negative_cycle"
    family = "graphs"
    description = "Find a negative-weight cycle in a directed graph, or report that none exists."
    tags = ("graphs", "shortest-paths", "cycles")
    version = 3  # v3: small costs beside the potentials; no guess that ignores cycle totals finds the negative cycle
    bare_verdicts = ("none",)

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        max_cost: int
        max_potential: int

    presets = (
        Config(nodes=6, edges=9, max_cost=2, max_potential=12),
        Config(nodes=8, edges=13, max_cost=2, max_potential=16),
        Config(nodes=10, edges=17, max_cost=3, max_potential=20),
        Config(nodes=12, edges=22, max_cost=3, max_potential=24),
        Config(nodes=15, edges=30, max_cost=4, max_potential=30),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes
        negative = rng.random() < 0.5

        def draw() -> tuple[list[list[int]], str] | None:  # the edges and the answer: a cycle or its proof
            graph = random_connected(rng, n, config.edges, directed=True)
            potential = [rng.randint(0, config.max_potential) for _ in range(n)]
            weights = {(u, v): rng.randint(0, config.max_cost) + potential[u] - potential[v] for u, v, _ in graph.edges}
            start = rng.randrange(n)
            order = list(range(start, n)) + list(range(start))  # find a cycle from a random place
            relabel = {v: i for i, v in enumerate(order)}
            cycle = find_cycle(n, [[relabel[u], relabel[v]] for u, v in weights], directed=True)
            if cycle is None:
                return None
            cycle = [order[i] for i in cycle]
            steps = list(zip(cycle, cycle[1:] + cycle[:1]))
            target = rng.randint(-3, -1) if negative else rng.randint(0, 2)
            drop = sum(weights[s] for s in steps) - target
            _spread(weights, steps, -drop)
            others = [e for e in sorted(weights) if e not in steps]
            if drop > 0:  # raise other edges as much: the total weight says nothing; raising adds no negative cycle
                _spread(weights, rng.sample(others, min(len(others), len(steps))), drop)
            rows = sorted([u, v, w] for (u, v), w in weights.items())
            potentials = _potentials(n, rows)
            if (potentials is None) != negative:
                return None
            if negative and any(_weight(cycle, rows) < 0 for cycle in _cheap_cycles(n, rows) if cycle):
                return None  # a cheap guess would find the negative cycle: it must take a search
            return rows, " ".join(map(str, cycle)) if potentials is None else "none: " + " ".join(map(str, potentials))

        rows, answer = retry(draw, what="a graph with a cycle")
        a, b, c = non_cycle_example(rng, n, rows, directed=True)
        prompt = (
            f"A directed graph has nodes 0 to {n - 1} and these weighted edges (a -> b goes from a to b; weights "
            f"may be negative):\n{weighted_edge_lines(rows, directed=True)}\n\n"
            "Does the graph contain a negative cycle, a directed cycle whose edge weights add up to less than zero? "
            f"If it does, give one as its nodes in order, each once (for example: {a} {b} {c}, meaning "
            f"{a} -> {b} -> {c} -> {a}). "
            "If it does not, prove it: answer 'none:' followed by one integer per node, for nodes 0 to "
            f"{n - 1} in order, such that value(b) <= value(a) + w for every edge a -> b of weight w (for example "
            "the shortest distances from an extra node joined to every node by weight-0 edges), for example: "
            "none: 0 -2 -1 ..."
        )
        return Problem(prompt=prompt, answer=answer,
                       data={"n": n, "edges": rows, "negative": negative})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter (the relaxation rounds a path needs)."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        return float(size_and_reach(data["n"], data["edges"]))

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def guess(pick: Callable[[int, list[list[int]]], list[int] | None]) -> Callable[[Problem], str]:
            return lambda problem: " ".join(map(str, pick(problem.data["n"], problem.data["edges"]) or [0]))

        return {name: guess(pick) for name, pick in _GUESSES.items()}

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        if not isinstance(answer, str) or len(answer) > 20_000:
            return Verdict.unparsed("no readable answer")
        text = strip_wrappers(answer).strip()
        head = _NONE_HEAD.match(text[:200])
        if head:
            if not text[head.end():].strip(" .!*"):
                return Verdict.wrong("'none' needs its proof: one value per node that no edge undercuts")
            values = _read_values(text[head.end():].strip().strip("[]()"))
            if values is None or len(values) != data["n"] or any(abs(v) > 10**9 for v in values):
                return Verdict.unparsed(f"expected 'none:' followed by {data['n']} integers, one per node in order")
            for u, v, w in data["edges"]:
                if values[v] > values[u] + w:
                    return Verdict.wrong(f"the edge {u} -> {v} of weight {w} breaks value({v}) <= value({u}) + {w}")
            return Verdict.right()
        if mentions(text, NONE_SPELLINGS):
            return Verdict.unparsed("the answer gives both a cycle and 'none'")
        nodes = read_nodes(without_yes(text), data["n"])
        if nodes is None:
            return Verdict.unparsed("expected a cycle as nodes in order, or 'none:' and one value per node")
        cycle = closed_walk(nodes)
        weights = {(u, v): w for u, v, w in data["edges"]}
        error = cycle_error(cycle, set(weights), directed=True)
        if error:
            return Verdict.wrong(error)
        total = sum(weights[s] for s in zip(cycle, cycle[1:] + cycle[:1]))
        return Verdict.judge(total < 0, f"the cycle weighs {total}, which is not negative")

    def spellings(self, problem: Problem) -> list[str]:
        if not problem.data["negative"]:
            values = (problem.answer or "").split(":")[1].split()
            return [*super().spellings(problem), "None. Potentials: " + ", ".join(values),
                    "There is no negative cycle: " + " ".join(values)]
        nodes = (problem.answer or "").split()
        return [*super().spellings(problem), " -> ".join([*nodes, nodes[0]]), ", ".join(nodes[1:] + nodes[:1])]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        if data["negative"]:
            nodes = (problem.answer or "").split()
            return ["none", " ".join(reversed(nodes)) if len(nodes) > 2 else "0 0", " ".join(nodes[:1]),
                    f"{problem.answer}. None.", "none: " + " ".join(["0"] * data["n"])]
        weights = {(u, v): w for u, v, w in data["edges"]}
        cycle = find_cycle(data["n"], [[u, v] for u, v in weights], directed=True) or [0, 1]
        values = [int(v) for v in (problem.answer or "").split(":")[1].split()]
        u, v, w = data["edges"][0]
        broken = list(values)
        broken[v] = values[u] + w + 1
        return [" ".join(map(str, cycle)), "0 1 2", "none", "none: " + " ".join(map(str, broken)),
                "none: " + " ".join(map(str, values[:-1])), f"{problem.answer} (or {' '.join(map(str, cycle))})"]


def _spread(weights: dict[tuple[int, int], int], steps: list[tuple[int, int]], change: int) -> None:
    """Add ``change`` to the weights of ``steps``, spread as evenly as integers allow."""
    for i, step in enumerate(steps):
        weights[step] += change // len(steps) + (i < change % len(steps))


def _potentials(n: int, edges: list[list[int]]) -> list[int] | None:
    """Shortest distances from a virtual source joined to every node by weight 0 (Bellman-Ford), or None when
    there is a negative cycle: a relaxation still happens in round n."""
    distance = [0] * n
    for _ in range(n):
        changed = False
        for u, v, w in edges:
            if distance[u] + w < distance[v]:
                distance[v] = distance[u] + w
                changed = True
        if not changed:
            return distance
    return None


def _weight(cycle: list[int], rows: list[list[int]]) -> int:
    weights = {(u, v): w for u, v, w in rows}
    return sum(weights[s] for s in zip(cycle, cycle[1:] + cycle[:1]))


def _first_cycle(n: int, rows: list[list[int]]) -> list[int] | None:
    """The cycle a depth-first search from node 0 meets first."""
    return find_cycle(n, [[u, v] for u, v, _ in rows], directed=True)


def _cycle_through_light(n: int, rows: list[list[int]], rank: int) -> list[int] | None:
    """The ``rank``-th lightest edge u -> v (0: the lightest) closed by a fewest-edges path back from v to u."""
    u, v, _ = sorted(rows, key=lambda row: row[2])[rank]
    out: list[list[int]] = [[] for _ in range(n)]
    for a, b, _ in rows:
        out[a].append(b)
    parent = {v: v}
    frontier = [v]
    while frontier and u not in parent:
        reached = []
        for a in frontier:
            for b in out[a]:
                if b not in parent:
                    parent[b] = a
                    reached.append(b)
        frontier = reached
    if u not in parent:
        return None
    path = [u]
    while path[-1] != v:
        path.append(parent[path[-1]])
    return path[::-1]


def _cheapest_walk(n: int, rows: list[list[int]]) -> list[int] | None:
    """From the lightest edge on, always the lightest edge out, until a node comes round again."""
    lightest: dict[int, list[int]] = {}  # node -> its lightest edge out
    for row in rows:
        if row[0] not in lightest or row[2] < lightest[row[0]][2]:
            lightest[row[0]] = row
    walk = [min(rows, key=lambda row: row[2])[0]]
    while walk[-1] in lightest:
        step = lightest[walk[-1]][1]
        if step in walk:
            return walk[walk.index(step):]
        walk.append(step)
    return None


# Cheap guesses at a negative cycle, which never look at a cycle's total: the generator keeps them non-negative.
_GUESSES: dict[str, Callable[[int, list[list[int]]], list[int] | None]] = {
    "first_cycle_found": _first_cycle,
    "cycle_through_lightest_edge": lambda n, rows: _cycle_through_light(n, rows, 0),
    "cycle_through_second_lightest_edge": lambda n, rows: _cycle_through_light(n, rows, 1),
    "cycle_through_third_lightest_edge": lambda n, rows: _cycle_through_light(n, rows, 2),
    "walk_along_lightest_edges": _cheapest_walk,
}


def _cheap_cycles(n: int, rows: list[list[int]]) -> list[list[int] | None]:
    return [pick(n, rows) for pick in _GUESSES.values()]


_VALUE = re.compile(r"[+-]?\d{1,10}")


def _read_values(text: str) -> list[int] | None:
    """Integers separated by commas or spaces (``0 -2 -1``, ``0, -2, -1``); None if anything else is there."""
    parts = [p for p in re.split(r"[,;\s]+", text.strip().rstrip(".")) if p]
    if not parts or not all(_VALUE.fullmatch(p) for p in parts):
        return None
    return [int(p) for p in parts]
