"""Random graphs for generators: trees, DAGs, connected, bipartite, planar and k-colourable graphs.

Every generator takes the problem's ``random.Random`` and nothing else random, so the same seed
gives the same graph everywhere. Nodes are the integers ``0..n-1``; a graph is a small frozen
:class:`Graph` record (node count, ``(u, v, weight)`` edges, directed or not) that turns into
JSON-native data with homogeneous integer lists (``[[u, v, w], ...]``, safe for Arrow/parquet)
and back, and into canonical prompt text with :func:`render`. Weights are integers drawn
uniformly from an inclusive ``weights=(low, high)`` range; unweighted graphs have weight 1.

The algorithms the generators need to guarantee properties (Dijkstra, BFS, connectivity, cycles,
topological order, diameter) are here too, on plain adjacency lists.

Example::

    >>> import random
    >>> tree = random_tree(random.Random(3), 5)
    >>> len(tree.edges), is_connected(tree), has_cycle(tree)
    (4, True, False)
    >>> graph = random_connected(random.Random(3), 6, 8, weights=(1, 9))
    >>> distances, _ = dijkstra(graph, 0)
    >>> len(graph.edges), len(distances)
    (8, 6)
    >>> render(Graph(3, ((0, 1, 4), (1, 2, 1))), labels=["A", "B", "C"])
    'A - B (weight 4)\\nB - C (weight 1)'
"""

from __future__ import annotations

import heapq
import random
import string
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.core.retry import GenerationError

Edge = tuple[int, int, int]  # (u, v, weight)
Weights = tuple[int, int] | None  # inclusive range of integer weights; None: every weight is 1


@dataclass(frozen=True)
class Graph:
    """A graph on nodes ``0..n-1``: ``edges`` are ``(u, v, weight)``; undirected edges have u < v.

    >>> g = Graph(3, ((0, 1, 2), (1, 2, 5)))
    >>> Graph.from_data(g.to_data()) == g, g.adjacency()[1]
    (True, [(0, 2), (2, 5)])
    """

    n: int
    edges: tuple[Edge, ...]
    directed: bool = False

    def adjacency(self) -> list[list[tuple[int, int]]]:
        """Per node, ``(neighbour, weight)`` pairs it can move to (both ways when undirected)."""
        out: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]
        for u, v, w in self.edges:
            out[u].append((v, w))
            if not self.directed:
                out[v].append((u, w))
        return out

    def neighbours(self) -> list[list[int]]:
        """Per node, the nodes it can move to, ignoring weights."""
        out: list[list[int]] = [[] for _ in range(self.n)]
        for u, v, _ in self.edges:
            out[u].append(v)
            if not self.directed:
                out[v].append(u)
        return out

    def weight(self, u: int, v: int) -> int | None:
        """The weight of the edge from ``u`` to ``v`` (either way when undirected), or None."""
        for a, b, w in self.edges:
            if (a, b) == (u, v) or (not self.directed and (b, a) == (u, v)):
                return w
        return None

    def to_data(self) -> dict[str, Any]:
        """JSON-native data: ``{"n": 3, "directed": false, "edges": [[0, 1, 2], ...]}``."""
        return {"n": self.n, "directed": self.directed, "edges": [list(e) for e in self.edges]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Graph:
        return cls(int(data["n"]), tuple((int(u), int(v), int(w)) for u, v, w in data["edges"]), bool(data["directed"]))

    def to_networkx(self) -> Any:
        """A ``networkx.Graph`` or ``DiGraph`` with ``weight`` edge attributes (imports networkx)."""
        import networkx as nx

        graph = nx.DiGraph() if self.directed else nx.Graph()
        graph.add_nodes_from(range(self.n))
        graph.add_weighted_edges_from(self.edges)
        return graph


def letter_labels(n: int) -> list[str]:
    """``A, B, ..., Z, AA, AB, ...``: short distinct node labels for prompts.

    >>> letter_labels(28)[-3:]
    ['Z', 'AA', 'AB']
    """
    letters = string.ascii_uppercase
    labels = list(letters[:n])
    first = 0
    while len(labels) < n:  # bounded: each pass adds up to 26 labels
        labels.extend(letters[first] + b for b in letters[: n - len(labels)])
        first += 1
    return labels


def render(graph: Graph, labels: Sequence[str] | None = None, weighted: bool = True) -> str:
    """Canonical text for a prompt: one edge per line, sorted, ``A - B (weight 4)`` or ``A -> B``."""
    names = [str(i) for i in range(graph.n)] if labels is None else labels
    link = " -> " if graph.directed else " - "
    lines = []
    for u, v, w in sorted(graph.edges):
        line = names[u] + link + names[v]
        lines.append(f"{line} (weight {w})" if weighted else line)
    return "\n".join(lines)


# --- generators -----------------------------------------------------------------------------


def _weigher(rng: random.Random, weights: Weights):
    if weights is None:
        return lambda: 1
    low, span = weights[0], weights[1] - weights[0] + 1
    if span < 1:
        raise ValueError(f"empty weight range {weights}")
    rand = rng.random
    return lambda: low + int(rand() * span)


def random_tree(rng: random.Random, n: int, weights: Weights = None) -> Graph:
    """A uniformly random labelled tree on ``n`` nodes (from a random Prüfer sequence).

    >>> len(random_tree(random.Random(1), 10).edges)
    9
    """
    if n < 1:
        raise ValueError("a tree needs at least one node")
    weight = _weigher(rng, weights)
    if n == 1:
        return Graph(1, ())
    rand = rng.random
    code = [int(rand() * n) for _ in range(n - 2)]
    degree = [1] * n
    for x in code:
        degree[x] += 1
    leaves = [v for v in range(n) if degree[v] == 1]
    heapq.heapify(leaves)
    edges = []
    for x in code:
        leaf = heapq.heappop(leaves)
        edges.append((min(leaf, x), max(leaf, x), weight()))
        degree[x] -= 1
        if degree[x] == 1:
            heapq.heappush(leaves, x)
    u, v = heapq.heappop(leaves), heapq.heappop(leaves)
    edges.append((min(u, v), max(u, v), weight()))
    return Graph(n, tuple(edges))


def _spanning_edges(rng: random.Random, n: int, directed: bool, weight) -> list[Edge]:
    """A random recursive tree: each node of a random order hangs from an earlier one."""
    rand = rng.random
    order = list(range(n))
    rng.shuffle(order)
    edges = []
    for i in range(1, n):
        u, v = order[i], order[int(rand() * i)]
        if directed:
            if rand() < 0.5:
                u, v = v, u
        elif u > v:
            u, v = v, u
        edges.append((u, v, weight()))
    return edges


def _add_random_edges(rng: random.Random, n: int, edges: list[Edge], count: int, directed: bool, weight,
                      allowed=None) -> None:
    """Append ``count`` new edges between node pairs not yet joined (either way), uniformly at random.

    ``allowed(u, v)`` restricts the pairs. Sparse requests draw pairs and skip taken ones; dense
    ones enumerate the free pairs, so the loop is bounded either way.
    """
    if count <= 0:
        return
    taken = {u * n + v for u, v, _ in edges} | {v * n + u for u, v, _ in edges}
    rand = rng.random
    max_pairs = n * (n - 1) // 2
    if count <= (max_pairs - len(edges)) // 3:
        added = 0
        for _ in range(20 * count + 100):  # each draw succeeds with probability >= 2/3
            u, v = int(rand() * n), int(rand() * n)
            if u == v or u * n + v in taken or (allowed is not None and not allowed(u, v)):
                continue
            taken.add(u * n + v)
            taken.add(v * n + u)
            if not directed and u > v:
                u, v = v, u
            edges.append((u, v, weight()))
            added += 1
            if added == count:
                return
        count -= added
    free = [(u, v) for u in range(n) for v in range(u + 1, n)
            if u * n + v not in taken and (allowed is None or allowed(u, v))]
    if count > len(free):
        raise ValueError(f"cannot add {count} more edges: only {len(free)} node pairs are free")
    for u, v in rng.sample(free, count):
        if directed and rand() < 0.5:
            u, v = v, u
        edges.append((u, v, weight()))


def random_connected(rng: random.Random, n: int, m: int, directed: bool = False, weights: Weights = None) -> Graph:
    """A connected graph (weakly, when directed) with ``n`` nodes and ``m`` edges, no parallel edges.

    A random spanning tree first, then ``m - n + 1`` extra edges between unjoined pairs; directed
    edges get a random direction and never pair up as ``u -> v`` and ``v -> u``.

    >>> g = random_connected(random.Random(0), 8, 12, directed=True)
    >>> len(g.edges), is_connected(g)
    (12, True)
    """
    if not n - 1 <= m <= n * (n - 1) // 2:
        raise ValueError(f"a connected simple graph on {n} nodes has {n - 1} to {n * (n - 1) // 2} edges, not {m}")
    weight = _weigher(rng, weights)
    edges = _spanning_edges(rng, n, directed, weight)
    _add_random_edges(rng, n, edges, m - (n - 1), directed, weight)
    return Graph(n, tuple(edges), directed)


def random_dag(rng: random.Random, n: int, m: int, weights: Weights = None,
               connected: bool = True) -> tuple[Graph, list[int]]:
    """A directed acyclic graph with ``m`` edges and a topological order of its nodes.

    Edges only go forward in a random order of the nodes, so the order is topological; with
    ``connected`` the graph is weakly connected (a forward spanning tree comes first).

    >>> dag, order = random_dag(random.Random(2), 7, 10)
    >>> has_cycle(dag), [order.index(u) < order.index(v) for u, v, _ in dag.edges] == [True] * 10
    (False, True)
    """
    if not (n - 1 if connected else 0) <= m <= n * (n - 1) // 2:
        raise ValueError(f"a DAG on {n} nodes cannot have {m} edges{' and be connected' if connected else ''}")
    weight = _weigher(rng, weights)
    order = list(range(n))
    rng.shuffle(order)
    rank = [0] * n
    for i, v in enumerate(order):
        rank[v] = i
    edges: list[Edge] = []
    if connected:
        rand = rng.random
        edges = [(order[int(rand() * i)], order[i], weight()) for i in range(1, n)]
    _add_random_edges(rng, n, edges, m - len(edges), False, weight)  # then point every edge forward
    oriented = [(u, v, w) if rank[u] < rank[v] else (v, u, w) for u, v, w in edges]
    return Graph(n, tuple(oriented), True), order


def random_bipartite(rng: random.Random, left: int, right: int, m: int, weights: Weights = None,
                     connected: bool = True) -> tuple[Graph, list[int]]:
    """A bipartite graph with sides of ``left`` and ``right`` nodes and ``m`` edges, and each node's side.

    Nodes are shuffled so that the sides do not show in the labels; every edge joins side 0 to
    side 1. With ``connected`` a random spanning tree of the complete bipartite graph comes first.

    >>> g, side = random_bipartite(random.Random(5), 3, 4, 8)
    >>> all(side[u] != side[v] for u, v, _ in g.edges), sorted(side).count(0), is_connected(g)
    (True, 3, True)
    """
    n = left + right
    if not (n - 1 if connected else 0) <= m <= left * right or min(left, right) < 1:
        raise ValueError(f"a bipartite graph with sides {left} and {right} cannot have {m} edges")
    weight = _weigher(rng, weights)
    side = [0] * left + [1] * right
    rng.shuffle(side)
    edges: list[Edge] = []
    if connected:
        rand = rng.random
        zeros, ones = [v for v in range(n) if side[v] == 0], [v for v in range(n) if side[v] == 1]
        rng.shuffle(zeros)
        rng.shuffle(ones)
        placed = [[zeros.pop()], [ones.pop()]]
        edges.append((min(placed[0][0], placed[1][0]), max(placed[0][0], placed[1][0]), weight()))
        rest = zeros + ones
        rng.shuffle(rest)
        for v in rest:  # hang each node from a random already-placed node of the other side
            other = placed[1 - side[v]]
            u = other[int(rand() * len(other))]
            edges.append((min(u, v), max(u, v), weight()))
            placed[side[v]].append(v)
    _add_random_edges(rng, n, edges, m - len(edges), False, weight, allowed=lambda u, v: side[u] != side[v])
    return Graph(n, tuple(edges)), side


def random_planar(rng: random.Random, n: int, m: int, weights: Weights = None, connected: bool = True) -> Graph:
    """A planar graph with ``n`` nodes and ``m <= 3n - 6`` edges (connected by default).

    Starts from a random tree (or no edges) and adds random edges, keeping each only when the
    graph stays planar (networkx's planarity test); the free pairs are tried in random order, so
    the loop ends. Raises GenerationError in the rare case the added edges block reaching ``m``.

    >>> import networkx as nx
    >>> nx.check_planarity(random_planar(random.Random(4), 12, 25).to_networkx())[0]
    True
    """
    import networkx as nx

    if m > max(3 * n - 6, n - 1) or (connected and m < n - 1):
        raise ValueError(f"a planar graph on {n} nodes cannot have {m} edges")
    weight = _weigher(rng, weights)
    edges = _spanning_edges(rng, n, False, weight) if connected else []
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from((u, v) for u, v, _ in edges)
    taken = {(u, v) for u, v, _ in edges}
    free = [(u, v) for u in range(n) for v in range(u + 1, n) if (u, v) not in taken]
    rng.shuffle(free)
    for u, v in free:
        if len(edges) >= m:
            break
        graph.add_edge(u, v)
        if nx.check_planarity(graph)[0]:
            edges.append((u, v, weight()))
        else:
            graph.remove_edge(u, v)
    if len(edges) < m:
        raise GenerationError(f"random planar graph got stuck at {len(edges)} of {m} edges")
    return Graph(n, tuple(edges))


def random_colorable(rng: random.Random, n: int, k: int, m: int, weights: Weights = None,
                     clique: bool = True, connected: bool = True) -> tuple[Graph, list[int]]:
    """A graph that ``k`` colours properly colour by construction, and that planted colouring (1..k).

    Colours are planted first and edges only join differently coloured nodes; with ``clique``, k
    nodes of distinct colours form a clique, so exactly k colours are needed. With ``connected``
    the graph is connected (a spanning tree over properly coloured pairs comes first).

    >>> g, colors = random_colorable(random.Random(6), 10, 3, 15)
    >>> all(colors[u] != colors[v] for u, v, _ in g.edges), len(g.edges), is_connected(g)
    (True, 15, True)
    """
    if k < 1 or n < k:
        raise ValueError(f"cannot plant {k} colours on {n} nodes")
    weight = _weigher(rng, weights)
    rand = rng.random
    colors = [1 + int(rand() * k) for _ in range(n)]
    anchors = rng.sample(range(n), k)  # one node per colour, so every colour class is non-empty
    for color, v in enumerate(anchors, start=1):
        colors[v] = color
    edges: list[Edge] = []
    if clique:
        edges.extend((min(a, b), max(a, b), weight()) for i, a in enumerate(anchors) for b in anchors[i + 1:])
    if connected and k > 1:
        joined = {(u, v) for u, v, _ in edges}
        rest = [v for v in range(n) if v not in anchors]
        rng.shuffle(rest)
        placed = anchors[:1] if not clique else anchors[:]
        for v in anchors[1:] if not clique else []:
            rest.insert(int(rand() * (len(rest) + 1)), v)
        for v in rest:  # hang each node from a placed node of another colour (one always exists)
            others = [u for u in placed if colors[u] != colors[v]]
            if not others:  # only the first anchor's colour is placed so far: v's colour differs
                others = placed
            u = others[int(rand() * len(others))]
            pair = (min(u, v), max(u, v))
            if pair not in joined:
                joined.add(pair)
                edges.append((*pair, weight()))
            placed.append(v)
    elif connected and n > 1:
        raise ValueError("a connected graph on several nodes needs at least 2 colours")
    if m < len(edges):
        raise ValueError(f"{m} edges are too few for the clique and spanning tree ({len(edges)} edges)")
    _add_random_edges(rng, n, edges, m - len(edges), False, weight, allowed=lambda u, v: colors[u] != colors[v])
    return Graph(n, tuple(edges)), colors


def random_forest(rng: random.Random, n: int, m: int, weights: Weights = None) -> Graph:
    """An undirected graph with no cycle: ``m <= n - 1`` edges of a random tree (so n - m trees).

    >>> g = random_forest(random.Random(1), 9, 6)
    >>> len(g.edges), has_cycle(g), len(components(g))
    (6, False, 3)
    """
    if not 0 <= m <= max(n - 1, 0):
        raise ValueError(f"a forest on {n} nodes has at most {n - 1} edges")
    tree = random_tree(rng, n, weights)
    return Graph(n, tuple(rng.sample(tree.edges, m)))


def random_cyclic(rng: random.Random, n: int, m: int, directed: bool = False, weights: Weights = None) -> Graph:
    """A connected graph that certainly contains a cycle (a directed cycle when ``directed``).

    Undirected: any connected graph with ``m >= n`` edges has one. Directed: a random DAG of
    ``m - 1`` edges plus one edge back along a path of it, closing a cycle of length >= 3.

    >>> has_cycle(random_cyclic(random.Random(2), 6, 7, directed=True))
    True
    """
    if not directed:
        if m < n:
            raise ValueError(f"an undirected graph on {n} nodes needs at least {n} edges for a cycle")
        return random_connected(rng, n, m, False, weights)
    if n < 3 or m < n:
        raise ValueError("a directed graph with a cycle of length >= 3 needs n >= 3 and m >= n")
    weight = _weigher(rng, weights)
    dag, order = random_dag(rng, n, m - 1, weights)
    reach = _reachable_sets(dag, order)
    joined = {(u, v) for u, v, _ in dag.edges} | {(v, u) for u, v, _ in dag.edges}
    closers = [(v, u) for u in range(n) for v in reach[u] if (u, v) not in joined]
    if not closers:
        raise GenerationError("no pair on a path of length >= 2 is free to close a cycle")
    v, u = closers[int(rng.random() * len(closers))]
    return Graph(n, (*dag.edges, (v, u, weight())), True)


def random_with_diameter(rng: random.Random, n: int, m: int, low: int, high: int, weights: Weights = None,
                         attempts: int = 200) -> Graph:
    """A connected undirected graph whose diameter (in edges) lies in ``[low, high]``.

    Nodes are laid out in ``d + 1`` layers around a backbone path (d drawn from the range) and edges
    only join nodes of the same or adjacent layers, so the diameter is at least d; candidates whose
    diameter exceeds ``high`` are redrawn, up to ``attempts`` times.

    >>> low, high = 4, 5
    >>> low <= diameter(random_with_diameter(random.Random(3), 12, 16, low, high)) <= high
    True
    """
    if not 1 <= low <= high or high > n - 1:
        raise ValueError(f"diameter range [{low}, {high}] is impossible on {n} nodes")
    weight = _weigher(rng, weights)
    rand = rng.random
    for _ in range(attempts):
        d = low + int(rand() * (high - low + 1))
        order = list(range(n))
        rng.shuffle(order)
        layer = [0] * n
        members: list[list[int]] = [[] for _ in range(d + 1)]
        for i, v in enumerate(order):  # the first d + 1 nodes form the backbone, one per layer
            layer[v] = i if i <= d else 1 + int(rand() * max(d - 1, 1))  # others in the inner layers
            members[layer[v]].append(v)
        edges: list[Edge] = []
        for i in range(1, n):
            v = order[i]
            if i <= d:
                u = order[i - 1]
            else:  # hang from the previous layer, which leads down to the backbone's first node
                below = members[layer[v] - 1]
                u = below[int(rand() * len(below))]
            edges.append((min(u, v), max(u, v), weight()))
        if m < len(edges):
            raise ValueError(f"{m} edges are too few to connect {n} nodes")
        close = (lambda u, v: abs(layer[u] - layer[v]) <= 1)
        try:
            _add_random_edges(rng, n, edges, m - len(edges), False, weight, allowed=close)
        except ValueError:
            continue  # this layout has too few close pairs for m edges; draw another
        graph = Graph(n, tuple(edges))
        if low <= diameter(graph) <= high:  # type: ignore[operator]
            return graph
    raise GenerationError(f"no graph with diameter in [{low}, {high}] in {attempts} attempts")


# --- algorithms ---------------------------------------------------------------------------


def dijkstra(graph: Graph, source: int) -> tuple[dict[int, int], dict[int, int]]:
    """(distance, predecessor on one shortest path) for every node reachable from ``source``."""
    adjacency = graph.adjacency()
    distance = {source: 0}
    parent: dict[int, int] = {}
    done = set()
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        for v, w in adjacency[u]:
            if v not in distance or d + w < distance[v]:
                distance[v] = d + w
                parent[v] = u
                heapq.heappush(heap, (d + w, v))
    return distance, parent


def path_to(parent: dict[int, int], source: int, target: int) -> list[int]:
    """The path ``source .. target`` read back from predecessor links (``target`` must be reached)."""
    path = [target]
    for _ in range(len(parent) + 1):
        if path[-1] == source:
            return path[::-1]
        path.append(parent[path[-1]])
    raise ValueError("predecessor links do not lead back to the source")


def bfs_distances(graph: Graph, source: int) -> list[int]:
    """Hop distance from ``source`` to every node (-1 where unreachable), ignoring weights."""
    neighbours = graph.neighbours()
    distance = [-1] * graph.n
    distance[source] = 0
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in neighbours[u]:
            if distance[v] < 0:
                distance[v] = distance[u] + 1
                queue.append(v)
    return distance


def components(graph: Graph) -> list[list[int]]:
    """The (weakly) connected components, each sorted, in order of their smallest node."""
    undirected = Graph(graph.n, graph.edges) if graph.directed else graph
    seen = [False] * graph.n
    found = []
    for v in range(graph.n):
        if not seen[v]:
            members = [u for u, d in enumerate(bfs_distances(undirected, v)) if d >= 0]
            for u in members:
                seen[u] = True
            found.append(members)
    return found


def is_connected(graph: Graph) -> bool:
    """Whether every node reaches every other (ignoring edge directions)."""
    return graph.n <= 1 or len(components(graph)) == 1


def topological_order(graph: Graph) -> list[int] | None:
    """A topological order of a directed graph (Kahn's algorithm), or None when it has a cycle."""
    indegree = [0] * graph.n
    for _, v, _ in graph.edges:
        indegree[v] += 1
    neighbours = graph.neighbours()
    ready = [v for v in range(graph.n) if indegree[v] == 0]
    order = []
    while ready:
        u = ready.pop()
        order.append(u)
        for v in neighbours[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                ready.append(v)
    return order if len(order) == graph.n else None


def has_cycle(graph: Graph) -> bool:
    """Whether the graph has a cycle (a directed one when the graph is directed)."""
    if graph.directed:
        return topological_order(graph) is None
    return len(graph.edges) > graph.n - len(components(graph))


def diameter(graph: Graph) -> int | None:
    """The largest hop distance between two nodes, or None when some pair is not connected."""
    longest = 0
    for v in range(graph.n):
        distance = bfs_distances(graph, v)
        if min(distance) < 0:
            return None
        longest = max(longest, max(distance))
    return longest


def _reachable_sets(dag: Graph, order: list[int]) -> list[set[int]]:
    """Per node of a DAG, the nodes reachable by a path of at least two edges."""
    neighbours = dag.neighbours()
    reach: list[set[int]] = [set() for _ in range(dag.n)]  # reachable by >= 1 edge
    far: list[set[int]] = [set() for _ in range(dag.n)]
    for u in reversed(order):
        for v in neighbours[u]:
            reach[u].add(v)
            reach[u] |= reach[v]
            far[u] |= reach[v]
    return far
