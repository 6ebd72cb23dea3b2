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


GLOBAL = "biology/global_alignment"


def _greedy_rows(a: str, b: str, look: int, guard: bool) -> tuple[str, str]:
    """A left-to-right greedy aligner, written here independently of the env's declared ones."""
    i = j = 0
    row_a, row_b = "", ""
    while i < len(a) or j < len(b):
        if i < len(a) and j < len(b) and a[i] == b[j]:
            row_a, row_b, i, j = row_a + a[i], row_b + b[j], i + 1, j + 1
            continue
        for k in range(1, look + 1):
            if i + k < len(a) and j < len(b) and a[i + k] == b[j] and (not guard or len(a) - i > len(b) - j):
                row_a, row_b, i = row_a + a[i : i + k], row_b + "-" * k, i + k
                break
            if j + k < len(b) and i < len(a) and b[j + k] == a[i] and (not guard or len(b) - j > len(a) - i):
                row_a, row_b, j = row_a + "-" * k, row_b + b[j : j + k], j + k
                break
        else:
            row_a += a[i] if i < len(a) else "-"
            row_b += b[j] if j < len(b) else "-"
            i, j = min(i + 1, len(a)), min(j + 1, len(b))
    return row_a, row_b


@cache
def _global_problems() -> tuple[Problem, ...]:
    task = make_source(GLOBAL)
    return tuple(task.sample(level, seed) for level in (2, 4) for seed in range(12))


def test_global_alignment_greedy_scans_earn_nothing_from_level_2() -> None:
    for problem in _global_problems():  # v1: the guarded look-ahead-1 scan scored 0.71 / 0.63 at levels 2 / 4
        assert _score(GLOBAL, problem, problem.answer) == 1.0
        a, b = problem.data["a"], problem.data["b"]
        for look, guard in ((1, True), (1, False), (2, True)):
            forward = _greedy_rows(a, b, look, guard)
            x, y = _greedy_rows(a[::-1], b[::-1], look, guard)
            for rows in (forward, (x[::-1], y[::-1])):
                assert _score(GLOBAL, problem, "\n".join(rows)) == 0.0
