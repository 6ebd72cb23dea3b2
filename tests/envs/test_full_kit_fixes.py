"""Fixes found by the kit at full sample sizes (``palaestra check --full``), each pinned by a test."""

from __future__ import annotations

import collections
import dataclasses
import math
import random

from palaestra.core import make_source
from palaestra.envs.arithmetic.linear_diophantine import _count_nonnegative


def test_linear_diophantine_counts_are_spread_and_the_prompt_has_no_answer_dependent_example() -> None:
    source = make_source("arithmetic/linear_diophantine")
    problems = [source.sample(4, seed) for seed in range(300)]
    def count(answer: str) -> int:  # v3's top level answers the count, then the least-x solution
        return int(answer.splitlines()[0].removeprefix("count:").strip())

    counts = collections.Counter(count(p.answer) for p in problems)
    assert counts.most_common(1)[0][1] / len(problems) < 0.2, counts  # "1" was a third of the answers
    assert all("e.g. <answer>...</answer>" in p.prompt and p.prompt.count("e.g.") == 1 for p in problems)
    for p in problems[:50]:
        a, b, c = p.data["a"], p.data["b"], p.data["c"]
        assert count(p.answer) == sum(1 for x in range(c // a + 1) if (c - a * x) % b == 0)


def test_linear_diophantine_count_is_closed_form() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        a, b, c = rng.randint(1, 40), rng.randint(1, 40), rng.randint(-3, 900)
        slow = sum(1 for x in range(c // a + 1) if (c - a * x) % b == 0) if c >= 0 else 0
        assert _count_nonnegative(a, b, c) == slow, (a, b, c)
    assert _count_nonnegative(3 * 10**30, 7 * 10**30 + 1, 10**62) >= 0  # no loop over x


def test_mendelian_cross_level_zero_declares_its_exact_size() -> None:
    source = make_source("biology/mendelian_cross")
    seen = {source.sample(0, seed).prompt for seed in range(12_000)}
    assert 0.7 * source.space_size(0) < len(seen) <= source.space_size(0)
    assert len({source.sample(1, seed).prompt for seed in range(1000)}) >= 950


def test_hardy_weinberg_level_one_is_95_percent_distinct_and_q_is_reduced() -> None:
    source = make_source("biology/hardy_weinberg")
    problems = [source.sample(1, seed) for seed in range(1000)]
    assert len({p.prompt for p in problems}) >= 950


def test_fractions_level_one_is_95_percent_distinct() -> None:
    source = make_source("arithmetic/fractions")
    assert len({source.sample(1, seed).prompt for seed in range(1000)}) >= 950


def test_chemistry_levels_repeat_under_5_percent_of_1000_problems() -> None:
    for env_id, level in (("chemistry/oxidation_states", 0), ("chemistry/balance_equation", 2)):
        source = make_source(env_id)
        assert len({source.sample(level, seed).prompt for seed in range(1000)}) >= 950, env_id


def test_bash_oneliners_redraws_parameters_a_seed_could_not_satisfy() -> None:
    # seeds whose first parameters never gave distinct outputs raised GenerationError (full kit, level 1)
    source = make_source("code/bash_oneliners")
    for level in (0, 1):
        for seed in range(400):
            problem = source.sample(level, seed)
            assert len({tuple(o) for o in problem.data["expected"]}) == len(problem.data["expected"])


def test_suffix_array_level_zero_is_95_percent_distinct() -> None:
    source = make_source("strings/suffix_array")
    assert len({source.sample(0, seed).prompt for seed in range(1000)}) >= 950


def test_capacitor_references_past_the_presets_are_readable() -> None:
    source = make_source("physics/capacitors")
    for seed in range(8):
        problem = source.sample(9, seed)
        assert source.verify(problem, problem.answer).correct, (seed, problem.answer)


def test_proof_envs_level_zero_is_95_percent_distinct() -> None:
    for env_id in ("proofs/natural_deduction", "proofs/sequent_calculus", "proofs/coq_list_sum",
                   "proofs/coq_proof_repair", "proofs/coq_tautology"):
        source = make_source(env_id)
        assert len({source.sample(0, seed).prompt for seed in range(1000)}) >= 950, env_id


def test_coq_recursive_functions_declares_the_exact_size_of_its_small_levels() -> None:
    source = make_source("proofs/coq_recursive_functions")
    for level in (0, 1):
        seen = {source.sample(level, seed).prompt for seed in range(20_000)}
        assert len(seen) == source.space_size(level), level  # every problem of the level is reached


def test_dp_programs_difficulty_is_measured_on_the_drawn_sizes() -> None:
    source = make_source("code/dp_programs")
    problem = source.sample(6, 0)
    sizes = problem.data["sizes"]
    assert len(sizes) == len(problem.data["inputs"]) and max(sizes) <= source.level_config(6).max_size
    tier = source.template(problem).tier
    assert source.difficulty(problem) == tier + 2 * math.log2(1 + sum(sizes))
    old = dataclasses.replace(problem, data={k: v for k, v in problem.data.items() if k != "sizes"})
    assert source.difficulty(old) > 0  # a problem made before version 2 still has a measure


def _level_means(env_id: str, levels: range, seeds: range) -> list[float]:
    source = make_source(env_id)
    return [sum(source.difficulty(source.sample(level, seed)) for seed in seeds) / len(seeds) for level in levels]


def test_order_history_asks_an_older_month_so_the_rows_to_read_grow_past_the_presets() -> None:
    source = make_source("web/order_history")
    for level in (4, 7):
        months = source.level_config(level).months
        for seed in range(20):
            data = source.sample(level, seed).data
            # The history is read newest first up to the first order older than the asked month.
            assert data["rows_read"] >= 2 * months // 3, (level, seed, data["rows_read"])
    means = _level_means("web/order_history", range(4, 10), range(500, 530))
    assert all(b > a + 1 for a, b in zip(means, means[1:])), means  # it fell from level 6 to 7 (16.9 -> 16.4)


def test_template_mixes_do_not_move_a_level_s_difficulty_mean() -> None:
    """The difficulty of a mixed-kind env compares sizes across kinds, so a level's mean follows the level."""
    for env_id in ("code/js_functions", "tools/count_by_program"):
        means = _level_means(env_id, range(4, 10), range(700, 730))
        assert all(b > 1.05 * a for a, b in zip(means, means[1:])), (env_id, means)
