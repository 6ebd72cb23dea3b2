"""symbolic/cube_rotation: the answer is the whole final cube, one of 24 orientations (reward integrity).

Regression: the question asked for the colour of one side, six possible answers, so a constant colour earned
0.12-0.14 at every level (the top included) and a guess 0.17.
"""

from __future__ import annotations

from collections import Counter

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.symbolic.cube_rotation import COLOURS, FACES, MOVES, rotate

TASK = make_source("symbolic/cube_rotation")
LEVELS = range(5)
SEEDS = range(200)


def _turned(start: dict[str, str], orientation: tuple[str, ...]) -> str:
    """The answer that the cube ends turned by ``orientation`` (the face each start face ends on)."""
    from palaestra.envs.symbolic.cube_rotation import describe  # imported here: the old code had none

    return describe({end: start[face] for face, end in zip(FACES, orientation)})


@pytest.fixture(scope="module")
def problems():
    return {level: [TASK.sample(level, seed) for seed in SEEDS] for level in LEVELS}


def _score(problems, policy) -> float:
    return sum(TASK.check(p, TASK.format_answer(policy(p))).reward for p in problems) / len(problems)


def test_no_constant_colour_or_common_answer_earns_reward(problems):
    for level in LEVELS:
        for colour in COLOURS:  # the old answers: one colour
            assert _score(problems[level], lambda p, c=colour: c) == 0
        common = Counter(p.answer for p in problems[level]).most_common(10)
        for answer, _ in common:
            assert _score(problems[level], lambda p, a=answer: a) <= 0.10, (level, answer)


def test_no_fixed_orientation_and_no_cheap_rule_beats_one_in_ten(problems):
    from palaestra.envs.symbolic.cube_rotation import reachable

    orientations = [tuple(FACES), *reachable(tuple(MOVES))]
    assert len(orientations) == 24
    for level in LEVELS:
        ends = Counter()
        for p in problems[level]:
            end = rotate(p.data["start"], p.data["moves"])
            where = {colour: face for face, colour in end.items()}
            ends[tuple(where[p.data["start"][face]] for face in FACES)] += 1
        assert len(ends) >= 20, level  # 20 fair orientations at level 0, all 23 turned ones above
        assert tuple(FACES) not in ends
        orientation, count = ends.most_common(1)[0]
        fixed = _score(problems[level], lambda p: _turned(p.data["start"], orientation))
        assert fixed == count / len(problems[level]) <= 0.10, (level, orientation, fixed)
        for name, rule in TASK.heuristics().items():
            assert _score(problems[level], rule) == 0, (level, name)


def test_any_spelling_of_the_cube_is_accepted_and_hedges_are_not():
    from palaestra.envs.symbolic.cube_rotation import describe

    problem = TASK.sample(3, 7)
    end = rotate(problem.data["start"], problem.data["moves"])
    pairs = list(end.items())[::-1]
    right = [
        describe(end),
        "; ".join(f"{face.upper()}: {colour.capitalize()}" for face, colour in pairs) + ".",
        "Answer:\n" + "\n".join(f"{i}. the {face} side is {colour}" for i, (face, colour) in enumerate(pairs, 1)),
        "| Side | Colour |\n|:--|--:|\n" + "\n".join(f"| {face} | {colour} |" for face, colour in pairs),
        rf"\boxed{{{describe(end)}}}",
    ]
    for answer in right:
        assert TASK.verify(problem, answer).correct, answer
    other = dict(end, top=end["bottom"], bottom=end["top"])
    wrong = [
        describe(other),
        describe(end).replace(f"top = {end['top']}", f"top = {end['top']} or {end['front']}"),
        f"{describe(end)}. Actually, {describe(other)}",
        describe(end).rsplit(",", 1)[0],  # a side left out
        end["top"],
        "top = gold, bottom = silver, front = grey, back = navy, left = teal, right = ivory",  # the prompt's example
    ]
    for answer in wrong:
        assert not TASK.verify(problem, answer).correct, answer
    assert "top = gold, bottom = silver" in problem.prompt
