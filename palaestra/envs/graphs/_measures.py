"""Measures of a drawn graph for ``difficulty()``: how far reasoning about it has to reach.

Example::

    >>> diameter(4, [[0, 1], [1, 2], [2, 3]])
    3
    >>> size_and_reach(4, [[0, 1], [1, 2], [2, 3]])  # 4 nodes + 3 edges + diameter 3
    10
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def diameter(n: int, edges: Sequence[Sequence[object]]) -> int:
    """The largest distance (in edges, directions and weights ignored) between two nodes joined by a path."""
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for edge in edges:
        u, v = int(edge[0]), int(edge[1])  # type: ignore[call-overload]
        neighbours[u].append(v)
        neighbours[v].append(u)
    widest = 0
    for source in range(n):
        distance = {source: 0}
        queue = deque([source])
        while queue:
            node = queue.popleft()
            for nxt in neighbours[node]:
                if nxt not in distance:
                    distance[nxt] = distance[node] + 1
                    queue.append(nxt)
        widest = max(widest, max(distance.values()))
    return widest


def size_and_reach(n: int, edges: Sequence[Sequence[object]]) -> int:
    """Nodes plus edges plus the diameter: the graph to search and how far the search has to reach.

    Most graph envs declare this as their difficulty (some add a term of their own).
    """
    return n + len(edges) + diameter(n, edges)


def degrees(n: int, edges: Sequence[Sequence[int]]) -> list[int]:
    """Each node's degree (an undirected edge counts at both ends)."""
    degree = [0] * n
    for u, v in edges:
        degree[u] += 1
        degree[v] += 1
    return degree


def two_sweep_middle(n: int, edges: Sequence[Sequence[int]]) -> list[int]:
    """Breadth-first from node 0 to the last node reached, again from there, and the middle node (or the middle two)
    of the path the second sweep found, increasing: a tree's centre, and on other graphs the textbook shortcut to
    one.

    >>> two_sweep_middle(4, [[0, 1], [1, 2], [2, 3]]), two_sweep_middle(5, [[0, 1], [1, 2], [2, 3], [1, 4]])
    ([1, 2], [1, 2])
    >>> two_sweep_middle(6, [[0, 1], [1, 2], [2, 3], [3, 4], [1, 5]])
    [2]
    """
    out: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        out[u].append(v)
        out[v].append(u)

    def farthest(start: int) -> tuple[int, list[int]]:
        parent = [-1] * n
        parent[start] = start
        order = [start]
        for u in order:
            for v in out[u]:
                if parent[v] == -1:
                    parent[v] = u
                    order.append(v)
        return order[-1], parent

    end, _ = farthest(0)
    other, parent = farthest(end)
    path = [other]
    while path[-1] != end:
        path.append(parent[path[-1]])
    middle = len(path) // 2
    return sorted(path[middle - 1 : middle + 1] if len(path) % 2 == 0 else [path[middle]])
