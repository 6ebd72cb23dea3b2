"""Red-team round 24: languages/dfa_equivalence certifies the equivalent side with a bisimulation.

Version 2 took a bare ``equivalent`` on a fifth of the problems (a constant scored about 0.2). Version 3
asks for a relation between the two DFAs' states and checks it is a bisimulation; any valid one scores.
"""

from __future__ import annotations

from functools import cache

from palaestra.core.problem import Problem
from palaestra.core.registry import make_source
from palaestra.envs.languages._automata import distinguishing

ENV = "languages/dfa_equivalence"


def _score(problem: Problem, answer: str) -> float:
    task = make_source(ENV)
    return task.check(problem, task.format_answer(answer)).reward


@cache
def _problems() -> tuple[Problem, ...]:
    task = make_source(ENV)
    return tuple(task.sample(level, seed) for level in (0, 2, 4) for seed in range(40))


def _equivalent() -> list[Problem]:
    return [p for p in _problems() if distinguishing(p.data["first"], p.data["second"]) is None]


def _relation(pairs) -> str:
    return "equivalent: " + ", ".join(f"{a}~{b}" for a, b in pairs)


def _gold_pairs(problem: Problem) -> list[tuple[str, str]]:
    """The pairs of the reference relation, read from the DFAs by a breadth-first search written here."""
    first, second = problem.data["first"], problem.data["second"]
    start = (first["start"], second["start"])
    seen, queue = {start}, [start]
    for p, q in queue:
        for letter in sorted(first["delta"][p]):
            nxt = (first["delta"][p][letter], second["delta"][q][letter])
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return queue


def _all_equivalent_pairs(problem: Problem) -> list[tuple[str, str]]:
    """Every pair of a DFA 1 state and a DFA 2 state with the same language: the largest bisimulation."""
    first, second = problem.data["first"], problem.data["second"]
    return [
        (a, b)
        for a in first["states"]
        for b in second["states"]
        if distinguishing({**first, "start": a}, {**second, "start": b}) is None
    ]


def test_constant_equivalent_scores_zero():
    problems = _problems()
    assert sum(_score(p, "equivalent") for p in problems) == 0
    assert 0.35 < len(_equivalent()) / len(problems) < 0.65  # both sides certified: the label is balanced


def test_reference_is_a_relation_and_any_bisimulation_scores():
    extra_seen = 0
    for problem in _equivalent():
        gold = _gold_pairs(problem)
        assert _score(problem, problem.answer) == 1
        assert _score(problem, _relation(reversed(gold))) == 1  # another order
        largest = _all_equivalent_pairs(problem)
        assert set(gold) <= set(largest)
        extra_seen += len(largest) > len(gold)
        assert _score(problem, _relation(largest)) == 1  # not the reference's relation, still a bisimulation
        assert _score(problem, ", ".join(f"({b}, {a})" for a, b in largest)) == 1  # reversed pairs: names are disjoint
    assert extra_seen > 0  # some problems have a valid relation larger than the reference


def test_spellings_of_a_relation_are_read():
    problem = _equivalent()[0]
    gold = _gold_pairs(problem)
    body = ", ".join(f"{a}~{b}" for a, b in gold)
    for answer in (
        body,
        f"\\boxed{{equivalent: {body}}}",
        f"Answer: equivalent: {body}.",
        body.replace(", ", "; "),
        "equivalent:\n" + "\n".join(f"- {a} = {b}" for a, b in gold),
        "{" + body.replace("~", " - ") + "}",
        "They are equivalent. Bisimulation: " + ", ".join(f"({a}, {b})" for a, b in gold),
        f"equivalent: {body}, {body}",
    ):  # a repeated pair counts once: the relation is a set
        assert _score(problem, answer) == 1, answer


def test_broken_relations_are_refused():
    for problem in _equivalent():
        first, second = problem.data["first"], problem.data["second"]
        gold = _gold_pairs(problem)
        body = _relation(gold)
        assert _score(problem, body) == 1  # the intact relation scores: each break below is what is refused
        broken = [
            "equivalent or ab",
            f"{body} or ab",
            f"{body}, ab",
            f"{body}\nab",
            f"{body}. Or maybe not.",
            f"{body} (or not equivalent)",
            "equivalent (abab)",
            _relation(gold[1:]),  # no start pair
            _relation([gold[0]]),  # the start pair alone: not closed
            # every state pair: holds the start pair and is closed, but pairs accepting with rejecting states
            _relation([(a, b) for a in first["states"] for b in second["states"]]),
            # every pair agreeing on acceptance (a superset guess): holds the start pair but is not closed
            _relation(
                [
                    (a, b)
                    for a in first["states"]
                    for b in second["states"]
                    if (a in first["accepting"]) == (b in second["accepting"])
                ]
            ),
            f"{body}, {first['states'][0]}~{first['states'][-1]}",  # two states of DFA 1
            f"{body}, {second['states'][0]}~{second['states'][-1]}",  # two states of DFA 2
            f"{body}, q0~p99",
            f"{body}, q77~p0",  # unknown states
        ]
        if len(gold) > 1:
            broken.append(_relation(gold[:-1]))  # a pair left out: the closure fails
        for answer in broken:
            assert _score(problem, answer) == 0, (problem.seed, answer)


def test_a_relation_or_its_hedge_scores_nothing_on_a_non_equivalent_pair():
    for problem in _problems():
        if problem.answer.startswith("equivalent"):
            continue
        closure = _gold_pairs(problem)  # reaches a pair that disagrees on acceptance
        assert not problem.answer.startswith("equivalent")  # the reference is a distinguishing string
        assert distinguishing(problem.data["first"], problem.data["second"]) == problem.answer
        assert _score(problem, _relation(closure)) == 0
        assert _score(problem, f"{_relation(closure)}, {problem.answer}") == 0
        assert _score(problem, f"{problem.answer}. Equivalent: {closure[0][0]}~{closure[0][1]}") == 0
        assert _score(problem, problem.answer) == 1


def test_a_huge_relation_is_refused_in_bounded_time():
    problem = _equivalent()[-1]
    body = _relation(_gold_pairs(problem))
    assert _score(problem, body) == 1
    assert _score(problem, body + ", q0~p0" * 5_000) == 0  # past the answer cap
    assert _score(problem, "equivalent: " + "q0~p0 " * 600 + "ab") == 0
