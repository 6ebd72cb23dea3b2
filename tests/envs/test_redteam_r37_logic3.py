"""Red-team regressions (round 3, session 37, third pass): deduction envs.

deduction/syllogism (v3): the prompt reads statements in modern logic (a group may be empty), but arguments that
existential import makes valid were 0-6% of the problems, so a solver taking every group to have members scored
1.00, 0.96, 0.93, 0.96, 0.93 at levels 0-4 (400 seeds a level). From 4 terms, 0.4 of the layouts (drawn apart
from the verdict) now allow such an invalid argument and use it when the verdict is invalid: 1.00, 0.64, 0.61,
0.70, 0.67. Level 0 cannot change: every 3-term argument import makes valid is refuted by the empty situation
whatever its orientation, so keeping one would pay the constant "invalid: nothing".

deduction/venn_counts (v3): only the facts the answer needed were stated, so arithmetic on the numbers alone paid:
the largest minus the smallest answered 0.55 of level 0, and the commonest sign pattern over the numbers in size
order (per number of facts, learned on other seeds) 0.56, 0.41, 0.20, 0.33, 0.17 of levels 0-4. One to four
facts the answer does not need are now stated too, and answers such arithmetic gives are redrawn: 0 for the fixed
rules, 0.15, 0.23, 0.05, 0.06, 0.04 for the learned pattern.

languages/cfg_generation (v3): a string the grammar generates of the asked length, the conditions ignored, scored
0.74, 0.73, 0.49, 0.32, 0.11 at levels 0-4 (100 seeds a level); the conditions asked are now the set, of several
read off the witness, that the fewest drawn derivations meet, and at most a fifth of them: 0.15, 0.16, 0.15, 0.09,
0.01.

deduction/liars (v3): reading past one kind of statement (every "X did it" ignored) and picking any pair that then
fits answered 0.50, 0.52, 0.56, 0.39 of levels 1-4 (worst kind, 60 seeds a level); each kind read past now leaves
three (culprit, liars) pairs: 0.36, 0.24, 0.29, 0.22.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.deduction.syllogism import _constraints, _describe, _region_masks, _regions
from palaestra.envs.languages._grammar import Grammar

SEEDS = 30


def _with_import(problem, subjects_only: bool) -> str:
    """The answer of a solver that takes groups to have members (every group, or the subjects of the universal
    premises): valid when no such counter-situation exists, else one of them (which is also a modern one)."""
    terms, premises, conclusion = problem.data["terms"], problem.data["premises"], problem.data["conclusion"]
    m = len(terms)
    empty, needed = _constraints(m, [*premises, conclusion], negated_last=True)
    inside, _ = _region_masks(m)
    needed += ([inside[x] for form, x, _y in premises if form in ("all", "no")] if subjects_only else list(inside))
    if not all(regions & ~empty for regions in needed):
        return "valid"
    chosen = 0
    for regions in needed:
        allowed = regions & ~empty
        if not allowed & chosen:
            chosen |= allowed & -allowed
    return "invalid: " + _describe(_regions(chosen, m), terms)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
@pytest.mark.parametrize("subjects_only", [False, True])
def test_syllogism_existential_import_misses_a_share(level, subjects_only):
    source = make_source("deduction/syllogism")
    problems = [source.sample(level, seed) for seed in range(2 * SEEDS)]
    score = sum(source.verify(p, _with_import(p, subjects_only)).reward for p in problems) / len(problems)
    assert score <= 0.85  # v2: 0.95; expected about 0.68
    assert all(source.verify(p, p.answer).correct for p in problems)


def test_syllogism_import_is_drawn_apart_from_the_verdict():
    """The forms of the premises and the conclusion do not tell the verdict: no pattern seen often is mostly valid,
    and the valid share of the problems import decides is about the share of the others."""
    source = make_source("deduction/syllogism")
    patterns: dict[tuple, Counter] = {}
    decided = Counter()
    for seed in range(4 * SEEDS):
        problem = source.sample(2, seed)
        data = problem.data
        forms = (tuple(sorted(p[0] for p in data["premises"])), data["conclusion"][0])
        patterns.setdefault(forms, Counter())[data["valid"]] += 1
        if not data["valid"]:
            decided[_with_import(problem, subjects_only=True) == "valid"] += 1
    assert decided[True] >= 0.25 * sum(decided.values())
    for counts in patterns.values():
        if sum(counts.values()) >= 8:
            assert counts[True] <= 0.6 * sum(counts.values()), counts



def _stated(problem) -> list[int]:
    """The numbers the prompt states, one per fact line ("- people who ...: 17")."""
    facts = problem.prompt.split("Known numbers of people:\n")[1].split("\n\n")[0]
    return [int(line.rsplit(":", 1)[1]) for line in facts.splitlines()]


def _blind(values: list[int]) -> dict[str, int]:
    ordered = sorted(values)
    return {"largest minus smallest": ordered[-1] - ordered[0], "sum": sum(ordered),
            "largest minus the rest": 2 * ordered[-1] - sum(ordered), "rest minus largest": sum(ordered) - 2 * ordered[-1],
            "first minus second": abs(values[0] - values[1]) if len(values) > 1 else values[0]}


def _patterns(values: list[int], answer: int) -> set[tuple]:
    """The sign patterns over the numbers in size order whose signed sum is the answer."""
    ordered = sorted(values)
    return {signs for signs in itertools.product((-1, 0, 1), repeat=len(ordered))
            if sum(a * b for a, b in zip(signs, ordered)) == answer}


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_venn_counts_fixed_arithmetic_on_the_numbers_pays_nothing(level):
    source = make_source("deduction/venn_counts")
    for seed in range(SEEDS):
        problem = source.sample(level, seed)
        assert source.verify(problem, problem.answer).correct
        for name, guess in _blind(_stated(problem)).items():
            assert guess != problem.data["value"], (seed, name)


@pytest.mark.parametrize(("level", "bound"), [(0, 0.3), (1, 0.35), (2, 0.15), (4, 0.12)])
def test_venn_counts_learned_sign_pattern_pays_little(level, bound):
    """The commonest sign pattern per number of facts (up to five), learned on 4 * SEEDS problems, on 2 * SEEDS
    others. v2: 0.56, 0.41, 0.20, 0.17."""
    source = make_source("deduction/venn_counts")
    learned: dict[int, Counter] = {}
    for seed in range(4 * SEEDS):
        problem = source.sample(level, seed)
        values = _stated(problem)
        if len(values) <= 5:
            learned.setdefault(len(values), Counter()).update(_patterns(values, problem.data["value"]))
    best = {size: counts.most_common(1)[0][0] for size, counts in learned.items()}
    hits = 0
    for seed in range(10_000, 10_000 + 2 * SEEDS):
        problem = source.sample(level, seed)
        values = sorted(_stated(problem))
        signs = best.get(len(values))
        hits += signs is not None and sum(a * b for a, b in zip(signs, values)) == problem.data["value"]
    assert hits <= bound * 2 * SEEDS


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_cfg_generation_conditions_decide(level):
    """A derivation of the asked length drawn uniformly, the conditions ignored (v2: 0.74, 0.73, 0.49, 0.32)."""
    source = make_source("languages/cfg_generation")
    score = 0.0
    for seed in range(SEEDS):
        problem = source.sample(level, seed)
        assert source.verify(problem, problem.answer).correct
        grammar = Grammar(problem.data["rules"])
        guess = Grammar.string(grammar.sample(random.Random(seed), problem.data["length"]))
        score += source.verify(problem, guess).reward
    assert score <= 0.3 * SEEDS


def _pairs_ignoring(statements: list[list], k: int, kind: str) -> int:
    """(culprit, liars) pairs with k liars that fit the statements not of ``kind``, by brute force."""
    n = len(statements)

    def holds(statement, culprit, liars):
        what, args = statement[0], statement[1:]
        return {"not_me": culprit != args[0], "did": culprit == args[0], "did_not": culprit != args[0],
                "either": culprit in args, "lying": args[0] in liars, "truthful": args[0] not in liars}[what]

    return sum(all(s[0] == kind or holds(s, culprit, set(liars)) == (i not in liars) for i, s in enumerate(statements))
               for culprit in range(n) for liars in itertools.combinations(range(n), k))


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_liars_every_kind_of_statement_decides(level):
    source = make_source("deduction/liars")
    for seed in range(SEEDS):
        problem = source.sample(level, seed)
        assert source.verify(problem, problem.answer).correct
        statements, k = problem.data["statements"], len(problem.data["liars"])
        assert _pairs_ignoring(statements, k, "") == 1
        for kind in {s[0] for s in statements}:
            assert _pairs_ignoring(statements, k, kind) >= 3, (seed, kind)
