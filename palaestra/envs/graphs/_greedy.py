"""Textbook greedy heuristics for the graph optimisation envs.

Generators use them to draw, from level 2 on, graphs on which the heuristic is not optimal (so a
cheap rule does not solve the hard levels), and the envs declare them to the kit
(:meth:`palaestra.core.task.Task.heuristics`), which measures what they still solve. Each takes a
node count and an edge list and breaks ties towards the smaller node id (``prefer_high=True``: the larger),
so it is deterministic. A generator that redraws against one tie-break only leaves the other one solving
most problems (round-3 red team: DSATUR and Warnsdorff with ties to the larger id solved 47-60% of the
top levels), so generators redraw against both and against the other textbook orders here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from palaestra.core.bits import set_bits


def neighbour_sets(n: int, edges: Sequence[Sequence[int]]) -> list[set[int]]:
    joined: list[set[int]] = [set() for _ in range(n)]
    for u, v in edges:
        joined[u].add(v)
        joined[v].add(u)
    return joined


def greedy_clique(n: int, edges: Sequence[Sequence[int]]) -> list[int]:
    """Start at a node of highest degree; repeatedly add the candidate (a node joined to every node taken)
    with the most neighbours among the candidates."""
    joined = neighbour_sets(n, edges)
    start = max(range(n), key=lambda v: (len(joined[v]), -v))
    clique, candidates = [start], set(joined[start])
    while candidates:
        nxt = max(sorted(candidates), key=lambda v: (len(joined[v] & candidates), -v))
        clique.append(nxt)
        candidates &= joined[nxt]
    return sorted(clique)


def dsatur(n: int, edges: Sequence[Sequence[int]], prefer_high: bool = False) -> list[int]:
    """Brélaz's DSATUR: colour next the uncoloured node seeing the most distinct colours (then the highest
    degree, then the lower id, or the higher one with ``prefer_high``), with the smallest colour its neighbours
    do not use. Colours are 1, 2, ..."""
    joined = neighbour_sets(n, edges)
    colours = [0] * n
    seen: list[set[int]] = [set() for _ in range(n)]  # the colours among each node's coloured neighbours
    # The choice key (distinct colours seen, degree, lower id) packed into one integer per node, kept up to date
    # as colours appear: saturation counts in units of (n + 1) ** 2, degree in units of n + 1, then n - id.
    unit = (n + 1) ** 2
    score = [len(joined[v]) * (n + 1) + (v if prefer_high else n - v) for v in range(n)]
    uncoloured = set(range(n))
    for _ in range(n):
        node = max(uncoloured, key=score.__getitem__)
        uncoloured.remove(node)
        colour = next(c for c in range(1, n + 2) if c not in seen[node])
        colours[node] = colour
        for u in joined[node]:
            if colour not in seen[u]:
                seen[u].add(colour)
                score[u] += unit
    return colours


def greedy_cover(n: int, edges: Sequence[Sequence[int]]) -> list[int]:
    """Repeatedly take a node touching the most uncovered edges; the nodes in the order taken."""
    left = [tuple(e) for e in edges]
    cover = []
    for _ in range(n):
        if not left:
            break
        degree = [0] * n
        for u, v in left:
            degree[u] += 1
            degree[v] += 1
        top = max(range(n), key=lambda v: (degree[v], -v))
        cover.append(top)
        left = [e for e in left if top not in e]
    return cover


def leaf_rule_cover(n: int, edges: Sequence[Sequence[int]], prefer_high: bool = False) -> list[int]:
    """While an uncovered edge is left: if some node touches exactly one uncovered edge (a leaf; the lowest id,
    or the highest with ``prefer_high``), take its neighbour; else a node touching the most uncovered edges
    (ties the same way). The nodes in the order taken."""
    left = [tuple(e) for e in edges]
    cover = []
    sign = 1 if prefer_high else -1
    for _ in range(n):
        if not left:
            break
        degree = [0] * n
        other = [0] * n
        for u, v in left:
            degree[u] += 1
            degree[v] += 1
            other[u], other[v] = v, u
        leaves = [v for v in range(n) if degree[v] == 1]
        if leaves:
            top = other[max(leaves, key=lambda v: sign * v)]
        else:
            top = max(range(n), key=lambda v: (degree[v], sign * v))
        cover.append(top)
        left = [e for e in left if top not in e]
    return cover


def warnsdorff(n: int, edges: Sequence[Sequence[int]], prefer_high: bool = False) -> list[int]:
    """Warnsdorff's rule from every start node (fewest-degree starts first): step to the unvisited neighbour
    with the fewest unvisited neighbours (ties to the lower id, or the higher one with ``prefer_high``). The
    first walk that visits every node, else the longest one."""
    joined = neighbour_sets(n, edges)
    best: list[int] = []
    sign = -1 if prefer_high else 1
    for start in sorted(range(n), key=lambda v: (len(joined[v]), sign * v)):
        path, seen = [start], {start}
        while True:
            options = [v for v in joined[path[-1]] if v not in seen]
            if not options:
                break
            nxt = min(options, key=lambda v: (len(joined[v] - seen), sign * v))
            path.append(nxt)
            seen.add(nxt)
        if len(path) == n:
            return path
        if len(path) > len(best):
            best = path
    return best


def smallest_last(n: int, edges: Sequence[Sequence[int]]) -> list[int]:
    """Greedy colouring in smallest-last order (Matula and Beck): repeatedly remove a node of smallest
    remaining degree, then colour in the reverse order of removal with the smallest free colour."""
    joined = neighbour_sets(n, edges)
    degree = [len(joined[v]) for v in range(n)]
    left, removed = set(range(n)), []
    for _ in range(n):
        node = min(left, key=lambda v: (degree[v], v))
        left.remove(node)
        removed.append(node)
        for u in joined[node]:
            if u in left:
                degree[u] -= 1
    colours = [0] * n
    for node in reversed(removed):
        used = {colours[u] for u in joined[node]}
        colours[node] = next(c for c in range(1, n + 2) if c not in used)
    return colours


def greedy_colourings(n: int, edges: Sequence[Sequence[int]]) -> dict[str, list[int]]:
    """The textbook greedy colourings a colouring generator must beat, by name (each colours 1, 2, ...)."""
    return {
        "DSATUR": dsatur(n, edges),
        "DSATUR, ties to the larger id": dsatur(n, edges, prefer_high=True),
        "smallest-last greedy": smallest_last(n, edges),
    }


def independent_set_cover(n: int, edges: Sequence[Sequence[int]], prefer_high: bool = False) -> list[int]:
    """The complement of the greedy independent set (repeatedly take a node of fewest remaining neighbours,
    ties to the lower id or the higher one with ``prefer_high``, dropping its neighbours): a vertex cover, in
    increasing order."""
    masks = _bit_masks(n, edges)  # bit masks: generators run this rule on every draw
    left, independent = (1 << n) - 1, 0
    while left:
        nodes = set_bits(left)
        counts = [(masks[v] & left).bit_count() for v in nodes]
        fewest = min(counts)
        # Among the nodes of fewest neighbours left (lowest first), the first one, or the last with prefer_high.
        node = nodes[len(counts) - 1 - counts[::-1].index(fewest) if prefer_high else counts.index(fewest)]
        independent |= 1 << node
        left &= ~(masks[node] | 1 << node)
    return [v for v in range(n) if not independent >> v & 1]


def grown_clique(joined: Sequence[set[int]], start: int | None, prefer_high: bool = False,
                 by_degree: bool = False) -> list[int]:
    """A clique grown greedily from ``start`` (or, with None, from every node as a candidate): repeatedly add the
    candidate (a node joined to every node taken) with the most neighbours among the candidates (with
    ``by_degree``: the most neighbours in the graph), ties to the lower id (the higher with ``prefer_high``)."""
    masks = [sum(1 << u for u in near) for near in joined]
    grow = _growth(masks, prefer_high, by_degree)
    return sorted(grow((1 << len(joined)) - 1) if start is None else [start, *grow(masks[start])])


def multi_start_clique(n: int, edges: Sequence[Sequence[int]], prefer_high: bool = False,
                       by_degree: bool = False) -> list[int]:
    """The greedy clique of :func:`grown_clique` grown from every start node; the largest one found (the first on
    a tie). One memoised growth serves every start (the generator runs this on every draw of a 30-odd node graph)."""
    masks = _bit_masks(n, edges)
    grow = _growth(masks, prefer_high, by_degree)
    best: list[int] = []
    for start in range(n):
        clique = [start, *grow(masks[start])]
        if len(clique) > len(best):
            best = sorted(clique)
    return best


def peeled_clique(n: int, edges: Sequence[Sequence[int]], prefer_high: bool = False) -> list[int]:
    """Peeling: repeatedly remove a node of fewest neighbours among the nodes left (ties to the lower id, or the
    higher one with ``prefer_high``) until the nodes left are all joined to each other. On bit masks (generators
    run it on every draw)."""
    masks = _bit_masks(n, edges)
    left = (1 << n) - 1
    for _ in range(n):
        nodes = set_bits(left)
        degree = [(masks[v] & left).bit_count() for v in nodes]
        fewest = min(degree)
        if fewest == len(nodes) - 1:  # no node has more than len(nodes) - 1: all are joined to each other
            break
        # Among the nodes of fewest neighbours (lowest first), the first one, or the last with prefer_high.
        at = len(degree) - 1 - degree[::-1].index(fewest) if prefer_high else degree.index(fewest)
        left ^= 1 << nodes[at]
    return set_bits(left)


def _bit_masks(n: int, edges: Sequence[Sequence[int]]) -> list[int]:
    """Each node's neighbours as a bit mask."""
    masks = [0] * n
    for u, v in edges:
        masks[u] |= 1 << v
        masks[v] |= 1 << u
    return masks


def _growth(masks: list[int], prefer_high: bool, by_degree: bool) -> Callable[[int], list[int]]:
    """The nodes :func:`grown_clique`'s rule adds to a clique whose candidates are the nodes of bit mask
    ``candidates`` (the node taken next: the most neighbours among the candidates, or in the graph with
    ``by_degree``; ties to the lower id, the higher with ``prefer_high``).

    On bit masks, and memoised per candidate mask at every step: the rules grown from every pair or triangle meet
    the same candidate sets again and again (the kit plays them on hundreds of problems of 30-odd dense nodes)."""
    grown: dict[int, list[int]] = {0: []}

    def grow(candidates: int) -> list[int]:
        found = grown.get(candidates)
        if found is None:
            nxt, most, left = -1, -1, candidates
            while left:  # the candidates lowest first: a later one wins a tie only with prefer_high
                lowest = left & -left
                node = lowest.bit_length() - 1
                left ^= lowest
                count = (masks[node] if by_degree else masks[node] & candidates).bit_count()
                if count > most or count == most and prefer_high:
                    nxt, most = node, count
            found = grown[candidates] = [nxt, *grow(candidates & masks[nxt])]
        return found

    return grow


def pair_grown_clique(n: int, edges: Sequence[Sequence[int]], prefer_high: bool = False,
                      by_degree: bool = False) -> list[int]:
    """The greedy clique of :func:`grown_clique` grown from every pair of joined nodes (the pair taken, the
    candidates those joined to both); the largest one found (the first on a tie, edges in the order given)."""
    masks = _bit_masks(n, edges)
    grow = _growth(masks, prefer_high, by_degree)
    best: list[int] = []
    for u, v in edges:
        clique = [u, v, *grow(masks[u] & masks[v])]
        if len(clique) > len(best):
            best = sorted(clique)
    return best


def triangle_grown_clique(n: int, edges: Sequence[Sequence[int]], prefer_high: bool = False) -> list[int]:
    """The greedy clique of :func:`grown_clique` grown from every triangle (the three nodes taken, the candidates
    those joined to all three); the largest one found (the first on a tie, edges in the order given)."""
    masks = _bit_masks(n, edges)
    grow = _growth(masks, prefer_high, by_degree=False)
    best: list[int] = []
    for u, v in edges:
        common = masks[u] & masks[v]
        for w in set_bits(common >> (max(u, v) + 1) << (max(u, v) + 1)):  # each triangle once: w above u and v
            clique = [u, v, w, *grow(common & masks[w])]
            if len(clique) > len(best):
                best = sorted(clique)
    return best
