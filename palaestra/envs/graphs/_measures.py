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
