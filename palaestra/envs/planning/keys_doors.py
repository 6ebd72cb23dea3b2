"""Keys and doors: the shortest walk through a maze whose doors open only for a key of their letter.

The maze comes from :func:`palaestra.generators.grids.random_maze` (with loops from level 1 on), S and G near
the two ends of its longest walk. Doors (``A`` ... ``D``) stand on passages between cells, some on the plain
route from S to G and the rest anywhere; keys (``a`` ... ``d``) lie on cells, one per door letter and, from
level 1 on, spare copies of random letters, so a letter may have several keys and several doors. Stepping onto
a key picks it up for good; a door can be entered only while holding a key of its letter; keys are not used
up. The answer is a string of moves ``U D L R``; the verifier replays it
(:class:`palaestra.solvers.simulate.Rules`) and accepts it if it ends on G in the minimum number of moves,
found at generation by A* over (square, letters held) with the door-blind distance to G as heuristic.

Every problem needs a key and a detour for it: G is either shut off without a key or reached sooner with one (a
door may be a shortcut rather than a wall), and the shortest walk is longer than the shortest route with every
door open (so that route, declared in :meth:`KeysDoors.heuristics`, is never right). From level 1 on a share of
the problems (``trap``: 0.7 at level 1, all of them from level 2) is redrawn until five cheap rules (declared too)
all miss the minimum: "walk to the nearest key whose letter you lack until G can be reached, then to G", "pick up
every letter, nearest key first, then walk to G", "follow the door-blind shortest route to G and, at its first
locked door, fetch the nearest key of that letter", and the first and third choosing the key with the fewest
moves to it plus door-blind moves on to G instead of the nearest. On such problems the nearer key is the wrong
copy, or a decoy whose door is not worth opening, or a shortcut door is (or is not) worth its key, so which keys
to fetch and in what order has to be planned over (square, keys held).

Version 4: v3 chained one key per door, each off an unavoidable door's route, so every key was a forced detour
in a forced order, and the nearest-key rule (and "every key, nearest first") walked a shortest route on every
problem of levels 0-4 (200 seeds each). v4 (the rules written apart, with other tie-breaks, 200 seeds per level):
the nearest-key rule 0.28 of level 1 and at most 0.04 of levels 2-4, "every key, nearest first" 0.17 and at most
0.03; planning over letters does better without being the task: "every letter in the best order, nearest copies"
0.48, 0.28, 0.16, 0.16 and "the letters of the doors on the door-blind route, in the best order" 0.49, 0.30, 0.20,
0.20 at levels 1-4. Level 0 stays the easy task (one door on a loop-free route, one key off it).

Generation speed: about 80 problems/s at level 4 on this 2-core machine. At the trap levels about 1 draw in 40
(levels 1 and 2) or 1 in 10 (levels 3 and 4) is kept, and 1 in 14 at level 0 (the rest shut G off for good, need
no key or no detour for one, or let a cheap rule walk a shortest route); each draw pays for the cheap rules'
breadth-first walks and an A* over (square, keys held) with the door-blind distance to G as heuristic, which is
where the verifier's minimum comes from. The maze stops growing at 18 x 19 cells (level 14), where a problem
takes about 0.1 s.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import networkx as nx

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.planning.common import read_moves
from palaestra.generators.grids import MOVES, cell_distances, distances, random_maze, search_tree, tree_path
from palaestra.solvers.simulate import Rules, SearchBudgetExceeded, shortest_plan

MAX_MOVES = 2_000
SEARCH_BUDGET = 60_000
KEYS, DOORS = "abcd", "ABCD"
STEPS = {"U": "U", "D": "D", "L": "L", "R": "R", "up": "U", "down": "D", "left": "L", "right": "R"}
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
STEP_OF = {delta: move for move, delta in MOVES.items()}
ATTEMPTS = 1_500  # the least-accepting trap levels (1 and 2) keep about 1 draw in 40

Square = tuple[int, int]
State = tuple[int, int, int]  # row, column, bitmask of key letters held


@register
class KeysDoors(Task):
    id = "planning/keys_doors"
    version = 4
    family = "planning"
    description = "Walk a maze from S to G in the fewest moves, fetching the keys that open its doors."
    tags = ("planning", "grid", "search")

    @dataclass(frozen=True)
    class Config:
        cell_rows: int
        cell_cols: int
        letters: int  # door letters (each has at least one door and one key)
        doors: int  # door squares in all
        route_doors: int  # of them, the most placed on the plain (door-blind) route from S to G
        spares: int  # keys beyond one per letter, of random letters
        loops: float
        trap: float  # the share of problems redrawn until the cheap rules all miss the shortest walk

    presets = (
        Config(cell_rows=4, cell_cols=4, letters=1, doors=1, route_doors=1, spares=0, loops=0.0, trap=0.0),
        Config(cell_rows=5, cell_cols=5, letters=3, doors=4, route_doors=2, spares=2, loops=0.15, trap=0.7),
        Config(cell_rows=6, cell_cols=7, letters=3, doors=6, route_doors=3, spares=4, loops=0.2, trap=1.0),
        Config(cell_rows=7, cell_cols=7, letters=4, doors=7, route_doors=3, spares=4, loops=0.2, trap=1.0),
        Config(cell_rows=8, cell_cols=8, letters=4, doors=8, route_doors=4, spares=5, loops=0.2, trap=1.0),
    )
    # Rows and columns both grow: with rows alone the route's length grew by less than its spread
    # between seeds; the caps keep the far levels' redraws and searches to about 0.1 s a problem (0.5 s at worst).
    growth = Growth(steps={"cell_rows": 1, "cell_cols": 1}, limits={"cell_rows": 18, "cell_cols": 19})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        trapped = rng.random() < config.trap

        def accept(drawn: _Drawn) -> bool:
            return not trapped or all(length != len(drawn.plan) for length in drawn.rule_lengths)

        drawn = retry(lambda: _draw(rng, config), accept, attempts=ATTEMPTS,
                      what="a maze whose shortest walk needs a key" + (" and beats the cheap rules" if trapped else ""))
        answer = "".join(drawn.plan)
        example = "RRDDLU"  # a fixed placeholder: independent of the answer
        pairs = ", ".join(f"{KEYS[i]} opens {DOORS[i]}" for i in range(config.letters))
        prompt = (
            "Here is a maze. '#' is a wall, '.' is open floor, S is the start and G is the goal. Lowercase letters "
            f"are keys and uppercase letters are doors: {pairs}.\n\n" + "\n".join(drawn.grid) + "\n\n"
            "Each move goes one square up (U), down (D), left (L) or right (R) and must stay off walls. Stepping "
            "onto a key picks it up (you keep it); a door can be entered only while you hold a key of its letter, "
            "and it stays a door (keys are not used up). A letter may appear on several keys and several doors: "
            "any one key of a letter opens every door of that letter. You need not pick up every key or pass "
            "every door.\n"
            "Find a shortest route from S to G (only a shortest route is accepted).\n"
            f"Give the route as a string of move letters, for example: {example}"
        )
        return Problem(prompt=prompt, answer=answer, data={
            "grid": drawn.grid, "start": list(drawn.start), "goal": list(drawn.goal), "length": len(drawn.plan),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        moves = read_moves(answer, STEPS, max_count=MAX_MOVES)
        if moves is None:
            return Verdict.unparsed("expected a string of moves U, D, L, R")
        run = _rules(problem).run(moves)
        if run.illegal is not None:
            return Verdict.wrong(f"move {run.illegal.index + 1} ({run.illegal.move}) {run.illegal.reason}")
        if not run.solved:
            return Verdict.wrong("the route does not end on G")
        shortest = problem.data["length"]
        return Verdict.judge(len(moves) <= shortest, f"the route takes {len(moves)} moves; {shortest} suffice")

    def difficulty(self, problem: Problem) -> float:
        """Moves in a shortest route."""
        return float(problem.data["length"])

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        return {
            "nearest missing key until G is open": lambda p: _rule_answer(p, "needed"),
            "every letter, nearest key first": lambda p: _rule_answer(p, "all"),
            "key of the first locked door on the door-blind route": lambda p: _rule_answer(p, "blocking"),
            "missing key with the least moves to it plus door-blind moves on to G": lambda p: _rule_answer(p, "detour"),
            "first locked door's key with the least detour": lambda p: _rule_answer(p, "blocking_detour"),
            "the shortest route with every door open": lambda p: _shortest_ignoring_doors(p) or "",
        }

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        words = {v: k for k, v in STEPS.items() if len(k) > 1}
        return [*super().spellings(problem), " ".join(gold), ", ".join(gold), gold.lower(),
                ", ".join(words[m] for m in gold), f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        rules = _rules(problem)
        start = rules.initial()
        free = [m for m in "UDLR" if rules.check(start, m) is None]
        blocked = [m for m in "UDLR" if rules.check(start, m) is not None]
        wrong = [gold[:-1], f"{gold} or {gold[:-1]}"]
        first = rng.choice(free)
        wrong.append(first + OPPOSITE[first] + gold)  # valid but two moves too long
        if blocked:
            wrong.append(rng.choice(blocked) + gold)
        doorless = _shortest_ignoring_doors(problem)
        if doorless:
            wrong.append(doorless)  # straight through a locked door
        for rule in RULES:
            walk = _rule_answer(problem, rule)
            if walk and len(walk) > len(gold):
                wrong.append(walk)  # a cheap rule's longer walk
        return wrong


class KeyRules(Rules[State, str]):
    """Moving through the maze: walls block, doors block unless a key of their letter is held, keys are picked up."""

    def __init__(self, grid: list[str], start: Square, goal: Square) -> None:
        self.grid, self.start, self.target = grid, start, goal

    def initial(self) -> State:
        return self.start[0], self.start[1], 0

    def moves(self, state: State) -> str:
        return "UDLR"

    def check(self, state: State, move: str) -> str | None:
        dr, dc = MOVES[move]
        row, col = state[0] + dr, state[1] + dc
        if not (0 <= row < len(self.grid) and 0 <= col < len(self.grid[row])):
            return "leaves the maze"
        square = self.grid[row][col]
        if square == "#":
            return "walks into a wall"
        if square in DOORS and not state[2] >> DOORS.index(square) & 1:
            return f"walks into door {square} without key {square.lower()}"
        return None

    def apply(self, state: State, move: str) -> State:
        dr, dc = MOVES[move]
        row, col = state[0] + dr, state[1] + dc
        square = self.grid[row][col]
        keys = state[2] | (1 << KEYS.index(square) if square in KEYS else 0)
        return row, col, keys

    def goal(self, state: State) -> bool:
        return (state[0], state[1]) == self.target

    def heuristic(self, state: State) -> int:
        return abs(state[0] - self.target[0]) + abs(state[1] - self.target[1])


class _Planner(KeyRules):
    """The rules with a stronger admissible heuristic for generation: the distance to G with every door open."""

    def __init__(self, grid: list[str], start: Square, goal: Square, to_goal: dict[Square, int]) -> None:
        super().__init__(grid, start, goal)
        self.to_goal = to_goal  # the door-blind distances to G

    def heuristic(self, state: State) -> int:
        return self.to_goal[(state[0], state[1])]


def _rules(problem: Problem) -> KeyRules:
    data = problem.data
    return KeyRules(data["grid"], (data["start"][0], data["start"][1]), (data["goal"][0], data["goal"][1]))


@dataclass(frozen=True)
class _Drawn:
    grid: list[str]
    start: Square
    goal: Square
    plan: list[str]
    rule_lengths: tuple[int, ...]  # the cheap rules' walks (0 where a rule does not reach G)


def _draw(rng: random.Random, config: KeysDoors.Config) -> _Drawn | None:
    maze = random_maze(rng, config.cell_rows, config.cell_cols, config.loops)
    rows = [list(row) for row in maze.draw()]
    # S and G near the two ends of the maze's longest walk (loops included: S is the cell farthest from the
    # carving's root, G among the three farthest from S), so routes grow with the maze, not with where its root fell
    # Distances between cells' squares in the drawing are twice those in the maze's cell graph (every open square
    # is a cell or the passage between two), so the cell graph's breadth-first search ranks the cells the same way.
    cells = range(config.cell_rows * config.cell_cols)
    links = maze.links()
    from_root = cell_distances(links, maze.root)[0]
    first = max(cells, key=from_root.__getitem__)
    start = maze.square(first)
    walk = cell_distances(links, first)[0]
    far = sorted(cells, key=walk.__getitem__)
    goal = maze.square(far[-1 - rng.randrange(3)])
    # the open squares' neighbours, once per maze: placing doors, keys, S and G below never adds or removes a wall
    neighbours = _adjacency(rows)
    route = _route(neighbours, start, goal, set())
    if route is None or len(route) < 4 * config.route_doors + 4:
        return None
    # doors on squares between cells (odd/even coordinates): some on the plain route, the rest anywhere
    on_route = [square for square in route[2:-2] if (square[0] + square[1]) % 2 == 1]
    door_squares = rng.sample(on_route, min(config.route_doors, len(on_route)))
    taken = set(door_squares)
    passages = [square for square in neighbours if (square[0] + square[1]) % 2 == 1 and square not in taken]
    door_squares += rng.sample(passages, config.doors - len(door_squares))
    door_letters = _letters(rng, config.letters, len(door_squares))
    spots = [maze.square(cell) for cell in cells if cell != first and maze.square(cell) != goal]
    key_squares = rng.sample(spots, config.letters + config.spares)
    key_letters = _letters(rng, config.letters, len(key_squares))
    doors = dict(zip(door_squares, door_letters, strict=True))
    keys = dict(zip(key_squares, key_letters, strict=True))
    for (r, c), letter in doors.items():
        rows[r][c] = DOORS[letter]
    for (r, c), letter in keys.items():
        rows[r][c] = KEYS[letter]
    rows[start[0]][start[1]], rows[goal[0]][goal[1]] = "S", "G"
    grid = ["".join(row) for row in rows]
    to_goal = distances(grid, goal)  # doors are letters, not walls: the door-blind distances
    if _rule_walk(neighbours, doors, keys, start, goal, "all", to_goal) is None:
        return None  # every reachable letter picked up and G still shut off: no walk reaches it
    try:
        plan = shortest_plan(_Planner(grid, start, goal, to_goal), max_nodes=SEARCH_BUDGET)
    except SearchBudgetExceeded:
        return None
    if not plan:
        return None
    if len(plan) <= to_goal[start]:
        return None  # the keys cost no detour: walking through the doors as if open would be shortest
    keyless = _route(neighbours, start, goal, set(doors))
    if keyless is not None and len(keyless) - 1 <= len(plan):
        return None  # no key needed
    walks = [_rule_walk(neighbours, doors, keys, start, goal, rule, to_goal) for rule in RULES]
    lengths = tuple(len(walk) - 1 if walk is not None else 0 for walk in walks)
    return _Drawn(grid, start, goal, plan, lengths)


def _letters(rng: random.Random, letters: int, count: int) -> list[int]:
    """``count`` letter numbers, each of the ``letters`` at least once, the rest at random, shuffled."""
    drawn = list(range(letters)) + [rng.randrange(letters) for _ in range(count - letters)]
    rng.shuffle(drawn)
    return drawn


# --- the cheap rules (declared heuristics; the trap levels are redrawn until all of them miss the minimum) ---

RULES = ("needed", "all", "blocking", "detour", "blocking_detour")


def _rule_walk(neighbours: dict[Square, list[Square]], doors: dict[Square, int], keys: dict[Square, int],
               start: Square, goal: Square, rule: str, to_goal: dict[Square, int]) -> list[Square] | None:
    """The squares a cheap rule walks from ``start`` (keys picked up on the way count), or None if it never reaches G.

    ``needed``: walk to G once it can be reached, else to the nearest key of a letter not held. ``all``: walk to
    the nearest key of a letter not held while one can be reached, then to G. ``blocking``: take the shortest
    route to G that ignores doors; at its first door whose letter is not held, walk to the nearest key of that
    letter instead (to G when none can be reached). ``detour`` and ``blocking_detour``: ``needed`` and
    ``blocking`` choosing the key with the fewest moves to it plus its door-blind distance ``to_goal`` instead
    of the nearest. Nearest is breadth-first order over the squares reachable with the letters held.
    """
    held = 0
    at = start
    squares = [start]
    for _ in range(len(keys) + 2):  # every leg but the last picks up a letter not held before
        parent, depth = search_tree(neighbours, at, {square for square, letter in doors.items() if not held >> letter & 1})
        missing = [square for square in parent if square in keys and not held >> keys[square] & 1]
        if rule in ("blocking", "blocking_detour"):
            blind = _route(neighbours, at, goal, set()) or []
            locked = next((doors[s] for s in blind if s in doors and not held >> doors[s] & 1), None)
            missing = [] if locked is None else [square for square in missing if keys[square] == locked]
        elif rule != "all" and goal in parent:
            missing = []
        if not missing:
            target = goal
        elif rule in ("detour", "blocking_detour"):
            target = min(missing, key=lambda square: depth[square] + to_goal[square])  # the first of the best
        else:
            target = missing[0]
        if target not in parent:
            return None
        leg = tree_path(parent, target)
        for square in leg:
            if square in keys:
                held |= 1 << keys[square]
        squares += leg[1:]
        at = target
        if at == goal:
            return squares
    return None


def _rule_answer(problem: Problem, rule: str) -> str:
    """A cheap rule's walk on a problem, as move letters ("" when it never reaches G)."""
    grid = problem.data["grid"]
    doors = {(r, c): DOORS.index(ch) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch in DOORS}
    keys = {(r, c): KEYS.index(ch) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch in KEYS}
    start, goal = tuple(problem.data["start"]), tuple(problem.data["goal"])
    to_goal = distances(grid, (goal[0], goal[1]))  # doors are letters, not walls: the door-blind distances
    walk = _rule_walk(_adjacency(grid), doors, keys, (start[0], start[1]), (goal[0], goal[1]), rule, to_goal)
    return _moves(walk) if walk else ""


def _moves(squares: list[Square]) -> str:
    return "".join(STEP_OF[(b[0] - a[0], b[1] - a[1])] for a, b in zip(squares, squares[1:]))


def _cut_squares(neighbours: dict[Square, list[Square]]) -> set[Square]:
    """Open squares whose removal splits the open squares apart (articulation points)."""
    return set(nx.articulation_points(nx.Graph(neighbours)))  # the graph straight from the adjacency lists


def _adjacency(grid: list) -> dict[Square, list[Square]]:
    """Per open square (in reading order), the open squares one move away, in the order of MOVES."""
    steps = tuple(MOVES.values())
    return {(r, c): [(r + dr, c + dc) for dr, dc in steps if grid[r + dr][c + dc] != "#"]
            for r, row in enumerate(grid) for c, square in enumerate(row) if square != "#"}


def _route(neighbours: dict[Square, list[Square]], start: Square, goal: Square,
           closed: set[Square]) -> list[Square] | None:
    """A shortest list of squares from ``start`` to ``goal`` avoiding ``closed``, or None."""
    parent = search_tree(neighbours, start, closed)[0]
    return tree_path(parent, goal) if goal in parent else None


def _shortest_ignoring_doors(problem: Problem) -> str | None:
    grid = [row.translate(str.maketrans(DOORS, "." * len(DOORS))) for row in problem.data["grid"]]
    route = _route(_adjacency(grid), tuple(problem.data["start"]), tuple(problem.data["goal"]), set())
    return _moves(route) if route is not None else None
