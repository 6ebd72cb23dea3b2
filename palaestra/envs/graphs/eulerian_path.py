"""Find an Eulerian trail: a walk that uses every edge of a graph exactly once.

The graph is a cactus of short cycles: each cycle after the first hangs at one node of the graph so far, so
every degree is even and each hung cycle makes a cut vertex. Half the time one cycle is cut open (one edge
removed, between two cut vertices where it has any), leaving exactly two odd-degree nodes where any trail
must start and end. The verifier accepts **any** walk that steps along edges of the graph and uses each
edge exactly once (no edge left out).

Why cut vertices: a walk without Fleury's bridge test gets stuck. Reaching a cut vertex, it must take the
cycle hung there before walking on, since walking on never comes back; each cut vertex passed on the way
is a fresh chance to get it wrong. v1 (a spanning cycle plus overlapping random cycles, no cut vertex)
let a greedy walk with random ties finish 0.57-0.77 of problems per level and one taking the neighbour with
the fewest unused edges 0.90-0.96; on these graphs such blind walks finish at most a few percent from level
1 (``tests/envs/test_redteam_r32_euler.py`` holds the numbers). Hung cycles go first at nodes not next to
their own cycle's cut vertex: a walk may reach those next-door nodes last on their cycle, when walking on
visibly returns to a visited node, which a walk preferring new nodes avoids for free. Ties broken by node
number favour a walk a little (the neighbour it passed over at a cut vertex is the one that would strand the
cycle later), so while a declared greedy walk finishes, the labels are redrawn (a few times at most).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import edge_list, read_nodes


@register
class EulerianPath(Task):
    id = "graphs/eulerian_path"
    family = "graphs"
    description = "Give a walk that uses every edge of a graph exactly once (an Eulerian path or circuit)."
    tags = ("graphs", "paths")
    version = 2

    @dataclass(frozen=True)
    class Config:
        blocks: int  # cycles, each hung at one node of the graph so far
        longest_cycle: int

    presets = (
        Config(blocks=9, longest_cycle=4),
        Config(blocks=12, longest_cycle=4),
        Config(blocks=14, longest_cycle=4),
        Config(blocks=16, longest_cycle=5),
        Config(blocks=18, longest_cycle=5),
    )
    growth = Growth(steps={"blocks": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        import networkx as nx

        cycles = [list(range(rng.randint(3, config.longest_cycle)))]
        n = len(cycles[0])
        # Each further cycle hangs at a node on one cycle so far, so every cycle adds a cut vertex: a walk that
        # reaches it from its first cycle and walks on there can never come back for the cycle hung there.
        # Nodes not next to their cycle's own cut vertex go first: a walk may reach the next-door ones last on
        # their cycle, when walking on is closing that cycle (visibly back to a visited node).
        inner = list(cycles[0])
        beside: list[int] = []
        for _ in range(config.blocks - 1):
            pool = inner or beside
            anchor = pool.pop(rng.randrange(len(pool)))
            fresh = list(range(n, n + rng.randint(2, config.longest_cycle - 1)))
            n += len(fresh)
            cycles.append([anchor, *fresh])
            inner += fresh[1:-1]
            beside += [fresh[0], fresh[-1]]
        edges = [(u, v) for cycle in cycles for u, v in zip(cycle, cycle[1:] + cycle[:1])]
        if rng.random() < 0.5:  # a trail: cut one cycle open between two cut vertices where it has any
            cut_vertices = {cycle[0] for cycle in cycles[1:]}
            cuts = [sum(node in cut_vertices for node in edge) for edge in edges]
            edges.pop(rng.choice([i for i, count in enumerate(cuts) if count == max(cuts)]))
        for _ in range(LABELLINGS):  # bounded; the last labelling stays if every one is finished by a rule
            label = list(range(n))
            rng.shuffle(label)
            rows = sorted(sorted((label[u], label[v])) for u, v in edges)
            if not any(len(_greedy_walk(rows, **rule)) > len(rows) for rule in GREEDY_RULES.values()):
                break
        graph = nx.Graph(rows)
        steps = list(nx.eulerian_path(graph))
        walk = [steps[0][0]] + [v for _, v in steps]
        prompt = (
            f"An undirected graph has nodes 0 to {n - 1} and these {len(rows)} edges:\n{edge_list(rows)}\n\n"
            "Find a walk that uses every edge exactly once (an Eulerian path; it may end where it started or "
            "elsewhere). Give the nodes of the walk in order, separated by spaces, for example: 2 0 4 2 1 ..."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, walk)), data={"n": n, "edges": rows})

    def difficulty(self, problem: Problem) -> float:
        """Edges: the length of the walk."""
        return float(len(problem.data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        edges = {tuple(e) for e in problem.data["edges"]}
        walk = read_nodes(answer, problem.data["n"])
        if walk is None:
            return Verdict.unparsed("expected the nodes of the walk in order")
        used: set[tuple[int, int]] = set()
        for u, v in zip(walk, walk[1:]):
            pair = _pair(u, v)
            if pair not in edges:
                return Verdict.wrong(f"{u}-{v} is not an edge")
            if pair in used:
                return Verdict.wrong(f"the edge {u}-{v} is used twice")
            used.add(pair)
        if len(used) != len(edges):
            return Verdict.wrong(f"{len(edges) - len(used)} edge(s) are never used")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Greedy walks without Fleury's bridge test: from an odd node (else any), always along an unused edge,
        until stuck; ties go to the smallest (or largest) node, after new nodes first or after the neighbour
        with the fewest unused edges (not a dead end) first."""
        return {name: lambda problem, rule=rule: " ".join(map(str, _greedy_walk(problem.data["edges"], **rule)))
                for name, rule in GREEDY_RULES.items()}

    def spellings(self, problem: Problem) -> list[str]:
        walk = (problem.answer or "").split()
        return [*super().spellings(problem), " ".join(reversed(walk)), " -> ".join(walk), ", ".join(walk)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        walk = (problem.answer or "").split()
        return [" ".join(walk[:-1]), " ".join([*walk, walk[-2]]), " ".join(walk[1:]) if walk[0] != walk[-1] else
                " ".join(walk[2:])]


LABELLINGS = 4
GREEDY_RULES: dict[str, dict[str, Any]] = {
    "greedy walk, smallest neighbour": {"prefer": (), "high": False},
    "greedy walk, largest neighbour": {"prefer": (), "high": True},
    "greedy walk, new nodes first, smallest": {"prefer": ("new",), "high": False},
    "greedy walk, new nodes first, largest": {"prefer": ("new",), "high": True},
    "greedy walk, fewest unused edges first": {"prefer": ("fewest",), "high": False},
    "greedy walk, new nodes, then fewest unused edges first": {"prefer": ("new", "fewest"), "high": False},
}


def _greedy_walk(edges: list[list[int]], prefer: tuple[str, ...], high: bool) -> list[int]:
    """A walk that never looks ahead for bridges, narrowing the neighbours by ``prefer`` in turn ("new":
    unvisited ones; "fewest": those with the fewest unused edges, but more than one where it can), then taking
    the smallest (or largest) one."""
    joined: list[set[int]] = [set() for _ in range(1 + max((max(edge) for edge in edges), default=-1))]
    for u, v in edges:
        joined[u].add(v)
        joined[v].add(u)
    pick = max if high else min
    odd = [v for v, neighbours in enumerate(joined) if len(neighbours) % 2]
    node = pick(odd or [v for v, neighbours in enumerate(joined) if neighbours])
    walk, seen = [node], {node}
    for _ in range(len(edges)):  # each step uses an edge
        options = joined[node]
        for rule in prefer:
            if rule == "new":
                options = options - seen or options
            else:
                options = {v for v in options if len(joined[v]) > 1} or options
                fewest = min((len(joined[v]) for v in options), default=0)
                options = {v for v in options if len(joined[v]) == fewest}
        if not options:
            break
        nxt = pick(options)
        joined[node].discard(nxt)
        joined[nxt].discard(node)
        walk.append(nxt)
        seen.add(nxt)
        node = nxt
    return walk


def _pair(u: int, v: int) -> tuple[int, int]:
    return (u, v) if u < v else (v, u)
