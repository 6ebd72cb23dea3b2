"""Red team, round 40 (seqmath): a second look at sequences, algebra, linear-algebra and calculus envs.

Fixed:

- ``linalg/null_space`` v2: a null space spanned by vectors read off pairs of proportional columns (a·col_i +
  b·col_j = 0 gives the null vector with a at i, b at j) is redrawn; that shortcut, no elimination, answered
  0.62 of level 0 (40 seeds; 2-5% of levels 1-4) -> 0 at levels 0-4.
- ``sequences/rational_trees`` v3: positions from 9 up and off the tree's edges (2^k and 2^k - 1); looking the
  answer up in the list the prompt prints (positions 1-8) or carrying on its edges (1/1, 1/2, 1/3, 1/4 at 1, 2,
  4, 8) answered 0.095 of level 0 (200 seeds; lookup alone 0.035) -> 0.
- ``sequences/hidden_rule`` v4: levels 0-1 draw one additive step and one of another kind and ask for terms
  covering both; reading every step as an addition answered 0.52 and 0.30 of levels 0 and 1, every step as a
  multiplication 0.33 and 0.22 (60 seeds) -> 0 and 0.
- ``sequences/permutation_rank`` v3: no question at an end of a list (arrangements at positions 3 to N - 1,
  subsets from 2): the first (printed), the second (the last two letters swapped) and the last (the letters
  reversed) answered 0.11 of level 0 (300 seeds; 0.02 of level 1) -> 0.
- ``algebra/recurrences`` v3: level 2 draws no periodic rule (p, q = -1, -1 or 1, -1) and no asked term equal to
  0, a_0 or a_1; a_0 or a_1 by the index's parity answered 0.07 of level 2 (400 seeds), a_0 0.055 -> 0.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

from palaestra.core.registry import make_source

SEEDS = range(30)


def _proportional_pairs(problem) -> str:
    """The cheap policy: one null vector per pair of proportional columns, nothing else."""
    matrix = problem.data["matrix"]
    columns = list(zip(*matrix))
    vectors = []
    for i, j in itertools.combinations(range(len(columns)), 2):
        k = next((t for t, (x, y) in enumerate(zip(columns[i], columns[j])) if x or y), None)
        if k is None:
            continue
        a, b = columns[j][k], -columns[i][k]
        if all(a * x + b * y == 0 for x, y in zip(columns[i], columns[j])):
            vectors.append([a if t == i else b if t == j else 0 for t in range(len(columns))])
    return ", ".join("(" + ", ".join(map(str, v)) + ")" for v in vectors)


def test_null_space_proportional_columns_earn_nothing():
    src = make_source("linalg/null_space")
    for level in range(5):
        problems = [src.sample(level, seed) for seed in SEEDS]
        earned = sum(src.verify(p, _proportional_pairs(p)).reward >= 1 for p in problems) / len(problems)
        assert earned <= 0.05, (level, earned)  # version 1: 0.62 at level 0


def test_null_space_reference_still_solves():
    src = make_source("linalg/null_space")
    for level in range(5):
        for seed in range(10):
            p = src.sample(level, seed)
            assert src.verify(p, p.answer).reward == 1


_PRINTED = ["1/1", "1/2", "2/1", "1/3", "3/2", "2/3", "3/1", "1/4"]  # the list in the prompt, positions 1-8


def _printed_list_and_edges(problem) -> str:
    """The cheap policy: the prompt's list, and its edges carried on (2^k: 1/(k+1); 2^k - 1: k/1)."""
    data = problem.data
    if data["kind"] == "term":
        n = data["n"]
        if n <= len(_PRINTED):
            return _PRINTED[n - 1]
        if n & (n - 1) == 0:
            return f"1/{n.bit_length()}"
        return f"{n.bit_length()}/1" if n & (n + 1) == 0 else "1/1"
    if data["kind"] == "position":
        if data["fraction"] in _PRINTED:
            return str(_PRINTED.index(data["fraction"]) + 1)
        value = Fraction(data["fraction"])
        if value.numerator == 1:
            return str(2 ** (value.denominator - 1))
        return str(2**value.numerator - 1) if value.denominator == 1 else "1"
    return "R"


def test_rational_trees_printed_list_earns_nothing():
    src = make_source("sequences/rational_trees")
    for level in range(2):
        problems = [src.sample(level, seed) for seed in range(150)]
        earned = sum(src.verify(p, _printed_list_and_edges(p)).reward >= 1 for p in problems) / len(problems)
        assert earned == 0, (level, earned)  # version 2: 0.095 at level 0
        assert all(p.data["n"] > len(_PRINTED) for p in problems)


def test_rational_trees_reference_still_solves():
    src = make_source("sequences/rational_trees")
    for level in range(5):
        for seed in range(10):
            p = src.sample(level, seed)
            assert src.verify(p, p.answer).reward == 1


def _one_kind(problem, multiply: bool) -> str:
    """The cheap policy: every step repeats what its position did the cycle before, as an addition or a factor."""
    terms, k = list(problem.data["terms"]), problem.data["cycle"]
    for _ in problem.data["next"]:
        before, last = terms[-2 * k], terms[-k]
        terms.append(terms[-k] * last // before if multiply else terms[-k] + last - before)
    return ", ".join(map(str, terms[-len(problem.data["next"]):]))


def test_hidden_rule_one_kind_for_every_step_earns_nothing():
    src = make_source("sequences/hidden_rule")
    for level in range(2):
        problems = [src.sample(level, seed) for seed in SEEDS]
        for multiply in (False, True):
            earned = sum(src.verify(p, _one_kind(p, multiply)).reward >= 1 for p in problems) / len(problems)
            assert earned <= 0.05, (level, multiply, earned)  # version 3: 0.52 (additions) at level 0


def test_hidden_rule_reference_still_solves():
    src = make_source("sequences/hidden_rule")
    for level in range(5):
        for seed in range(10):
            p = src.sample(level, seed)
            assert src.verify(p, p.answer).reward == 1


def _list_ends(problem) -> str:
    """The cheap policy: the first subset (printed), the second arrangement or the last (the letters reversed)."""
    data = problem.data
    if data["kind"] == "kth_subset":
        return ", ".join(map(str, range(1, data["size"] + 1)))
    letters = data["letters"]
    reverse, second = letters[::-1], letters[:-2] + letters[-1] + letters[-2]
    if data["kind"] == "kth_arrangement":
        return reverse if data["k"] == data["total"] else second
    return str(data["total"]) if data["answer"] == reverse else "2"


def test_permutation_rank_list_ends_earn_nothing():
    src = make_source("sequences/permutation_rank")
    for level in range(2):
        problems = [src.sample(level, seed) for seed in range(150)]
        earned = sum(src.verify(p, _list_ends(p)).reward >= 1 for p in problems) / len(problems)
        assert earned == 0, (level, earned)  # version 2: 0.11 at level 0


def test_permutation_rank_reference_still_solves():
    src = make_source("sequences/permutation_rank")
    for level in range(5):
        for seed in range(10):
            p = src.sample(level, seed)
            assert src.verify(p, p.answer).reward == 1


def _printed_initial_value(problem, pick: str) -> str:
    """The cheap policy: a_0, a_1, or the one of them that shares the asked index's parity (a short period)."""
    found = re.search(r"a_0 = (-?\d+), a_1 = (-?\d+).*What is a_(\d+)", problem.prompt)
    assert found is not None
    return found.group({"a0": 1, "a1": 2, "parity": 1 + int(found.group(3)) % 2}[pick])


def test_recurrences_printed_initial_values_earn_nothing():
    src = make_source("algebra/recurrences")
    problems = [src.sample(2, seed) for seed in range(150)]
    for pick in ("a0", "a1", "parity"):
        earned = sum(src.verify(p, _printed_initial_value(p, pick)).reward >= 1 for p in problems) / len(problems)
        assert earned == 0, (pick, earned)  # version 2: 0.07 by parity
    assert all(src.verify(p, "0").reward == 0 for p in problems)


def test_recurrences_reference_still_solves():
    src = make_source("algebra/recurrences")
    for level in range(5):
        for seed in range(10):
            p = src.sample(level, seed)
            assert src.verify(p, p.answer).reward == 1
