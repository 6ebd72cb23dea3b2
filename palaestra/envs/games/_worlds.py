"""Shared pieces of the procedural-world games (no environment here): grid maps of rooms and their routes.

A map is ``rows x cols`` rooms numbered row by row; ``passages`` join neighbouring rooms (a random spanning
tree from :func:`palaestra.generators.grids.random_maze`, so every passage is the only way past it).

- :func:`direction`: the compass word from one room to a neighbour;
- :func:`neighbours`: per room, ``direction -> (passage index, room)``;
- :func:`reachable`: the rooms a walk reaches without crossing closed passages, with their distances;
- :func:`route`: the rooms of a shortest walk to the nearest goal through open passages;
- :func:`tree_path`: the passages on the (only) way between two rooms of a tree map, ignoring locks.

Example::

    >>> links = neighbours(2, 2, [(0, 1), (0, 2), (2, 3)])
    >>> links[0]
    {'east': (0, 1), 'south': (1, 2)}
    >>> route(links, 1, {3}, closed=set()), tree_path(links, 1, 3)
    ([0, 2, 3], [0, 1, 2])
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

DIRECTIONS = ("north", "east", "south", "west")
DIRECTION_WORDS = {"north": "north", "n": "north", "south": "south", "s": "south", "east": "east", "e": "east",
                   "west": "west", "w": "west"}
Links = list[dict[str, tuple[int, int]]]


def direction(cols: int, room: int, other: int) -> str:
    """The compass word from ``room`` to its neighbour ``other`` on a map ``cols`` rooms wide."""
    return {-cols: "north", cols: "south", -1: "west", 1: "east"}[other - room]


def neighbours(rows: int, cols: int, passages: Iterable[tuple[int, int]]) -> Links:
    """Per room, ``direction -> (passage index, neighbouring room)``, directions in compass order."""
    links: Links = [{} for _ in range(rows * cols)]
    for index, (a, b) in enumerate(passages):
        links[a][direction(cols, a, b)] = (index, b)
        links[b][direction(cols, b, a)] = (index, a)
    return [{d: room[d] for d in DIRECTIONS if d in room} for room in links]


def reachable(links: Links, start: int, closed: set[int]) -> dict[int, int]:
    """Rooms reached from ``start`` without crossing a ``closed`` passage, with their distances."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        room = queue.popleft()
        for passage, other in links[room].values():
            if other not in seen and passage not in closed:
                seen[other] = seen[room] + 1
                queue.append(other)
    return seen


def route(links: Links, start: int, goals: set[int], closed: set[int]) -> list[int] | None:
    """The rooms of a shortest walk from ``start`` to the nearest of ``goals`` (``start`` left out; empty when
    it is a goal), through passages not ``closed``; None when no goal is reachable. Ties go to compass order."""
    parent = {start: start}
    queue = deque([start])
    while queue:
        room = queue.popleft()
        if room in goals:
            walk = []
            while room != start:
                walk.append(room)
                room = parent[room]
            return walk[::-1]
        for passage, other in links[room].values():
            if other not in parent and passage not in closed:
                parent[other] = room
                queue.append(other)
    return None


def tree_path(links: Links, start: int, goal: int) -> list[int]:
    """The passages on the way from ``start`` to ``goal`` of a tree map (closed or not), in walking order."""
    walk = route(links, start, {goal}, closed=set())
    assert walk is not None, "a tree map joins every pair of rooms"
    passages, room = [], start
    for other in walk:
        passages.append(next(p for p, r in links[room].values() if r == other))
        room = other
    return passages
