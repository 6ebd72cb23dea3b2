"""List the cuts of a connected undirected graph: its bridges (cut edges) or its articulation points.

One skill, two questions: each problem asks for the bridges (edges whose removal disconnects the
graph) or for the articulation points (nodes whose removal does), drawn per problem; the task
option ``target="bridges"`` or ``target="articulation_points"`` asks only one (the retired id
``graphs/articulation_points`` resolves to this env with the second).

Graphs are random connected graphs (:func:`palaestra.generators.graphs.random_connected`) sparse
enough to keep several cuts, redrawn until they have at least one cut of the asked kind and at
least one cycle (for articulation points: a node that is not a leaf yet is no cut vertex, so
"every inner node" is wrong), and until some cut is away from the leaves: a bridge between two nodes
of degree two or more, an articulation point with no leaf neighbour (the edges to leaves and the
leaves' neighbours, which are always cuts, were the whole answer in 0.73/0.44 of bridge and
0.68/0.58 of articulation-point problems at levels 0/2 before version 3). Since version 4 some cut also
lies inside the graph's 2-core, where pruning the trees that hang off the cycles does not reach it: a
bridge between two parts that both hold a cycle, an articulation point with no hanging tree (peeling leaves
until none is left and answering the peeled edges, or the peeled edges' inner ends, answered 0.94 of bridge
and 0.85 of articulation-point problems at the top level of version 3). The cuts (found by networkx at
generation) are a unique set; the
verifier compares sets of edges, in any order, either way round, in any pair spelling of
:func:`palaestra.envs.graphs.common.read_edges` (``0-1, 2-3``, ``(0, 1), (2, 3)``), or sets of
nodes in any order.

Generation speed: about one random graph in 25 (bridges) or in 7 (articulation points) keeps a cut inside
the 2-core, so a problem takes that many draws and networkx searches; kept because the hanging trees
alone otherwise give the answer away.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs._measures import degrees
from palaestra.envs.graphs.common import edge_list, read_edges, read_nodes
from palaestra.generators.graphs import random_connected

TARGETS = ("bridges", "articulation_points")


@register
class Bridges(Task):
    id = "graphs/bridges"
    family = "graphs"
    description = "List every bridge (cut edge) or every articulation point (cut vertex) of a connected graph."
    tags = ("graphs", "connectivity")
    option_variants = tuple({"target": target} for target in TARGETS)  # the kit checks score == step for each
    version = 4  # v4: a cut inside the 2-core; v3: a cut away from the leaves; v2: merged with articulation points
    aliases = {"graphs/articulation_points": {"version": 1, "kwargs": {"target": "articulation_points"}}}

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int

    presets = (
        Config(nodes=7, edges=8),
        Config(nodes=10, edges=12),
        Config(nodes=14, edges=17),
        Config(nodes=20, edges=25),
        Config(nodes=28, edges=35),
    )
    growth = Growth()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        return {"the cuts of the trees hanging off the cycles (leaves peeled)": peeled_answer}

    def __init__(self, answer_format: str | None = None, target: str | None = None) -> None:
        super().__init__(answer_format)
        if target is not None and target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}, got {target!r}")
        self.target = target

    def generate(self, rng: random.Random, config: Config) -> Problem:
        target = self.target or rng.choice(TARGETS)
        if target == "bridges":
            return _bridges_problem(rng, config.nodes, config.edges)
        return _cut_vertices_problem(rng, config.nodes, config.edges)

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter (how far a cut's effect reaches), plus the cuts to find."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        cuts = data["bridges"] if "bridges" in data else data["cuts"]
        return float(size_and_reach(data["n"], data["edges"]) + len(cuts))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if "cuts" in problem.data:  # articulation points (also graphs/articulation_points-v1 problems)
            return _verify_cut_vertices(problem, answer)
        pairs = read_edges(answer, problem.data["n"], allow_empty=True)
        if pairs is None:
            return Verdict.unparsed("expected edges such as 2-7, 4-5")
        written = [tuple(sorted(p)) for p in pairs]
        if len(set(written)) != len(written):
            return Verdict.wrong("an edge is listed twice")
        edges = {tuple(e) for e in problem.data["edges"]}
        strangers = [p for p in written if p not in edges]
        if strangers:
            return Verdict.wrong(f"{strangers[0][0]}-{strangers[0][1]} is not an edge of the graph")
        truth = {tuple(b) for b in problem.data["bridges"]}
        if set(written) == truth:
            return Verdict.right()
        extra = [p for p in written if p not in truth]
        if extra:
            return Verdict.wrong(f"{extra[0][0]}-{extra[0][1]} is not a bridge")
        return Verdict.wrong(f"{len(truth) - len(written)} bridge(s) missing")

    def spellings(self, problem: Problem) -> list[str]:
        if "cuts" in problem.data:
            cuts = problem.data["cuts"]
            return [*super().spellings(problem), "{" + ", ".join(map(str, reversed(cuts))) + "}",
                    " and ".join(f"node {v}" for v in cuts)]
        bridges = problem.data["bridges"]
        return [*super().spellings(problem), ", ".join(f"({v}, {u})" for u, v in reversed(bridges)),
                "\n".join(f"{u} - {v}" for u, v in bridges), "[" + ", ".join(f"[{u}, {v}]" for u, v in bridges) + "]"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if "cuts" in problem.data:
            cuts = problem.data["cuts"]
            others = [v for v in range(problem.data["n"]) if v not in cuts]
            wrong = [" ".join(map(str, [*cuts, rng.choice(others)])), "none"]
            wrong.append(" ".join(map(str, cuts[1:])) if len(cuts) > 1 else str(rng.choice(others)))
            return wrong
        bridges = problem.data["bridges"]
        others = [e for e in problem.data["edges"] if e not in bridges]
        extra = rng.choice(others)
        wrong = [", ".join(f"{u}-{v}" for u, v in [*bridges, extra]), "none"]
        if len(bridges) > 1:
            wrong.append(", ".join(f"{u}-{v}" for u, v in bridges[1:]))
        else:
            wrong.append(f"{extra[0]}-{extra[1]}")
        return wrong


def _bridges_problem(rng: random.Random, n: int, m: int) -> Problem:
    import networkx as nx

    def draw() -> tuple[list[list[int]], list[list[int]]]:
        graph = random_connected(rng, n, m)
        edges = sorted([u, v] for u, v, _ in graph.edges)
        return edges, sorted(sorted(e) for e in nx.bridges(graph.to_networkx()))

    def away_from_leaves(drawn: tuple[list[list[int]], list[list[int]]]) -> bool:
        edges, bridges = drawn
        degree = degrees(n, edges)
        peeled, _ = peeled_trees(n, edges)
        return (0 < len(bridges) < len(edges) and any(degree[u] > 1 and degree[v] > 1 for u, v in bridges)
                and any(tuple(b) not in peeled for b in bridges))

    edges, bridges = retry(draw, away_from_leaves, what="a graph with a bridge between inner nodes")
    prompt = (
        f"An undirected connected graph has nodes 0 to {n - 1} and these {len(edges)} edges:\n"
        f"{edge_list(edges)}\n\n"
        "List all of its bridges: the edges whose removal would disconnect the graph. Write each bridge as "
        "its two nodes joined by a dash, bridges separated by commas, for example: 2-7, 4-5 (or none if "
        "there is no bridge)."
    )
    return Problem(prompt=prompt, answer=", ".join(f"{u}-{v}" for u, v in bridges),
                   data={"n": n, "edges": edges, "bridges": bridges})


def _cut_vertices_problem(rng: random.Random, n: int, m: int) -> Problem:
    import networkx as nx

    def draw() -> tuple[list[list[int]], list[int]] | None:
        graph = random_connected(rng, n, m)
        g = graph.to_networkx()
        cuts = sorted(nx.articulation_points(g))
        inner = [v for v in range(n) if g.degree(v) > 1 and v not in cuts]
        beside_leaves = {u for v in range(n) if g.degree(v) == 1 for u in g.neighbors(v)}
        if not cuts or not inner or set(cuts) <= beside_leaves:
            return None  # no cut, every inner node a cut, or the leaves' neighbours are the answer
        edges = sorted([u, v] for u, v, _ in graph.edges)
        if set(cuts) <= peeled_trees(n, edges)[1]:
            return None  # the hanging trees' inner nodes are the answer
        return edges, cuts

    edges, cuts = retry(draw, what="a graph with cut vertices")
    prompt = (
        f"An undirected connected graph has nodes 0 to {n - 1} and these {len(edges)} edges:\n"
        f"{edge_list(edges)}\n\n"
        "List all of its articulation points: the nodes whose removal (together with their edges) would "
        "disconnect the remaining graph. Give the nodes separated by spaces, for example: 2 5 (or none if there "
        "is no such node)."
    )
    return Problem(prompt=prompt, answer=" ".join(map(str, cuts)), data={"n": n, "edges": edges, "cuts": cuts})



def _verify_cut_vertices(problem: Problem, answer: str) -> Verdict:
    nodes = read_nodes(answer, problem.data["n"], allow_empty=True)
    if nodes is None:
        return Verdict.unparsed("expected nodes separated by spaces")
    if len(set(nodes)) != len(nodes):
        return Verdict.wrong("a node is listed twice")
    truth = set(problem.data["cuts"])
    extra = [v for v in nodes if v not in truth]
    if extra:
        return Verdict.wrong(f"removing node {extra[0]} does not disconnect the graph")
    return Verdict.judge(set(nodes) == truth, f"{len(truth) - len(nodes)} articulation point(s) missing")


def peeled_trees(n: int, edges: Sequence[Sequence[int]]) -> tuple[set[tuple[int, int]], set[int]]:
    """The edges of the trees hanging off the graph's cycles (leaves removed until none is left), as sorted
    pairs, and those edges' ends that were not leaves of the whole graph: the cuts a leaf-peeling rule names.

    >>> peeled_trees(5, [[0, 1], [1, 2], [0, 2], [2, 3], [3, 4]])
    ({(2, 3), (3, 4)}, {2, 3})
    """
    neighbours: list[set[int]] = [set() for _ in range(n)]
    for u, v, *_ in edges:
        neighbours[u].add(v)
        neighbours[v].add(u)
    inner = {v for v in range(n) if len(neighbours[v]) > 1}
    leaves = [v for v in range(n) if len(neighbours[v]) == 1]
    peeled: set[tuple[int, int]] = set()
    for v in leaves:  # the list grows while it is walked: a node becomes a leaf when its last but one edge goes
        if len(neighbours[v]) != 1:
            continue
        u = neighbours[v].pop()
        neighbours[u].discard(v)
        peeled.add((min(u, v), max(u, v)))
        if len(neighbours[u]) == 1:
            leaves.append(u)
    return peeled, {x for pair in peeled for x in pair if x in inner}


def peeled_answer(problem: Problem) -> str:
    """The leaf-peeling rule's reply: the peeled edges, or their inner ends (``heuristics()``)."""
    peeled, inner = peeled_trees(problem.data["n"], problem.data["edges"])
    if "cuts" in problem.data:
        return " ".join(map(str, sorted(inner))) or "none"
    return ", ".join(f"{u}-{v}" for u, v in sorted(peeled)) or "none"
