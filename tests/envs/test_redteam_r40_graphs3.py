"""Red-team round 40, graphs (third group).

graphs/degree_sequence v3: the "impossible" side is proved by a set of nodes overfull by Erdős-Gallai,
and every overfull set can be swapped for the same number of largest-degree nodes, so a blind
"impossible: the top k" needs only the right k. Non-graphical sequences used to be overfull for a wide
band of k, and the best fixed k earned 0.50/0.44/0.44/0.48/0.43 at levels 0-4 (the Durfee size
0.49/0.47/0.45/0.48/0.43). Now they are overfull at exactly one k drawn uniformly from 2..(n+1)//2:
the best fixed k earns 0.20/0.16/0.12/0.14/0.10, the Durfee size 0.28/0.26/0.14/0.09/0.09.
"""

from __future__ import annotations

from palaestra.core.registry import make_source

LEVELS = range(5)
SEEDS = range(30)


def _top(degrees: list[int], k: int) -> str:
    ranked = sorted(range(len(degrees)), key=lambda v: (-degrees[v], v))
    return "impossible: " + " ".join(map(str, ranked[:max(1, k)]))


def _durfee(degrees: list[int]) -> int:
    ranked = sorted(degrees, reverse=True)
    return max(k for k in range(1, len(ranked) + 1) if ranked[k - 1] >= k)


def test_degree_sequence_no_fixed_top_k_or_durfee_size_proves_impossibility():
    task = make_source("graphs/degree_sequence")
    for level in LEVELS:
        problems = [task.sample(level, 40_000 + seed) for seed in SEEDS]
        n = len(problems[0].data["degrees"])
        for k in range(1, n + 1):
            paid = sum(task.verify(p, _top(p.data["degrees"], k)).reward for p in problems)
            assert paid / len(problems) <= 0.3, (level, k, paid)
        durfee = sum(task.verify(p, _top(p.data["degrees"], _durfee(p.data["degrees"]))).reward for p in problems)
        assert durfee / len(problems) <= (0.4 if level < 2 else 0.25), (level, durfee)


def test_degree_sequence_impossible_sequences_are_overfull_at_one_size_and_the_reference_solves():
    task = make_source("graphs/degree_sequence")
    for level in LEVELS:
        for seed in SEEDS:
            p = task.sample(level, 41_000 + seed)
            assert task.verify(p, p.answer).reward == 1.0
            if not p.data["graphical"]:
                degrees = p.data["degrees"]
                overfull = [k for k in range(1, len(degrees) + 1)
                            if task.verify(p, _top(degrees, k)).reward == 1.0]
                assert len(overfull) == 1 and 2 <= overfull[0] <= (len(degrees) + 1) // 2, (level, seed, overfull)
