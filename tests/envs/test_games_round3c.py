"""Round-3c multi-turn games: hand-built worlds and positions, refused moves and plans, the oracles winning."""

from __future__ import annotations

import random

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games import crafting, delivery_route, guard_maze, ice_slide
from palaestra.envs.interactive import cooking, escape_room
from palaestra.kit.play import play_episode


def oracle_episode(env_id: str, level: int, seed: int) -> tuple[float, bool, int]:
    """(total reward, won, turns) of the oracle's game through ``advance`` (full replies, as a model's)."""
    source = make_source(env_id)
    problem = source.sample(level, seed)
    state, total = source.initial_state(problem), 0.0
    for turn in range(1, source.max_turns(problem) + 1):
        outcome = source.advance(problem, state, source.format_answer(source.oracle(problem, state)))
        state, total = outcome.state, total + outcome.verdict.reward
        if outcome.done:
            return total, bool(outcome.verdict.correct), turn
    return total, False, source.max_turns(problem)


# --- Crafting ------------------------------------------------------------------

def small_world() -> dict:
    """wood -> plank (makes 2); lamp = 3 plank + 1 coal at a workbench (2 wood); stick has two recipes."""
    return {
        "raws": {"wood": "", "coal": "", "iron ore": "pickaxe"},
        "recipes": {
            "workbench": [{"inputs": {"wood": 2}, "makes": 1, "at": ""}],
            "pickaxe": [{"inputs": {"wood": 1, "coal": 1}, "makes": 1, "at": ""}],
            "plank": [{"inputs": {"wood": 1}, "makes": 2, "at": ""}],
            "stick": [{"inputs": {"plank": 4}, "makes": 1, "at": ""}, {"inputs": {"iron ore": 2}, "makes": 1, "at": ""}],
            "lantern": [{"inputs": {"plank": 3, "coal": 1, "stick": 1}, "makes": 1, "at": "workbench"}],
        },
        "target": "lantern", "order": ["workbench", "pickaxe", "plank", "stick", "lantern"],
    }


def test_crafting_needs_count_batches_tools_and_stations() -> None:
    world = small_world()
    # Recipe 1 for the stick: 3 + 4 = 7 planks -> 4 batches -> 4 wood, plus 2 wood for the workbench.
    batches, gathers = crafting._needs(world, {"stick": 0}, {})
    assert batches == {"lantern": 1, "stick": 1, "plank": 4, "workbench": 1}
    assert gathers == {"wood": 6, "coal": 1}
    # Recipe 2: the stick from iron ore, which needs a pickaxe (1 wood + 1 coal): 2 + 1 + 2 wood, 2 coal, 2 ore.
    batches, gathers = crafting._needs(world, {"stick": 1}, {})
    assert batches == {"lantern": 1, "stick": 1, "plank": 2, "workbench": 1, "pickaxe": 1}
    assert gathers == {"wood": 5, "coal": 2, "iron ore": 2}
    assert crafting._best_choice(world) == ({"stick": 0}, 14)  # 7 gathers + 7 crafts, against 9 + 6
    # What the inventory holds is netted out.
    assert crafting._needs(world, {"stick": 0}, {"plank": 7, "workbench": 1})[1] == {"coal": 1}


def test_crafting_refuses_what_cannot_be_done_and_plans() -> None:
    source = make_source("games/crafting")
    world = small_world()
    choice, plan = crafting._best_choice(world)
    problem = Problem(env_id="games/crafting", level=0, seed=0, prompt="",
                      data={**world, "choice": choice, "plan": plan, "budget": plan + 1})
    state = source.initial_state(problem)
    outcome = source.play(problem, state, "gather iron ore")
    assert outcome.verdict.parsed and "pickaxe" in outcome.observation and outcome.state == state
    outcome = source.play(problem, state, "craft stick")
    assert "two recipes" in outcome.observation
    outcome = source.play(problem, state, "craft lantern")
    assert "needs" in outcome.observation and "workbench" in outcome.observation
    assert not source.play(problem, state, "gather unobtainium").verdict.parsed
    plan_reply = source.advance(problem, state, "<answer>gather wood, gather coal</answer>")
    assert not plan_reply.verdict.parsed and "one move per turn" in plan_reply.observation.lower()
    # Spellings of one command.
    for move in ("gather wood", "Mine wood.", "collect wood"):
        assert source.play(problem, state, move).state == {"inventory": {"wood": 1}}
    held = {"inventory": {"plank": 4}}
    assert source.play(problem, held, "craft stick using recipe 1").state == {"inventory": {"stick": 1}}
    assert source.play(problem, held, "make stick with recipe one").state == {"inventory": {"stick": 1}}


def test_crafting_oracle_wins_within_budget_and_random_play_does_not() -> None:
    source = make_source("games/crafting")
    for level in range(5):
        for seed in range(4):
            total, won, turns = oracle_episode("games/crafting", level, seed)
            problem = source.sample(level, seed)
            assert won and total == 1.0 and turns == problem.data["plan"]
    problem = source.sample(4, 0)
    rng = random.Random(0)
    moves = [f"gather {raw}" for raw in problem.data["raws"]] + [f"craft {item} using recipe 1" if len(r) > 1 else
                                                                  f"craft {item}" for item, r in problem.data["recipes"].items()]
    state = source.initial_state(problem)
    for _ in range(source.max_turns(problem)):
        outcome = source.advance(problem, state, source.format_answer(rng.choice(moves)))
        state = outcome.state
        assert not outcome.done


# --- Delivery route ------------------------------------------------------------

def delivery_problem() -> Problem:
    """Depot A (0,0) with a station; B at (0,5) window 5..6; C at (0,2) window 0..30; tank 6.

    Earliest deadline first drives to B (5 h, fuel 1), then cannot reach C (3) without refuelling: it wins
    only through a refuel; the shortest plan is C (2 h), then B (3 more h, arriving at 5): two commands.
    """
    data = {"towns": ["Ashford", "Brampton", "Colby"], "points": [[0, 0], [0, 5], [0, 2]], "stations": [0],
            "tank": 6, "parcels": [[1, 5, 6], [2, 0, 30]]}
    data["plan"] = len(delivery_route._plan(data, (0, 0, 6, 0)))
    data["budget"] = data["plan"] + 1
    return Problem(env_id="games/delivery_route", level=0, seed=0, prompt="", data=data)


def test_delivery_route_plan_fuel_and_windows() -> None:
    source = make_source("games/delivery_route")
    problem = delivery_problem()
    assert delivery_route._plan(problem.data, (0, 0, 6, 0)) == ["drive to Colby", "drive to Brampton"]
    state = source.initial_state(problem)
    first = source.play(problem, state, "Drive to Colby.")
    assert first.verdict.parsed and first.state["delivered"] == [2] and first.state["fuel"] == 4
    second = source.play(problem, first.state, "go to brampton")
    assert second.done and second.verdict.correct
    # Too little fuel: refused, nothing changes; a window closing loses the game.
    low = {"town": 2, "hour": 2, "fuel": 2, "delivered": [2]}
    refused = source.play(problem, low, "drive to Brampton")
    assert refused.state == low and "fuel" in refused.observation and not refused.done
    late = source.play(problem, {"town": 0, "hour": 5, "fuel": 6, "delivered": []}, "drive to Colby")
    assert late.done and not late.verdict.correct and "closed" in late.observation
    # Waiting jumps to the window's opening and delivers.
    waited = source.play(problem, {"town": 1, "hour": 3, "fuel": 1, "delivered": [2]}, "wait")
    assert waited.done and waited.verdict.correct and waited.state["hour"] == 5
    plan_reply = source.advance(problem, state, "<answer>drive to Colby, then drive to Brampton</answer>")
    assert not plan_reply.verdict.parsed and "one move per turn" in plan_reply.observation.lower()


def test_delivery_route_oracle_wins_and_rules_lose_from_level_two() -> None:
    source = make_source("games/delivery_route")
    rules = source.heuristics()
    for level in range(5):
        for seed in range(3):
            assert oracle_episode("games/delivery_route", level, seed)[1]
            problem = source.sample(level, seed)
            if level >= 2:
                for rule in rules.values():
                    total, won = play_episode(source, problem, lambda state, history, rule=rule, problem=problem:
                                              rule(problem, state, history, random.Random(0)))
                    assert not won


# --- Cooking -------------------------------------------------------------------

def cooking_problem() -> Problem:
    """Two rooms side by side: the kitchen (west, start, cookbook) and the pantry (east, knife, carrot, apple).

    The recipe: carrot (sliced, fried). The shortest game: east, take carrot, take knife, slice carrot, west,
    fry carrot, prepare meal.
    """
    data = {"rooms": ["kitchen", "pantry"], "cols": 2, "passages": [[0, 1]], "kitchen": 0, "backyard": 1,
            "items": {"carrot": 1, "apple": 1, "knife": 1, "cookbook": 0}, "recipe": [["carrot", "sliced", "fried"]],
            "start": 0}
    data["plan"] = len(cooking._oracle_game(data))
    data["budget"] = data["plan"] + 8
    return Problem(env_id="interactive/cooking", level=0, seed=0, prompt="", data=data)


def test_cooking_recipe_ruin_and_meal() -> None:
    source = make_source("interactive/cooking")
    problem = cooking_problem()
    assert problem.data["plan"] == 7
    state = source.initial_state(problem)
    read = source.play(problem, state, "read the cookbook")
    assert "carrot (sliced, fried)" in read.observation and read.state == state
    assert "only prepare" not in source.play(problem, state, "prepare meal").observation  # in the kitchen: not ready
    assert not source.play(problem, state, "prepare meal").done
    state = source.play(problem, state, "east").state
    for command in ("take carrot", "take knife", "take the apple"):
        state = source.play(problem, state, command).state
    # A distractor may be cut freely; cutting the carrot the wrong way ruins it and loses.
    assert not source.play(problem, state, "dice apple").done
    ruined = source.play(problem, state, "dice carrot")
    assert ruined.done and not ruined.verdict.correct and "ruined" in ruined.observation
    state = source.play(problem, state, "slice carrot").state
    assert "no stove" in source.play(problem, state, "fry carrot").observation.lower()
    twice = source.play(problem, state, "slice carrot")
    assert twice.done and not twice.verdict.correct
    state = source.play(problem, state, "go west").state
    state = source.play(problem, state, "fry carrot").state
    meal = source.play(problem, state, "prepare meal")
    assert meal.done and meal.verdict.correct
    plan_reply = source.advance(problem, source.initial_state(problem), "<answer>go east; take carrot</answer>")
    assert not plan_reply.verdict.parsed and "one move per turn" in plan_reply.observation.lower()


def test_cooking_honest_player_reads_only_the_text() -> None:
    source = make_source("interactive/cooking")
    for level in (0, 4):
        for seed in range(5):
            problem = source.sample(level, seed)
            view = source.view(problem)
            assert view.public == {} and "cookbook says" not in view.prompt
            total, won = play_episode(source, problem, lambda state, history, p=problem:
                                      source.honest_move(source.view(p, history)))
            assert won and total == 1.0
            assert oracle_episode("interactive/cooking", level, seed)[1]


# --- Escape room ---------------------------------------------------------------

def escape_problem() -> Problem:
    """A chest with a green-white combination (green 6 on the rug, white 4 on the lamp) holds the iron key,
    which opens the door, and a spare silver key that fits nothing."""
    data = {"objects": ["chest", "lamp", "rug", "door"], "containers": ["chest"],
            "locks": {"chest": {"dials": ["green", "white"]}, "door": {"key": "iron key"}},
            "contents": {"chest": ["iron key", "silver key"]},
            "digits": {"green": [6, "rug", False], "white": [4, "lamp", False]}, "order": ["chest", "door"]}
    data["plan"] = len(escape_room._oracle_game(data))
    data["budget"] = data["plan"] + 10
    return Problem(env_id="interactive/escape_room", level=0, seed=0, prompt="", data=data)


def test_escape_room_codes_keys_and_the_door() -> None:
    source = make_source("interactive/escape_room")
    problem = escape_problem()
    assert escape_room._oracle_game(problem.data) == ["enter 64 on chest", "open chest", "take iron key",
                                                       "unlock door with iron key", "open door"]
    state = source.initial_state(problem)
    assert "green 6" in source.play(problem, state, "examine the rug").observation
    assert "dials coloured green, white" in source.play(problem, state, "inspect chest").observation
    assert "locked" in source.play(problem, state, "open chest").observation
    wrong = source.play(problem, state, "enter 46 on chest")
    assert wrong.state == state and "Nothing happens" in wrong.observation
    state = source.play(problem, state, "enter 64 on the chest").state
    assert "iron key, silver key" in source.play(problem, state, "open chest").observation
    state = source.play(problem, state, "open chest").state
    state = source.play(problem, state, "take silver key").state
    assert "does not fit" in source.play(problem, state, "unlock door with silver key").observation
    assert "don't carry" in source.play(problem, state, "unlock door with iron key").observation
    state = source.play(problem, state, "take iron key").state
    state = source.play(problem, state, "unlock door with iron key").state
    out = source.play(problem, state, "open door")
    assert out.done and out.verdict.correct
    plan_reply = source.advance(problem, source.initial_state(problem), "<answer>examine rug\nexamine lamp</answer>")
    assert not plan_reply.verdict.parsed and "one move per turn" in plan_reply.observation.lower()


def test_escape_room_tiny_marks_need_the_magnifying_glass() -> None:
    source = make_source("interactive/escape_room")
    problem = escape_problem()
    data = {**problem.data, "digits": {"green": [6, "rug", False], "white": [4, "lamp", True]}}
    tiny = Problem(env_id="interactive/escape_room", level=0, seed=0, prompt="", data=data)
    state = source.initial_state(tiny)
    assert "too small" in source.play(tiny, state, "examine lamp").observation
    assert "white 4" in source.play(tiny, {**state, "held": ["magnifying glass"]}, "examine lamp").observation
    for level in (0, 2, 4):
        for seed in range(4):
            p = source.sample(level, seed)
            total, won = play_episode(source, p, lambda st, history, p=p: source.honest_move(source.view(p, history)))
            assert won


# --- Guard maze ----------------------------------------------------------------

def guard_problem() -> Problem:
    """A 3x3 open grid, start a3 (bottom left), exit c1 (top right); one guard pacing b1-b3, on b1 heading south.

    Guard squares by turn: b1, b2, b3, b2, b1, ... North, north (a1 at turn 2), east (b1 at turn 3, the guard
    on b2) and east reach the exit in the Manhattan distance, 4 moves."""
    data = {"grid": ["...", "...", "..."], "start": [2, 0], "exit": [0, 2],
            "guards": [{"route": [[0, 1], [1, 1], [2, 1]], "phase": 0}]}
    data["plan"] = len(guard_maze._search(data, (2, 0), 0))
    data["budget"] = data["plan"] + 2
    return Problem(env_id="games/guard_maze", level=0, seed=0, prompt="", data=data)


def test_guard_maze_timing_catches_and_search() -> None:
    source = make_source("games/guard_maze")
    problem = guard_problem()
    data = problem.data
    assert [guard_maze._guard_at(data["guards"][0], t) for t in range(5)] == [(0, 1), (1, 1), (2, 1), (1, 1), (0, 1)]
    state = source.initial_state(problem)
    assert source.play(problem, state, "wait").state == {"at": [2, 0], "time": 1}
    caught = source.play(problem, {"at": [2, 0], "time": 1}, "east")  # the guard steps b2 -> b3 onto the player
    assert caught.done and not caught.verdict.correct and "catches" in caught.observation
    swap = source.play(problem, {"at": [1, 0], "time": 0}, "east")  # player a2 -> b2 while the guard b1 -> b2
    assert swap.done and not swap.verdict.correct
    bump = source.play(problem, state, "west")
    assert bump.state == {"at": [2, 0], "time": 1} and "wall" in bump.observation
    assert guard_maze._search(data, (2, 0), 0) == ["north", "north", "east", "east"]
    total, won = play_episode(source, problem, lambda st, history: source.oracle(problem, st))
    assert won
    plan_reply = source.advance(problem, state, "<answer>north, north, east, east</answer>")
    assert not plan_reply.verdict.parsed and "one move per turn" in plan_reply.observation.lower()


def test_guard_maze_rules_lose_at_the_top_level() -> None:
    source = make_source("games/guard_maze")
    for seed in range(4):
        problem = source.sample(4, seed)
        assert oracle_episode("games/guard_maze", 4, seed)[1]
        for rule in source.heuristics().values():
            assert not play_episode(source, problem, lambda st, history, rule=rule, p=problem:
                                    rule(p, st, history, random.Random(0)))[1]


# --- Ice slide -----------------------------------------------------------------

def test_ice_slide_tokens_stop_at_walls_tokens_and_edges() -> None:
    source = make_source("games/ice_slide")
    # S on a3, T on c1, a wall on d1, helper A on c3: S east stops on b3 (A blocks it); S north then east slides
    # a1 -> c1, where the wall on d1 stops it: two moves.
    grid = ["...#", "....", "....", "...."]
    data = {"grid": grid, "target": [0, 2], "tokens": [[2, 0], [2, 2]], "plan": 0}
    assert ice_slide._slide(grid, ((2, 0), (2, 2)), 0, "east") == ((2, 1), (2, 2))
    assert ice_slide._slide(grid, ((0, 0), (2, 2)), 0, "east") == ((0, 2), (2, 2))
    assert ice_slide._slide(grid, ((2, 0), (2, 2)), 1, "south") == ((2, 0), (3, 2))
    route = ice_slide._search(grid, ((2, 0), (2, 2)), (0, 2))
    assert route == [(0, "north"), (0, "east")]
    data["plan"], data["budget"] = len(route), len(route) + 1
    problem = Problem(env_id="games/ice_slide", level=0, seed=0, prompt="", data=data)
    state = source.initial_state(problem)
    stuck = source.play(problem, state, "west")
    assert stuck.state == state and "nothing moves" in stuck.observation and stuck.verdict.parsed
    assert source.play(problem, state, "A south").state == {"tokens": [[2, 0], [3, 2]]}
    assert source.play(problem, state, "move a south").state == {"tokens": [[2, 0], [3, 2]]}
    assert not source.play(problem, state, "B south").verdict.parsed  # no helper B here
    total, won = play_episode(source, problem, lambda st, history: source.oracle(problem, st))
    assert won
    plan_reply = source.advance(problem, state, "<answer>east, north, east</answer>")
    assert not plan_reply.verdict.parsed and "one move per turn" in plan_reply.observation.lower()


def test_ice_slide_helpers_are_needed_from_level_two() -> None:
    source = make_source("games/ice_slide")
    for level in (2, 4):
        for seed in range(3):
            problem = source.sample(level, seed)
            data = problem.data
            tokens = tuple(tuple(t) for t in data["tokens"])
            assert ice_slide._search(data["grid"], tokens, tuple(data["target"]), movers=1,
                                     limit=data["budget"]) is None
            assert oracle_episode("games/ice_slide", level, seed)[1]
