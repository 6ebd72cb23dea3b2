"""Red-team round 39 (certs): envs whose certificates or counts a guess without the work earned.

- graphs/negative_cycle v4: the proof of "none" (one value per node that no edge undercuts) came from part of the
  work, the graphs' shortest distances being shallow: at level 0 (40 seeds) two passes of Bellman-Ford gave a valid
  proof for 0.64 (in place 0.88) of the graphs without a negative cycle, sums down a breadth-first tree 0.55,
  Dijkstra 0.21 (two passes still 0.06-0.31 at level 4); now every graph has a path that all shortest distances
  follow, and each of these earns 0 at levels 0-4 (a depth-first tree in a random order about 0.1 at level 0).
- deduction/venn_counts v4: over two groups (levels 0-1) a fixed combination of the stated numbers in size order
  (coefficients -1, 0, 1, 2, learned per number of facts on seeds 1000-1199) answered 0.075 and 0.30 of seeds 0-39
  (0.17 and 0.25 of 200 seeds); now two counts are asked there and the best fixed pair of combinations answers both
  in 0.025 and 0.10 (0.03 and 0.09 of 200 seeds).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable

from palaestra.core.registry import make_source

Edges = list[list[int]]


def _passes(n: int, edges: Edges, passes: int, in_place: bool) -> list[int]:
    distance = [0] * n
    for _ in range(passes):
        before = distance if in_place else list(distance)
        for u, v, w in edges:
            distance[v] = min(distance[v], before[u] + w)
    return distance


def _tree(n: int, edges: Edges, depth_first: bool, rng: random.Random | None = None) -> list[int]:
    """Sums down a search forest, roots in node order (or a random order, with shuffled edges, given ``rng``)."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for u, v, w in edges:
        out[u].append((v, w))
    roots = list(range(n))
    if rng:
        rng.shuffle(roots)
        for row in out:
            rng.shuffle(row)
    value: dict[int, int] = {}
    for root in roots:
        if root in value:
            continue
        value[root] = 0
        todo = [root]
        while todo:
            a = todo.pop() if depth_first else todo.pop(0)
            for b, w in out[a]:
                if b not in value:
                    value[b] = value[a] + w
                    todo.append(b)
                    if depth_first:
                        todo.append(a)  # come back to a's other edges after b's
                        break
    return [value[v] for v in range(n)]


def _dijkstra(n: int, edges: Edges) -> list[int]:
    distance, settled = [0] * n, [False] * n
    for _ in range(n):
        a = min((v for v in range(n) if not settled[v]), key=lambda v: distance[v])
        settled[a] = True
        for u, v, w in edges:
            if u == a and not settled[v]:
                distance[v] = min(distance[v], distance[a] + w)
    return distance


_PROOFS: dict[str, Callable[[int, Edges], list[int]]] = {
    "zeros": lambda n, e: [0] * n,
    "one_pass": lambda n, e: _passes(n, e, 1, True),
    "two_passes": lambda n, e: _passes(n, e, 2, True),
    "two_rounds": lambda n, e: _passes(n, e, 2, False),
    "two_passes_backwards": lambda n, e: _passes(n, e[::-1], 2, True),
    "bfs_tree": lambda n, e: _tree(n, e, False),
    "dfs_tree": lambda n, e: _tree(n, e, True),
    "dijkstra": _dijkstra,
}


def test_negative_cycle_none_needs_the_full_relaxation() -> None:
    src = make_source("graphs/negative_cycle")
    for level in range(5):
        problems = [p for p in (src.sample(level, 70_000 + s) for s in range(30)) if not p.data["negative"]]
        assert len(problems) >= 8
        for name, guess in _PROOFS.items():
            hits = sum(src.verify(p, "none: " + " ".join(map(str, guess(p.data["n"], p.data["edges"])))).reward == 1
                       for p in problems)
            assert hits <= 0.1 * len(problems), (level, name, hits, len(problems))
        shuffled = sum(src.verify(p, "none: " + " ".join(map(str, _tree(p.data["n"], p.data["edges"], True,
                                                                       random.Random(s))))).reward == 1
                       for s, p in enumerate(problems))
        assert shuffled <= 0.2 * len(problems), (level, shuffled)


def test_negative_cycle_reference_solves_both_kinds() -> None:
    src = make_source("graphs/negative_cycle")
    kinds = set()
    for level in range(5):
        for seed in range(12):
            problem = src.sample(level, 70_000 + seed)
            kinds.add(problem.data["negative"])
            assert src.verify(problem, problem.answer).reward == 1
            assert src.verify(problem, "none").reward == 0
    assert kinds == {True, False}


def _stated(prompt: str) -> list[int]:
    block = prompt.split("Known numbers of people:\n")[1].split("\n\n")[0]
    return sorted(int(line.rsplit(": ", 1)[1]) for line in block.splitlines())


def _combinations(values: list[int], answer: int) -> set[tuple[int, ...]]:
    """The coefficient vectors (-1, 0, 1, 2; at most four nonzero) over the numbers in size order that give the answer."""
    found = set()
    for size in range(1, 5):
        for places in itertools.combinations(range(len(values)), size):
            for signs in itertools.product((-1, 1, 2), repeat=size):
                if sum(s * values[i] for s, i in zip(signs, places)) == answer:
                    coefficients = [0] * len(values)
                    for s, i in zip(signs, places):
                        coefficients[i] = s
                    found.add(tuple(coefficients))
    return found


def _counts(problem) -> list[int]:
    second = problem.data.get("second")
    return [problem.data["value"], *([second[1]] if second else [])]


def test_venn_counts_a_learned_fixed_combination_of_the_numbers_rarely_answers() -> None:
    """Per number of facts, the combination (per asked count) right most often on 60 problems, tried on 30 others;
    a single sum of the numbers in size order answered 0.30 of level 1 before two counts were asked."""
    src = make_source("deduction/venn_counts")
    for level in (0, 1):
        learned: dict[tuple[int, int], Counter] = {}
        for seed in range(1000, 1060):
            problem = src.sample(level, seed)
            values = _stated(problem.prompt)
            for asked, answer in enumerate(_counts(problem)):
                learned.setdefault((len(values), asked), Counter()).update(_combinations(values, answer))
        hits = 0
        for seed in range(30):
            problem = src.sample(level, seed)
            assert src.verify(problem, problem.answer).reward == 1
            values = _stated(problem.prompt)
            guesses = []
            for asked in range(len(_counts(problem))):
                best = learned.get((len(values), asked))
                guesses.append(sum(c * v for c, v in zip(best.most_common(1)[0][0], values)) if best else 0)
            text = ", ".join(f"{name} = {g}" for name, g in zip("XY", guesses)) if len(guesses) == 2 else str(guesses[0])
            hits += src.verify(problem, text).reward == 1
        assert hits <= 3, (level, hits)


def test_venn_counts_two_counts_are_read_in_any_careful_spelling_and_hedges_are_not() -> None:
    src = make_source("deduction/venn_counts")
    problem = src.sample(0, 3)
    x, y = _counts(problem)
    for right in [f"X = {x}, Y = {y}", f"Y = {y}, X = {x}", f"\\boxed{{X = {x}, Y = {y}}}", f"{x}, {y}",
                  f"{x} and {y}", f"**X = {x}**, **Y = {y}**", f"X = {x} people; Y = {y} people"]:
        assert src.verify(problem, right).reward == 1, right
    for wrong in [f"X = {x} or {x + 1}, Y = {y}", f"X = {x}, Y = {y}. No wait, Y = {y + 1}.", f"{y}, {x}" if x != y
                  else f"{x}, {y + 1}", f"X = {x}", str(x), f"{x}, {y}, {y}", f"X = {x}, Y = {y}, X = {x + 1}"]:
        assert src.verify(problem, wrong).reward == 0, wrong
