"""Red-team regressions (round 3, session 39): a second look at multi-turn and planning envs.

- ``interactive/shopping`` v2: searching the requirement words and buying the first result unviewed won 0.62, 0.30
  and 0.28 of levels 0-2 (the cheapest result of that page 0.33, 0.45, 0.35; 40 games per level), as a problem whose
  requirements were all search words had the search rank the target first. Every problem now asks a minimum rating
  (not shown on the results page) and a search word, four near misses fail only the rating, and the target is the only
  product meeting every requirement: the first result 0.20, 0.07, 0.07, the cheapest 0.23, 0.10, 0.07.

- ``planning/sliding_puzzle`` v3: the greedy slider (slide the tile, never the one just slid, that leaves the least
  Manhattan distance; ties at random) solved 0.48, 0.16, 0.03, 0.07 of levels 0-3 in a shortest solution (the same
  greedy on Manhattan distance plus linear conflicts 0.54, 0.21, 0.07, 0.16; exact over the ties, 40 seeds a level;
  one random run 0.35 and 0.20 at levels 0-1). The shortest-solution levels now redraw a puzzle either greedy solves
  shortest with chance over 1/4: 0.10, 0.06, 0.02, 0.03 (with conflicts 0.11, 0.08, 0.04, 0.07).
- ``games/battleship`` v2: level 0's opponent shot at random, so a race against it was a coin toss for any shooter
  that does not repeat itself: uniformly random shots won 0.53 of level 0's games, firing in reading order 0.67 (30
  games). Level 0's opponent now hunts and targets on a 7x7 grid: 0.03-0.05 and 0.07-0.13; the honest player 0.75.
- ``planning/miconic`` v4: the nearest-floor greedy (serve everyone at the elevator's floor, then go to the nearest
  floor where someone can board or leave; ties at random) found a shortest plan for 0.20, 0.20, 0.18 of levels 2-4
  (40 seeds a level); only the "most passengers" greedy was filtered. Both are now: 0.03, 0.00, 0.00.

The blind shopper is written from the prompt, not from the env's honest player; the greedy slider from the puzzle's
rules and the elevator from the PDDL facts, not from the env.
"""

from __future__ import annotations

import random
import re

from envs_support import solves

from palaestra.core.registry import make_source


def _blind_shopper(problem, pick) -> list[str]:  # type: ignore[no-untyped-def]
    """Search every requirement word of the prompt, then view and buy the result ``pick`` chooses, never checking it."""
    shop = make_source("interactive/shopping")
    words = re.findall(r"^- (?:category|colour|material|size): (.+)$|^- has the feature: (.+)$", problem.prompt, re.M)
    query = "search " + " ".join(a or b for a, b in words)
    state = shop.initial_state(problem)
    results = shop.play(problem, state, query).observation
    listed = re.findall(r"^(P\d+): .*\$(\d+\.\d\d)$", results, re.M)
    if not listed:
        return [query]
    chosen = pick(listed)
    return [query, f"view {chosen}", f"buy {chosen}"]


def _share(level: int, seeds: int, pick) -> float:  # type: ignore[no-untyped-def]
    shop = make_source("interactive/shopping")
    wins = 0
    for seed in range(seeds):
        problem = shop.sample(level, seed)
        wins += solves(shop, problem, _blind_shopper(problem, pick))
    return wins / seeds


def test_shopping_buying_the_first_or_cheapest_result_unviewed_rarely_wins() -> None:
    # Version 1: the first result won 0.62 of level 0 and 0.30, 0.28 of levels 1-2; the cheapest 0.33, 0.45, 0.35.
    first = [_share(level, 30, lambda listed: listed[0][0]) for level in range(3)]
    cheapest = [_share(level, 30, lambda listed: min(listed, key=lambda row: float(row[1]))[0]) for level in range(3)]
    assert first[0] <= 0.3 and cheapest[0] <= 0.3, (first, cheapest)
    assert max(first[1:] + cheapest[1:]) <= 0.2, (first, cheapest)


def test_shopping_oracle_and_honest_shopper_still_buy_right() -> None:
    shop = make_source("interactive/shopping")
    for level in range(5):
        for seed in range(6):
            problem = shop.sample(level, seed)
            assert solves(shop, problem, [f"view {problem.answer}", f"buy {problem.answer}"])
            assert shop.honest_turns(problem, shop.max_turns(problem)) is not None, (level, seed)
            wants = problem.data["wants"]
            assert "rating" in wants
            right = [pid for pid, p in problem.data["catalogue"].items()
                     if p["category"] == wants["category"] and all(
                         p["price"] <= v if k == "price" else p["rating"] >= v if k == "rating" else
                         v in p["features"] if k == "feature" else p[k] == v
                         for k, v in wants.items() if k != "category")]
            assert right == [problem.answer], (level, seed)


def _greedy_slides(problem, rng: random.Random) -> list[int]:  # type: ignore[no-untyped-def]
    """Slide the tile (never the one just slid) that leaves the least Manhattan distance, ties at random, until the
    goal or as many moves as the shortest solution has."""
    n, board, goal = problem.data["side"], list(problem.data["start"]), problem.data["goal"]
    home = {tile: divmod(i, n) for i, tile in enumerate(goal)}
    slides: list[int] = []
    while board != goal and len(slides) < problem.data["optimal"]:
        gap = board.index(0)
        r, c = divmod(gap, n)
        options = []
        for cell in (gap - n if r else -1, gap + n if r < n - 1 else -1, gap - 1 if c else -1, gap + 1 if c < n - 1 else -1):
            if cell < 0 or (slides and board[cell] == slides[-1]):
                continue
            after = board[:]
            after[gap], after[cell] = after[cell], 0
            distance = sum(abs(i // n - home[t][0]) + abs(i % n - home[t][1]) for i, t in enumerate(after) if t)
            options.append((distance, rng.random(), cell))
        _, _, cell = min(options)
        slides.append(board[cell])
        board[gap], board[cell] = board[cell], 0
    return slides


def test_sliding_puzzle_greedy_slider_is_rarely_shortest() -> None:
    # Version 2: 0.48 of level 0's puzzles (0.16 of level 1's) on the greedy's tie-breaks; version 3 about 0.1.
    puzzle = make_source("planning/sliding_puzzle")
    for level in range(4):
        wins = runs = 0
        for seed in range(20):
            problem = puzzle.sample(level, seed)
            for run in range(3):
                slides = _greedy_slides(problem, random.Random(run))
                wins += bool(slides) and puzzle.verify(problem, ", ".join(map(str, slides))).correct
                runs += 1
        assert wins / runs <= 0.2, (level, wins / runs)


def test_sliding_puzzle_references_are_shortest_and_accepted() -> None:
    puzzle = make_source("planning/sliding_puzzle")
    for level in range(5):
        for seed in range(8):
            problem = puzzle.sample(level, seed)
            assert puzzle.verify(problem, problem.answer or "").correct, (level, seed)


def test_battleship_random_and_reading_order_shots_rarely_win_level_0() -> None:
    # Version 1: random shots won 0.53 of level 0's games and reading order 0.67 against a random shooter.
    game = make_source("games/battleship")
    random_wins = sweep_wins = 0
    for seed in range(30):
        problem = game.sample(0, seed)
        cells = [f"{chr(97 + i % problem.data['size'])}{i // problem.data['size'] + 1}"
                 for i in range(problem.data["size"] ** 2)]
        shuffled = random.Random(seed).sample(cells, len(cells))
        random_wins += solves(game, problem, shuffled)
        sweep_wins += solves(game, problem, cells)
    assert random_wins / 30 <= 0.15 and sweep_wins / 30 <= 0.25, (random_wins, sweep_wins)


def test_battleship_honest_player_and_oracle_still_win_level_0() -> None:
    game = make_source("games/battleship")
    honest = 0
    for seed in range(30):
        problem = game.sample(0, seed)
        honest += game.honest_turns(problem, game.max_turns(problem)) is not None
        state, moves = game.initial_state(problem), []
        for _ in range(game.max_turns(problem)):
            move = game.oracle(problem, state)
            moves.append(move)
            outcome = game.play(problem, state, move)
            if outcome.done:
                break
            state = outcome.state
        assert solves(game, problem, moves), seed
    assert honest / 30 >= 0.6, honest


def _nearest_floor_plan(problem, rng: random.Random) -> str:  # type: ignore[no-untyped-def]
    """Serve everyone who can board or leave here, then go to the nearest floor where someone can (ties at random)."""
    facts = problem.data["init"]
    lift = next(f for name, *args in facts if name == "lift-at" for f in args)
    origin = {p: f for name, p, *rest in facts if name == "origin" for f in rest}
    destination = {p: f for name, p, *rest in facts if name == "destin" for f in rest}
    waiting, aboard, plan = set(origin), set(), []
    while waiting or aboard:
        for person in sorted(p for p in waiting if origin[p] == lift):
            plan.append(f"(board {lift} {person})")
            waiting.discard(person)
            aboard.add(person)
        for person in sorted(p for p in aboard if destination[p] == lift):
            plan.append(f"(depart {lift} {person})")
            aboard.discard(person)
        stops = {origin[p] for p in waiting} | {destination[p] for p in aboard}
        if not stops:
            break
        closest = min(abs(int(f[1:]) - int(lift[1:])) for f in stops)
        floor = rng.choice(sorted(f for f in stops if abs(int(f[1:]) - int(lift[1:])) == closest))
        plan.append(f"({'up' if int(floor[1:]) > int(lift[1:]) else 'down'} {lift} {floor})")
        lift = floor
    return "\n".join(plan)


def test_miconic_nearest_floor_greedy_is_rarely_shortest() -> None:
    # Version 3: 0.20, 0.20, 0.18 of levels 2-4 (40 seeds); version 4 at most 0.03.
    elevator = make_source("planning/miconic")
    for level in (2, 3, 4):
        wins = sum(elevator.verify(problem, _nearest_floor_plan(problem, random.Random(seed))).correct
                   for seed in range(25) for problem in [elevator.sample(level, seed)])
        assert wins / 25 <= 0.08, (level, wins)


def test_miconic_references_are_accepted() -> None:
    elevator = make_source("planning/miconic")
    for level in range(5):
        for seed in range(5):
            problem = elevator.sample(level, seed)
            assert elevator.verify(problem, problem.answer or "").correct, (level, seed)
