"""Red-team round 25 (strings, data, biology): what the text helper found.

strings/huffman_lengths v1 was paid by Shannon–Fano coding (sort by frequency, split where the halves' weights are
closest, recurse): a textbook rule that is not optimal in general and merges nothing, yet it scored 0.91 at
level 2 and 0.65 at the top level. Version 2 redraws levels 2 and up until it is not optimal.
"""

from __future__ import annotations

from functools import cache

from palaestra.core.problem import Problem
from palaestra.core.registry import make_source

HUFFMAN = "strings/huffman_lengths"


def _score(env: str, problem: Problem, answer: str) -> float:
    task = make_source(env)
    return task.check(problem, task.format_answer(answer)).reward


def _shannon_fano(problem: Problem) -> str:
    """Shannon–Fano lengths, written here independently of the env's declared heuristic."""
    freq, names = problem.data["frequencies"], problem.data["names"]
    lengths = [0] * len(freq)

    def split(members: list[int], depth: int) -> None:
        if len(members) == 1:
            lengths[members[0]] = max(depth, 1)
            return
        total, running, best = sum(freq[i] for i in members), 0, (None, 1)
        for cut in range(1, len(members)):
            running += freq[members[cut - 1]]
            if best[0] is None or abs(total - 2 * running) < best[0]:
                best = (abs(total - 2 * running), cut)
        split(members[: best[1]], depth + 1)
        split(members[best[1] :], depth + 1)

    split(sorted(range(len(freq)), key=lambda i: -freq[i]), 0)
    return ", ".join(f"{name}: {n}" for name, n in zip(names, lengths, strict=True))


@cache
def _huffman_problems() -> tuple[Problem, ...]:
    task = make_source(HUFFMAN)
    return tuple(task.sample(level, seed) for level in (2, 4) for seed in range(30))


def test_huffman_shannon_fano_earns_nothing_from_level_2() -> None:
    problems = _huffman_problems()
    assert sum(_score(HUFFMAN, p, _shannon_fano(p)) for p in problems) == 0  # v1: 0.91 / 0.65 of these


def test_huffman_reference_and_declared_heuristic() -> None:
    task = make_source(HUFFMAN)
    rule = task.heuristics()["Shannon-Fano"]
    for problem in _huffman_problems()[:10]:
        assert _score(HUFFMAN, problem, problem.answer) == 1.0
        assert rule(problem) == _shannon_fano(problem)
