"""algorithms/matrix_chain v2: no constant shape and no textbook rule earns reward, and any optimal order is accepted.

Version 1 had 3 matrices at level 0 (a coin over ``A(BC)``/``(AB)C`` earned ~0.5) and its uniform dimensions made
the two chains meeting at the smallest dimension optimal in ~0.77 of the top level's problems.
"""

from __future__ import annotations

import functools
from collections import Counter

from palaestra.core.registry import make_source
from palaestra.kit.base import sample

ENV = "algorithms/matrix_chain"
SEEDS = 120


def _problems(level: int) -> list:
    return [sample(ENV, level, 7_000 + seed) for seed in range(SEEDS)]


def _shapes(i: int, j: int) -> list:
    """Every full parenthesisation of matrices i..j as nested pairs."""
    if i == j:
        return [i]
    return [(left, right) for k in range(i, j) for left in _shapes(i, k) for right in _shapes(k + 1, j)]


def _spell(tree, names: list[str], outer: bool = False) -> str:
    if isinstance(tree, int):
        return names[tree]
    text = _spell(tree[0], names, True) + _spell(tree[1], names, True)
    return f"({text})" if outer else text


def test_no_constant_shape_earns_more_than_a_tenth_at_level_0_or_the_top():
    task = make_source(ENV)
    for level in (0, task.levels() - 1):
        problems = _problems(level)
        assert len(problems[0].data["names"]) >= 6, "too few matrices: only a handful of shapes exist"
        common = [answer for answer, _ in Counter(p.answer for p in problems).most_common(10)]
        for constant in common:
            share = sum(task.verify(p, constant).correct for p in problems) / SEEDS
            assert share <= 0.10, (level, constant, share)


def test_textbook_rules_are_declared_and_rarely_optimal():
    task = make_source(ENV)
    rules = task.heuristics()
    assert {"left_to_right", "right_to_left", "split_at_smallest_dimension", "cheapest_pair_first",
            "largest_inner_dimension_first", "chains_toward_smallest_dimension"} <= set(rules)
    for level in (0, task.levels() - 1):
        problems = _problems(level)
        for name, rule in rules.items():
            share = sum(task.verify(p, rule(p)).correct for p in problems) / SEEDS
            assert share <= 0.10, (level, name, share)


def test_every_optimal_parenthesisation_is_accepted_and_no_other():
    task = make_source(ENV)
    for problem in _problems(0)[:15]:
        names, dims = problem.data["names"], problem.data["dims"]

        @functools.cache
        def shape(tree) -> tuple[int, int, int]:
            if isinstance(tree, int):
                return dims[tree], dims[tree + 1], 0
            (rows, inner, left), (_, cols, right) = shape(tree[0]), shape(tree[1])
            return rows, cols, left + right + rows * inner * cols

        for tree in _shapes(0, len(names) - 1):
            optimal = shape(tree)[2] == problem.data["cost"]
            spelled = _spell(tree, names)
            assert task.verify(problem, spelled).correct == optimal, spelled
            if optimal:
                for spelling in (f"({spelled})", f"\\boxed{{{spelled}}}", f"Answer: {spelled}.", " × ".join(spelled)):
                    assert task.verify(problem, spelling).correct, spelling
