"""Random graphs for generators: trees, DAGs, connected, bipartite, planar and k-colourable graphs.

Every generator takes the problem's ``random.Random`` and nothing else random, so the same seed
gives the same graph everywhere. Nodes are the integers ``0..n-1``; a graph is a small frozen
:class:`Graph` record (node count, ``(u, v, weight)`` edges, directed or not) that turns into
JSON-native data with homogeneous integer lists (``[[u, v, w], ...]``, safe for Arrow/parquet)
and back, and into canonical prompt text with :func:`render`. Weights are integers drawn
uniformly from an inclusive ``weights=(low, high)`` range; unweighted graphs have weight 1.

The algorithms the generators need to guarantee properties (Dijkstra, BFS, connectivity, cycles,
topological order, diameter) are here too, on plain adjacency lists, and a :class:`UnionFind` for
Kruskal-style merging.

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
    """``A, B, ..., Z, AA, AB, ...`` (spreadsheet column names): short distinct node labels for prompts.

    >>> letter_labels(28)[-3:]
    ['Z', 'AA', 'AB']
    """
    return list(string.ascii_uppercase[:n]) if n <= 26 else [_column_name(i) for i in range(n)]


def _column_name(index: int) -> str:
    name = ""
    index += 1
    for _ in range(16):  # bijective base 26; 16 letters cover any list that fits in memory
        if not index:
            break
        index, letter = divmod(index - 1, 26)
        name = string.ascii_uppercase[letter] + name
    return name


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

Pair = tuple[int, int]


def _finish(rng: random.Random, n: int, pairs: list[Pair], directed: bool, weights: Weights) -> Graph:
    """The graph of ``pairs`` with weights drawn in one pass (1 when ``weights`` is None)."""
    if weights is None:
        return Graph(n, tuple([(u, v, 1) for u, v in pairs]), directed)
    low, span = weights[0], weights[1] - weights[0] + 1
    if span < 1:
        raise ValueError(f"empty weight range {weights}")
    rand = rng.random
    return Graph(n, tuple([(u, v, low + int(rand() * span)) for u, v in pairs]), directed)


def _permutation(rng: random.Random, n: int) -> list[int]:
    """A uniformly random order of ``0..n-1`` (sorting random keys: cheaper than ``shuffle``)."""
    rand = rng.random
    return [v for _, v in sorted([(rand(), v) for v in range(n)])]


def _ordered(u: int, v: int) -> Pair:
    return (u, v) if u < v else (v, u)


def random_tree(rng: random.Random, n: int, weights: Weights = None) -> Graph:
    """A uniformly random labelled tree on ``n`` nodes (from a random Prüfer sequence).

    >>> len(random_tree(random.Random(1), 10).edges)
    9
    """
    if n < 1:
        raise ValueError("a tree needs at least one node")
    if n == 1:
        return Graph(1, ())
    rand = rng.random
    code = [int(rand() * n) for _ in range(n - 2)]
    degree = [1] * n
    for x in code:
        degree[x] += 1
    leaves = [v for v in range(n) if degree[v] == 1]
    heapq.heapify(leaves)
    pairs = []
    for x in code:
        pairs.append(_ordered(heapq.heappop(leaves), x))
        degree[x] -= 1
        if degree[x] == 1:
            heapq.heappush(leaves, x)
    pairs.append(_ordered(heapq.heappop(leaves), heapq.heappop(leaves)))
    return _finish(rng, n, pairs, False, weights)


def _spanning_pairs(rng: random.Random, n: int, directed: bool) -> list[Pair]:
    """A random recursive tree: each node of a random order hangs from an earlier one."""
    rand = rng.random
    order = _permutation(rng, n)
    if directed:  # a random direction per edge
        return [(order[i], order[int(rand() * i)]) if rand() < 0.5 else (order[int(rand() * i)], order[i])
                for i in range(1, n)]
    return [_ordered(order[i], order[int(rand() * i)]) for i in range(1, n)]


def _add_random_pairs(rng: random.Random, n: int, pairs: list[Pair], count: int, directed: bool,
                      allowed=None) -> None:
    """Append ``count`` new pairs of nodes not yet joined (either way), uniformly at random.

    ``allowed(u, v)`` restricts the pairs. Sparse requests draw pairs and skip taken ones; dense
    ones enumerate the free pairs, so the loop is bounded either way. Undirected pairs have u < v;
    directed ones get a random direction.
    """
    if count <= 0:
        return
    taken = {u * n + v for u, v in pairs}
    taken.update([v * n + u for u, v in pairs])
    rand = rng.random
    if count <= (n * (n - 1) // 2 - len(pairs)) // 3:
        for _ in range(20 * count + 100):  # each draw succeeds with probability >= 2/3
            u, v = int(rand() * n), int(rand() * n)
            if u == v or u * n + v in taken or (allowed is not None and not allowed(u, v)):
                continue
            taken.add(u * n + v)
            taken.add(v * n + u)
            pairs.append((u, v) if directed or u < v else (v, u))  # (u, v) is already in a random order
            count -= 1
            if not count:
                return
    free = [(u, v) for u in range(n) for v in range(u + 1, n)
            if u * n + v not in taken and (allowed is None or allowed(u, v))]
    if count > len(free):
        raise ValueError(f"cannot add {count} more edges: only {len(free)} node pairs are free")
    pairs.extend((v, u) if directed and rand() < 0.5 else (u, v) for u, v in rng.sample(free, count))


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
    pairs = _spanning_pairs(rng, n, directed)
    _add_random_pairs(rng, n, pairs, m - (n - 1), directed)
    return _finish(rng, n, pairs, directed, weights)


def random_dag(rng: random.Random, n: int, m: int, weights: Weights = None,
               connected: bool = True) -> tuple[Graph, list[int]]:
    """A directed acyclic graph with ``m`` edges and a topological order of its nodes.

    Edges only go forward in a random order of the nodes, so the order is topological; with
    ``connected`` the graph is weakly connected (a spanning tree comes first).

    >>> dag, order = random_dag(random.Random(2), 7, 10)
    >>> has_cycle(dag), [order.index(u) < order.index(v) for u, v, _ in dag.edges] == [True] * 10
    (False, True)
    """
    if not (n - 1 if connected else 0) <= m <= n * (n - 1) // 2:
        raise ValueError(f"a DAG on {n} nodes cannot have {m} edges{' and be connected' if connected else ''}")
    order = _permutation(rng, n)
    rank = [0] * n
    for i, v in enumerate(order):
        rank[v] = i
    pairs = _spanning_pairs(rng, n, False) if connected else []
    _add_random_pairs(rng, n, pairs, m - len(pairs), False)
    forward = [(u, v) if rank[u] < rank[v] else (v, u) for u, v in pairs]
    return _finish(rng, n, forward, True, weights), order


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
    if min(left, right) < 1 or not (n - 1 if connected else 0) <= m <= left * right:
        raise ValueError(f"a bipartite graph with sides {left} and {right} cannot have {m} edges")
    rand = rng.random
    side = [0] * left + [1] * right
    side = [side[i] for i in _permutation(rng, n)]
    pairs: list[Pair] = []
    if connected:
        order = _permutation(rng, n)
        first = [next(v for v in order if side[v] == s) for s in (0, 1)]
        placed = [[first[0]], [first[1]]]
        pairs.append(_ordered(*first))
        for v in order:  # hang each other node from a random placed node of the other side
            if v in first:
                continue
            other = placed[1 - side[v]]
            pairs.append(_ordered(other[int(rand() * len(other))], v))
            placed[side[v]].append(v)
    _add_random_pairs(rng, n, pairs, m - len(pairs), False, allowed=lambda u, v: side[u] != side[v])
    return _finish(rng, n, pairs, False, weights), side


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
    pairs = _spanning_pairs(rng, n, False) if connected else []
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(pairs)
    taken = set(pairs)
    free = [(u, v) for u in range(n) for v in range(u + 1, n) if (u, v) not in taken]
    for i in _permutation(rng, len(free)):
        if len(pairs) >= m:
            break
        graph.add_edge(*free[i])
        if nx.check_planarity(graph)[0]:
            pairs.append(free[i])
        else:
            graph.remove_edge(*free[i])
    if len(pairs) < m:
        raise GenerationError(f"random planar graph got stuck at {len(pairs)} of {m} edges")
    return _finish(rng, n, pairs, False, weights)


def random_colorable(rng: random.Random, n: int, k: int, m: int, weights: Weights = None,
                     clique: bool = True, connected: bool = True) -> tuple[Graph, list[int]]:
    """A graph that ``k`` colours properly colour by construction, and that planted colouring (1..k).

    Colours are planted first and edges only join differently coloured nodes; with ``clique``, k
    nodes of distinct colours form a clique, so exactly k colours are needed. With ``connected``
    (needs k >= 2) every other node hangs from an already placed node of another colour first.

    >>> g, colors = random_colorable(random.Random(6), 10, 3, 15)
    >>> all(colors[u] != colors[v] for u, v, _ in g.edges), len(g.edges), is_connected(g)
    (True, 15, True)
    """
    if k < 1 or n < k or (connected and k < 2 and n > 1):
        raise ValueError(f"cannot plant {k} colours on {n} nodes{' connected' if connected else ''}")
    if m > _crossing_pairs([n // k + (i < n % k) for i in range(k)]):
        raise ValueError(f"{m} edges cannot join {n} nodes in {k} colour classes")
    rand = rng.random
    anchors = rng.sample(range(n), k)  # one node per colour, so every colour class is non-empty
    for _ in range(20):  # classes of random sizes, redrawn while too lopsided to hold m edges
        colors = [1 + int(rand() * k) for _ in range(n)]
        for color, v in enumerate(anchors, start=1):
            colors[v] = color
        if _crossing_pairs([colors.count(c) for c in range(1, k + 1)]) >= m:
            break
    else:  # balanced classes hold the most edges (checked above); the anchors keep colours 1..k
        others = [v for v in _permutation(rng, n) if v not in anchors]
        for i, v in enumerate(others):
            colors[v] = 1 + i % k
    pairs: list[Pair] = []
    if clique:
        pairs.extend(_ordered(a, b) for i, a in enumerate(anchors) for b in anchors[i + 1 :])
    if connected:
        # Place the clique (or the first anchor), then every other node in a random order; each
        # hangs from a placed node of another colour. The second anchor (colour 2) always finds
        # the first (colour 1); after it, two colours are placed, so one of them differs.
        placed = anchors[:] if clique else anchors[:1]
        waiting = [v for v in _permutation(rng, n) if v not in placed]
        if not clique:
            waiting.remove(anchors[1])
            waiting.insert(0, anchors[1])
        for v in waiting:
            others = [u for u in placed if colors[u] != colors[v]]
            pairs.append(_ordered(others[int(rand() * len(others))], v))
            placed.append(v)
    if m < len(pairs):
        raise ValueError(f"{m} edges are too few for the clique and spanning tree ({len(pairs)} edges)")
    _add_random_pairs(rng, n, pairs, m - len(pairs), False, allowed=lambda u, v: colors[u] != colors[v])
    return _finish(rng, n, pairs, False, weights), colors


def _crossing_pairs(sizes: list[int]) -> int:
    """Node pairs in different classes, for classes of the given sizes."""
    return (sum(sizes) ** 2 - sum(size * size for size in sizes)) // 2


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
    dag, order = random_dag(rng, n, m - 1, weights)
    far = _reachable_in_two(dag, order)
    joined = {(u, v) for u, v, _ in dag.edges} | {(v, u) for u, v, _ in dag.edges}
    closers = [(v, u) for u in range(n) for v in sorted(far[u]) if (u, v) not in joined]
    if not closers:
        raise GenerationError("no pair on a path of length >= 2 is free to close a cycle")
    back = _finish(rng, n, [closers[int(rng.random() * len(closers))]], True, weights)
    return Graph(n, dag.edges + back.edges, True)


def random_with_diameter(rng: random.Random, n: int, m: int, low: int, high: int, weights: Weights = None,
                         attempts: int = 100) -> Graph:
    """A connected undirected graph whose diameter (in edges) is a ``d`` drawn from ``[low, high]``.

    A backbone path ``v0 .. vd`` gives every node a position (``vi`` sits at i); every other node
    joins a backbone node at an inner position 1..d-1 and takes its position; the remaining edges
    join nodes whose positions differ by at most one. Each edge moves at most one position, so
    ``v0`` and ``vd`` stay d apart; any two nodes are at most d apart through the backbone. A
    drawn d whose positions leave too few pairs for ``m`` edges is redrawn (``attempts`` times).

    >>> diameter(random_with_diameter(random.Random(3), 12, 16, 4, 5)) in (4, 5)
    True
    """
    if not 1 <= low <= high or low > n - 1:
        raise ValueError(f"diameter range [{low}, {high}] is impossible on {n} nodes")
    if not n - 1 <= m <= n * (n - 1) // 2:
        raise ValueError(f"a connected simple graph on {n} nodes cannot have {m} edges")
    rand = rng.random
    for _ in range(attempts):
        d = low + int(rand() * (min(high, n - 1) - low + 1))
        if d == 1:  # every pair adjacent
            if m == n * (n - 1) // 2:
                return _finish(rng, n, [(u, v) for u in range(n) for v in range(u + 1, n)], False, weights)
            continue
        order = _permutation(rng, n)
        backbone = order[: d + 1]
        position = [0] * n
        pairs = []
        for i, v in enumerate(order):
            if i <= d:
                position[v] = i
                if i:
                    pairs.append(_ordered(backbone[i - 1], v))
            else:
                position[v] = 1 + int(rand() * (d - 1))
                pairs.append(_ordered(backbone[position[v]], v))
        try:
            _add_random_pairs(rng, n, pairs, m - len(pairs), False,
                              allowed=lambda u, v, position=position: abs(position[u] - position[v]) <= 1)
        except ValueError:
            continue  # too few pairs of close positions for m edges; draw another d and layout
        return _finish(rng, n, pairs, False, weights)
    raise GenerationError(f"no layout with a diameter in [{low}, {high}] holds {m} edges on {n} nodes")


# --- algorithms ---------------------------------------------------------------------------


def dijkstra(graph: Graph, source: int) -> tuple[list[int], list[int]]:
    """(distance, predecessor on one shortest path) per node; -1 where unreachable (and the source's
    predecessor). Weights must be non-negative.

    >>> dijkstra(Graph(3, ((0, 1, 4), (1, 2, 1), (0, 2, 7))), 0)
    ([0, 4, 5], [-1, 0, 1])
    """
    adjacency = graph.adjacency()
    distance = [-1] * graph.n
    parent = [-1] * graph.n
    done = [False] * graph.n
    distance[source] = 0
    heap = [(0, source)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, u = pop(heap)
        if done[u]:
            continue
        done[u] = True
        for v, w in adjacency[u]:
            nd = d + w
            if distance[v] < 0 or nd < distance[v]:
                distance[v] = nd
                parent[v] = u
                push(heap, (nd, v))
    return distance, parent


def path_to(parent: list[int], source: int, target: int) -> list[int]:
    """The path ``source .. target`` read back from predecessor links (``target`` must be reached)."""
    path = [target]
    for _ in range(len(parent)):
        if path[-1] == source:
            return path[::-1]
        path.append(parent[path[-1]])
    if path[-1] == source:
        return path[::-1]
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


def reachable(graph: Graph, source: int) -> set[int]:
    """The nodes ``source`` reaches (itself included), along edge directions when the graph is directed.

    >>> sorted(reachable(Graph(4, ((0, 1, 1), (2, 1, 1)), directed=True), 0))
    [0, 1]
    """
    return {v for v, d in enumerate(bfs_distances(graph, source)) if d >= 0}


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


class UnionFind:
    """Disjoint sets of the nodes ``0..n-1``, merged one pair at a time (path halving keeps finds short).

    >>> sets = UnionFind(4)
    >>> sets.union(0, 1), sets.union(1, 0), sets.find(0) == sets.find(1), sets.find(2) == sets.find(3)
    (True, False, True, False)
    """

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        """The representative of ``x``'s set."""
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> bool:
        """Merge the sets of ``a`` and ``b``; False when they were one set already (the pair closes a cycle)."""
        root_a, root_b = self.find(a), self.find(b)
        if root_a == root_b:
            return False
        self.parent[root_a] = root_b
        return True


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


def _reachable_in_two(dag: Graph, order: list[int]) -> list[set[int]]:
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
