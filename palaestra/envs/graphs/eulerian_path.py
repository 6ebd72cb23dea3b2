"""Find an Eulerian trail: a walk that uses every edge of a graph exactly once.

The graph is a cactus of short cycles (4 or 5 nodes): each cycle after the first hangs at one node of the
graph so far, so every degree is even and each hung cycle makes a cut vertex. Half the time one edge next to
a cut vertex is removed, leaving exactly two odd-degree nodes where any trail must start and end. The
verifier accepts **any** walk that steps along edges of the graph and uses each edge exactly once.

Why cut vertices: a walk without Fleury's bridge test gets stuck. Reaching a cut vertex, it must take the
cycle hung there before walking on, since walking on never comes back; each cut vertex on the way is a fresh
chance to get it wrong. v1 (a spanning cycle plus overlapping random cycles, no cut vertex) let a greedy walk
with random ties finish 0.57-0.77 of problems per level and one taking the neighbour with the fewest unused
edges 0.90-0.96; here such blind walks finish at most about a tenth at level 0 and a few percent above
(``tests/envs/test_redteam_r32_euler.py`` holds the numbers). Cycles hang only where no cut vertex is next
door: then every neighbour of a cut vertex has two edges, so counting edges (or avoiding visited nodes) does
not tell the cycle hung there from the way on. Ties broken by node number still favour a walk (the neighbour
it passed over at a cut vertex is the one that strands a cycle later), so while a declared greedy walk
finishes, the labels are redrawn (a few times at most).
"""

from __future__ import annotations

import functools
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
        longest_cycle: int  # at least 4: a hung cycle then brings a spot for the next one

    presets = (
        Config(blocks=9, longest_cycle=4),
        Config(blocks=10, longest_cycle=4),
        Config(blocks=12, longest_cycle=4),
        Config(blocks=13, longest_cycle=5),
        Config(blocks=15, longest_cycle=5),
    )
    growth = Growth(steps={"blocks": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        import networkx as nx

        cycles = [list(range(rng.randint(4, config.longest_cycle)))]
        n = len(cycles[0])
        # Each further cycle hangs at a spot: a node on one cycle only, with no cut vertex next to it.
        spots = list(cycles[0])
        ring = {node: (cycles[0][node - 1], cycles[0][(node + 1) % n]) for node in cycles[0]}  # its neighbours
        for _ in range(config.blocks - 1):
            anchor = spots.pop(rng.randrange(len(spots)))  # never short: each cycle of 4+ nodes brings a new spot
            spots = [node for node in spots if node not in ring[anchor]]
            cycle = [anchor, *range(n, n + rng.randint(3, config.longest_cycle - 1))]
            ring |= {cycle[i]: (cycle[i - 1], cycle[(i + 1) % len(cycle)]) for i in range(1, len(cycle))}
            spots += cycle[2:-1]
            n += len(cycle) - 1
            cycles.append(cycle)
        edges = [(u, v) for cycle in cycles for u, v in zip(cycle, cycle[1:] + cycle[:1])]
        if rng.random() < 0.5:  # a trail, from a cut vertex, which must take its hung cycle before walking on
            cut_vertices = {cycle[0] for cycle in cycles[1:]}
            edges.pop(rng.choice([i for i, edge in enumerate(edges) if cut_vertices & set(edge)]))
        for _ in range(LABELLINGS):  # bounded; the last labelling stays if every one is finished by a rule
            label = list(range(n))
            rng.shuffle(label)
            rows = sorted(sorted((label[u], label[v])) for u, v in edges)
            if not any(len(_greedy_walk(n, rows, **rule)) > len(rows) for rule in GREEDY_RULES.values()):
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
        """Greedy walks without Fleury's bridge test: from an odd node (else any), along unused edges until
        stuck, taking new nodes and/or the neighbours with the fewest unused edges first, ties to the smallest
        (or largest) node."""
        return {name: functools.partial(_greedy_answer, rule=rule) for name, rule in GREEDY_RULES.items()}

    def spellings(self, problem: Problem) -> list[str]:
        walk = (problem.answer or "").split()
        return [*super().spellings(problem), " ".join(reversed(walk)), " -> ".join(walk), ", ".join(walk)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        walk = (problem.answer or "").split()
        return [" ".join(walk[:-1]), " ".join([*walk, walk[-2]]), " ".join(walk[1:]) if walk[0] != walk[-1] else
                " ".join(walk[2:])]


LABELLINGS = 4  # tried per problem: the declared walks then finish at most 0.02 of level 0, none above
GREEDY_RULES: dict[str, dict[str, Any]] = {
    "greedy walk, smallest neighbour": {"prefer": (), "high": False},
    "greedy walk, largest neighbour": {"prefer": (), "high": True},
    "greedy walk, new nodes first, smallest": {"prefer": ("new",), "high": False},
    "greedy walk, new nodes first, largest": {"prefer": ("new",), "high": True},
    "greedy walk, fewest unused edges first": {"prefer": ("fewest",), "high": False},
    "greedy walk, new nodes, then fewest unused edges first": {"prefer": ("new", "fewest"), "high": False},
}


def _greedy_answer(problem: Problem, rule: dict[str, Any]) -> str:
    return " ".join(map(str, _greedy_walk(problem.data["n"], problem.data["edges"], **rule)))


def _greedy_walk(n: int, edges: list[list[int]], prefer: tuple[str, ...], high: bool) -> list[int]:
    """A walk that never looks ahead for bridges, narrowing the neighbours by ``prefer`` in turn ("new":
    unvisited ones; "fewest": those with the fewest unused edges, but more than one where it can), then taking
    the smallest (or largest) one."""
    joined: list[set[int]] = [set() for _ in range(n)]
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
