"""Random grids for generators: mazes, obstacle grids with a guaranteed path, region partitions.

A grid is a list of equal-length strings, ``#`` for a wall and any other character for open floor
(``S``/``G`` marks stay open). Positions are ``(row, col)`` tuples, row 0 at the top; moves are
the letters ``U D L R``. Every generator takes the problem's ``random.Random`` and nothing else
random. The breadth-first helpers answer what puzzle generators ask: shortest path lengths, a
shortest route, and how many shortest routes there are.

Example::

    >>> import random
    >>> maze = random_maze(random.Random(1), 3, 4)
    >>> rows = maze.draw()
    >>> len(rows), len(rows[0]), rows[0]
    (7, 9, '#########')
    >>> start, goal = maze.square(0), maze.square(11)
    >>> len(shortest_route(rows, start, goal)) == shortest_distance(rows, start, goal)
    True
    >>> count_shortest_paths(["...", "...", "..."], (0, 0), (2, 2))
    6
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations

from palaestra.core.retry import GenerationError

WALL = "#"
MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
Position = tuple[int, int]


@dataclass(slots=True)
class Maze:
    """A maze of ``cell_rows x cell_cols`` cells, drawn as ``2 * cell_rows + 1`` rows of characters.

    Cell ``i`` (row-major, ``i = r * cell_cols + c``) is the square ``(2r + 1, 2c + 1)``; the
    square between two cells joined by a passage is open, every other wall square stands.
    ``passages`` lists the joined pairs. The maze was carved as a tree from ``root``: ``parent[i]``
    is the cell ``i`` was carved from (-1 for the root) and ``depth[i]`` its distance from the root
    in cell steps; in a perfect maze (no loops) that tree is the only route between cells.

    >>> Maze(1, 2, 0, [-1, 0], [0, 1], [(0, 1)]).draw({0: "S"})
    ['#####', '#S..#', '#####']
    """

    cell_rows: int
    cell_cols: int
    root: int
    parent: list[int]
    depth: list[int]
    passages: list[tuple[int, int]]

    def links(self) -> list[list[int]]:
        """Per cell, the cells a passage leads to (for breadth-first search; a cell step is two squares)."""
        out: list[list[int]] = [[] for _ in range(self.cell_rows * self.cell_cols)]
        for i, j in self.passages:
            out[i].append(j)
            out[j].append(i)
        return out

    def draw(self, marks: dict[int, str] | None = None) -> list[str]:
        """The drawing as rows: ``#`` walls, ``.`` floor, ``marks[cell]`` on marked cells (such as S, G)."""
        return self.text(marks).split("\n")

    def text(self, marks: dict[int, str] | None = None) -> str:
        """The drawing as one string, rows separated by new lines."""
        canvas, centres = _canvas(self.cell_rows, self.cell_cols)
        squares = bytearray(canvas)
        for i, j in self.passages:
            squares[(centres[i] + centres[j]) >> 1] = 46  # the wall square halfway between: "."
        if marks:
            for cell, mark in marks.items():
                squares[centres[cell]] = ord(mark)
        return squares.decode()

    def square(self, cell: int) -> Position:
        """The ``(row, col)`` of a cell in the drawing."""
        return 2 * (cell // self.cell_cols) + 1, 2 * (cell % self.cell_cols) + 1


@cache
def _neighbour_orders(cell_rows: int, cell_cols: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per cell, every ordering of its grid neighbours (so one random draw shuffles them)."""
    cols = cell_cols
    neighbours = [
        [j for j, ok in ((i - cols, i >= cols), (i + cols, i < (cell_rows - 1) * cols),
                         (i - 1, i % cols > 0), (i + 1, i % cols < cols - 1)) if ok]
        for i in range(cell_rows * cols)
    ]
    return tuple(tuple(permutations(cell)) for cell in neighbours)


def random_maze(rng: random.Random, cell_rows: int, cell_cols: int, loops: float = 0.0) -> Maze:
    """A maze carved by randomized depth-first search (a perfect maze: one route between any two
    cells); then a ``loops`` fraction of the remaining inner walls is knocked out, creating loops
    and so several routes.

    >>> maze = random_maze(random.Random(0), 4, 4)
    >>> len(maze.passages)  # a perfect maze is a spanning tree of the cells
    15
    """
    if cell_rows < 1 or cell_cols < 1 or not 0.0 <= loops <= 1.0:
        raise ValueError("a maze needs at least one cell and a loops fraction in [0, 1]")
    orders = _neighbour_orders(cell_rows, cell_cols)
    cells = cell_rows * cell_cols
    rand = rng.random
    parent = [-1] * cells
    depth = [-1] * cells
    passages = []
    root = int(rand() * cells)
    depth[root] = 0
    options = orders[root]
    stack = [(root, iter(options[int(rand() * len(options))]))]
    while stack:  # every pass carves into a new cell or retires one: at most 2 * cells passes
        cell, untried = stack[-1]
        for nxt in untried:  # the cell's neighbours in its random order, resuming where it left off
            if depth[nxt] < 0:
                depth[nxt] = depth[cell] + 1
                parent[nxt] = cell
                passages.append((cell, nxt))
                options = orders[nxt]
                stack.append((nxt, iter(options[int(rand() * len(options))])))
                break
        else:
            stack.pop()
    if loops:
        joined = {(i, j) for i, j in passages} | {(j, i) for i, j in passages}
        walls = [(i, j) for i in range(cells) for j in orders[i][0] if i < j and (i, j) not in joined]
        passages.extend(rng.sample(walls, round(loops * len(walls))))
    return Maze(cell_rows, cell_cols, root, parent, depth, passages)


@cache
def _canvas(cell_rows: int, cell_cols: int) -> tuple[bytes, tuple[int, ...]]:
    """The drawing (rows ending in new lines, but the last) with every cell open and every wall
    standing, and the index of each cell's square in it."""
    stride = 2 * cell_cols + 2  # the row and its new line
    squares = bytearray(b"\n".join([b"#" * (stride - 1)] * (2 * cell_rows + 1)))
    centres = tuple((2 * (i // cell_cols) + 1) * stride + 2 * (i % cell_cols) + 1 for i in range(cell_rows * cell_cols))
    for at in centres:
        squares[at] = 46  # "."
    return bytes(squares), centres


def cell_distances(links: Sequence[Sequence[int]], start: int) -> tuple[list[int], list[int]]:
    """Breadth-first (distance, parent) over adjacency lists; -1 where unreachable / for the start."""
    distance = [-1] * len(links)
    parent = [-1] * len(links)
    distance[start] = 0
    queue = [start]
    for cell in queue:  # the list grows while iterated: a FIFO queue without deque overhead
        d = distance[cell] + 1
        for nxt in links[cell]:
            if distance[nxt] < 0:
                distance[nxt] = d
                parent[nxt] = cell
                queue.append(nxt)
    return distance, parent


def random_obstacles(rng: random.Random, rows: int, cols: int, density: float, start: Position, goal: Position,
                     wiggle: float = 0.3) -> list[str]:
    """A grid with about ``density`` of its squares blocked and an open path from ``start`` to ``goal``.

    A random path is laid first (a walk that steps towards the goal, or with probability
    ``wiggle`` sideways, never leaving the grid), then squares off that path are blocked at
    random; the path guarantees reachability whatever else is blocked.

    >>> grid = random_obstacles(random.Random(2), 6, 8, 0.4, (0, 0), (5, 7))
    >>> shortest_distance(grid, (0, 0), (5, 7)) >= 12
    True
    """
    if not (0 <= start[0] < rows and 0 <= start[1] < cols and 0 <= goal[0] < rows and 0 <= goal[1] < cols):
        raise ValueError("start and goal must lie on the grid")
    rand = rng.random
    keep = {start, goal}
    r, c = start
    for _ in range(4 * rows * cols):  # bounded walk; it ends once the goal is reached
        if (r, c) == goal:
            break
        towards = []
        if r != goal[0]:
            towards.append((r + (1 if goal[0] > r else -1), c))
        if c != goal[1]:
            towards.append((r, c + (1 if goal[1] > c else -1)))
        sideways = [(r + dr, c + dc) for dr, dc in MOVES.values() if 0 <= r + dr < rows and 0 <= c + dc < cols]
        options = sideways if rand() < wiggle else towards
        r, c = options[int(rand() * len(options))]
        keep.add((r, c))
    if (r, c) != goal:
        raise GenerationError("the random path did not reach the goal")
    return ["".join("." if (i, j) in keep or rand() >= density else WALL for j in range(cols)) for i in range(rows)]


def random_regions(rng: random.Random, rows: int, cols: int, sizes: Sequence[int], mixing: int = 15) -> list[list[int]]:
    """Partition a ``rows x cols`` grid into connected regions of the given ``sizes``.

    Returns the region index of every square. The start cuts a snake (boustrophedon) walk through
    the grid into consecutive pieces, each connected; then ``mixing * rows * cols`` random trades
    move a boundary square from one region to a neighbour and another square back, kept only
    when both regions stay connected, so sizes never change and shapes become irregular. Region
    numbers are then ordered by first appearance in reading order.

    >>> regions = random_regions(random.Random(1), 4, 4, [4, 4, 4, 4])
    >>> sorted(sum(row.count(k) for row in regions) for k in range(4))
    [4, 4, 4, 4]
    """
    if sum(sizes) != rows * cols or min(sizes) < 1:
        raise ValueError(f"region sizes {list(sizes)} must be positive and sum to {rows * cols}")
    snake = [(r, c if r % 2 == 0 else cols - 1 - c) for r in range(rows) for c in range(cols)]
    region = [[0] * cols for _ in range(rows)]
    at = 0
    for k, size in enumerate(sizes):
        for r, c in snake[at : at + size]:
            region[r][c] = k
        at += size
    members: list[set[Position]] = [set() for _ in sizes]
    for r in range(rows):
        for c in range(cols):
            members[region[r][c]].add((r, c))
    rand = rng.random
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    for _ in range(mixing * rows * cols):
        r, c = squares[int(rand() * len(squares))]
        a = region[r][c]
        others = [region[r + dr][c + dc] for dr, dc in MOVES.values()
                  if 0 <= r + dr < rows and 0 <= c + dc < cols and region[r + dr][c + dc] != a]
        if not others:
            continue
        b = others[int(rand() * len(others))]
        back = [(i, j) for i, j in members[b] if any(
            0 <= i + dr < rows and 0 <= j + dc < cols and region[i + dr][j + dc] == a and (i + dr, j + dc) != (r, c)
            for dr, dc in MOVES.values())]
        if not back:
            continue
        i, j = back[int(rand() * len(back))]
        members[a].discard((r, c))
        members[b].add((r, c))
        members[b].discard((i, j))
        members[a].add((i, j))
        if _connected(members[a]) and _connected(members[b]):
            region[r][c], region[i][j] = b, a
        else:
            members[a].add((r, c))
            members[b].discard((r, c))
            members[b].add((i, j))
            members[a].discard((i, j))
    renumber: dict[int, int] = {}
    for r, c in squares:
        renumber.setdefault(region[r][c], len(renumber))
    return [[renumber[k] for k in row] for row in region]


def _connected(squares: set[Position]) -> bool:
    if not squares:
        return True
    first = next(iter(squares))
    seen = {first}
    queue = [first]
    for r, c in queue:
        for dr, dc in MOVES.values():
            nxt = (r + dr, c + dc)
            if nxt in squares and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return len(seen) == len(squares)


# --- breadth-first helpers on character grids --------------------------------------------


def _open(grid: Sequence[str], r: int, c: int) -> bool:
    return 0 <= r < len(grid) and 0 <= c < len(grid[r]) and grid[r][c] != WALL


def distances(grid: Sequence[str], start: Position) -> dict[Position, int]:
    """Breadth-first distance (in moves) from ``start`` to every reachable open square."""
    distance = {start: 0}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for dr, dc in MOVES.values():
            nxt = (r + dr, c + dc)
            if nxt not in distance and _open(grid, *nxt):
                distance[nxt] = distance[(r, c)] + 1
                queue.append(nxt)
    return distance


def search_tree(neighbours: Mapping[Position, Sequence[Position]], start: Position,
                closed: Collection[Position] = ()) -> tuple[dict[Position, Position | None], dict[Position, int]]:
    """Breadth-first parents and distances of the squares reachable from ``start`` over ``neighbours`` (each
    square's open neighbours, in a fixed order) without entering ``closed`` (doors held shut, say), in order of
    distance: the dicts' order, so the first square of a kind found in them is a nearest one.

    >>> parent, depth = search_tree({(0, 0): [(0, 1)], (0, 1): [(0, 0), (0, 2)], (0, 2): [(0, 1)]}, (0, 0))
    >>> depth[(0, 2)], tree_path(parent, (0, 2))
    (2, [(0, 0), (0, 1), (0, 2)])
    """
    parent: dict[Position, Position | None] = {start: None}
    depth = {start: 0}
    queue = [start]
    for square in queue:  # the queue grows to the reachable squares at most
        for nxt in neighbours[square]:
            if nxt not in parent and nxt not in closed:
                parent[nxt] = square
                depth[nxt] = depth[square] + 1
                queue.append(nxt)
    return parent, depth


def tree_path(parent: Mapping[Position, Position | None], target: Position) -> list[Position]:
    """The squares from the tree's root to ``target`` (which must be in ``parent``), root first."""
    path = [target]
    for _ in range(len(parent)):
        previous = parent[path[-1]]
        if previous is None:
            break
        path.append(previous)
    return path[::-1]


def shortest_distance(grid: Sequence[str], start: Position, goal: Position) -> int | None:
    """The fewest moves from ``start`` to ``goal``, or None when the goal cannot be reached."""
    return distances(grid, start).get(goal)


def shortest_route(grid: Sequence[str], start: Position, goal: Position) -> str | None:
    """One shortest route as move letters (``"RRDL"``), or None when the goal cannot be reached."""
    to_goal = distances(grid, goal)
    if start not in to_goal:
        return None
    route, (r, c) = [], start
    for _ in range(to_goal[start]):  # step to any neighbour one move closer to the goal
        for move, (dr, dc) in MOVES.items():
            if to_goal.get((r + dr, c + dc), -1) == to_goal[(r, c)] - 1:
                route.append(move)
                r, c = r + dr, c + dc
                break
    return "".join(route)


def count_shortest_paths(grid: Sequence[str], start: Position, goal: Position) -> int:
    """How many distinct shortest routes lead from ``start`` to ``goal`` (0 when unreachable)."""
    distance = distances(grid, start)
    if goal not in distance:
        return 0
    ways = {start: 1}
    for square in sorted(distance, key=distance.__getitem__):  # in order of distance
        if square == start:
            continue
        r, c = square
        ways[square] = sum(ways.get((r - dr, c - dc), 0) for dr, dc in MOVES.values()
                           if distance.get((r - dr, c - dc), -2) == distance[square] - 1)
    return ways[goal]
