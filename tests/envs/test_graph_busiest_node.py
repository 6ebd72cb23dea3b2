"""The busiest node (the highest degree) is a cheap guess for where a tree's or graph's middle is; it must not pay."""

from __future__ import annotations

from palaestra.core import make_source
from palaestra.envs.graphs.common import busiest_guesses


def _busiest_share(env_id: str, level: int, seeds: range) -> float:
    source = make_source(env_id)
    hits = 0.0
    for seed in seeds:
        problem = source.sample(level, seed)
        guess = " ".join(map(str, sorted(busiest_guesses(problem.data["n"], problem.data["edges"])[0])))
        hits += source.verify(problem, guess).reward
    return hits / len(seeds)


def test_busiest_guesses_are_the_top_degree_nodes_and_the_first_of_them() -> None:
    # A star on 0 with a tail 3-4: node 0 has degree 3, nodes 1..4 less.
    assert busiest_guesses(5, [[0, 1], [0, 2], [0, 3], [3, 4]]) == [frozenset({0}), frozenset({0})]
    assert busiest_guesses(4, [[0, 1], [1, 2], [2, 3]]) == [frozenset({1, 2}), frozenset({1})]


def test_the_busiest_nodes_rarely_are_the_centroid_or_the_centre() -> None:
    # Before: 0.22-0.32 of centroids at levels 0-2 and up to 0.21 of centres (the prompt's most frequent number).
    for env_id in ("graphs/tree_centroid", "graphs/center"):
        for level in (0, 1, 2, 4):
            assert _busiest_share(env_id, level, range(150)) <= 0.1, (env_id, level)


def test_lca_level_zero_asks_several_queries() -> None:
    source = make_source("graphs/lca")  # v3: two (one was answered by the busiest query node); v6: three
    assert all(len(source.sample(0, seed).data["queries"]) >= 2 for seed in range(20))
