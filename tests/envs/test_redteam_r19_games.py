"""Red-team regressions for the games family (round 3, session 19)."""

from __future__ import annotations

import re

from palaestra.core.registry import make_source
from palaestra.kit.base import sample


def test_twenty_questions_prompt_example_does_not_name_the_secret():
    # v2's example guess was the table's row after the secret: "guess <the row before the example>" won every game
    # on the first turn (1.0 at levels 0, 2 and 4; chance 1/8 to 1/50).
    source = make_source("games/twenty_questions")
    wins = total = 0
    for level in (0, 2, 4):
        for seed in range(30):
            problem = sample("games/twenty_questions", level, seed)
            example = re.search(r"for example: guess (\w+)", problem.prompt).group(1)
            names = [row["name"] for row in problem.data["table"]]
            guess = names[(names.index(example) - 1) % len(names)]
            outcome = source.play(problem, source.initial_state(problem), f"guess {guess}")
            wins += outcome.verdict.reward
            total += 1
    assert wins / total <= 0.15


def test_farm_sim_doing_nothing_scores_zero():
    # v1's reward zero (the baseline) went below 0 where random play loses money, so "wait" every day (profit 0)
    # scored 0.28 at level 0, 0.15 at level 2 and 0.11 at level 4; random legal play scores about 0.03.
    source = make_source("games/farm_sim")
    total = 0.0
    for level in (0, 2, 4):
        for seed in range(8):
            problem = sample("games/farm_sim", level, seed)
            state = source.initial_state(problem)
            for _ in range(source.max_turns(problem)):
                outcome = source.play(problem, state, "wait")
                total += outcome.verdict.reward
                state = outcome.state
                if outcome.done:
                    break
    assert total / 24 <= 0.02


def _follow_wall(source, problem, hand: int) -> float:
    """The wall follower: keep one hand on the wall (``hand`` 1 right, -1 left), reading the open ways it is told."""
    headings = ["north", "east", "south", "west"]
    state, text, heading = source.initial_state(problem), problem.prompt, 0
    for _ in range(source.max_turns(problem)):
        ways = re.findall(r"Open ways from here: ([a-z, ]+)\.", text)[-1].split(", ")
        heading = next((heading + t) % 4 for t in (hand, 0, -hand, 2) if headings[(heading + t) % 4] in ways)
        outcome = source.play(problem, state, headings[heading])
        state, text = outcome.state, outcome.observation
        if outcome.done:
            return outcome.verdict.reward
    return 0.0


def test_fog_maze_wall_following_loses_at_the_top_level():
    # v2: the left-hand rule, which ignores where the exit is, won 57% of level-4 games (the right-hand rule 51%).
    source = make_source("games/fog_maze")
    wins = sum(_follow_wall(source, sample("games/fog_maze", 4, seed), hand) for seed in range(20) for hand in (1, -1))
    assert wins == 0


def test_hangman_turn_budget_does_not_count_the_secrets_distinct_letters():
    # v2's budget was distinct letters + lives + 3, and every observation ends "(N turns left)": the first reply told
    # whether the secret word has 5, 4 or 3 distinct letters. Two secrets of one shape now get one budget.
    source = make_source("games/hangman")
    budgets: dict[tuple[int, int], set[int]] = {}
    for seed in range(40):
        problem = sample("games/hangman", 0, seed)
        shape = (len(problem.data["phrase"]), problem.data["lives"])
        budgets.setdefault(shape, set()).add(source.max_turns(problem))
    assert all(len(values) == 1 for values in budgets.values())


def test_memory_pairs_and_gops_read_common_spellings_of_one_move():
    # "(1, 2)" (memory) and "card 3" (GOPS) were refused; a refused GOPS bid loses the round's prize.
    pairs = make_source("games/memory_pairs")
    problem = sample("games/memory_pairs", 0, 1)
    state = pairs.initial_state(problem)
    assert pairs.play(problem, state, "(1, 2)").verdict.parsed
    assert not pairs.play(problem, state, "(1, 2), (3, 4)").verdict.parsed
    gops = make_source("games/gops")
    problem = sample("games/gops", 0, 1)
    hand = gops.initial_state(problem)["hand"]
    assert gops.play(problem, gops.initial_state(problem), f"card {hand[-1]}").verdict.parsed
