"""Red-team regressions (round 3, session 22, leduc): simple rules earned reward in Leduc hold'em.

Version 1's zero was uniformly random decisions' value, which any sensible rule beats by far: "always raise,
else call" scored 0.47-0.51 on average per level and "bet or raise with a pair or the top half, else check or
fold" up to 0.65. Version 2's zero is the best simple rule's own sum on the game's tape.
"""

from __future__ import annotations

import random

import palaestra
from palaestra.envs.games import leduc_holdem
from palaestra.kit.play import play_episode

ID = "games/leduc_holdem"
TOP = 4
SEEDS = range(3)


def _task():
    return palaestra.make(ID, level=TOP).unwrapped.task


def _rule(choose):
    """A policy from ``choose(ranks, own card, public card or None, options)``, written out here by hand."""
    def policy(problem, state, history, rng):
        mine, _, public = leduc_holdem._deal(problem.data, state["hand"])
        shown = public if len(state["history"]) == 2 else None
        return choose(problem.data["ranks"], mine, shown, leduc_holdem._allowed(state["history"]))
    return policy


def _aggressive(options):
    return next(a for a in ("raise", "bet", "call") if a in options)


def _passive(options):
    return "check" if "check" in options else "call"


def _tight(options):
    return "check" if "check" in options else "fold"


NAMED = {
    "always raise, else call (never fold)": _rule(lambda n, mine, public, options: _aggressive(options)),
    "always check or call": _rule(lambda n, mine, public, options: _passive(options)),
    "bet or raise with a pair or the top rank, else call": _rule(
        lambda n, mine, public, options: _aggressive(options) if mine in (public, n) else _passive(options)),
    "the top half aggressive, else check or fold": _rule(
        lambda n, mine, public, options: _aggressive(options) if mine > n / 2 else _tight(options)),
    "a pair or the top half aggressive, else call first and fold after the public card": _rule(
        lambda n, mine, public, options: _aggressive(options) if mine == public or mine > n / 2
        else _passive(options) if public is None else _tight(options)),
}


def _score(task, problem, policy, seed):
    rng = random.Random(seed)
    return min(1.0, play_episode(task, problem, lambda state, history: policy(problem, state, history, rng))[0])


def test_named_simple_rules_score_nothing_at_the_top_level():
    task = _task()
    for seed in SEEDS:
        problem = task.sample(TOP, seed)
        for name, policy in NAMED.items():
            assert _score(task, problem, policy, seed) <= 0.15, name


def test_declared_heuristics_are_the_zero_and_score_nothing():
    task = _task()
    declared = task.heuristics()
    assert len(declared) >= 9
    problem = task.sample(TOP, 0)
    for name, policy in declared.items():
        assert _score(task, problem, policy, 0) == 0.0, name


def test_oracle_scores_one():
    task = _task()
    for seed in SEEDS:
        problem = task.sample(TOP, seed)
        assert _score(task, problem, lambda p, state, history, rng: task.oracle(p, state), seed) == 1.0


def test_honest_player_keeps_a_fair_score_at_the_top_level():
    task = _task()
    scores = []
    for seed in range(4):
        problem = task.sample(TOP, seed)
        total, _ = play_episode(task, problem, lambda state, history, p=problem: task.honest_move(task.view(p, history)))
        scores.append(min(1.0, total))
    assert sum(scores) / len(scores) >= 0.3


def test_honest_estimate_learns_from_folds():
    # v1 counted showdowns only, and a fold never reaches one: an opponent that folded every bet looked like a caller.
    hands = [{"hand": h, "mine": 3, "public": None, "theirs": None, "history": [["bet", "fold"]]} for h in range(0, 20, 2)]
    estimate = leduc_holdem._estimate(3, hands)
    prior = leduc_holdem._estimate(3, [])
    for bucket in range(3):
        assert estimate["call"][0][bucket] < prior["call"][0][bucket]


def test_prompt_scores_against_the_simple_rules_not_random_play():
    problem = _task().sample(TOP, 0)
    assert "simple fixed rules" in problem.prompt
    assert "random decisions score 0" not in problem.prompt
