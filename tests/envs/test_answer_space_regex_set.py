"""languages/regex_match v2 (issue 21, reward integrity): one expression, several numbered strings, the answer
the set of those it matches. Version 1 asked yes or no about one string, balanced: the constant ``yes`` or
``no``, or a coin, earned about 0.5 at every level. These tests fail on that form and pass on the set."""

from __future__ import annotations

import random
from collections import Counter

from palaestra.core.registry import make_source
from palaestra.envs.languages._regex import local_view, parse, passes_local_view

ENV = "languages/regex_match"
BOUND = 0.10


def _score(task, problems, answer_of) -> float:
    return sum(task.check(p, task.format_answer(answer_of(p))).reward for p in problems) / len(problems)


def test_no_constant_or_guess_earns_more_than_a_tenth_at_the_top_level():
    task = make_source(ENV)
    problems = [task.sample(task.levels() - 1, 70_000 + seed) for seed in range(200)]
    common = [answer for answer, _ in Counter(p.answer for p in problems).most_common(10)]
    constants = [*common, "yes", "no", "none", "2, 5"]
    for constant in constants:
        assert _score(task, problems, lambda p, c=constant: c) <= BOUND, constant
    coin = random.Random(5)
    assert _score(task, problems, lambda p: coin.choice(["yes", "no"])) <= BOUND  # version 1's answers
    everything = _score(task, problems, lambda p: ", ".join(map(str, range(1, len(p.data["strings"]) + 1))))
    assert everything <= BOUND
    for name, rule in task.heuristics().items():
        assert _score(task, problems, rule) <= BOUND, name


def test_checking_ends_and_neighbours_does_not_solve_the_easiest_level():
    """Small expressions are often decided by their first, last and neighbouring letters alone (0.40 of level 0
    before near misses had to keep them); every near miss now keeps them, so that check calls every string a
    member."""
    task = make_source(ENV)
    problems = [task.sample(0, 80_000 + seed) for seed in range(150)]
    assert all(passes_local_view(local_view(parse(p.data["pattern"])), s) for p in problems for s in p.data["strings"])
    assert _score(task, problems, task.heuristics()["ends and neighbours"]) <= BOUND


def test_the_set_is_read_in_any_spelling_and_hedges_are_not():
    task = make_source(ENV)
    problem = next(p for p in (task.sample(1, seed) for seed in range(100)) if p.answer.count(",") >= 2)
    items = problem.answer.split(", ")
    count = len(problem.data["strings"])
    other = next(str(i) for i in range(1, count + 1) if str(i) not in items)
    for right in (", ".join(reversed(items)), "{" + problem.answer + "}", f"\\boxed{{{problem.answer}}}",
                  f"Strings {', '.join(items[:-1])} and {items[-1]}.", " ".join(f"#{i}" for i in items).replace(" ", ", ")):
        assert task.verify(problem, right).correct, right
    for wrong in (f"{problem.answer} or {other}", f"{problem.answer}, {other}", ", ".join(items[1:]),
                  f"{problem.answer}. Or maybe {other}.", f"{problem.answer}, {count + 1}", f"{problem.answer}, no {other}", "yes", "all of them"):
        assert not task.verify(problem, wrong).correct, wrong
    empty = next(p for p in (task.sample(0, seed) for seed in range(400)) if p.answer == "none")
    assert task.verify(empty, "None of them.").correct and task.verify(empty, "{}").correct
    assert not task.verify(empty, "1").correct
    prompt = problem.prompt.split("for example: ")[1]
    assert prompt.startswith("2, 5)")  # the example is fixed, whatever the answer
