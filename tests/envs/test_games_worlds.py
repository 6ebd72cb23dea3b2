"""Procedural worlds and puzzle games with feedback (issue 27): hand-checked positions, refused moves and plans,
replays equal to the episode, the oracle winning and random legal play losing."""

from __future__ import annotations

import random

import palaestra
from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.kit.play import play_episode


def oracle_episode(env_id: str, problem: Problem) -> tuple[float, bool, list[str]]:
    """(total reward, won, the oracle's full replies) through ``advance``, as a model's replies would go."""
    source = make_source(env_id)
    state, total, replies = source.initial_state(problem), 0.0, []
    for _ in range(source.max_turns(problem)):
        replies.append(source.format_answer(source.oracle(problem, state)))
        outcome = source.advance(problem, state, replies[-1])
        state, total = outcome.state, total + outcome.verdict.reward
        if outcome.done:
            return total, bool(outcome.verdict.correct), replies
    return total, False, replies


def random_legal_mean(env_id: str, level: int, seeds: range) -> float:
    source = make_source(env_id)
    total = 0.0
    for seed in seeds:
        problem = source.sample(level, seed)
        rng = random.Random(seed)
        total += play_episode(source, problem, lambda state, history, p=problem: rng.choice(
            source.legal_moves(p, state)))[0]
    return total / len(seeds)


# --- Dungeon crawl -----------------------------------------------------------

def corridor() -> Problem:
    """Three rooms west to east; a troll (it fears the torch) guards the way from the middle room to the exit."""
    data = {"rows": 1, "cols": 3, "passages": [[0, 1], [1, 2]], "guards": [None, ["monster", "troll"]],
            "bane": {"goblin": "salt pouch", "troll": "torch"}, "start": 0, "exit": 2,
            "items": {"salt pouch": 1, "torch": 0}, "rooms": ["damp cell", "cold hall", "smoky forge"],
            "plan": 4, "budget": 10}
    return Problem(env_id="games/dungeon_crawl", level=0, seed=0, data=data)


def test_dungeon_crawl_hand_checked_corridor() -> None:
    source = make_source("games/dungeon_crawl")
    problem = corridor()
    state = source.initial_state(problem)
    took = source.play(problem, state, "take the torch")
    assert took.observation == "You take the torch." and not took.done
    moved = source.play(problem, took.state, "e")
    assert moved.observation == ("You are in the cold hall. Passages lead east (a troll blocks the way), west. "
                                 "On the floor: salt pouch.")
    blocked = source.play(problem, moved.state, "go east")
    assert blocked.state == moved.state and "troll blocks the way" in blocked.observation
    cleared = source.play(problem, moved.state, "use torch on troll")
    assert "flees from the torch" in cleared.observation and cleared.state["items"]["torch"] == -2
    won = source.play(problem, cleared.state, "go east")
    assert won.done and won.verdict.correct and won.verdict.reward == 1
    reward, won_too, replies = oracle_episode("games/dungeon_crawl", problem)
    assert won_too and reward == 1 and len(replies) == 4


def test_dungeon_crawl_wrong_item_hurts_and_the_third_blow_loses() -> None:
    source = make_source("games/dungeon_crawl")
    problem = corridor()
    state = {"room": 1, "items": {"salt pouch": -1, "torch": 0}, "cleared": [], "health": 3}
    for left in (2, 1):
        hurt = source.play(problem, state, "use salt pouch on east")
        assert not hurt.done and hurt.state["health"] == left and f"{left} health left" in hurt.observation
        state = hurt.state
    dead = source.play(problem, state, "attack east with salt pouch")
    assert dead.done and not dead.verdict.correct and "Game over" in dead.observation


def test_dungeon_crawl_refuses_unknown_items_and_plans() -> None:
    source = make_source("games/dungeon_crawl")
    problem = corridor()
    state = source.initial_state(problem)
    for move in ("take the sword of truth", "fly east", "go east or west"):
        outcome = source.play(problem, state, move)
        assert not outcome.verdict.parsed and outcome.state == state and "use ITEM on DIRECTION" in outcome.observation
    plan = source.advance(problem, state, source.format_answer("take torch, then go east"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()
    missing = source.play(problem, state, "take salt pouch")
    assert missing.observation == "There is no salt pouch here." and missing.state == state


def test_dungeon_crawl_replay_equals_the_episode_and_random_play_loses() -> None:
    source = make_source("games/dungeon_crawl")
    for level in (0, 4):
        problem = source.sample(level, 5)
        reward, won, replies = oracle_episode("games/dungeon_crawl", problem)
        assert won and reward == 1 and len(replies) == problem.data["plan"]
        assert palaestra.score(problem, replies).reward == 1
    assert random_legal_mean("games/dungeon_crawl", 4, range(8)) == 0
