"""tools/fact_check v4 (reward integrity): several independent claims answered together as a set.

One true/false claim, half of them true, paid a coin 0.5 and the constant ``true`` about as much at every level.
Now five claims about one world, each true by a fair coin, are answered as the set of the true ones, so a constant,
a guessed subset and a reader who trusts the first document found (or the majority of documents) each score at
most 0.10.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import palaestra
from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.tools.fact_check import first_document_answer, majority_answer, read_true_claims

ENV = "tools/fact_check"
SOURCE = make_source(ENV)
TOP = SOURCE.levels() - 1


@cache
def _problems(level: int, count: int) -> tuple[Problem, ...]:
    return tuple(SOURCE.sample(level, 5_000 + seed) for seed in range(count))


def _score(problems: tuple[Problem, ...], answer_of) -> float:
    return sum(SOURCE.judge(p, answer_of(p)).correct for p in problems) / len(problems)


def test_no_constant_and_no_coin_pays_more_than_a_tenth() -> None:
    for level, count in ((1, 100), (TOP, 200)):
        problems = _problems(level, count)
        common = [answer for answer, _ in Counter(p.answer for p in problems).most_common(10)]
        k = len(problems[0].data["claims"])
        for constant in [*common, "none", ", ".join(map(str, range(1, k + 1))), "true", "false", "2, 3"]:
            assert _score(problems, lambda p, c=constant: c) <= 0.10, (level, constant)
        rng = random.Random(level)
        guess = _score(problems, lambda p: ", ".join(str(i) for i in range(1, k + 1) if rng.random() < 0.5) or "none")
        assert guess <= 0.10, (level, guess)


def test_readers_who_do_not_weigh_sources_earn_little_at_the_contested_levels() -> None:
    for reader in (first_document_answer, majority_answer):
        for level in (1, TOP):
            assert _score(_problems(level, 40), reader) <= 0.10, (reader.__name__, level)
        # At level 0 no document lies: the same reader is the honest one, which shows the policy reads the documents.
        assert _score(_problems(0, 10), reader) == 1.0, reader.__name__


def test_claims_are_independent_fair_coins_about_disjoint_entities() -> None:
    problems = _problems(TOP, 200)
    claims = [c for p in problems for c in p.data["claims"]]
    assert 0.45 <= sum(c["truth"] for c in claims) / len(claims) <= 0.55
    assert len({p.answer for p in problems}) == 2 ** len(problems[0].data["claims"])
    for problem in problems[:40]:
        entities = [{str(x) for x in (c["facts"][0][0], c["facts"][-1][0], c["facts"][-1][2], c["claimed"])
                     if not isinstance(x, int)} for c in problem.data["claims"]]  # start, subject, true and claimed value
        for i, mine in enumerate(entities):
            for other in entities[i + 1:]:
                assert not mine & other, problem.data["claims"]


def test_the_answer_grammar() -> None:
    for answer in ("3, 1", "{1, 3}", "1 and 3", "Claims 1 and 3 are true.", "True: 1, 3", "claim 1, claim 3",
                   r"\boxed{1, 3}", "Answer: 3, 1.", "The true claims are 1 and 3.", "1 and 3 are true, the rest are false.",
                   "1: true, 2: false, 3: true, 4: false, 5: false", "1. True\n2. False\n3. True\n4. False\n5. False"):
        assert read_true_claims(answer, 5) == {1, 3}, answer
    for answer in ("none", "None.", "No claim is true.", "{}"):
        assert read_true_claims(answer, 5) == frozenset(), answer
    assert read_true_claims("All claims are true.", 5) == {1, 2, 3, 4, 5}
    for hedge in ("1 or 3", "1, 3 or none", "1, 3. None.", "1, 3\nnone", "1, 1", "1, 6", "0", "true", "1, 3 maybe",
                  "1: true, 2: false, 3: true, 4: false", "1: true, 2: false, 3: true, 4: false, 5: false, 5: true",
                  "1: true, 2: false, 3: true, 4: false, 5: false maybe"):
        assert read_true_claims(hedge, 5) is None, hedge


def test_the_oracle_finishes_within_the_budget_at_the_top_level() -> None:
    problem = _problems(TOP, 1)[0]
    moves = SOURCE.plan(problem)
    assert len(moves) - 1 <= problem.data["budget"] < SOURCE.max_turns(problem)
    verdict = palaestra.score(problem, [SOURCE.format_answer(m) for m in moves])
    assert verdict.correct and verdict.reward == 1.0
