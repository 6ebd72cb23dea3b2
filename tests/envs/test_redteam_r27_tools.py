"""Round 3, session 27 red team (tools and algorithms, second look): the cheap rules found, played as a lazy
policy would, must earn nothing."""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source


def _solved(env_id: str, level: int, rule, seeds: int = 30) -> int:
    task = make_source(env_id)
    problems = [task.sample(level, seed) for seed in range(seeds)]
    return sum(task.check(p, task.format_answer(rule(p))).correct for p in problems)


def _climb_lowering(values: list[int]) -> list[int]:
    taken = [values[0]]
    for value in values[1:]:
        if value > taken[-1]:
            taken.append(value)
        elif len(taken) >= 2 and taken[-2] < value < taken[-1]:
            taken[-1] = value
    return taken


def _lis_lowering_every_start(problem) -> str:
    sequence = problem.data["sequence"]
    best = max((_climb_lowering(sequence[i:]) for i in range(len(sequence))), key=len)
    return ", ".join(map(str, best))


@pytest.mark.parametrize("level", [0, 2, 4])
def test_lis_one_pass_climb_that_lowers_its_last_value_earns_nothing(level):
    # v2: this one-pass rule, tried from every start, found a longest subsequence in 0.96/0.73/0.41 of levels 0/2/4
    assert _solved("algorithms/lis", level, _lis_lowering_every_start) == 0


def _fewest_skips(first: str, second: str) -> str:
    found, i, j = [], 0, 0
    for _ in range(min(len(first), len(second))):
        best = None
        for ii in range(i, len(first)):
            jj = second.find(first[ii], j)
            if jj >= 0 and (best is None or (ii - i) + (jj - j) < best[0]):
                best = ((ii - i) + (jj - j), ii, jj)
        if best is None:
            break
        _, i, j = best
        found.append(first[i])
        i, j = i + 1, j + 1
    return "".join(found)


def _earliest(first: str, second: str) -> str:
    found, start = [], 0
    for letter in first:
        at = second.find(letter, start)
        if at >= 0:
            found.append(letter)
            start = at + 1
    return "".join(found)


def _lcs_cheapest(problem) -> str:
    a, b = problem.data["first"], problem.data["second"]
    candidates = [_fewest_skips(a, b), _fewest_skips(b, a),
                  *(_earliest(a[k:], b) for k in range(len(a))), *(_earliest(b[k:], a) for k in range(len(b)))]
    return max(candidates, key=len) or "A"


@pytest.mark.parametrize("level", [0, 2, 4])
def test_lcs_fewest_skips_and_skipped_starts_earn_nothing(level):
    # v2: fewest-skips-next 0.69/0.58/0.32, earliest matching after skipped letters 0.85/0.53/0.05 of levels 0/2/4
    assert _solved("algorithms/lcs", level, _lcs_cheapest) == 0


def test_lis_and_lcs_declare_the_rules_they_are_redrawn_against():
    lis, lcs = make_source("algorithms/lis").heuristics(), make_source("algorithms/lcs").heuristics()
    assert "climb lowering the last value, from every start" in lis
    assert "smallest larger value next, from every start" in lis
    assert "fewest skipped letters next, string 2 driving" in lcs
    assert "earliest match after skipped letters, string 1 driving" in lcs


def _scan_alignments(problem) -> list[str]:
    # the shared greedy scans, each written as an alignment
    from palaestra.solvers.greedy_alignment import greedy_scans
    return ["\n".join("".join(column[side] or "-" for column in columns) for side in (0, 1))
            for columns in greedy_scans(problem.data["first"], problem.data["second"])]


@pytest.mark.parametrize("level", [1, 2, 4])
def test_edit_distance_no_greedy_scan_is_optimal(level):
    # v2: single scans were optimal for 0.46-0.74 of levels 1-2 and 0.20-0.39 of level 4 (their best 1.00/0.96/0.87)
    task = make_source("algorithms/edit_distance")
    problems = [task.sample(level, seed) for seed in range(25)]
    assert not any(task.check(p, task.format_answer(text)).correct for p in problems for text in _scan_alignments(p))
