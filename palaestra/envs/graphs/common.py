"""What the graph-reasoning environments share: reading nodes, node groups and edges, and prompt text.

Not an environment (nothing here is registered). Nodes are the integers ``0..n-1``. The readers
follow the shared grading rules (wrappers and a short trailing remark looked through by
:func:`palaestra.verifiers.normalize.read_answer`, hedges unreadable), never raise, and bound
their work by the answer's length.

- :func:`read_nodes`: ``0 3 5``, ``0, 3, 5``, ``[0, 3, 5]``, ``0 -> 3 -> 5``, ``0 → 3 → 5``;
- :func:`read_groups`: one group per line (``0 1 2`` / ``3 4``, optionally ``Component 1: 0, 1, 2``),
  bracketed groups (``{0, 1, 2}, {3, 4}``, ``[[0, 1, 2], [3, 4]]``) or groups split by ``;`` or ``|``;
- :func:`read_edges`: ``0-1, 2-3``, ``(0, 1), (2, 3)``, ``0 -> 1; 2 -> 3``, one ``0 1`` per line;
- :func:`read_node_values`: ``0: 1, 1: 2`` (a colouring, a labelling).

It also holds the checks several envs make (:func:`cycle_error`, :func:`check_partition`), small
algorithms their generators need (:func:`find_cycle`, :func:`two_colouring`, :func:`greedy_colours_within`) and
prompt text (:func:`edge_list`, :func:`weighted_edge_lines`). ``strip_numbering`` and ``read_node_values`` are
generic enough for :mod:`palaestra.verifiers.sets` / :mod:`palaestra.verifiers.assignments`.

Example::

    >>> read_nodes("0 -> 3 -> 5", 6), read_nodes("[0, 3, 5].", 6), read_nodes("[0, 3, 5]. Done.", 6), read_nodes("0 3 9", 6)
    ([0, 3, 5], [0, 3, 5], None, None)
    >>> read_groups("{0, 2}, {1}", 3), read_groups("Component 1: 0 2\\nComponent 2: 1", 3)
    ([(None, [0, 2]), (None, [1])], [(1, [0, 2]), (2, [1])])
    >>> read_edges("(0, 1), (1, 2)", 3), read_edges("0-1, 1-2", 3), read_edges("0-1, 1", 3)
    ([(0, 1), (1, 2)], [(0, 1), (1, 2)], None)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from palaestra.core import Problem
from palaestra.core.retry import GenerationError, retry
from palaestra.core.task import MAX_ANSWER_CHARS  # the readers' cap: the tasks' own
from palaestra.verifiers.normalize import (
    closing_bracket,
    read_answer,
    simplify_latex,
    squeeze_spaces,
    unify,
)
from palaestra.verifiers.sets import EMPTY_WORDS, read_list

T = TypeVar("T")

NONE_WORDS = frozenset(w.lower() for w in (*EMPTY_WORDS, "no edges", "no nodes", "no bridges", "-"))

_ARROWS = re.compile(r" ?(?:<->|->|=>|→|⟶|—|–|-) ?")
_NODE = re.compile(r"^(?:node |vertex |v)?(\d{1,6})$", re.IGNORECASE)
_BULLET = re.compile(r"^ ?[-*•] ")
_LIST_LABEL = re.compile(r"^[A-Za-z][A-Za-z ]{1,40}(?::|=|\bis\b|\bare\b) ?(?=\S)")
_NUMBERING = re.compile(r"^ ?(\d{1,4})[.)] ")
_NODE_WORD = re.compile(r"\b(?:nodes?|vertex|vertices) (?=\d)", re.IGNORECASE)
_LABEL = re.compile(r"^(?:[A-Za-z][A-Za-z ]{0,24}?)? ?(\d{1,4})? ?[:=] ?")
_GROUP = re.compile(r" ?[\[{(]([^\[\]{}()]*)[\]})] ?(?:[,;|]|\band\b)? ?")
_GROUP_LABEL = re.compile(r" ?(?:[A-Za-z][A-Za-z ]{0,24}?)? ?\d{0,4} ?[:=] ?")
_PAIR_BRACKETED = re.compile(r" ?[\[{(] ?(\d{1,6}) ?(?:,|->|→|-|–| ) ?(\d{1,6}) ?[\]})] ?(?:[,;\n]|\band\b)? ?")
_PAIR_PLAIN = re.compile(r"^(\d{1,6}) ?(?:<->|->|→|—|–|-|:| ) ?(\d{1,6})$")
_PLAIN_LIST = re.compile(r"^\d{1,6} ?(?:<->|->|→|—|–|-|:) ?\d{1,6} ?[,;\n]")
_PAIR_SPLIT = re.compile(r" ?(?:[,;\n]|\band\b) ?")


def _clean(text: str) -> str:
    return squeeze_spaces(simplify_latex(unify(text))).strip()


def node_reader(n: int) -> Callable[[str], int | None]:
    """An item reader for one node id ``0..n-1`` (``7``, ``node 7``, ``v7``)."""

    def read(text: str) -> int | None:
        match = _NODE.match(text.strip())
        if not match:
            return None
        node = int(match.group(1))
        return node if node < n else None

    return read


def _bounded(text: object) -> bool:
    return isinstance(text, str) and len(text) <= MAX_ANSWER_CHARS


def read_nodes(text: str, n: int, *, allow_empty: bool = False) -> list[int] | None:
    """Node ids in written order, separated by spaces, commas or arrows; ``None`` if unreadable.

    With ``allow_empty``, ``none`` / ``{}`` / ``no nodes`` read as the empty list.

    >>> read_nodes("none", 4, allow_empty=True), read_nodes("1 or 2", 4)
    ([], None)
    """
    if not _bounded(text):
        return None
    reader = node_reader(n)

    def core(s: str) -> list[int] | None:
        s = _clean(s)
        if s.lower().rstrip(".") in NONE_WORDS:
            return [] if allow_empty else None
        s = _NODE_WORD.sub("", _ARROWS.sub(", ", strip_numbering(s)))
        return read_list(s, reader, space_separated=True, allow_empty=allow_empty)

    return read_answer(text, core)


_LEADING_YES = re.compile(r"^\W{0,8}yes\b[\s,.:;!]*", re.IGNORECASE)


def without_yes(text: str) -> str:
    """``text`` without a leading ``Yes,`` / ``Yes:``: "Does it have a cycle? Yes: 0 1 2" gives the cycle.

    >>> without_yes("Yes: 0 1 2"), without_yes("0 1 2")
    ('0 1 2', '0 1 2')
    """
    return _LEADING_YES.sub("", text, count=1) if _bounded(text) else text


def strip_numbering(s: str) -> str:
    """Lines numbered ``1.``, ``2.``, ... (or ``1)``) in order, or all bulleted (``- ``, ``* ``, ``• ``),
    without their marks, and a short leading label (``Nodes:``, ``Vertex cover:``, ``S =``, ``The bridges are``)
    dropped; other text as it is.

    >>> strip_numbering("1. 4\\n2. 0"), strip_numbering("- 4\\n- 0"), strip_numbering("Vertex cover: 4 0")
    ('4\\n0', '4\\n0', '4 0')
    """
    s = _LIST_LABEL.sub("", s, count=1)
    lines = s.split("\n")
    if len(lines) > 1 and all(_BULLET.match(line) for line in lines):
        return "\n".join(_BULLET.sub("", line, count=1) for line in lines)
    marks = [_NUMBERING.match(line) for line in lines]
    if len(lines) < 2 or not all(marks) or [int(m.group(1)) for m in marks if m] != list(range(1, len(lines) + 1)):
        return s
    return "\n".join(line[m.end():] for line, m in zip(lines, marks) if m)


def _labelled(line: str) -> tuple[int | None, str]:
    """``("Component 2: 0 1")`` -> ``(2, "0 1")``; a line without a label -> ``(None, line)``."""
    match = _LABEL.match(line)
    if not match or match.end() >= len(line):
        return None, line
    return (int(match.group(1)) if match.group(1) else None), line[match.end() :]


def read_groups(text: str, n: int, *, allow_empty_group: bool = False) -> list[tuple[int | None, list[int]]] | None:
    """Groups of nodes as ``(label, nodes)`` pairs in written order; the label is the number of a
    ``Layer 2:``-style prefix when a line has one, else None. ``None`` if unreadable.

    >>> read_groups("0 1; 2", 3), read_groups("[[0, 1], [2]]", 3)
    ([(None, [0, 1]), (None, [2])], [(None, [0, 1]), (None, [2])])
    """
    if not _bounded(text):
        return None
    reader = node_reader(n)

    def nodes(part: str) -> list[int] | None:
        part = part.strip()
        if not part:
            return [] if allow_empty_group else None
        return read_nodes(part, n, allow_empty=allow_empty_group)

    def core(s: str) -> list[tuple[int | None, list[int]]] | None:
        s = _clean(s)
        if s[:1] in "[{(" and closing_bracket(s, 0) == len(s) - 1 and any(c in s[1:-1] for c in "[{("):
            s = s[1:-1].strip()
        if any(c in s for c in "[{("):
            return _bracketed_groups(s, reader, allow_empty_group)
        if "\n" in s:
            parts = strip_numbering(s).split("\n")  # "1. 0 4" / "- 0 4" per line: list marks, not groups' labels
        elif ";" in s or "|" in s:
            parts = re.split(r"[;|]", s)
        else:
            parts = [s]
        groups = []
        for part in parts:
            label, body = _labelled(part.strip())
            read = nodes(body)
            if read is None:
                return None
            groups.append((label, read))
        return groups

    return read_answer(text, core)


def _bracketed_groups(s: str, reader: Callable[[str], int | None], allow_empty: bool
                      ) -> list[tuple[int | None, list[int]]] | None:
    groups: list[tuple[int | None, list[int]]] = []
    position = 0
    for _ in range(len(s) + 1):
        if position >= len(s):
            return groups or None
        label = _GROUP_LABEL.match(s, position)
        start = label.end() if label and label.group().strip() else position
        match = _GROUP.match(s, start)
        if not match:
            return None
        body = match.group(1).strip()
        if body:
            items = read_list(_ARROWS.sub(", ", body), reader, space_separated=True)
            if items is None:
                return None
        elif not allow_empty:
            return None
        else:
            items = []
        groups.append((None, items))
        position = match.end()
    return None


def read_edges(text: str, n: int, *, allow_empty: bool = False) -> list[tuple[int, int]] | None:
    """Node pairs in written order (``0-1``, ``(0, 1)``, ``0 -> 1``); ``None`` if unreadable.

    >>> read_edges("[(0, 2), (1, 2)]", 3), read_edges("0 -> 2\\n1 -> 2", 3), read_edges("none", 3, allow_empty=True)
    ([(0, 2), (1, 2)], [(0, 2), (1, 2)], [])
    """
    if not _bounded(text):
        return None

    def core(s: str) -> list[tuple[int, int]] | None:
        s = _clean(s)
        if s.lower().rstrip(".") in NONE_WORDS:
            return [] if allow_empty else None
        s = strip_numbering(s)
        # one outer bracket around the whole list: [(0, 1), (1, 2)] or [0-1, 1-2]
        if s[:1] in "[{" and closing_bracket(s, 0) == len(s) - 1 and (
                any(c in s[1:-1] for c in "[{(") or _PLAIN_LIST.match(s[1:-1].strip())):
            s = s[1:-1].strip()
        pairs: list[tuple[int, int]] = []
        if any(c in s for c in "[{("):
            position = 0
            for _ in range(len(s) + 1):
                if position >= len(s):
                    break
                match = _PAIR_BRACKETED.match(s, position)
                if not match:
                    return None
                pairs.append((int(match.group(1)), int(match.group(2))))
                position = match.end()
        else:
            for piece in _PAIR_SPLIT.split(s):
                piece = piece.strip()
                if not piece:
                    continue
                match = _PAIR_PLAIN.match(piece)
                if not match:
                    return None
                pairs.append((int(match.group(1)), int(match.group(2))))
        if not pairs or any(u >= n or v >= n for u, v in pairs):
            return None
        return pairs

    return read_answer(text, core)


def edge_list(edges: Iterable[Sequence[int]], directed: bool = False) -> str:
    """Edges as compact prompt text: ``0-1, 0-3, 2-3`` (``0->1`` when directed), sorted.

    >>> edge_list([[2, 3, 1], [0, 1, 1]]), edge_list([[1, 0, 1]], directed=True)
    ('0-1, 2-3', '1->0')
    """
    link = "->" if directed else "-"
    return ", ".join(f"{e[0]}{link}{e[1]}" for e in sorted(list(e[:2]) for e in edges))


def weighted_edge_lines(edges: Iterable[Sequence[int]], directed: bool = False, word: str = "weight") -> str:
    """Weighted edges, one per line: ``0 - 1 (weight 4)`` (``0 -> 1`` when directed), sorted."""
    link = " -> " if directed else " - "
    return "\n".join(f"{u}{link}{v} ({word} {w})" for u, v, w in sorted(tuple(e) for e in edges))


def format_groups(groups: Iterable[Iterable[int]]) -> str:
    """Groups one per line, each sorted, groups ordered by their smallest node."""
    ordered = sorted(sorted(g) for g in groups)
    return "\n".join(" ".join(map(str, g)) for g in ordered)


def braced_groups(groups: Iterable[Iterable[int]]) -> str:
    """Groups as ``{0, 2}, {1}`` (another spelling a grader accepts)."""
    return ", ".join("{" + ", ".join(map(str, g)) + "}" for g in groups)


def partition_of(groups: Iterable[Iterable[int]]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(g) for g in groups)


def read_partition(text: str, n: int) -> list[list[int]] | None:
    """A partition of ``0..n-1`` into groups as written (labels dropped), or None if unreadable.

    Does not check that the groups cover every node once; callers do, with a message.
    """
    groups = read_groups(text, n)
    return None if groups is None else [nodes for _, nodes in groups]


def random_groups(rng: random.Random, n: int, k: int) -> list[list[int]]:
    """Nodes ``0..n-1`` shuffled and cut into ``k`` non-empty groups (``1 <= k <= n``) at random places.

    >>> random_groups(random.Random(0), 5, 2)
    [[2, 1, 0, 4], [3]]
    """
    order = list(range(n))
    rng.shuffle(order)
    cuts = sorted(rng.sample(range(1, n), k - 1))
    return [order[a:b] for a, b in zip([0, *cuts], [*cuts, n])]


def check_partition(groups: list[list[int]], n: int) -> str | None:
    """Why ``groups`` is not a partition of ``0..n-1`` (a node twice or missing), or None if it is."""
    seen: set[int] = set()
    for group in groups:
        for node in group:
            if node in seen:
                return f"node {node} appears twice"
            seen.add(node)
    missing = [v for v in range(n) if v not in seen]
    return f"node {missing[0]} is missing" if missing else None


def attempt(draw: Callable[[], T]) -> T | None:
    """``draw()``, or None when a shared generator reports that this draw got stuck (for ``retry``)."""
    try:
        return draw()
    except GenerationError:
        return None


BUSIEST_KEPT = 0.02
"""The share of drawn graphs kept when the busiest-node rule names their answer (see :func:`busiest_guesses`)."""


def busiest_guesses(n: int, edges: Iterable[Sequence[int]]) -> list[frozenset[int]]:
    """What "the busiest node" rules answer: every node of the highest degree, and the first of them alone.

    Where a node's position (centre, centroid, ancestor) is asked, the highest-degree node is a cheap
    guess that is often right on small random trees; generators redraw most graphs it solves.
    """
    degree = [0] * n
    for u, v, *_ in edges:
        degree[u] += 1
        degree[v] += 1
    top = [v for v in range(n) if degree[v] == max(degree)]
    return [frozenset(top), frozenset(top[:1])]


def busiest_rule_answers(answer: Iterable[int], n: int, edges: Iterable[Sequence[int]]) -> bool:
    """Whether a busiest-node guess is exactly ``answer`` (a set of nodes)."""
    return frozenset(answer) in busiest_guesses(n, edges)


def busiest_answer(problem: Problem) -> str:
    """The busiest-node rule's answer as a reply, for ``heuristics()``: every node of the highest degree.

    >>> busiest_answer(Problem(prompt="", answer=None, data={"n": 4, "edges": [[0, 1], [1, 2], [2, 3]]}))
    '1 2'
    """
    return " ".join(map(str, sorted(busiest_guesses(problem.data["n"], problem.data["edges"])[0])))


def edge_set(edges: Iterable[Sequence[int]], directed: bool) -> set[tuple[int, int]]:
    """The ``(u, v)`` pairs one may step along: both ways when undirected."""
    pairs = {(int(e[0]), int(e[1])) for e in edges}
    return pairs if directed else pairs | {(v, u) for u, v in pairs}


def closed_walk(nodes: list[int]) -> list[int]:
    """A cycle written with its first node repeated at the end (``0 1 2 0``) without the repeat."""
    return nodes[:-1] if len(nodes) > 1 and nodes[0] == nodes[-1] else nodes


def cycle_error(nodes: list[int], steps: set[tuple[int, int]], directed: bool) -> str | None:
    """Why ``nodes`` (in order, closing back to the first) is not a simple cycle of the graph, or None.

    >>> steps = edge_set([[0, 1], [1, 2], [2, 0]], directed=False)
    >>> cycle_error([0, 1, 2], steps, False), cycle_error([0, 1], steps, False)
    (None, 'a cycle of an undirected graph needs at least 3 nodes')
    """
    shortest = 2 if directed else 3
    if len(nodes) < shortest:
        return f"a cycle of {'a directed' if directed else 'an undirected'} graph needs at least {shortest} nodes"
    if len(set(nodes)) != len(nodes):
        return "the cycle repeats a node"
    for u, v in zip(nodes, nodes[1:] + nodes[:1]):
        if (u, v) not in steps:
            return f"{u}->{v} is not an edge" if directed else f"{u}-{v} is not an edge"
    return None


def non_cycle_example(rng: random.Random, n: int, edges: Iterable[Sequence[int]], directed: bool) -> list[int]:
    """Three distinct nodes that are not a cycle of the graph in this order: a prompt's example of a
    cycle that can never be a right answer. The graph must not be complete (the callers' graphs are sparse).

    >>> non_cycle_example(random.Random(0), 3, [[0, 1], [1, 2]], directed=False) in ([0, 1, 2], [0, 2, 1],
    ...     [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0])
    True
    """
    steps = edge_set(edges, directed)
    # A random triple is almost never a cycle of a sparse graph: draw instead of enumerating all n^3 triples.
    return retry(lambda: rng.sample(range(n), 3), lambda triple: cycle_error(triple, steps, directed) is not None,
                 what="three nodes that are not a cycle")


def hop_layers(neighbours: Sequence[Sequence[int]], source: int) -> tuple[list[int], list[int]]:
    """Hop distances from ``source`` (-1 where unreachable) and the reached nodes in BFS order.

    Takes a prebuilt adjacency (``Graph.neighbours()``) so that searches from many sources
    share it; the queue is the growing ``reached`` list itself.

    >>> hop_layers([[1], [0, 2], [1], []], 0)
    ([0, 1, 2, -1], [0, 1, 2])
    """
    distance = [-1] * len(neighbours)
    distance[source] = 0
    reached = [source]
    for u in reached:  # the list grows while it is walked: a FIFO queue without deque calls
        step = distance[u] + 1
        for v in neighbours[u]:
            if distance[v] < 0:
                distance[v] = step
                reached.append(v)
    return distance, reached


def find_cycle(n: int, edges: Iterable[Sequence[int]], directed: bool) -> list[int] | None:
    """One simple cycle (nodes in order) of the graph, or None when it has none (iterative DFS).

    >>> find_cycle(4, [[0, 1], [1, 2], [2, 3], [3, 1]], directed=True)
    [1, 2, 3]
    """
    out: list[list[int]] = [[] for _ in range(n)]
    for e in edges:
        out[e[0]].append(e[1])
        if not directed:
            out[e[1]].append(e[0])
    state = [0] * n  # 0 unseen, 1 on the stack, 2 done
    parent = [-1] * n
    for root in range(n):
        if state[root]:
            continue
        state[root] = 1
        stack = [(root, iter(out[root]))]
        while stack:
            u, children = stack[-1]
            advanced = False
            for v in children:
                if not directed and v == parent[u]:
                    continue
                if state[v] == 1:  # a back edge u -> v closes the cycle v .. u
                    cycle = [u]
                    while cycle[-1] != v:
                        cycle.append(parent[cycle[-1]])
                    return cycle[::-1]
                if state[v] == 0:
                    state[v], parent[v] = 1, u
                    stack.append((v, iter(out[v])))
                    advanced = True
                    break
            if not advanced:
                state[u] = 2
                stack.pop()
    return None


def two_colouring(n: int, edges: Iterable[Sequence[int]]) -> tuple[list[int], list[int] | None]:
    """(a side 0/1 per node from BFS, an odd cycle or None). The sides are a bipartition exactly
    when no odd cycle is returned; the cycle closes through the BFS tree of a clashing edge.

    >>> two_colouring(4, [[0, 1], [1, 2], [2, 3]])
    ([0, 1, 0, 1], None)
    >>> two_colouring(3, [[0, 1], [1, 2], [0, 2]])[1]
    [1, 0, 2]
    """
    out: list[list[int]] = [[] for _ in range(n)]
    edge_pairs = [(int(e[0]), int(e[1])) for e in edges]
    for u, v in edge_pairs:
        out[u].append(v)
        out[v].append(u)
    side, parent, depth = [-1] * n, [-1] * n, [0] * n
    for root in range(n):
        if side[root] >= 0:
            continue
        side[root] = 0
        queue = [root]
        for u in queue:
            for v in out[u]:
                if side[v] < 0:
                    side[v], parent[v], depth[v] = 1 - side[u], u, depth[u] + 1
                    queue.append(v)
    for u, v in edge_pairs:
        if side[u] == side[v]:  # climb to the lowest common ancestor: the two branches make an odd cycle
            left, right = [u], [v]
            while left[-1] != right[-1]:
                if depth[left[-1]] >= depth[right[-1]]:
                    left.append(parent[left[-1]])
                else:
                    right.append(parent[right[-1]])
            return side, left + right[-2::-1]
    return side, None


_NODE_VALUE = re.compile(r"^(?:node |vertex |v)?(\d{1,6}) ?(?:[:=]|->|→|is) ?(?:colou?r )?(-?\d{1,6})$", re.IGNORECASE)


_SPACED_VALUES = re.compile(r"\d{1,6} ?[:=] ?-?\d{1,6}(?: \d{1,6} ?[:=] ?-?\d{1,6})+")


def read_node_values(text: str, n: int) -> dict[int, int] | None:
    """``{node: value}`` from ``0: 1, 1: 2`` (or ``0 = 1``, ``node 0: colour 1``, one pair per line).

    A node given two different values makes the answer unreadable (a hedge); None if unreadable.

    >>> read_node_values("0: 1, 1: 2", 2), read_node_values("{0: 1, 0: 2}", 2)
    ({0: 1, 1: 2}, None)
    """
    if not _bounded(text):
        return None

    def core(s: str) -> dict[int, int] | None:
        s = strip_numbering(_clean(s))
        if s[:1] in "{[(" and closing_bracket(s, 0) == len(s) - 1:
            s = s[1:-1].strip()
        if _SPACED_VALUES.fullmatch(s):  # "0: 2 1: 1 2: 3", pairs separated by single spaces only
            s = re.sub(r"(\d) (?=\d{1,6} ?[:=])", r"\1, ", s)
        values: dict[int, int] = {}
        for piece in re.split(r" ?[,;\n] ?", s):
            piece = piece.strip().strip("\"'")
            if not piece:
                continue
            match = _NODE_VALUE.match(piece)
            if not match:
                return None
            node, value = int(match.group(1)), int(match.group(2))
            if node >= n or values.setdefault(node, value) != value:
                return None
        return values or None

    return read_answer(text, core)


# The likeliest to colour a random planted graph optimally first: the check stops at the first that does.
GREEDY_STRATEGIES = ("smallest_last", "connected_sequential_bfs", "connected_sequential_dfs", "independent_set",
                     "largest_first", "saturation_largest_first")


def greedy_colours_within(n: int, edges: Iterable[Sequence[int]], k: int, rng: random.Random, relabellings: int) -> bool:
    """Whether one of networkx's textbook greedy colourings (:data:`GREEDY_STRATEGIES`) colours the graph with at
    most ``k`` colours, on the prompt's numbering or on one of ``relabellings`` random renumberings of the nodes.

    networkx breaks ties by node order, so a generator that redraws against the prompt's numbering alone leaves a
    policy with its own tie-break (the ids reversed or shuffled) solving about as often as before (round-41 red
    team: best of six 0.28-0.60 at levels 2-4 of the colouring envs); checking a few renumberings rejects the
    graphs on which a strategy succeeds under most tie-breaks."""
    import networkx as nx

    pairs = [(u, v) for u, v in edges]
    order = list(range(n))
    for attempt in range(relabellings + 1):
        if attempt:
            rng.shuffle(order)
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from(sorted(tuple(sorted((order[u], order[v]))) for u, v in pairs))
        if any(max(nx.greedy_color(graph, strategy).values()) < k for strategy in GREEDY_STRATEGIES):
            return True  # networkx numbers colours from 0
    return False
