"""Red-team regressions (round 3, session 37, second pass): logic, temporal and strings envs.

temporal/recurring_events (v4): the skipped months ("no meeting in July") are stated from level 2 but often fell
outside the span counted: ignoring the clause answered 0.35 of the level-2 problems stating one (0.05 at level 3,
200 seeds a level); one skipped month now always holds one of the first k meetings of the rule without it, so
that reading answers none.

deduction/kinship (v5): levels 2-4 left out the blood words next to the ones they asked (sister beside cousin,
father beside uncle and father-in-law), so the commonest word per cue (sex, generation gap, who has parents among
the facts, whether the asked one is married), learned on other seeds, answered 0.99, 0.97 and 1.00 of levels 2-4
(all three words at level 4); every level now asks the words of those below too: 0.81, 0.77, 0.54 (level 1: 0.80).

deduction/scheduling (v2): placing each meeting in turn at its earliest possible start, earliest deadline first,
solved 0.73, 0.73, 0.43, 0.63, 0.33 of levels 0-4 (the listed order 0.65-0.23); instances a greedy placement solves
(earliest start as listed or by deadline, latest start as listed or by release) are redrawn: 0 now.

deduction/horn_inference (v3): firing a rule on any one of its conditions ("and" read as "or") answered 0.24, 0.19,
0.12, 0.07, 0.01 of levels 0-4 (200 seeds a level); such rule sets are redrawn: 0 now.
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.temporal.recurring_events import misread_answer, occurrences

SEEDS = 30


@pytest.mark.parametrize("level", [2, 3])
def test_recurring_events_skipped_months_decide(level):
    task = make_source("temporal/recurring_events")
    stated = 0
    for seed in range(2 * SEEDS):
        problem = task.sample(level, seed)
        data = problem.data
        assert task.verify(problem, problem.answer).reward == 1.0
        assert occurrences(data["rule"], data["start"], data["count"])[-1] == data["answer"]
        if data["rule"]["skip"]:
            stated += 1
            ignored = occurrences({**data["rule"], "skip": []}, data["start"], data["count"])[-1]
            assert misread_answer(data["rule"], data["start"], data["count"], "skip") == ignored != data["answer"]
    assert stated >= 15


def _generations(people: list[dict]) -> list[int]:
    """Founders 0, a child one below its parents, a spouse from outside the family beside the one it married."""
    known: dict[int, int] = {}

    def generation(i: int) -> int:
        if i not in known:
            person = people[i]
            if person["parents"]:
                known[i] = 1 + max(generation(p) for p in person["parents"])
            elif person["spouse"] is not None and people[person["spouse"]]["parents"]:
                known[i] = generation(person["spouse"])
            else:
                known[i] = 0
        return known[i]

    return [generation(i) for i in range(len(people))]


def _kinship_cues(problem) -> list[tuple[tuple, str]]:
    """Per asked pair: (sex, generation gap, whether each has parents among the facts, whether the asked one is
    married), and the relation."""
    data = problem.data
    people = data["people"]
    generation = _generations(people)
    pairs = data.get("pairs") or [[data["x"], data["y"]]]
    relations = data.get("relations") or [data["relation"]]
    return [((people[x]["sex"], generation[y] - generation[x], bool(people[x]["parents"]), bool(people[y]["parents"]),
              people[x]["spouse"] is not None), relation) for (x, y), relation in zip(pairs, relations)]


@pytest.mark.parametrize(("level", "bound"), [(2, 0.9), (3, 0.9), (4, 0.75)])
def test_kinship_cues_do_not_name_the_relation(level, bound):
    from collections import Counter, defaultdict

    task = make_source("deduction/kinship")
    seen: defaultdict[tuple, Counter] = defaultdict(Counter)
    for seed in range(1000, 1200):
        for cue, relation in _kinship_cues(task.sample(level, seed)):
            seen[cue][relation] += 1
    solved = 0
    for seed in range(2 * SEEDS):
        problem = task.sample(level, seed)
        assert task.verify(problem, problem.answer).reward == 1.0
        guesses = [seen[cue].most_common(1)[0][0] if seen[cue] else "" for cue, _ in _kinship_cues(problem)]
        solved += task.verify(problem, "\n".join(guesses)).reward == 1.0
    assert solved / (2 * SEEDS) <= bound, solved


@pytest.mark.parametrize("level", [0, 3, 4])
def test_scheduling_greedy_placements_fail(level):
    from palaestra.envs.deduction.scheduling import _greedy

    task = make_source("deduction/scheduling")
    for seed in range(SEEDS // 2):
        problem = task.sample(level, seed)
        data = problem.data
        assert task.verify(problem, problem.answer).reward == 1.0
        deadline = {r[1]: r[2] for r in data["rules"] if r[0] == "end_by"}
        by_deadline = sorted(range(len(data["names"])), key=lambda m: deadline.get(m, 17 * 60))
        for order in (list(range(len(data["names"]))), by_deadline):  # earliest start, as listed or by deadline
            found = _greedy(data["names"], data["lengths"], data["members"], data["busy"], data["rules"], data["slot"],
                            order)
            assert found is None, (seed, found)
        for policy in task.heuristics().values():
            assert task.verify(problem, policy(problem)).reward == 0.0


@pytest.mark.parametrize("level", [0, 1, 2])
def test_horn_inference_and_is_not_or(level):
    task = make_source("deduction/horn_inference")
    for seed in range(SEEDS):
        problem = task.sample(level, seed)
        data = problem.data
        assert task.verify(problem, problem.answer).reward == 1.0
        known = set(data["facts"])
        while True:  # fire a rule when any one of its conditions is known
            new = {head for body, head in data["rules"] if head not in known and known & set(body)}
            if not new:
                break
            known |= new
        misread = ", ".join(sorted(data["atoms"][i] for i in known - set(data["facts"])))
        assert task.verify(problem, misread).reward == 0.0, seed
