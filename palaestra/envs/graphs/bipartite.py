"""Decide whether a graph is bipartite and prove it: a bipartition, or an odd cycle.

Half the graphs are bipartite (:func:`palaestra.generators.graphs.random_bipartite`, connected)
and half are not: the same kind of graph with one edge fewer plus one edge inside a side, which
closes an odd cycle. Both kinds have the same numbers of nodes and edges. From level 2 on the
added edge joins two nodes far apart, so the shortest odd cycle is long.

The answer is a witness, checked against the graph: either the two sides (every node in exactly
one, no edge inside a side; any of the group spellings of
:func:`palaestra.envs.graphs.common.read_groups`), or ``odd cycle:`` and the nodes of any simple
cycle with an odd number of nodes. A bipartite graph has no odd cycle and a graph with one has no
bipartition, so a valid witness is a correct answer.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import (
    check_partition,
    closed_walk,
    cycle_error,
    edge_list,
    edge_set,
    non_cycle_example,
    read_nodes,
    read_partition,
    two_colouring,
)
from palaestra.generators.graphs import bfs_distances, random_bipartite
from palaestra.verifiers.normalize import strip_wrappers

# a leading verdict, "Yes." / "No, it is not bipartite." (the prompt asks a question), read and then checked
# against the proof that follows
_VERDICT = re.compile(r"^\W{0,8}(?:(yes|no)\b[\s,.:;!-]*)?(?:(?:it|the graph) is (not )?bipartite\b[\s,.:;!-]*)?",
                      re.IGNORECASE)
_ODD_CYCLE = re.compile(r"^\W*(?:not bipartite\W*)?(?:an? )?odd cycle\s*(?:is\s*)?[:=]?[\s*]*", re.IGNORECASE)


@register
class Bipartite(Task):
    id = "graphs/bipartite"
    family = "graphs"
    description = "Give a bipartition of a graph, or an odd cycle proving there is none."
    tags = ("graphs", "bipartite", "proof")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        far: int  # the added edge of a non-bipartite graph joins nodes at least this far apart

    presets = (
        Config(nodes=7, edges=8, far=2),
        Config(nodes=10, edges=12, far=2),
        Config(nodes=14, edges=18, far=4),
        Config(nodes=19, edges=25, far=4),
        Config(nodes=26, edges=34, far=6),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, m = config.nodes, config.edges
        left = rng.randint(n // 3 + 1, n // 2)
        bipartite = rng.random() < 0.5
        graph, side = random_bipartite(rng, left, n - left, m if bipartite else m - 1)
        edges = sorted([u, v] for u, v, _ in graph.edges)
        if not bipartite:
            distance = [bfs_distances(graph, u) for u in range(n)]
            longest = max(distance[u][v] for u in range(n) for v in range(u + 1, n) if side[u] == side[v])
            reach = min(config.far, longest)
            pairs = [[u, v] for u in range(n) for v in range(u + 1, n)
                     if side[u] == side[v] and distance[u][v] >= reach]
            edges = sorted([*edges, rng.choice(pairs)])
        sides, odd = two_colouring(n, edges)
        example = " ".join(map(str, non_cycle_example(rng, n, edges, directed=False)))
        if odd is None:
            answer = "\n".join(" ".join(str(v) for v in range(n) if sides[v] == s) for s in (0, 1))
        else:
            answer = "odd cycle: " + " ".join(map(str, odd))
        prompt = (
            f"An undirected graph has nodes 0 to {n - 1} and these {len(edges)} edges:\n{edge_list(edges)}\n\n"
            "Is the graph bipartite? Prove your answer.\n"
            "- If it is bipartite, give a bipartition: the nodes of the two sides on two lines, every node on "
            "exactly one line and no edge inside a side, for example:\n0 3 5 ...\n1 2 4 ...\n"
            "- If it is not, give a cycle with an odd number of nodes, written as 'odd cycle:' followed by its "
            f"nodes in order, for example: odd cycle: {example} (the cycle returns from the last node to the first)."
        )
        return Problem(prompt=prompt, answer=answer, data={"n": n, "edges": edges, "bipartite": odd is None})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter (how far the two-colouring propagates)."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        return float(size_and_reach(data["n"], data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n, edges = problem.data["n"], problem.data["edges"]
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("no readable answer")
        # wrappers first, so a boxed or "Final answer:"-prefixed cycle is not read as a one-line bipartition
        text = strip_wrappers(answer).strip()
        verdict = _VERDICT.match(text[:200])
        claims = {(verdict.group(1) or "").lower() == "yes" if verdict.group(1) else None,
                  not verdict.group(2) if verdict.group() and "bipartite" in verdict.group().lower() else None} - {None}
        if len(claims) > 1:
            return Verdict.unparsed("the answer says both yes and no")
        if claims:
            text = text[verdict.end():]
        head = _ODD_CYCLE.match(text[:200])
        if head and True in claims or not head and False in claims:
            return Verdict.unparsed("the yes/no does not match the proof that follows")
        if head:
            nodes = read_nodes(text[head.end():], n)
            if nodes is None:
                return Verdict.unparsed("expected 'odd cycle:' followed by nodes")
            cycle = closed_walk(nodes)
            if len(cycle) % 2 == 0:
                return Verdict.wrong(f"the cycle has {len(cycle)} nodes, an even number")
            error = cycle_error(cycle, edge_set(edges, False), False)
            return Verdict.wrong(error) if error else Verdict.right()
        groups = read_partition(text, n)
        if groups is None:
            return Verdict.unparsed("expected two lines of nodes (the sides) or 'odd cycle:' and nodes")
        if len(groups) != 2:
            return Verdict.wrong(f"a bipartition has two sides, not {len(groups)}")
        error = check_partition(groups, n)
        if error:
            return Verdict.wrong(error)
        side = {v: i for i, group in enumerate(groups) for v in group}
        for u, v in edges:
            if side[u] == side[v]:
                return Verdict.wrong(f"the edge {u}-{v} lies inside one side")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        if problem.data["bipartite"]:
            a, b = gold.splitlines()
            return [*super().spellings(problem), f"{b}\n{a}", "{" + a.replace(" ", ", ") + "}, {" +
                    b.replace(" ", ", ") + "}", f"Side A: {a}\nSide B: {b}", f"{a}; {b}"]
        nodes = gold.split(":")[1].split()
        return [*super().spellings(problem), "Odd cycle: " + " -> ".join([*nodes, nodes[0]]),
                "odd cycle: " + ", ".join(nodes[::-1]), "Not bipartite. Odd cycle: " + " - ".join(nodes)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        n, edges = problem.data["n"], problem.data["edges"]
        gold = problem.answer or ""
        if problem.data["bipartite"]:
            a, b = (line.split() for line in gold.splitlines())
            u = rng.choice(a)
            moved = [[x for x in a if x != u], [*b, u]]  # u has a neighbour in b (the graph is connected)
            return ["\n".join(" ".join(s) for s in moved), " ".join(a), "odd cycle: " + " ".join(map(str, edges[0]))
                    + " " + str(next(v for v in range(n) if v not in edges[0]))]
        nodes = gold.split(":")[1].split()
        sides, _ = two_colouring(n, edges)
        flat = "\n".join(" ".join(str(v) for v in range(n) if sides[v] == s) for s in (0, 1))
        return [flat, "odd cycle: " + " ".join(nodes[:-1]), "odd cycle: " + " ".join([*nodes, nodes[1]])]
