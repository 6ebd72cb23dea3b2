"""Red team, round 3 session 22: games/yahtzee_lite's zero is the best simple rule, not random play.

Version 1 set the zero from uniformly random legal play and compared the dice total with the optimal strategy's
total on the same dice, so any sensible rule scored well (keeping the most common face and scoring the best open
category: 0.69 at level 4). Version 2 sums the expected points each move gives up against the exact optimum and
pays ``1 - given_up / allowed``, ``allowed`` being the least any rule of a broad simple family gives up on these
dice. The rules below are written out here, apart from the env's own family, and must score ~0 at the top level;
the oracle scores 1; a near-optimal player (the optimal moves, but the category scoring most in the last three
turns) still earns a fair share.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from palaestra.core.registry import make_source
from palaestra.kit.play import play_episode

ENV = "games/yahtzee_lite"
TOP = 4
SEEDS = range(6)


def points(category: str, dice: list[int]) -> int:
    counts = Counter(dice)
    return {"sixes": 6 * counts[6], "fives": 5 * counts[5], "chance": sum(dice),
            "all same": 30 if len(counts) == 1 else 0,
            "straight": 20 if len(counts) == len(dice) and max(dice) - min(dice) == len(dice) - 1 else 0,
            "three of a kind": sum(dice) if max(counts.values()) >= 3 else 0}[category]


def greedy(state: dict[str, Any]) -> str:
    return "score " + max(state["open"], key=lambda c: points(c, state["showing"]))


def rule(keep: Callable[[dict[str, Any]], list[int] | None]) -> Callable[[dict[str, Any]], str]:
    def move(state: dict[str, Any]) -> str:
        kept = keep(state) if state["rerolls"] else None
        if kept is None or len(kept) == len(state["showing"]):
            return greedy(state)
        return "keep " + (" ".join(str(f) for f in sorted(kept)) or "none")
    return move


def most_common(state: dict[str, Any]) -> list[int]:
    dice = state["showing"]
    face = max(set(dice), key=lambda f: (dice.count(f), f))
    return [f for f in dice if f == face]


def toward_straight(state: dict[str, Any]) -> list[int]:
    if "straight" not in state["open"]:
        return most_common(state)
    n, best = len(state["showing"]), []
    for low in range(7 - n, 0, -1):
        kept = sorted({f for f in state["showing"] if low <= f < low + n})
        best = kept if len(kept) > len(best) else best
    return best


RULES = {
    "keep the most common face, score the best open category": rule(most_common),
    "keep sixes": rule(lambda s: [f for f in s["showing"] if f == 6]),
    "keep sixes and fives": rule(lambda s: [f for f in s["showing"] if f >= 5]),
    "never reroll, score greedily": rule(lambda s: None),
    "reroll everything": rule(lambda s: []),
    "keep toward a straight while it is open": rule(toward_straight),
}


def mean_reward(level: int, choose: Callable[[Any, dict[str, Any]], str]) -> float:
    source = make_source(ENV)
    total = 0.0
    for seed in SEEDS:
        problem = source.sample(level, seed)
        total += min(1.0, play_episode(source, problem, lambda state, history, p=problem: choose(p, state))[0])
    return total / len(SEEDS)


def test_each_simple_rule_scores_about_nothing_at_the_top_level() -> None:
    for name, move in RULES.items():
        assert mean_reward(TOP, lambda problem, state, move=move: move(state)) <= 0.15, name


def test_the_most_common_face_rule_scores_about_nothing_at_level_two() -> None:
    move = RULES["keep the most common face, score the best open category"]
    assert mean_reward(2, lambda problem, state: move(state)) <= 0.15


def test_the_oracle_scores_one_at_every_level() -> None:
    source = make_source(ENV)
    for level in (0, 2, TOP):
        assert mean_reward(level, lambda problem, state: source.oracle(problem, state)) == 1.0


def test_a_near_optimal_player_still_earns_a_fair_share() -> None:
    """The optimal moves, but the category scoring most now once three categories or fewer are open: near the
    optimum (0.62 mean over 40 seeds at the top level), so the scale must pay it, if not in full."""
    source = make_source(ENV)

    def near(problem: Any, state: dict[str, Any]) -> str:
        move = source.oracle(problem, state)
        return greedy(state) if move.startswith("score") and len(state["open"]) <= 3 else move

    assert 0.3 <= mean_reward(TOP, near) < 1.0


def test_the_zero_is_what_the_best_simple_rule_gives_up_on_these_dice() -> None:
    source = make_source(ENV)
    problem = source.sample(TOP, 0)
    assert 0.5 <= problem.data["allowed"] and problem.data["simple_rule"]
    assert source.version >= 2
