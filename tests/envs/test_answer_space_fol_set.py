"""deduction/fol_evaluate answers several sentences at once: no constant, coin or cheap rule pays, and each
sentence on its own stays balanced (its truth is a fair coin no surface cue predicts)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from palaestra.core.registry import make_source
from palaestra.envs.deduction._first_order import describe, render
from palaestra.kit import best_threshold_rule, surface_features

ENV = "deduction/fol_evaluate"


def test_no_constant_or_coin_pays_at_the_top_level():
    source = make_source(ENV)
    top = source.levels() - 1
    problems = [source.sample(top, seed) for seed in range(200)]
    common = [answer for answer, _ in Counter(p.answer for p in problems).most_common(10)]
    for constant in [*common, "none", "true", "false", "1, 2, 3, 4, 5, 6", "1, 4"]:
        share = sum(source.verify(p, constant).correct for p in problems) / len(problems)
        assert share <= 0.10, (constant, share)
    coin = random.Random(0)
    share = sum(source.verify(p, coin.choice(["true", "false"])).correct for p in problems) / len(problems)
    assert share <= 0.10, share


def test_each_sentence_is_a_fair_coin_no_surface_cue_predicts():
    """The kit's balance check, per sentence: the label share and the best one-feature threshold rule over
    the structure and the sentence (as version 1 prompted them) stay within 10 points of chance at every level."""
    from palaestra.envs.deduction.fol_evaluate import sentence_features

    source = make_source(ENV)
    for level in range(source.levels()):
        rows, labels = [], []
        for seed in range(60):
            problem = source.sample(level, seed)
            structure = problem.data["structure"]
            assert len(problem.data["sentences"]) >= 5
            for sentence, truth in zip(problem.data["sentences"], problem.data["true"]):
                text = f"{describe(structure)}\n\nSentence: {render(sentence)}"  # version 1's prompt, less its fixed words
                rows.append({**surface_features(text), **sentence_features(structure, sentence)})
                labels.append("true" if truth else "false")
        share = max(Counter(labels).values()) / len(labels)
        assert share <= 0.60, (level, share)
        name, accuracy = best_threshold_rule(rows, labels)
        assert accuracy <= max(share, 0.5) + 0.10, (level, name, accuracy)


def test_the_set_is_read_in_any_spelling_and_hedges_are_not():
    source = make_source(ENV)
    problem = source.sample(0, 0)
    count = len(problem.data["sentences"])
    truths = [i in (1, 4) for i in range(1, count + 1)]
    problem = dataclasses.replace(problem, answer="1, 4", data={**problem.data, "true": truths})
    for right in ["1, 4", "4, 1", "{4, 1}", "\\boxed{1, 4}", "Answer: 1, 4.", "Sentences 1 and 4.", "[1,4]",
                  "S1, S4", "1 and 4"]:
        assert source.verify(problem, right).correct, right
    for wrong in ["1", "1, 4, 5", "1, 4 or 1, 5", "1, 4, no wait, 1, 5", "1, 4\n\n1, 5", "1, 1, 4", "1, 4, 9",
                  "true", "none", "1-4", "0, 1, 4"]:
        assert not source.verify(problem, wrong).correct, wrong
    empty = dataclasses.replace(problem, answer="none", data={**problem.data, "true": [False] * count})
    for right in ["none", "None.", "∅", "No sentence is true."]:
        assert source.verify(empty, right).correct, right
    for wrong in ["none, 1", "1", "0"]:
        assert not source.verify(empty, wrong).correct, wrong
