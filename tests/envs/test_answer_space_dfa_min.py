"""languages/dfa_minimization answers with the minimisation, not the count of its classes (reward integrity).

Version 1 asked only for the minimal DFA's number of states, which took 4-5 values per level: the constant
``6`` scored 0.24 at the top level, ``2`` scored 0.36 at level 0, and counting the classes after one round of
refinement 0.84 at level 0. Now the answer is the partition of the states (unreachable ones apart), checked
against the unique Myhill-Nerode classes; the problems a cheap rule minimises are redrawn.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

from palaestra.core.registry import make_source
from palaestra.envs.languages._automata import accepts, reachable, run_dfa

ENV = "languages/dfa_minimization"


def _score(task, problems, answer_of) -> float:
    return sum(task.check(p, task.format_answer(answer_of(p))).reward for p in problems) / len(problems)


def _groups(answer: str) -> tuple[list[str], list[list[str]]]:
    head, _, tail = answer.partition("; classes: ")
    hidden = [] if head == "unreachable: none" else head.removeprefix("unreachable: ").split(", ")
    return hidden, [re.findall(r"q\d+", group) for group in tail.split("}")[:-1]]


def test_no_constant_or_cheap_rule_scores_at_any_level():
    task = make_source(ENV)
    for level, count in ((0, 60), (task.levels() - 1, 200)):
        problems = [task.sample(level, 7_000 + seed) for seed in range(count)]
        common = [answer for answer, _ in Counter(p.answer for p in problems).most_common(10)]
        for constant in [*common, *(str(n) for n in range(1, 11)), "none", "all"]:  # the old count answers too
            assert _score(task, problems, lambda p, c=constant: c) <= 0.10, (level, constant)
        rules = task.heuristics()
        assert {"grouped by acceptance", "one round of refinement", "identical rows merged once",
                "every state its own class", "all reachable states in one class"} <= set(rules)
        for name, rule in rules.items():
            assert _score(task, problems, rule) <= 0.10, (level, name)


def test_reference_classes_are_the_myhill_nerode_classes_by_enumeration():
    task = make_source(ENV)
    for seed in range(12):
        problem = task.sample(seed % 2, seed)
        dfa = problem.data["dfa"]
        hidden, groups = _groups(problem.answer)
        assert sorted(hidden) == sorted(set(dfa["states"]) - set(reachable(dfa)))
        words = ["".join(w) for n in range(len(dfa["states"]) + 1) for w in itertools.product("ab", repeat=n)]

        def behaviour(state):
            return tuple(accepts({**dfa, "start": state}, w) for w in words)

        signatures = [{behaviour(s) for s in group} for group in groups]
        assert all(len(sig) == 1 for sig in signatures)  # one class, one behaviour
        assert len({next(iter(sig)) for sig in signatures}) == len(groups)  # different classes behave differently


def test_any_order_and_spelling_of_the_partition_is_accepted_and_mistakes_are_named():
    task = make_source(ENV)
    rng = random.Random(5)
    for seed in range(10):
        problem = task.sample(seed % task.levels(), seed)
        dfa = problem.data["dfa"]
        hidden, groups = _groups(problem.answer)
        shuffled = [rng.sample(group, len(group)) for group in rng.sample(groups, len(groups))]
        lines = "\n".join(" ".join(group) for group in shuffled)
        for answer in (f"classes: {shuffled}; unreachable: {', '.join(hidden) or 'none'}".replace("'", ""),
                       f"Unreachable states: {' '.join(hidden) or 'none'}\n{lines}" if hidden else lines):
            assert task.check(problem, task.format_answer(answer)).correct, answer
        # one state moved into another class: the feedback names it, and its word tells the two states apart
        big = next(group for group in groups if len(group) > 1)
        other = next(group for group in groups if group is not big)
        moved = [[s for s in g if s != big[-1]] + ([big[-1]] if g is other else []) for g in groups]
        answer = f"unreachable: {', '.join(hidden) or 'none'}; classes: " + ", ".join("{" + ", ".join(g) + "}" for g in moved)
        verdict = task.check(problem, task.format_answer(answer))
        assert not verdict.correct and verdict.parsed and big[-1] in verdict.feedback
        word = re.search(r"the word '(\w*)'", verdict.feedback)
        if word:
            first, second = re.findall(r"q\d+", verdict.feedback)[:2]
            ends = [run_dfa({**dfa, "start": s}, word.group(1)) in dfa["accepting"] for s in (first, second)]
            assert ends[0] != ends[1]
        for hedge in (f"{problem.answer} or {answer}", f"{problem.answer}. Not sure.", f"{problem.answer}; classes: {{q0}}"):
            assert task.check(problem, task.format_answer(hedge)).reward == 0, hedge
