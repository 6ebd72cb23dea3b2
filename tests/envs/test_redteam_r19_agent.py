"""Red-team regressions, round 3 session 19 (agentic families: interactive, planning, operations, service, web,
terminal, repo, tools).

Each test measures a shortcut that paid without doing the task before its fix, or a right answer that was refused.
"""

from __future__ import annotations

import itertools

import numpy as np

import palaestra
from palaestra.core.registry import make_source


def _problems(env_id: str, level: int, count: int, base: int = 9_000) -> list[palaestra.Problem]:
    source = make_source(env_id)
    return [source.sample(level, base + seed) for seed in range(count)]


def _blind_favourite(data: dict) -> int:
    """The rental that is the favourite of the most users the generator may draw for a table (weights 0-3 not all 0,
    must-haves, a clear favourite that is not best on everything it weighs): the recommendation a player makes at
    turn one, without a question."""
    numeric, features, rentals = data["numeric"], data["features"], data["rentals"]
    lower = {"price", "distance"}
    positions = []
    for row in rentals:
        line = []
        for attribute in numeric:
            values = [r[attribute] for r in rentals]
            low, high = min(values), max(values)
            share = 1.0 if high == low else (row[attribute] - low) / (high - low)
            line.append(1 - share if attribute in lower and high != low else share)
        positions.append(line)
    points = np.array(positions)
    has = np.array([[row[f] for f in features] for row in rentals], dtype=bool).reshape(len(rentals), -1)
    votes = np.zeros(len(rentals))
    for weights in itertools.product(range(4), repeat=len(numeric)):
        if not any(weights):
            continue
        scores = points @ np.array(weights, dtype=float)
        for needs in itertools.product((False, True), repeat=len(features)):
            ok = ~(~has & np.array(needs, dtype=bool)[None, :]).any(axis=1) if features else np.ones(len(rentals), bool)
            ranked = sorted(((scores[i], i) for i in range(len(rentals)) if ok[i]), reverse=True)
            if len(ranked) < 2 or ranked[0][0] - ranked[1][0] < 0.15:  # the generator wants a clear favourite
                continue
            best = ranked[0][1]
            if all(points[best][k] == 1.0 for k in range(len(numeric)) if weights[k]):  # and not a giveaway
                continue
            votes[best] += 1
    return int(np.argmax(votes))


def test_preference_elicitation_blind_recommendation_is_near_chance() -> None:
    # Version 2's tables let one rental be the favourite of most users: recommending it at turn one (no question)
    # won 0.82 of level 0 (chance 0.25) and 0.50 of level 4 (chance 0.08).
    for level, bound in ((0, 0.42), (4, 0.22)):
        problems = _problems("interactive/preference_elicitation", level, 50)
        hits = sum(_blind_favourite(p.data) == p.data["favourite"] for p in problems)
        assert hits / len(problems) <= bound, (level, hits)


def _negotiate(problem: palaestra.Problem, multiple: float) -> float:
    """Wait (ask three times the cost) until the last round, then ask ``multiple`` times the cost: the bids unread."""
    source = make_source("interactive/negotiation")
    state, total = source.initial_state(problem), 0.0
    for _ in range(problem.data["rounds"]):
        last = state["round"] >= problem.data["rounds"] - 1
        price = round((multiple if last else 3) * problem.data["cost"])
        outcome = source.play(problem, state, f"offer {price}")
        total += outcome.verdict.reward
        state = outcome.state
        if outcome.done:
            break
    return total


def test_negotiation_a_blind_last_offer_pays_little() -> None:
    # Version 2 drew the limit from 1.3-2.2 times the cost: asking 1.4-1.5 times the cost in the last round, every
    # bid ignored, scored 0.45-0.48 at every level (random play 0, the honest player 0.59 at level 4).
    for level in (0, 4):
        problems = _problems("interactive/negotiation", level, 80)
        best = max(sum(_negotiate(p, m) for p in problems) / len(problems) for m in (1.3, 1.4, 1.5, 1.6, 1.7))
        assert best <= 0.40, (level, best)


def test_interactive_commands_read_after_a_naming_phrase() -> None:
    # "I recommend C", "My recommendation is C", "I'll buy P1234" were refused as unreadable commands (a turn lost).
    source = make_source("interactive/preference_elicitation")
    problem = source.sample(2, 1)
    favourite = problem.answer or ""
    other = next(label for label in problem.data["labels"] if label != favourite)
    start = source.initial_state(problem)
    for right in (
        f"I recommend {favourite}",
        f"My recommendation is {favourite}.",
        f"Recommendation: {favourite}",
        f"Final recommendation: {favourite}",
        f"I would recommend rental {favourite}.",
    ):
        assert source.play(problem, start, right).verdict.reward == 1.0, right
    for wrong in (
        f"I recommend {favourite} or {other}",
        f"I do not recommend {favourite}",
        f"My recommendation is not {favourite}",
        f"I recommend {other}",
    ):
        assert source.play(problem, start, wrong).verdict.reward == 0.0, wrong
    shop = make_source("interactive/shopping")
    problem = shop.sample(2, 1)
    target = problem.answer or ""
    viewed = {"viewed": [target], "query": "", "shown": 0}
    for right in (f"I will buy {target}", f"I'll buy {target}", f"I'd like to buy {target}."):
        assert shop.play(problem, viewed, right).verdict.reward == 1.0, right
    for wrong in (f"I will not buy {target}", f"I don't buy {target}", f"I will buy {target} or P1000"):
        assert not shop.play(problem, viewed, wrong).verdict.correct, wrong


def _courier(data: dict) -> int:
    """The length of the textbook courier's plan for a gripper problem: drop the carried balls wanted here, pick up
    misplaced balls while a gripper is free, then go to the room with the most drops and pick-ups (first in order)."""
    rooms = [o for o, kind in data["objects"] if kind == "room"]
    grippers = sum(1 for _, kind in data["objects"] if kind == "gripper")
    where = {atom[1]: atom[2] for atom in data["init"] if atom[0] == "at"}
    robot = next(atom[1] for atom in data["init"] if atom[0] == "at-robby")
    goal = {**where, **{atom[1]: atom[2] for atom in data["goal"]}}
    carried: set[str] = set()
    steps = 0
    for _ in range(200):
        for ball in sorted(b for b in carried if goal[b] == robot):
            carried.discard(ball)
            where[ball] = robot
            steps += 1
        for ball in sorted(b for b, r in where.items() if r == robot and goal[b] != robot and b not in carried):
            if len(carried) < grippers:
                carried.add(ball)
                where[ball] = ""
                steps += 1
        if not carried and all(goal[b] == r for b, r in where.items()):
            return steps
        free = grippers - len(carried)

        def work(room: str, free: int = free) -> int:
            drops = sum(goal[b] == room for b in carried)
            return drops + min(sum(r == room and goal[b] != room for b, r in where.items()), free + drops)

        robot = max((r for r in rooms if r != robot), key=work)
        steps += 1
    return -1


def test_gripper_textbook_courier_is_rarely_shortest() -> None:
    # Version 2 asked for shortest plans from level 2, and the courier found one for 55% (level 2) and 33% (level 4).
    for level in (2, 4):
        problems = _problems("planning/gripper", level, 40)
        shortest = sum(_courier(p.data) == p.data["optimal"] for p in problems)
        assert shortest / len(problems) <= 0.15, (level, shortest)


def test_operations_label_lists_read_after_a_naming_phrase() -> None:
    # "Sets: S1, S4", "Open W2, W5.", "The optimal order is J2, J1, J3." were unparsed in the list-answer envs.
    for env_id, phrases in (
        ("operations/set_cover", ("Sets {}.", "Chosen sets: {}", "The optimal cover is {{{}}}.")),
        ("operations/facility_location", ("Open {}.", "Warehouses: {}", "Warehouses to open: {}")),
        ("operations/flow_shop", ("Order: {}", "The optimal order is {}.", "Job order: {}")),
    ):
        source = make_source(env_id)
        problem = source.sample(2, 1)
        answer = problem.answer or ""
        labels = answer.split(", ")
        for phrase in phrases:
            assert source.verify(problem, phrase.format(answer)).correct, (env_id, phrase)
        other = next(f"{labels[0][0]}{n}" for n in range(1, 30) if f"{labels[0][0]}{n}" not in labels)
        for wrong in (
            f"{phrases[0].format(answer)} Or {other}",
            phrases[1].format(f"{answer} or {other}"),
            phrases[1].format(f"not {answer}"),
        ):
            assert not source.verify(problem, wrong).correct, (env_id, wrong)


def test_plans_read_after_a_naming_phrase() -> None:
    # "Route: LLDD", "The shortest path is LLDD.", "Moves: ...", "Steps: ...", "Crossings: ...", "Tiles: ..." were
    # unparsed, and planning/maze refused "left, left, down" (keys_doors and sokoban read move words).
    for env_id, level in (
        ("planning/maze", 1),
        ("planning/keys_doors", 1),
        ("planning/sokoban", 1),
        ("planning/water_jugs", 1),
        ("planning/river_crossing", 1),
        ("planning/sliding_puzzle", 1),
    ):
        source = make_source(env_id)
        problem = source.sample(level, 1)
        answer = problem.answer or ""
        for label in ("Route: ", "The shortest path is ", "Moves: ", "Steps: ", "Crossings: ", "Tiles: ", "Plan: "):
            assert source.verify(problem, f"{label}{answer}").correct, (env_id, label)
        for wrong in (f"Route: {answer} or {answer}", f"The plan is not {answer}"):
            assert not source.verify(problem, wrong).correct, (env_id, wrong)
    maze = make_source("planning/maze")
    problem = maze.sample(1, 1)
    words = {"U": "up", "D": "down", "L": "left", "R": "right"}
    assert maze.verify(problem, ", ".join(words[c] for c in problem.answer or "")).correct
