"""Round-3 reward integrity (issue 21, items 1 and 2): a prompt's example and the numbers a prompt prints
do not depend on the answer.

Item 1: the example was "a default unless it is the answer" in ~60 envs, so it told the answer away
(``tools/fact_check``: always the opposite label). Now it is a fixed placeholder or drawn independently of
the answer, so at the seeds below, where the answer *is* the placeholder, the prompt still shows it.
Item 2: ``tools/aggregation_qa`` printed a budget of 2 x (answer + 1); ``tools/sql_qa`` had templates whose
answer was always 0 or 1; ``tools/unanswerable_qa`` had templates that were 69-75% unanswerable.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import pytest

from palaestra import kit
from palaestra.core.registry import make_source
from palaestra.kit.examples import example_readings, example_segments, normalize

SETTINGS = kit.Settings.ci()

# (env, level, seed) where the answer equals the prompt's placeholder example: the old code showed another
# example exactly there, which told that the answer is not the usual placeholder.
ANSWER_IS_THE_PLACEHOLDER = [
    ("arithmetic/number_theory", 0, 1), ("arithmetic/expression", 0, 5), ("languages/nfa_run", 1, 12),
    ("deduction/venn_counts", 2, 36), ("deduction/kinship", 1, 9),
    ("deduction/rule_induction", 0, 1), ("symbolic/self_reference", 0, 1), ("chess/legal_moves", 0, 50),
    ("graphs/count_shortest_paths", 2, 69), ("probability/constrained_counting", 0, 300),
    ("linalg/determinant", 0, 27), ("arithmetic/totient", 0, 29), ("deduction/circuit_eval", 0, 1),
]


@pytest.mark.parametrize("env_id, level, seed", ANSWER_IS_THE_PLACEHOLDER, ids=[c[0] for c in ANSWER_IS_THE_PLACEHOLDER])
def test_the_placeholder_is_shown_even_when_it_is_the_answer(env_id: str, level: int, seed: int) -> None:
    problem = make_source(env_id).sample(level, seed)
    readings = set().union(*(example_readings(s) for s in example_segments(problem.prompt)))
    assert normalize(problem.answer or "") in readings, (problem.answer, example_segments(problem.prompt))


# Envs the kit's example check failed before the fix (the example avoided the answer measurably).
# (tools/fact_check and tools/comparison_qa too: their opposite-label policy is tested below.)
WERE_CAUGHT_BY_THE_KIT = ["arithmetic/number_theory",
                          "deduction/circuit_eval", "deduction/kinship", "deduction/rule_induction",
                          "deduction/venn_counts", "graphs/articulation_points", "graphs/center",
                          "graphs/count_shortest_paths", "graphs/lca", "graphs/tree_centroid", "languages/nfa_run",
                          "symbolic/cube_rotation", "symbolic/self_reference"]


# graphs/articulation_points is the retired id the kit caught (now graphs/bridges with a target): its deprecation
# warning, raised at each of the check's many lookups, is expected here.
@pytest.mark.filterwarnings("ignore:env id 'graphs/articulation_points' is deprecated:DeprecationWarning")
@pytest.mark.parametrize("env_id", WERE_CAUGHT_BY_THE_KIT)
def test_the_example_no_longer_depends_on_the_answer(env_id: str) -> None:
    result = kit.run_check(env_id, "example_independence", SETTINGS)
    assert result.ok, result.detail


@pytest.mark.parametrize("level", [0, 2])
def test_fact_check_example_is_fixed_and_pays_no_more_than_a_guess(level: int) -> None:
    # The example was always the opposite label (answering the opposite scored 1.00); since v4 the answer is the set
    # of true claims' numbers and the example a fixed "2, 3", shown also where it is the answer.
    source = make_source("tools/fact_check")
    problems = [source.sample(level, seed) for seed in range(200)]
    assert all("e.g. <answer>2, 3</answer>" in p.prompt for p in problems)
    assert any(p.answer == "2, 3" for p in problems)
    assert sum(source.judge(p, "2, 3").correct for p in problems) / len(problems) <= 0.10


def test_comparison_qa_yes_no_prompts_show_no_example_answer_and_neither_word_pays() -> None:
    # The opposite of the yes/no example scored 1.00 at first; a fixed "e.g. yes" then made the example equal the
    # answer far more often than chance across question kinds (the full kit), so yes/no prompts show no example.
    source = make_source("tools/comparison_qa")
    for level in (0, 2):
        problems = [p for p in (source.sample(level, seed) for seed in range(400)) if p.data["question"]["answer_type"] == "yes_no"]
        assert len(problems) >= 40
        assert not any(re.search(r"e\.g\. <answer>(yes|no)</answer>", p.prompt) for p in problems)
        for word in ("yes", "no"):
            score = sum(source.judge(p, word).correct for p in problems) / len(problems)
            assert score <= 0.75, (level, word, score)


def test_aggregation_qa_budget_is_a_level_constant_and_answers_are_spread() -> None:
    source = make_source("tools/aggregation_qa")
    for level in (2, 3, 4):  # the levels with counting questions
        problems = [source.sample(level, seed) for seed in range(80)]
        assert len({p.data["budget"] for p in problems}) == 1  # it was 2 * (answer + 1) at level 2
        top = Counter(p.answer for p in problems).most_common(1)[0][1] / len(problems)
        assert top <= 0.3, (level, top)  # a constant 5 scored 0.41 at level 2
        assert all(len(source.plan(p)) - 1 <= p.data["budget"] for p in problems[:10])
    result = kit.run_check("tools/aggregation_qa", "budget_leaks", SETTINGS)
    assert result.ok, result.detail


def test_sql_qa_counts_are_not_mostly_zero_or_one() -> None:
    source = make_source("tools/sql_qa")
    for level in range(source.levels()):
        problems = [source.sample(level, seed) for seed in range(150)]
        top, count = Counter(p.answer for p in problems).most_common(1)[0]
        assert count / len(problems) <= 0.2, (level, top, count)  # "1" was 26% at level 0, "0" 25% at level 2
        assert not any(p.data["sql"].startswith("SELECT COUNT") and p.answer in ("0", "1") for p in problems)


def _template(text: str) -> str:
    """A question with its names (capitalised words after the first) replaced by X."""
    first, rest = text.split(" ", 1)
    return first + " " + re.sub(r"[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)*", "X", rest)


def test_unanswerable_qa_abstention_is_a_fifth_at_every_level_and_template() -> None:
    source = make_source("tools/unanswerable_qa")
    for level in range(source.levels()):
        problems = [source.sample(level, seed) for seed in range(100)]
        abstain = [p for p in problems if p.answer == "not in the corpus"]
        assert 0.1 <= len(abstain) / len(problems) <= 0.3, level
        constant = sum(source.judge(p, "not in the corpus").correct for p in problems) / len(problems)
        assert constant <= 0.3, (level, constant)
    by_template: dict[str, Counter[bool]] = defaultdict(Counter)
    for seed in range(400):
        problem = source.sample(0, seed)
        by_template[_template(problem.data["question"]["text"])][problem.answer == "not in the corpus"] += 1
    for template, counts in by_template.items():
        n = counts[True] + counts[False]
        if n >= 30:  # a template was 69-75% unanswerable before; 0.2 expected, allow sampling noise
            assert counts[True] / n <= 0.4, (template, counts)
