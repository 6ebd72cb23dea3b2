"""Red-team round 38 (fresh4): coding envs no earlier red-team test named, and games/logic_grid_questions.

- games/logic_grid_questions (v2): any right assignment won, so asking random questions (blind to the clues) and
  then stating an assignment that fits the clues and the answers won 0.46 / 0.27 / 0.32 / 0.18 / 0.19 at levels
  0-4 (the balanced questioner 1.0). Now an assignment wins only when the clues and the answers leave no other (a
  right guess loses), and level 0 has three categories: 0.05 / 0.09 / 0.09 / 0.03 / 0.02 (200 seeds a level).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from palaestra.core.registry import make_source
from palaestra.envs.games.logic_grid_questions import read_move
from palaestra.kit.play import policy_scores

GRID = "games/logic_grid_questions"


def _fits(data: dict[str, Any], facts: list[tuple[tuple[int, int], tuple[int, int], bool]]) -> list[Any]:
    """Every assignment (per category, the owner of each value) true of ``facts``, enumerated here."""
    people, kinds = len(data["people"]), len(data["values"])

    def owner(rows: Any, fact: tuple[int, int]) -> int:
        return fact[1] if fact[0] == 0 else rows[fact[0] - 1][fact[1]]

    return [rows for rows in itertools.product(itertools.permutations(range(people)), repeat=kinds)
            if all((owner(rows, a) == owner(rows, b)) == yes for a, b, yes in facts)]


def _text(data: dict[str, Any], rows: Any) -> str:
    return "solution: " + "; ".join(" ".join([name] + [data["values"][c][row.index(p)] for c, row in enumerate(rows)])
                                    for p, name in enumerate(data["people"]))


def _facts(problem: Any, history: Any) -> list[tuple[tuple[int, int], tuple[int, int], bool]]:
    data = problem.data
    facts = [(tuple(a), tuple(b), bool(yes)) for yes, a, b in data["clues"]]
    for move, observation in history:
        read = read_move(move, data)
        if read is not None and read[0] == "question":
            facts.append((*read[1], observation.startswith("Yes")))
    return facts  # type: ignore[return-value]


def _random_then_fitting(problem: Any, state: Any, history: Any, rng: random.Random) -> str:
    """Random questions, blind to the clues and the answers, then a random assignment that fits them all."""
    data = problem.data
    if len(history) + 1 < data["budget"]:
        facts = [(c, v) for c in range(len(data["values"]) + 1) for v in range(len(data["people"]))]
        first, second = rng.sample(facts, 2)
        while first[0] == second[0]:
            first, second = rng.sample(facts, 2)
        text = [data["people"][f[1]] if f[0] == 0 else "the " + data["values"][f[0] - 1][f[1]] for f in (first, second)]
        return f"Is {text[0]} {text[1]}?"
    return _text(data, rng.choice(_fits(data, _facts(problem, history))))


def test_random_questions_then_a_fitting_assignment_rarely_win() -> None:
    shares = policy_scores(GRID, _random_then_fitting, 30, [0, 1, 2])
    assert max(shares) <= 0.2, shares  # was 0.46 / 0.27 / 0.32


def test_a_right_guess_before_the_answers_settle_it_loses() -> None:
    source = make_source(GRID)
    for seed in range(10):
        problem = source.sample(0, seed)
        hidden = tuple(tuple(row) for row in problem.data["hidden"])
        assert len(_fits(problem.data, _facts(problem, ()))) > 1
        outcome = source.advance(problem, source.initial_state(problem),
                                 source.format_answer(_text(problem.data, hidden)))
        assert outcome.done and not outcome.verdict.correct, outcome.observation


def test_the_balanced_questioner_still_wins_every_game() -> None:
    source = make_source(GRID)
    assert policy_scores(GRID, lambda problem, state, history, rng: source.oracle(problem, state), 15) == [1.0] * 5
