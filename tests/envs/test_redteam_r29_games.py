"""Red team, round 3 session 29: multi-turn games and interactive envs."""

from __future__ import annotations

from palaestra import make_source


def _knockout(source, problem) -> float:  # type: ignore[no-untyped-def]
    """Compare the winner so far with the next rental, then recommend the last winner: the rule never read."""
    labels = problem.data["labels"]
    state, champion, total = source.initial_state(problem), labels[0], 0.0
    turns = source.max_turns(problem)
    for turn, challenger in enumerate([*labels[1:turns], None][: turns]):
        move = f"recommend {champion}" if challenger is None or turn == turns - 1 else f"compare {champion} {challenger}"
        outcome = source.play(problem, state, move)
        total += outcome.verdict.reward
        if outcome.done:
            break
        said = outcome.observation
        if "I prefer " in said:
            champion = said.split("I prefer ")[1][0]
        state = outcome.state
    return total


def test_preference_elicitation_a_knockout_of_compares_does_not_pay() -> None:
    # Version 3's "compare X Y" named the user's preferred rental: a knockout found the favourite without a single
    # preference asked (1.00 of level 0's games, 0.71 of level 4's; chance 0.25 and 0.08).
    source = make_source("interactive/preference_elicitation")
    problems = [source.sample(0, seed) for seed in range(8)]
    assert sum(_knockout(source, problem) for problem in problems) <= 4
    problem = problems[0]
    refused = source.play(problem, source.initial_state(problem), "compare A B")
    assert not refused.verdict.parsed and "prefer" not in refused.observation
    assert "compare" not in problem.prompt
    for level in (0, 4):  # the honest player, which now only asks, still wins
        for seed in range(3):
            problem = source.sample(level, seed)
            assert source.honest_turns(problem, source.max_turns(problem)) is not None, (level, seed)
