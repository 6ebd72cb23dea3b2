"""Find a negative cycle in a weighted directed graph (Bellman-Ford territory), or say there is none.

The graph is a directed path through every node in a random order plus random other edges (never
both ``u -> v`` and ``v -> u``), weighted from node potentials: ``w(a, b) = c(a, b) + p(a) - p(b)``
with ``p`` rising along the path, ``c = 0`` on the path's edges and ``c >= 1`` on the others, so
many edges are negative yet every cycle weighs its ``c`` total, never less than zero. Then one
edge going back along the path is lowered or raised so that the cycle it closes with the path
totals -3 to -1 (half the time) or 0 to 2, and other edges are raised by as much as it was
lowered, so the total weight and the weight range say nothing about the answer. Bellman-Ford then
decides (draws whose outcome differs from the coin are redrawn). Both kinds have the same numbers
of nodes and edges.

The lowered cycle must not stand out: costs ``c`` are small beside the potentials, so an edge's
weight says mostly where its ends sit; and a negative graph is redrawn while a guess that never adds
up a cycle (the declared ``heuristics``: the first cycle a depth-first search meets, the cycle through
one of the three lightest edges or through the lightest edge of weight zero or more, the walk along
lightest edges; on up to eight nodes also the longest cycles) lands on a negative cycle. Nor may the
graph have so few cycles that any pick is likely right: levels 0-2 have 12/15/20 edges on 6/8/10 nodes.
Version 5: with 9/13/17 edges, at level 0 (seeds 0-199) the cycle through the 4th-8th lightest edge
was negative in 0.26-0.33 of the negative graphs, through the lightest edge of weight zero or more
(the lowered edge, the closing edge with the least to spare) 0.33, the longest cycle 0.55, a random
cycle 0.29 (level 1: 0.14-0.24, 0.29, 0.34, 0.20); now at most 0.14, 0, 0 and 0.11 (level 1: at most
0.15, 0, 0, 0.10).

Nor may the proof of "none" come from part of the work. The path's edges cost nothing and every
other edge costs more, so the only shortest way from the path's first node to any node is along the
path: the shortest distances take ``n - 1`` rounds of relaxation, and the path's labels rise and
fall at least twice each, so passes over the edges in listed order (forwards or backwards) need three
or more. A graph without a negative cycle is redrawn while zeros, one or two passes of Bellman-Ford,
sums down a breadth- or depth-first search tree, or Dijkstra give a proof (:func:`_cheap_proofs`).
Version 4: before, the graph was random and its shortest distances shallow, so at level 0 (40 seeds a
level) two passes of Bellman-Ford proved "none" in 0.64-0.88 of the graphs without a negative cycle
(0.06-0.31 at level 4), a breadth-first tree's sums in 0.55, Dijkstra in 0.21; now each of these, and a
depth-first search in a random order, at most about 0.1 at every level (three passes in listed order,
most of Bellman-Ford's five rounds on six nodes, still prove level 0).

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
from palaestra.verifiers.claims import mentions
from palaestra.verifiers.normalize import strip_wrappers

LONGEST_CYCLE_NODES = 8  # up to here the longest cycles are checked: beyond, they are many and rarely negative
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
    version = 5  # v5: denser small graphs, so a cycle picked without adding it up is rarely the negative one
    # v4: a path every shortest distance follows, so no proof of "none" comes from a few relaxations
    # v3: small costs beside the potentials; no guess that ignores cycle totals finds the negative cycle
    bare_verdicts = ("none",)

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        max_cost: int
        max_potential: int

    presets = (
        Config(nodes=6, edges=12, max_cost=2, max_potential=12),
        Config(nodes=8, edges=15, max_cost=2, max_potential=16),
        Config(nodes=10, edges=20, max_cost=3, max_potential=20),
        Config(nodes=12, edges=22, max_cost=3, max_potential=24),
        Config(nodes=15, edges=30, max_cost=4, max_potential=30),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes
        negative = rng.random() < 0.5

        def draw() -> tuple[list[list[int]], str] | None:  # the edges and the answer: a cycle or its proof
            path = _deep_order(rng, n)
            weights = _path_graph_weights(rng, path, config)
            place = {v: i for i, v in enumerate(path)}
            back = [(u, v) for u, v in weights if place[u] > place[v]]
            if not back:
                return None
            u, v = rng.choice(back)  # it closes a cycle with the path from v to u
            cycle = path[place[v]:place[u] + 1]
            target = rng.randint(-3, -1) if negative else rng.randint(0, 2)
            drop = sum(weights[s] for s in zip(cycle, cycle[1:] + cycle[:1])) - target
            weights[u, v] -= drop  # the path keeps its weights, so it stays the only shortest way along it
            others = [e for e in sorted(weights) if e != (u, v) and e not in set(zip(path, path[1:]))]
            if drop > 0:  # raise other edges as much: the total weight says nothing; raising adds no negative cycle
                _spread(weights, rng.sample(others, min(len(others), len(cycle))), drop)
            rows = sorted([u, v, w] for (u, v), w in weights.items())
            potentials = _potentials(n, rows)
            if (potentials is None) != negative:
                return None
            if not negative and any(_feasible(guess, rows) for guess in _cheap_proofs(n, rows)):
                return None  # a proof that skips most of the relaxing would do: it must take the full search
            if negative and any(_weight(cycle, rows) < 0 for cycle in _cheap_cycles(n, rows) if cycle):
                return None  # a cheap guess would find the negative cycle: it must take a search
            if negative and n <= LONGEST_CYCLE_NODES and any(_weight(c, rows) < 0 for c in _longest_cycles(n, rows)):
                return None  # the lowered cycle runs along the path, so on few nodes it was often the longest
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
        """Nodes plus edges plus the diameter (the relaxation rounds a path needs) plus the negative edges (zeros
        prove "none" but for them: each is a drop the values must follow; on the dense small graphs the diameter
        hardly varies)."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        return float(size_and_reach(data["n"], data["edges"]) + sum(w < 0 for _, _, w in data["edges"]))

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def guess(pick: Callable[[int, list[list[int]]], list[int] | None]) -> Callable[[Problem], str]:
            return lambda problem: " ".join(map(str, pick(problem.data["n"], problem.data["edges"]) or [0]))

        def two_passes(problem: Problem) -> str:  # "none" proved by two passes of Bellman-Ford
            n, edges = problem.data["n"], problem.data["edges"]
            return "none: " + " ".join(map(str, _relaxed(n, edges, 2, True)))

        return {**{name: guess(pick) for name, pick in _GUESSES.items()}, "two_bellman_ford_passes": two_passes}

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


def _deep_order(rng: random.Random, n: int) -> list[int]:
    """The nodes in a random order with at least two rises and two falls of the label (n >= 5), so that
    passes over the edges in listed order, forwards or backwards, need three or more to relax along it."""
    while True:
        order = rng.sample(range(n), n)
        rises = sum(a < b for a, b in zip(order, order[1:]))
        if min(rises, n - 1 - rises) >= 2:
            return order


def _path_graph_weights(rng: random.Random, path: list[int], config: NegativeCycle.Config) -> dict[tuple[int, int], int]:
    """Edges along ``path`` and random others (never both ``u -> v`` and ``v -> u``), weighted
    ``c + p(u) - p(v)`` with potentials ``p`` rising along the path: the path's edges cost ``c = 0`` and the
    others ``c >= 1``, so the only shortest way from the first node to each node is along the path (the
    shortest distances take ``n - 1`` rounds of relaxation, and no other tree has the same sums)."""
    n = len(path)
    pairs = {(a, b) for a, b in zip(path, path[1:])}
    joined = {frozenset(p) for p in pairs}
    free = [(a, b) for a in range(n) for b in range(a + 1, n) if frozenset((a, b)) not in joined]
    pairs |= {(a, b) if rng.random() < 0.5 else (b, a) for a, b in rng.sample(free, config.edges - (n - 1))}
    step = max(1, 2 * config.max_potential // (n - 1))
    potential = [0] * n
    for a, b in zip(path, path[1:]):
        potential[b] = potential[a] + rng.randint(1, step)
    chain = set(zip(path, path[1:]))
    return {(a, b): (0 if (a, b) in chain else rng.randint(1, config.max_cost)) + potential[a] - potential[b]
            for a, b in sorted(pairs)}


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


def _feasible(values: list[int], edges: list[list[int]]) -> bool:
    return all(values[v] <= values[u] + w for u, v, w in edges)


def _relaxed(n: int, edges: list[list[int]], passes: int, in_place: bool) -> list[int]:
    """Distances from the virtual source after a few passes of Bellman-Ford over ``edges`` in the given order;
    ``in_place`` uses each update within the same pass (as most code does), else only the previous pass's."""
    distance = [0] * n
    for _ in range(passes):
        before = distance if in_place else list(distance)
        for u, v, w in edges:
            distance[v] = min(distance[v], before[u] + w)
    return distance


def _tree_sums(n: int, edges: list[list[int]], depth_first: bool, roots: list[int]) -> list[int]:
    """Weight sums down a breadth- or depth-first search forest along ``edges`` (taken in their order),
    started from ``roots`` in turn."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for u, v, w in edges:
        out[u].append((v, w))
    value: dict[int, int] = {}
    for root in roots:
        if root in value:
            continue
        value[root] = 0
        todo = [(root, iter(out[root]))]
        while todo:
            a, ahead = todo[-1] if depth_first else todo[0]
            step = next(ahead, None)
            if step is None:
                todo.remove((a, ahead))
            elif step[0] not in value:
                value[step[0]] = value[a] + step[1]
                todo.append((step[0], iter(out[step[0]])))
    return [value[v] for v in range(n)]


def _settled_once(n: int, edges: list[list[int]]) -> list[int]:
    """Dijkstra from the virtual source, as if no weight were negative: each node is settled once."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for u, v, w in edges:
        out[u].append((v, w))
    distance, settled = [0] * n, [False] * n
    for _ in range(n):
        a = min((v for v in range(n) if not settled[v]), key=lambda v: distance[v])
        settled[a] = True
        for b, w in out[a]:
            if not settled[b]:
                distance[b] = min(distance[b], distance[a] + w)
    return distance


def _cheap_proofs(n: int, edges: list[list[int]]) -> list[list[int]]:
    """Values a proof of "none" might guess with part of the work: zeros, one or two passes of Bellman-Ford
    (over the edges as listed or reversed, each update used at once or only in the next pass), sums down a
    breadth- or depth-first search forest (edges as listed or reversed; roots in node order either way,
    nodes no edge enters first or not), Dijkstra."""
    backwards = edges[::-1]
    entered = {v for _, v, _ in edges}
    ascending = list(range(n))
    root_orders = [ascending, ascending[::-1], *(sorted(order, key=entered.__contains__)
                                                 for order in (ascending, ascending[::-1]))]
    return [[0] * n, *(_relaxed(n, order, passes, in_place) for order in (edges, backwards)
                       for passes in (1, 2) for in_place in (True, False)),
            *(_tree_sums(n, order, depth_first, roots) for order in (edges, backwards)
              for depth_first in (False, True) for roots in root_orders), _settled_once(n, edges)]


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


def _cycle_through_lightest_rise(n: int, rows: list[list[int]]) -> list[int] | None:
    """The lightest edge of weight zero or more closed by a fewest-edges path back: the closing edge of a cycle
    must undo the drops along it, and the lowered one undoes them with the least to spare."""
    rising = [row for row in rows if row[2] >= 0]
    if not rising:
        return None
    return _cycle_through_light(n, rows, sorted(rows, key=lambda row: row[2]).index(min(rising, key=lambda row: row[2])))


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


def _longest_cycles(n: int, rows: list[list[int]]) -> list[list[int]]:
    """Every simple cycle with the most nodes (a search from each node through larger-numbered ones only)."""
    out: list[list[int]] = [[] for _ in range(n)]
    for a, b, _ in rows:
        out[a].append(b)
    best: list[list[int]] = []
    for start in range(n):
        stack = [(start, [start])]
        while stack:
            node, walk = stack.pop()
            for step in out[node]:
                if step == start and (not best or len(walk) >= len(best[0])):
                    best = [*(best if best and len(walk) == len(best[0]) else []), walk]
                elif step > start and step not in walk:
                    stack.append((step, [*walk, step]))
    return best


# Cheap guesses at a negative cycle, which never look at a cycle's total: the generator keeps them non-negative.
_GUESSES: dict[str, Callable[[int, list[list[int]]], list[int] | None]] = {
    "first_cycle_found": _first_cycle,
    "cycle_through_lightest_edge": lambda n, rows: _cycle_through_light(n, rows, 0),
    "cycle_through_second_lightest_edge": lambda n, rows: _cycle_through_light(n, rows, 1),
    "cycle_through_third_lightest_edge": lambda n, rows: _cycle_through_light(n, rows, 2),
    "walk_along_lightest_edges": _cheapest_walk,
    "cycle_through_lightest_non_negative_edge": _cycle_through_lightest_rise,
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
